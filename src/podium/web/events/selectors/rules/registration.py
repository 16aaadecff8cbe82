"""The rules page on entering: the categories and who makes up an entry, the registration
window and who may enter, fees and cancellations, check-in and no-shows
(``podium.rules.schema.registration``).

Vocabulary:
- rule line, section: see ``podium.web.events.selectors.rules.lines``.
"""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.rules.schema import Rulebook
from podium.rules.schema.registration import BornOnOrBefore, Category, Eligibility, MinAge
from podium.web.events.selectors.rules.lines import (
    RuleLine,
    RuleSection,
    date_text,
    days_text,
    minutes_text,
    percent_text,
    rule_line,
)
from podium.web.kernel.texts import money, rt


def entrants_line(category: Category, cap: int | None) -> RuleLine:
    e = category.entrants
    if e.kind == "individual":
        text = (
            ngettext(
                "%(title)s: individuals, at most %(cap)d entrant.",
                "%(title)s: individuals, at most %(cap)d entrants.",
                cap,
            )
            if cap
            else _("%(title)s: individuals, no limit on their number.")
        )
    elif e.kind == "pair":
        text = (
            ngettext(
                "%(title)s: pairs of two, at most %(cap)d pair.",
                "%(title)s: pairs of two, at most %(cap)d pairs.",
                cap,
            )
            if cap
            else _("%(title)s: pairs of two, no limit on their number.")
        )
    else:
        text = (
            ngettext(
                "%(title)s: teams of %(min)d to %(max)d players, at most %(cap)d team.",
                "%(title)s: teams of %(min)d to %(max)d players, at most %(cap)d teams.",
                cap,
            )
            if cap
            else _("%(title)s: teams of %(min)d to %(max)d players, no limit on their number.")
        )
    line = RuleLine(
        text % {"title": rt(category.title), "cap": cap or 0, "min": e.min_size, "max": e.max_size},
        category.clause,
        category.interpretation,
    )
    details = []
    if e.roster_max:
        details.append(_("A roster lists at most %(n)d players.") % {"n": e.roster_max})
    if e.at_table_max:
        details.append(
            _("At most %(n)d players play at the table at once.") % {"n": e.at_table_max}
        )
    if e.players_added_any_time:
        details.append(_("Players may be added to a roster at any time."))
    if not e.players_removed:
        details.append(_("A player, once on a roster, is never removed from it."))
    if e.one_team_per_person:
        details.append(_("A player plays for one team only in the whole championship."))
    if e.substitutions == "between-tours":
        details.append(_("Substitutions are allowed only between tours."))
    elif e.substitutions == "none" and "substitutions" in e.model_fields_set:
        details.append(_("No substitutions are allowed."))
    if details:
        line.children.append(RuleLine(" ".join(details), e.clause, e.interpretation))
    elif e.clause and e.clause != category.clause:
        line.children.append(RuleLine(_("Who makes up one entry."), e.clause, e.interpretation))
    return line


def _eligibility(rule: Eligibility, event_day: dt.date | None) -> RuleLine:
    if isinstance(rule, MinAge):
        if rule.on == "event-day":
            text = _("Entrants must be at least %(age)d years old on the day of the event.")
        else:
            text = _("Entrants must be at least %(age)d years old on %(date)s.")
        return rule_line(text % {"age": rule.age, "date": _date_or(rule.on)}, rule)
    if isinstance(rule, BornOnOrBefore):
        return rule_line(
            _("Entrants must be born on or before %(date)s.") % {"date": date_text(rule.date)}, rule
        )
    text = _("Entrants younger than %(age)d may take part only with an accompanying adult.")
    return rule_line(text % {"age": rule.age}, rule)


def _date_or(value: object) -> str:
    return date_text(value) if isinstance(value, dt.date) else str(value)


def _channel(key: str) -> str:
    labels = {
        "online": _("online"),
        "phone": _("by phone"),
        "secretary": _("through the secretary"),
        "oral": _("orally"),
        "written": _("in writing"),
    }
    return labels.get(key, key)


def registration_section(rulebook: Rulebook) -> RuleSection:
    reg = rulebook.registration
    section = RuleSection("registration", _("Registration"), clause=reg.clause)
    section.interpretation = reg.interpretation
    if reg.opens and reg.closes:
        text = _("Registration opens on %(opens)s and closes on %(closes)s.")
    elif reg.closes:
        text = _("Registration closes on %(closes)s.")
    elif reg.opens:
        text = _("Registration opens on %(opens)s.")
    else:
        text = _("Registration has no fixed window: the organizers accept entries.")
    values = {
        "opens": date_text(reg.opens) if reg.opens else "",
        "closes": date_text(reg.closes) if reg.closes else "",
    }
    section.lines.append(RuleLine(text % values))
    if reg.late_entries == "while-room":
        section.lines.append(RuleLine(_("Late entries are accepted while there is room.")))
    if reg.cap:
        section.lines.append(
            RuleLine(_("At most %(cap)d entries in all.") % {"cap": reg.cap}, reg.clause)
        )
    if reg.approval_required:
        text = _("An entry is final only after the organizers approve it.")
        if reg.approval_assigns_table:
            text += " " + _("The approval assigns the entry its numbered table.")
        section.lines.append(RuleLine(text))
    if reg.waiting_list and (reg.cap or any(c.cap for c in rulebook.categories)):
        section.lines.append(
            RuleLine(
                _(
                    "When a category is full, a new entry joins the waiting list; the first "
                    "waiting entry takes the next place that frees."
                )
            )
        )
    if reg.channels:
        channels = ", ".join(_channel(c) for c in reg.channels)
        section.lines.append(RuleLine(_("Entries are taken: %(how)s.") % {"how": channels}))
    for rule in reg.eligibility:
        section.lines.append(_eligibility(rule, rulebook.event_date))
    return section


def fees_section(rulebook: Rulebook) -> RuleSection | None:
    if not rulebook.fees and rulebook.cancellation is None:
        return None
    section = RuleSection("fees", _("Fees and cancellations"))
    payments = {
        "cash-at-check-in": _("Paid in cash at check-in."),
        "before-tour": _("Paid before the tour."),
        "online": _("Paid online."),
        "any": "",
    }
    for fee in rulebook.fees:
        if fee.per == "player":
            text = _("%(title)s: %(price)s per player, due %(due)s.")
        else:
            text = _("%(title)s: %(price)s per entry, due %(due)s.")
        text %= {
            "title": rt(fee.title),
            "price": money(fee.price.amount, fee.price.currency),
            "due": rt(fee.due),
        }
        extra = [payments[fee.payment]]
        if fee.unpaid == "not-admitted":
            extra.append(_("An entry that has not paid is not admitted."))
        section.lines.append(rule_line(" ".join([text, *[e for e in extra if e]]), fee))
    c = rulebook.cancellation
    if c is not None:
        if c.reference == "squad":
            intro = _("A cancellation is counted in days before the entry's squad starts.")
        else:
            intro = _("A cancellation is counted in days before the event starts.")
        line = RuleLine(intro, c.clause, c.interpretation)
        for tier in c.tiers:
            if tier.days_before:
                when = _("Cancelled at least %(days)s before:") % {
                    "days": days_text(tier.days_before)
                }
            else:
                when = _("Cancelled later:")
            parts = [when]
            if tier.refund:
                parts.append(
                    _("%(share)s of the fee refunded.") % {"share": percent_text(tier.refund)}
                )
            if tier.owed:
                parts.append(_("%(share)s of the fee owed.") % {"share": percent_text(tier.owed)})
            if not tier.refund and not tier.owed:
                parts.append(_("no refund, nothing owed."))
            line.children.append(rule_line(" ".join(parts), tier))
        section.lines.append(line)
    return section


def desk_section(rulebook: Rulebook) -> RuleSection | None:
    if rulebook.check_in is None and rulebook.no_show is None:
        return None
    section = RuleSection("desk", _("Check-in and no-shows"))
    ci = rulebook.check_in
    if ci is not None:
        parts = []
        if ci.opens_before_min is not None:
            parts.append(
                _("Check-in opens %(time)s before the start.")
                % {"time": minutes_text(ci.opens_before_min)}
            )
        if ci.closes_before_min is not None:
            parts.append(
                _("Check-in closes %(time)s before the start.")
                % {"time": minutes_text(ci.closes_before_min)}
            )
        section.lines.append(rule_line(" ".join(parts), ci))
    ns = rulebook.no_show
    if ns is not None:
        text = _(
            "If an entrant has not come %(time)s after the start, the seat may be given to "
            "someone else."
        ) % {"time": minutes_text(ns.after_start_min)}
        if ns.seat_to == "waiting-list":
            text += " " + _("The seat goes to the waiting list, in order.")
        else:
            text += " " + _("The organizers decide who takes it (the waiting list first).")
        if not ns.refund:
            text += " " + _("There is no refund for a no-show.")
        section.lines.append(rule_line(text, ns))
    return section
