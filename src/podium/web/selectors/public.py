"""Reading what anyone may see of an event: places left, entry lists, and the rules in words.

Vocabulary:
- places left: a category's cap (or the squads' capacity) minus its active entries.
- table of entries: the confirmed entries of one category in one group, division or squad.
- outside mark: why an entry is shown outside the official order (a foreign entrant in a
  rulebook with a home country, a team playing outside the scored competition).
- rule: one sentence of the rules page, with the clause it comes from and, where the rulebook
  says so, our interpretation.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Prefetch, Q
from django.urls import NoReverseMatch, reverse
from django.utils import formats
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from podium.engine.classification import is_domestic
from podium.rules import schema as s
from podium.web.models import Entry, EntryMember, Event

# The English texts of the four preset rulebooks (titles, labels, short phrases), so that their
# public pages can show them in the visitor's language; a custom rulebook's texts show as written.
PRESET_TEXTS = (
    gettext_noop("Individuals"),
    gettext_noop("Pairs"),
    gettext_noop("Teams"),
    gettext_noop("Individuals — qualification"),
    gettext_noop("Czech entrants"),
    gettext_noop("foreign entrants"),
    gettext_noop("Individuals — final"),
    gettext_noop("Pairs — qualification"),
    gettext_noop("Czech pairs"),
    gettext_noop("foreign pairs"),
    gettext_noop("Pairs — final"),
    gettext_noop("Puzzle Party"),
    gettext_noop("Judges' decisions"),
    gettext_noop("the judges"),
    gettext_noop("invading another competitor's space or interfering with others"),
    gettext_noop("disqualification from the tournament, at the organizers' discretion"),
    gettext_noop("inappropriate behaviour"),
    gettext_noop("registration refused or revoked by the organizers"),
    gettext_noop("Players"),
    gettext_noop("Qualification"),
    gettext_noop("Master — men"),
    gettext_noop("Standard — men"),
    gettext_noop("Amateur — men"),
    gettext_noop("Master — women"),
    gettext_noop("Standard — women"),
    gettext_noop("Amateur — women"),
    gettext_noop("Entry fee"),
    gettext_noop("at check-in, before the squad"),
    gettext_noop("Protest"),
    gettext_noop("the head referee"),
    gettext_noop("STK ČBA, or VV ČBA"),
    gettext_noop("a player does not respect the duties set by this document"),
    gettext_noop("a repeated breach; no further participation in the tournament"),
    gettext_noop("ChGK tour"),
    gettext_noop("ChGK season standings"),
    gettext_noop(
        "an extra match of 6 questions; if still tied, single extra questions until the tie is "
        "broken"
    ),
    gettext_noop("Brainball"),
    gettext_noop("Superfinal for the absolute champion"),
    gettext_noop("Team fee, first half of the season"),
    gettext_noop("before the first tour"),
    gettext_noop("Team fee, second half of the season"),
    gettext_noop("before the middle tour"),
    gettext_noop("Fee of a team outside the competition, per player and tour"),
    gettext_noop("before each tour played"),
    gettext_noop("Appeal on a ChGK question"),
    gettext_noop("the organizing committee (ОКЧ), by e-mail to Иделия Айзятулова"),
    gettext_noop(
        "a player not on the team's roster, or who played for another team this championship, "
        "takes part in a tour"
    ),
    gettext_noop("the end of the championship"),
    gettext_noop("a team has not paid its fee before the tour"),
    gettext_noop("the tour; the team counts as absent"),
    gettext_noop("a team announces its withdrawal before the middle tour"),
    gettext_noop("unless the team completed a full round, in which case they are kept"),
    gettext_noop("the team and all its players"),
    gettext_noop("the end of the next season"),
    gettext_noop("a team announces its withdrawal after the middle tour"),
    gettext_noop("the second round"),
    gettext_noop(
        "a hosting team has not handed its questions to the coordinator before its tour starts"
    ),
    gettext_noop("every player the team had registered before its tour"),
    gettext_noop("the team hosting a ChGK tour"),
    gettext_noop("hand in ChGK questions to the coordinator"),
    gettext_noop("the team hosting a Brainball tour"),
    gettext_noop("hand in Brainball questions to the coordinator"),
    gettext_noop("the coordinator"),
    gettext_noop(
        "check every question handed in on time against the question database for prior "
        'publication ("свеченность"), and ask for replacements of published ones'
    ),
    gettext_noop("the tour that opens the second half of the championship"),
)


def rt(text: str | None) -> str:
    """A text from the rulebook, in the active language when it is one of the presets' texts."""
    return _(text) if text else ""


# --- The event page --------------------------------------------------------------------------


@dataclass
class CategoryState:
    key: str
    title: str
    kind: str
    cap: int | None
    active: int
    confirmed: int
    pending: int
    waiting: int
    register_url: str

    @property
    def places_left(self) -> int | None:
        return None if self.cap is None else max(self.cap - self.active, 0)


def money(amount: Decimal, currency: str) -> str:
    """An amount in the active locale's number format, with its currency code."""
    places = 0 if amount == amount.to_integral_value() else 2
    number = formats.number_format(amount, decimal_pos=places, use_l10n=True, force_grouping=True)
    return f"{number}\xa0{currency}"


def register_url(event: Event, category: str) -> str:
    try:
        return reverse("participant:register", kwargs={"slug": event.slug, "category": category})
    except NoReverseMatch:
        return f"/me/register/{event.slug}/{category}/"


def category_states(event: Event) -> list[CategoryState]:
    """Per category of the rulebook: the cap, the active, confirmed and waiting entries."""
    rulebook = event.rulebook
    counts = {
        row["category"]: row
        for row in event.entries.values("category").annotate(
            active=Count("id", filter=Q(status__in=Entry.ACTIVE)),
            confirmed=Count("id", filter=Q(status=Entry.Status.CONFIRMED)),
            pending=Count("id", filter=Q(status=Entry.Status.PENDING)),
            waiting=Count("id", filter=Q(status=Entry.Status.WAITING)),
        )
    }
    squads_capacity = sum(event.squads.values_list("capacity", flat=True))
    states = []
    for category in rulebook.categories:
        row = counts.get(category.key, {})
        cap = category.cap or rulebook.registration.cap
        if cap is None and squads_capacity:
            cap = squads_capacity
        states.append(
            CategoryState(
                key=category.key,
                title=rt(category.title),
                kind=category.entrants.kind,
                cap=cap,
                active=row.get("active", 0),
                confirmed=row.get("confirmed", 0),
                pending=row.get("pending", 0),
                waiting=row.get("waiting", 0),
                register_url=register_url(event, category.key),
            )
        )
    return states


@dataclass
class SquadState:
    name: str
    starts_at: dt.datetime
    capacity: int
    active: int

    @property
    def places_left(self) -> int:
        return max(self.capacity - self.active, 0)


def squad_states(event: Event) -> list[SquadState]:
    squads = event.squads.annotate(
        active=Count("entry", filter=Q(entry__status__in=Entry.ACTIVE))
    ).order_by("starts_at", "name")
    return [SquadState(q.name, q.starts_at, q.capacity, q.active) for q in squads]


# --- Entry lists -----------------------------------------------------------------------------


@dataclass
class ListedEntry:
    entry: Entry
    members: list[str]
    countries: list[str]
    outside: str = ""
    division: str = ""


@dataclass
class EntryTable:
    title: str
    rows: list[ListedEntry] = field(default_factory=list)


@dataclass
class CategoryLists:
    key: str
    title: str
    tables: list[EntryTable]
    waiting: list[ListedEntry]
    pending: int
    official: int
    outside: int
    division_column: bool = False


def _outside_mark(event: Event, entry: Entry, countries: list[str]) -> str:
    rulebook = event.rulebook
    if not entry.scored:
        return _("outside the competition (unscored team)")
    domestic = rulebook.classification.domestic
    if (
        domestic is not None
        and countries
        and not is_domestic(countries, domestic.country, domestic.team_rule)
    ):
        return _("outside the official order (foreign)")
    return ""


def _listed(event: Event, entry: Entry) -> ListedEntry:
    members = [m.person for m in entry.members.all()]
    countries = [p.country for p in members if p.country]
    listed = ListedEntry(entry, [str(p) for p in members], countries)
    listed.outside = _outside_mark(
        event, entry, countries if len(countries) == len(members) else []
    )
    return listed


def _table_title(entry: Entry, division_titles: dict[str, str]) -> str:
    """A squad's entries make one table (their divisions in a column); else group, division."""
    parts = []
    if entry.squad_id:
        parts.append(str(entry.squad))
    if entry.group:
        parts.append(_("Group %(group)s") % {"group": entry.group})
    if entry.division and not entry.squad_id:
        title = division_titles.get(entry.division, entry.division)
        parts.append(_("Division %(division)s") % {"division": title})
    return " · ".join(parts)


def entry_lists(event: Event) -> list[CategoryLists]:
    """Confirmed entries per category and table (group, division, squad); the waiting list."""
    rulebook = event.rulebook
    division_titles = (
        {d.key: rt(d.title) for d in rulebook.divisions.items} if rulebook.divisions else {}
    )
    division_order = {key: i for i, key in enumerate(division_titles)}
    entries = (
        event.entries.filter(status__in=[Entry.Status.CONFIRMED, Entry.Status.WAITING])
        .select_related("squad")
        .prefetch_related(
            Prefetch("members", queryset=EntryMember.objects.select_related("person"))
        )
    )
    pending = Counter(
        event.entries.filter(status=Entry.Status.PENDING).values_list("category", flat=True)
    )
    by_category: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_category[entry.category].append(entry)
    result = []
    for category in rulebook.categories:
        confirmed = [e for e in by_category[category.key] if e.status == Entry.Status.CONFIRMED]
        confirmed.sort(
            key=lambda e: (
                e.squad.starts_at if e.squad else dt.datetime.min.replace(tzinfo=dt.UTC),
                e.group,
                division_order.get(e.division, 99),
                e.table_number or 0,
                e.number,
            )
        )
        tables: dict[str, EntryTable] = {}
        for entry in confirmed:
            title = _table_title(entry, division_titles)
            listed = _listed(event, entry)
            listed.division = division_titles.get(entry.division, entry.division)
            tables.setdefault(title, EntryTable(title)).rows.append(listed)
        waiting = sorted(
            (e for e in by_category[category.key] if e.status == Entry.Status.WAITING),
            key=lambda e: (e.waiting_position or 0, e.number),
        )
        rows = [row for table in tables.values() for row in table.rows]
        outside = sum(1 for row in rows if row.outside)
        result.append(
            CategoryLists(
                key=category.key,
                title=rt(category.title),
                tables=list(tables.values()),
                waiting=[_listed(event, e) for e in waiting],
                pending=pending.get(category.key, 0),
                official=len(rows) - outside,
                outside=outside,
                division_column=any(e.division and e.squad_id for e in confirmed),
            )
        )
    return result


# --- The rules in words ----------------------------------------------------------------------


@dataclass
class RuleLine:
    text: str
    clause: str | None = None
    interpretation: str | None = None
    children: list[RuleLine] = field(default_factory=list)


@dataclass
class RuleSection:
    key: str
    title: str
    lines: list[RuleLine] = field(default_factory=list)
    clause: str | None = None
    interpretation: str | None = None


def _line(text: str, rule: s.Rule | None = None, clause: str | None = None) -> RuleLine:
    return RuleLine(
        text,
        clause or (rule.clause if rule is not None else None),
        rule.interpretation if rule is not None else None,
    )


def _date(value: dt.date) -> str:
    return formats.date_format(value, "DATE_FORMAT", use_l10n=True)


def _percent(value: Decimal) -> str:
    return formats.number_format(value * 100, decimal_pos=0, use_l10n=True) + "\xa0%"


def _minutes(n: int) -> str:
    return ngettext("%(n)d minute", "%(n)d minutes", n) % {"n": n}


def _days(n: int) -> str:
    return ngettext("%(n)d day", "%(n)d days", n) % {"n": n}


def _entrants(category: s.Category, cap: int | None) -> RuleLine:
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


def _eligibility(rule: s.Eligibility, event_day: dt.date | None) -> RuleLine:
    if isinstance(rule, s.MinAge):
        if rule.on == "event-day":
            text = _("Entrants must be at least %(age)d years old on the day of the event.")
        else:
            text = _("Entrants must be at least %(age)d years old on %(date)s.")
        return _line(text % {"age": rule.age, "date": _date_or(rule.on)}, rule)
    if isinstance(rule, s.BornOnOrBefore):
        return _line(
            _("Entrants must be born on or before %(date)s.") % {"date": _date(rule.date)}, rule
        )
    text = _("Entrants younger than %(age)d may take part only with an accompanying adult.")
    return _line(text % {"age": rule.age}, rule)


def _date_or(value: object) -> str:
    return _date(value) if isinstance(value, dt.date) else str(value)


def _channel(key: str) -> str:
    labels = {
        "online": _("online"),
        "phone": _("by phone"),
        "secretary": _("through the secretary"),
        "oral": _("orally"),
        "written": _("in writing"),
    }
    return labels.get(key, key)


def _registration(rulebook: s.Rulebook) -> RuleSection:
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
        "opens": _date(reg.opens) if reg.opens else "",
        "closes": _date(reg.closes) if reg.closes else "",
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


def _classification(rulebook: s.Rulebook) -> RuleSection | None:
    c = rulebook.classification
    if not (c.domestic or c.already_qualified or c.unscored or c.ineligible):
        return None
    section = RuleSection("classification", _("Who competes officially"), clause=c.clause)
    section.interpretation = c.interpretation
    if c.domestic:
        text = _(
            "Only entrants with a registered address in %(country)s compete for the title; "
            "the others compete outside the official order."
        )
        section.lines.append(_line(text % {"country": _country(c.domestic.country)}, c.domestic))
        rules = {
            "all": _("A pair or team counts as domestic only if all its members are."),
            "any": _("A pair or team counts as domestic if any of its members is."),
            "majority": _("A pair or team counts as domestic if most of its members are."),
        }
        section.lines.append(
            RuleLine(rules[c.domestic.team_rule], c.domestic.team_rule_clause or c.domestic.clause)
        )
    if c.already_qualified:
        text = _(
            "Players who have already qualified for the final are shown, but not counted in the "
            "standings."
        )
        section.lines.append(_line(text, c.already_qualified))
    if c.unscored:
        text = _(
            "Teams outside the competition are shown with their position, but take no place "
            "and no points."
        )
        section.lines.append(_line(text, c.unscored))
    if c.ineligible:
        text = _(
            "Entrants who do not meet the eligibility rules are shown outside the competition."
        )
        section.lines.append(_line(text, c.ineligible))
    return section


def _country(code: str) -> str:
    names = {"CZ": _("the Czech Republic"), "IT": _("Italy"), "RU": _("Russia")}
    return names.get(code, code)


def _divisions(rulebook: s.Rulebook) -> RuleSection | None:
    d = rulebook.divisions
    if d is None:
        return None
    section = RuleSection("divisions", _("Divisions"), clause=d.clause)
    section.interpretation = d.interpretation
    if d.reference_date:
        text = _(
            "Men and women play separately, each in divisions by their ladder average as of "
            "%(date)s."
        ) % {"date": _date(d.reference_date)}
        section.lines.append(RuleLine(text))
    for item in d.items:
        low, high = item.average_min, item.average_max
        n = formats.number_format
        if low is not None and high is not None:
            bounds = _("average from %(low)s to %(high)s") % {
                "low": n(low, use_l10n=True),
                "high": n(high, use_l10n=True),
            }
        elif low is not None:
            bounds = _("average %(low)s or more") % {"low": n(low, use_l10n=True)}
        elif high is not None:
            bounds = _("average up to %(high)s") % {"high": n(high, use_l10n=True)}
        else:
            bounds = _("any average")
        section.lines.append(_line(f"{rt(item.title)}: {bounds}.", item))
    if any(item.fallback for item in d.items):
        section.lines.append(
            RuleLine(
                _("A player not on the ladder goes to the lowest division."), d.fallback_clause
            )
        )
    return section


def _money(rulebook: s.Rulebook) -> RuleSection | None:
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
        section.lines.append(_line(" ".join([text, *[e for e in extra if e]]), fee))
    c = rulebook.cancellation
    if c is not None:
        if c.reference == "squad":
            intro = _("A cancellation is counted in days before the entry's squad starts.")
        else:
            intro = _("A cancellation is counted in days before the event starts.")
        line = RuleLine(intro, c.clause, c.interpretation)
        for tier in c.tiers:
            if tier.days_before:
                when = _("Cancelled at least %(days)s before:") % {"days": _days(tier.days_before)}
            else:
                when = _("Cancelled later:")
            parts = [when]
            if tier.refund:
                parts.append(_("%(share)s of the fee refunded.") % {"share": _percent(tier.refund)})
            if tier.owed:
                parts.append(_("%(share)s of the fee owed.") % {"share": _percent(tier.owed)})
            if not tier.refund and not tier.owed:
                parts.append(_("no refund, nothing owed."))
            line.children.append(_line(" ".join(parts), tier))
        section.lines.append(line)
    return section


def _desk(rulebook: s.Rulebook) -> RuleSection | None:
    if rulebook.check_in is None and rulebook.no_show is None:
        return None
    section = RuleSection("desk", _("Check-in and no-shows"))
    ci = rulebook.check_in
    if ci is not None:
        parts = []
        if ci.opens_before_min is not None:
            parts.append(
                _("Check-in opens %(time)s before the start.")
                % {"time": _minutes(ci.opens_before_min)}
            )
        if ci.closes_before_min is not None:
            parts.append(
                _("Check-in closes %(time)s before the start.")
                % {"time": _minutes(ci.closes_before_min)}
            )
        section.lines.append(_line(" ".join(parts), ci))
    ns = rulebook.no_show
    if ns is not None:
        text = _(
            "If an entrant has not come %(time)s after the start, the seat may be given to "
            "someone else."
        ) % {"time": _minutes(ns.after_start_min)}
        if ns.seat_to == "waiting-list":
            text += " " + _("The seat goes to the waiting list, in order.")
        else:
            text += " " + _("The organizers decide who takes it (the waiting list first).")
        if not ns.refund:
            text += " " + _("There is no refund for a no-show.")
        section.lines.append(_line(text, ns))
    return section


def _criterion(key: str) -> str:
    labels = {
        "finished": _("finishers rank before those who did not finish"),
        "time": _("the shorter time (with penalties)"),
        "pieces": _("more pieces correctly placed"),
        "puzzles-done": _("more puzzles finished"),
        "total": _("the higher total pinfall"),
        "high-game": _("the higher best game"),
        "low-game": _("the higher lowest game"),
        "high-game-2": _("the higher second-best game"),
        "low-game-2": _("the higher second-lowest game"),
        "high-game-3": _("the higher third-best game"),
        "low-game-3": _("the higher third-lowest game"),
        "questions": _("more questions taken"),
        "points": _("more points"),
        "season-questions": _("more questions taken over the season"),
        "season-place-sum": _("the lower sum of places over all tours"),
        "match-points": _("more match points"),
        "head-to-head": _("more match points in the battles among the tied teams"),
        "question-difference": _("the better question difference"),
    }
    return labels.get(key, key)


def _format_lines(stage: s.Stage, rulebook: s.Rulebook) -> list[RuleLine]:
    lines: list[RuleLine] = []
    if stage.groups:
        lines.append(
            RuleLine(
                _("Played in groups %(groups)s, each ranked on its own.")
                % {"groups": ", ".join(stage.groups)}
            )
        )
    if isinstance(stage, s.TimedSolveStage | s.TeamSolveStage):
        if isinstance(stage, s.TimedSolveStage):
            text = _("One puzzle of %(pieces)d pieces; time limit %(time)s.") % {
                "pieces": stage.pieces,
                "time": _minutes(stage.time_limit_min),
            }
        else:
            text = _(
                "Puzzles of %(pieces)s pieces, in an order the team chooses; time limit "
                "%(time)s in all."
            ) % {
                "pieces": " + ".join(str(p) for p in stage.puzzles),
                "time": _minutes(stage.time_limit_min),
            }
        lines.append(RuleLine(text))
        if stage.missing_piece_penalty_s:
            text = ngettext(
                "Each piece missing at the finish adds %(n)d second to the time.",
                "Each piece missing at the finish adds %(n)d seconds to the time.",
                stage.missing_piece_penalty_s,
            ) % {"n": stage.missing_piece_penalty_s}
            lines.append(RuleLine(text, stage.penalty_clause))
        pc = stage.piece_counting
        if pc.method == "groups-of-at-least":
            text = _(
                "If the puzzle is not finished, only pieces in joined groups of at least %(n)d "
                "pieces count."
            )
        else:
            text = _(
                "If the puzzle is not finished, only pieces joined to at least %(n)d other pieces "
                "count."
            )
        lines.append(_line(text % {"n": pc.size}, pc))
    elif isinstance(stage, s.GamesStage):
        text = ngettext("%(n)d game", "%(n)d games", stage.games) % {"n": stage.games}
        if stage.blocks:
            text = _("%(games)s in blocks of %(blocks)s.") % {
                "games": text,
                "blocks": " + ".join(str(b) for b in stage.blocks),
            }
        else:
            text += "."
        if stage.tables_by == "division":
            text += " " + _("Each division is ranked on its own.")
        if not stage.re_entry:
            text += " " + _("No re-entry.")
        lines.append(RuleLine(text))
        if stage.lanes is not None:
            lines.append(
                _line(_("Lane pairs are drawn; players move between blocks."), stage.lanes)
            )
    elif isinstance(stage, s.ChgkTourStage):
        text = ngettext(
            "A tour of %(n)d question.", "A tour of %(n)d questions.", stage.questions
        ) % {"n": stage.questions}
        lines.append(RuleLine(text))
    elif isinstance(stage, s.ChgkSeasonStage):
        tour = rulebook.stage(stage.tour)
        lines.append(RuleLine(_("Adds up every %(tour)s.") % {"tour": rt(tour.title)}))
        lines.append(
            RuleLine(
                _("A team absent from a tour is placed after the last team that played."),
                stage.absent_clause,
            )
        )
    elif isinstance(stage, s.HeadToHeadStage):
        m = stage.match
        text = ngettext(
            "Battles of %(n)d question between two teams",
            "Battles of %(n)d questions between two teams",
            m.questions,
        ) % {"n": m.questions}
        text += "; " + (
            ngettext(
                "a round-robin played %(n)d time.",
                "a round-robin played %(n)d times.",
                stage.rounds,
            )
            % {"n": stage.rounds}
        )
        lines.append(RuleLine(text))
        n = formats.number_format
        text = _("A win gives %(win)s points, a draw %(draw)s, a loss %(loss)s.") % {
            "win": n(m.win, use_l10n=True),
            "draw": n(m.draw, use_l10n=True),
            "loss": n(m.loss, use_l10n=True),
        }
        lines.append(_line(text, m))
    elif isinstance(stage, s.SuperfinalStage):
        names = {"chgk": _("ChGK"), "brainball": _("Brainball")}
        parts = [
            ngettext("%(n)d %(kind)s question", "%(n)d %(kind)s questions", count)
            % {"n": count, "kind": names[kind]}
            for kind, count in stage.sequence
        ]
        text = _("%(sequence)s, all counted together.") % {"sequence": ", ".join(parts)}
        lines.append(RuleLine(text))
        text = _("If still tied: pairs of questions (%(pair)s) until one team leads after a pair.")
        lines.append(RuleLine(text % {"pair": " + ".join(names[k] for k in stage.decider)}))
    return lines


def _stage(stage: s.Stage, rulebook: s.Rulebook) -> RuleSection:
    section = RuleSection(f"stage-{stage.key}", rt(stage.title), clause=stage.clause)
    section.interpretation = stage.interpretation
    section.lines.extend(_format_lines(stage, rulebook))
    ranking = RuleLine(
        _("Ranking, criterion by criterion:"),
        stage.ranking.clause,
        stage.ranking.interpretation,
    )
    for criterion in stage.ranking.criteria:
        ranking.children.append(_line(_criterion(criterion.key), criterion))
    section.lines.append(ranking)
    if stage.ranking.playoff:
        p = stage.ranking.playoff
        text = _(
            "A tie for places %(first)d to %(last)d that remains after “%(after)s” is settled by "
            "%(how)s."
        ) % {
            "first": p.places[0],
            "last": p.places[1],
            "after": _criterion(p.after),
            "how": rt(p.method),
        }
        section.lines.append(_line(text, p))
    if stage.points:
        pts = stage.points
        n = formats.number_format
        text = _(
            "Points for places 1 to %(n)d: %(points)s. Entrants sharing places share their "
            "points, to %(decimals)d decimals."
        ) % {
            "n": len(pts.per_place),
            "points": ", ".join(n(p, use_l10n=True) for p in pts.per_place),
            "decimals": pts.decimals,
        }
        section.lines.append(_line(text, pts))
    if stage.advancement:
        section.lines.append(_advancement(stage.advancement, rulebook))
    if stage.prizes:
        section.lines.append(_prizes(stage.prizes))
    return section


def _advancement(adv: s.Advancement, rulebook: s.Rulebook) -> RuleLine:
    target = adv.to
    if target:
        with contextlib.suppress(KeyError):
            target = rt(rulebook.stage(target).title)
        line = RuleLine(
            _("Advance to %(stage)s:") % {"stage": target}, adv.clause, adv.interpretation
        )
    else:
        line = RuleLine(_("Advance to the next round:"), adv.clause, adv.interpretation)
    for pool in adv.pools:
        text = _("the best %(count)d %(label)s of each group") % {
            "count": pool.count,
            "label": rt(pool.label),
        }
        line.children.append(_line(text, pool))
    titles = {d.key: rt(d.title) for d in rulebook.divisions.items} if rulebook.divisions else {}
    for table, pools in adv.pools_by_table.items():
        for pool in pools:
            text = _("%(table)s: places 1 to %(count)d") % {
                "table": titles.get(table, table),
                "count": pool.count,
            }
            line.children.append(_line(text, pool))
    if adv.ties_at_cut == "all-advance":
        text = _("On a tie across the cut line, every tied entrant advances.")
    else:
        text = _("On a tie across the cut line, the organizers decide who advances.")
    line.children.append(RuleLine(text, adv.ties_clause))
    return line


def _prizes(prizes: s.Prizes) -> RuleLine:
    text = ngettext("A prize for place 1.", "Prizes for places 1 to %(n)d.", prizes.places) % {
        "n": prizes.places
    }
    if prizes.official_only:
        text += " " + _("Only entrants in the official order receive them.")
    return _line(text, prizes)


def _appeals(rulebook: s.Rulebook) -> RuleSection | None:
    if not rulebook.appeals:
        return None
    section = RuleSection("appeals", _("Protests and appeals"))
    for a in rulebook.appeals:
        line = _line(rt(a.title), a)
        who = {"player": _("a player"), "team": _("a team"), "entrant": _("an entrant")}
        if a.final and not a.fee:
            line.children.append(
                RuleLine(_("The decision of %(whom)s is final.") % {"whom": rt(a.filed_with)})
            )
            section.lines.append(line)
            continue
        form = _("in writing") if a.form == "written" else _("in any form")
        text = _("Filed by %(who)s, %(form)s, with %(whom)s.") % {
            "who": who[a.filed_by],
            "form": form,
            "whom": rt(a.filed_with),
        }
        line.children.append(RuleLine(text))
        if a.kinds:
            kinds = {
                "withdraw-question": _("to withdraw the question"),
                "accept-answer": _("to accept an answer"),
            }
            text = _("Kinds: %(kinds)s.") % {"kinds": "; ".join(kinds.get(k, k) for k in a.kinds)}
            if a.one_kind_per_question:
                text += " " + _("A team may not file both kinds on one question.")
            line.children.append(RuleLine(text))
        if a.fee:
            price = money(a.fee.amount, a.fee.currency)
            if a.fee_is_deposit:
                text = _("A deposit of %(price)s.") % {"price": price}
            else:
                text = _("A fee of %(price)s.") % {"price": price}
            if a.refunded_if_upheld:
                text += " " + _("It is returned if upheld.")
            if a.forfeited_if_rejected:
                text += " " + _("It is forfeited if rejected.")
            line.children.append(RuleLine(text))
        if a.file_within_days is not None:
            line.children.append(
                RuleLine(_("Filed within %(days)s.") % {"days": _days(a.file_within_days)})
            )
        if a.verdict_within_days is not None:
            text = _("The verdict is published within %(days)s.") % {
                "days": _days(a.verdict_within_days)
            }
            line.children.append(RuleLine(text))
        if a.jury_size:
            text = _("A jury of %(n)d decides.") % {"n": a.jury_size}
            if a.anonymous:
                text += " " + _("It sees the appeal without the team's name.")
            if not a.jury_may_play:
                text += " " + _("Jury members do not play in the championship.")
            line.children.append(RuleLine(text))
        if a.decided_on_site:
            line.children.append(RuleLine(_("Decided on site.")))
        if a.further_appeal_to:
            text = _("A further appeal goes to %(whom)s.") % {"whom": rt(a.further_appeal_to)}
            line.children.append(RuleLine(text))
        if a.final:
            line.children.append(RuleLine(_("The decision is final.")))
        section.lines.append(line)
    return section


def _effect(e: s.Effect) -> RuleLine:
    texts = {
        "tour-result-zero": _("the team's result in the tour counts as 0"),
        "battle-loss": _("the battle is recorded as a loss %(score)s"),
        "player-disqualified": _("the player is disqualified until %(until)s"),
        "team-disqualified": _("the team is disqualified until %(until)s"),
        "not-admitted": _("not admitted"),
        "warning": _("a warning"),
        "expulsion": _("expulsion"),
        "fine": _("a fine"),
        "results-kept": _("results kept"),
        "results-annulled": _("results annulled"),
    }
    text = texts[e.kind] % {"score": e.score or "", "until": rt(e.until)}
    disciplines = {"chgk": _("ChGK"), "brainball": _("Brainball")}
    if e.discipline:
        text = f"{disciplines[e.discipline]}: {text}"
    if e.scope:
        text = f"{text} ({rt(e.scope)})"
    return _line(text, e)


def _sanctions(rulebook: s.Rulebook) -> RuleSection | None:
    if not rulebook.sanctions:
        return None
    section = RuleSection("sanctions", _("Sanctions"))
    for sanction in rulebook.sanctions:
        line = _line(f"{capfirst(rt(sanction.when))}:", sanction)
        line.children.extend(_effect(e) for e in sanction.effects)
        section.lines.append(line)
    return section


def _duties(rulebook: s.Rulebook) -> RuleSection | None:
    if not rulebook.duties:
        return None
    section = RuleSection("duties", _("Duties"))
    for d in rulebook.duties:
        text = f"{capfirst(rt(d.who))}: {rt(d.what)}"
        extra = []
        if d.minimum is not None:
            extra.append(_("at least %(n)d") % {"n": d.minimum})
        if d.days_before is not None:
            extra.append(_("%(days)s before") % {"days": _days(d.days_before)})
        if extra:
            text += f" ({', '.join(extra)})"
        section.lines.append(_line(text + ".", d))
    return section


def rules_sections(rulebook: s.Rulebook) -> list[RuleSection]:
    """The rulebook as readable sections, every sentence with its clause."""
    sections: list[RuleSection] = []
    entrants = RuleSection("entrants", _("Categories and entrants"))
    for category in rulebook.categories:
        entrants.lines.append(_entrants(category, category.cap))
        if category.prizes:
            entrants.lines.append(_prizes(category.prizes))
    sections.append(entrants)
    if rulebook.season:
        season = rulebook.season
        text = _("The season runs from %(starts)s to %(ends)s.") % {
            "starts": season.starts,
            "ends": season.ends,
        }
        if season.middle_tour:
            text += " " + _("The middle tour is %(tour)s.") % {"tour": rt(season.middle_tour)}
        entrants.lines.insert(0, _line(text, season))
    sections.append(_registration(rulebook))
    for optional in (
        _classification(rulebook),
        _divisions(rulebook),
        _money(rulebook),
        _desk(rulebook),
    ):
        if optional is not None:
            sections.append(optional)
    sections.extend(_stage(stage, rulebook) for stage in rulebook.stages)
    for optional in (_appeals(rulebook), _sanctions(rulebook), _duties(rulebook)):
        if optional is not None:
            sections.append(optional)
    if rulebook.notes:
        notes = RuleSection("notes", _("Notes"))
        for note in rulebook.notes:
            notes.lines.append(RuleLine(note.interpretation or "", note.clause))
        sections.append(notes)
    return sections


def fee_lines(rulebook: s.Rulebook) -> list[dict[str, Any]]:
    return [
        {
            "title": rt(fee.title),
            "price": money(fee.price.amount, fee.price.currency),
            "due": rt(fee.due),
        }
        for fee in rulebook.fees
    ]
