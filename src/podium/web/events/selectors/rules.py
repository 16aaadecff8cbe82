"""The rules page: a rulebook told in sentences, each with the clause it comes from.

Vocabulary:
- rule line: one sentence of the rules page, with the clause it comes from and, where the
  rulebook says so, our interpretation; lines may have lines under them.
- section: the lines of one part of the rulebook (registration, fees, a stage…).
"""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import formats
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.rules.schema import Rulebook
from podium.rules.schema.common import Rule
from podium.rules.schema.discipline import Effect
from podium.rules.schema.ranking import Advancement, Prizes
from podium.rules.schema.registration import BornOnOrBefore, Category, Eligibility, MinAge
from podium.rules.schema.stages import (
    ChgkSeasonStage,
    ChgkTourStage,
    GamesStage,
    HeadToHeadStage,
    Stage,
    SuperfinalStage,
    TeamSolveStage,
    TimedSolveStage,
)
from podium.web.kernel.texts import money, rt


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


def _line(text: str, rule: Rule | None = None, clause: str | None = None) -> RuleLine:
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


def _entrants(category: Category, cap: int | None) -> RuleLine:
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
        return _line(text % {"age": rule.age, "date": _date_or(rule.on)}, rule)
    if isinstance(rule, BornOnOrBefore):
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


def _registration(rulebook: Rulebook) -> RuleSection:
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


def _classification(rulebook: Rulebook) -> RuleSection | None:
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


def _divisions(rulebook: Rulebook) -> RuleSection | None:
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


def _money(rulebook: Rulebook) -> RuleSection | None:
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


def _desk(rulebook: Rulebook) -> RuleSection | None:
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
        "question-rating": _(
            "the higher question rating (a question taken by k of N teams is worth N − k + 1)"
        ),
        "points": _("more points"),
        "season-questions": _("more questions taken over the season"),
        "season-place-sum": _("the lower sum of places over all tours"),
        "match-points": _("more match points"),
        "head-to-head": _("more match points in the battles among the tied teams"),
        "question-difference": _("the better question difference"),
    }
    return labels.get(key, key)


def _format_lines(stage: Stage, rulebook: Rulebook) -> list[RuleLine]:
    lines: list[RuleLine] = []
    if stage.groups:
        lines.append(
            RuleLine(
                _("Played in groups %(groups)s, each ranked on its own.")
                % {"groups": ", ".join(stage.groups)}
            )
        )
    if isinstance(stage, TimedSolveStage | TeamSolveStage):
        if isinstance(stage, TimedSolveStage):
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
        if isinstance(stage, TimedSolveStage) and stage.compensation is not None:
            text = _(
                "Time lost through no fault of the competitor (a faulty puzzle replaced) is "
                "given back and taken off the time."
            )
            lines.append(_line(text, stage.compensation))
    elif isinstance(stage, GamesStage):
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
    elif isinstance(stage, ChgkTourStage):
        text = ngettext(
            "A tour of %(n)d question.", "A tour of %(n)d questions.", stage.questions
        ) % {"n": stage.questions}
        if stage.max_questions is not None:
            text = _(
                "A tour of %(n)d questions unless its masks give another length, up to %(max)d."
            ) % {"n": stage.questions, "max": stage.max_questions}
        lines.append(RuleLine(text))
    elif isinstance(stage, ChgkSeasonStage):
        tour = rulebook.stage(stage.tour)
        lines.append(RuleLine(_("Adds up every %(tour)s.") % {"tour": rt(tour.title)}))
        lines.append(
            RuleLine(
                _("A team absent from a tour is placed after the last team that played."),
                stage.absent_clause,
            )
        )
    elif isinstance(stage, HeadToHeadStage):
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
    elif isinstance(stage, SuperfinalStage):
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
        if stage.winners_of:
            winners = ", ".join(rt(rulebook.stage(k).title) for k in stage.winners_of)
            text = _("Played between the winners of %(stages)s, if they are not one team.")
            lines.append(RuleLine(text % {"stages": winners}, stage.winners_clause))
    return lines


def _recording(stage: Stage) -> list[RuleLine]:
    """How a result becomes official, and when the stage's results are published."""
    rec, pub = stage.recording, stage.publication
    lines = []
    if "recording" in stage.model_fields_set:
        if rec.verification == "second-entry":
            text = _("A second referee enters every result independently; both must match.")
        else:
            text = _("The head referee confirms every result before it is official.")
        lines.append(_line(text, rec))
        if rec.competitor_confirms:
            text = _("The competitor agrees with the recorded result at the table")
            if rec.agreed_is_final:
                text += _("; no later claim is heard.")
            else:
                text += "."
            lines.append(RuleLine(text, rec.agreement_clause))
    if pub.preliminary_after_days is not None:
        text = ngettext(
            "Preliminary results are published %(n)d day after the round.",
            "Preliminary results are published %(n)d days after the round.",
            pub.preliminary_after_days,
        ) % {"n": pub.preliminary_after_days}
        lines.append(_line(text, pub))
    if pub.final_after:
        text = _("Final results only once the appeal window has closed and every verdict is in.")
        lines.append(_line(text, pub))
    return lines


def _stage(stage: Stage, rulebook: Rulebook) -> RuleSection:
    section = RuleSection(f"stage-{stage.key}", rt(stage.title), clause=stage.clause)
    section.interpretation = stage.interpretation
    section.lines.extend(_format_lines(stage, rulebook))
    section.lines.extend(_recording(stage))
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


def _advancement(adv: Advancement, rulebook: Rulebook) -> RuleLine:
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


def _prizes(prizes: Prizes) -> RuleLine:
    # Not a plural: "place 1" and "places 1 to n" are two sentences (in Russian the plural
    # form of 1 also serves 21, which would read "a prize for place 21").
    if prizes.places == 1:
        text = _("A prize for place 1.")
    else:
        text = _("Prizes for places 1 to %(n)d.") % {"n": prizes.places}
    if prizes.official_only:
        text += " " + _("Only entrants in the official order receive them.")
    return _line(text, prizes)


def _appeals(rulebook: Rulebook) -> RuleSection | None:
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


def _effect(e: Effect) -> RuleLine:
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


def _sanctions(rulebook: Rulebook) -> RuleSection | None:
    if not rulebook.sanctions:
        return None
    section = RuleSection("sanctions", _("Sanctions"))
    for sanction in rulebook.sanctions:
        line = _line(f"{capfirst(rt(sanction.when))}:", sanction)
        line.children.extend(_effect(e) for e in sanction.effects)
        section.lines.append(line)
    return section


def _duties(rulebook: Rulebook) -> RuleSection | None:
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


def rules_sections(rulebook: Rulebook) -> list[RuleSection]:
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
            notes.lines.append(RuleLine(rt(note.interpretation), note.clause))
        sections.append(notes)
    return sections
