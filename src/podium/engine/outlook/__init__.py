"""The outlook of a stage whose results are partial: where each entrant can still finish, whether
it advances for certain, is out, or is still open, and what it needs in the round left.

Vocabulary (see ``core`` for keys, prospects and targets, ``plans`` and ``leagues`` for what
each format still has to play):
- outlook: one row's ``best`` and ``worst`` final place (its rank: first place of a shared
  place), its advancement verdict (``certain``, ``open``, ``out``; ``None`` where the stage has
  no advancement) and the reasons, each with its clause.
- sound: every place the rulebook can still give the row lies in ``best``…``worst``, and
  ``certain``/``out`` hold in every completion. Exact where the format's unknowns are each
  entrant's own (timed rounds, bowling, a ChGK tour ranked by questions, a superfinal); a bound,
  said so in the reasons, where they are shared (a season's tours, a league's battles) or where
  a criterion reads other entrants' results (a question rating).
- needs: for an open row with one round left, the least result that makes it certain whatever
  the others do, and the result at or below which it is out whatever they do. Its goal is the
  advancement quota, or where the stage has none, the prize places; a superfinal's is the
  title and a league's with neither, its first place. The round left is a timed entrant's or a
  team's solving, a bowler's last game, a tour's or a superfinal's questions, a season's last
  tour, a league team's battles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from podium.engine.entries import Reason
from podium.engine.errors import InputError, Problem
from podium.engine.inputs import RawRow
from podium.engine.messages import Message, Span, Value, _, term
from podium.engine.outlook.core import Field, Prospect, Target, Verdict
from podium.engine.outlook.leagues import league_plan, season_plan, superfinal_plan
from podium.engine.outlook.plans import Domain, Plan, games_plan, timed_plan, tour_plan
from podium.engine.standings import Standings
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import Stage


@dataclass(frozen=True, slots=True)
class Needs:
    """``sure``: the least result that makes the goal certain (``None``: none can); ``out``: the
    result at or below which the goal is lost (``None``: none loses it); ``sure_at``/``out_at``:
    the same as the format's result numbers (pins, questions, a tour's points' rank…)."""

    sure: Value | None
    out: Value | None
    reason: Reason
    sure_at: int | None = None
    out_at: int | None = None


@dataclass(frozen=True, slots=True)
class Outlook:
    best: int
    worst: int
    advances: Verdict | None
    exact: bool
    reasons: tuple[Reason, ...]
    needs: Needs | None = None


@dataclass(frozen=True, slots=True)
class StageOutlook:
    standings: Standings
    rows: dict[tuple[str, str], Outlook]  # by (table key, entrant id)


def stage_plan(
    rulebook: Rulebook,
    stage: Stage,
    rows: Sequence[RawRow],
    *,
    remaining: int | None = None,
    now_ms: int | None = None,
    pending: Sequence[RawRow] = (),
) -> Plan:
    fmt = stage.format
    if fmt in ("timed-solve", "team-solve"):
        return timed_plan(rulebook, stage, rows, now_ms, pending)
    if fmt == "games":
        return games_plan(rulebook, stage, rows, pending)
    if fmt == "chgk-tour":
        return tour_plan(rulebook, stage, rows, remaining, pending)
    if fmt == "chgk-season":
        return season_plan(rulebook, stage, rows, remaining or 0, pending)
    if fmt == "head-to-head":
        return league_plan(rulebook, stage, rows)
    return superfinal_plan(rulebook, stage, rows)


def outlook(
    rulebook: Rulebook,
    stage_key: str,
    rows: Sequence[RawRow],
    *,
    remaining: int | None = None,
    now_ms: int | None = None,
    pending: Sequence[RawRow] = (),
) -> StageOutlook:
    """The outlook of every row of the stage; ``remaining``: rounds still to play where the
    file cannot tell (a season's tours, a tour's questions given by counts); ``now_ms``: a timed
    round's clock (else the largest time in the file); ``pending``: rows (common columns only)
    of the stage's entrants with nothing recorded yet, who still play (a web round knows them;
    a file does not)."""
    try:
        stage = rulebook.stage(stage_key)
    except KeyError:
        known = ", ".join(s.key for s in rulebook.stages)
        text = _("unknown stage '%(stage)s' in %(rulebook)s (%(known)s)", stage=stage_key,
                 rulebook=rulebook.key, known=known)  # fmt: skip
        raise InputError([Problem("--stage", text)]) from None
    if not rows:
        raise InputError([Problem("", _("the results file has no rows"))])
    plan = stage_plan(rulebook, stage, rows, remaining=remaining, now_ms=now_ms, pending=pending)
    found: dict[tuple[str, str], Outlook] = {}
    for table in plan.standings.tables:
        prospects = plan.prospects.get(table.key, [])
        whole = Field(prospects, plan.ambiguous)
        targets = _targets(stage, table.key)
        fields = {
            t.key: Field([p for p in prospects if p.klass in t.classes], plan.ambiguous)
            for t in targets
        }
        goal = _goal(stage)
        goal_field = (
            Field([p for p in prospects if _wants(goal, p)], plan.ambiguous)
            if goal is not None
            else None
        )
        shown = {row.entry.id for row in table.rows}
        for p in prospects:
            if p.id not in shown:
                continue
            found[(table.key, p.id)] = _row_outlook(
                stage, plan, p, whole, targets, fields, goal, goal_field
            )
    return StageOutlook(plan.standings, found)


def _targets(stage: Stage, table: str) -> list[Target]:
    rule = stage.advancement
    if rule is None:
        return []
    strict = rule.ties_at_cut != "all-advance"
    return [
        Target(pool.key, pool.label, frozenset(pool.classes), pool.count,
               (rule.ties_clause if strict else None) or pool.clause or rule.clause, strict)
        for pool in rule.pools_for(table)
    ]  # fmt: skip


def _goal(stage: Stage) -> Target | None:
    """What "what it takes" aims at: advancement, or where there is none, the prize places."""
    if stage.advancement is not None:
        return None
    if stage.prizes is None:
        if stage.format not in ("superfinal", "head-to-head"):
            return None
        # A superfinal is played for the title alone (a tie after it goes to more questions);
        # a league with neither quota nor prizes, for its first place (the superfinal's place).
        return Target("title", "the title", frozenset(), 1, stage.ranking.clause, True)
    prizes = stage.prizes
    classes = frozenset({"official"}) if prizes.official_only else frozenset()
    playoff = stage.ranking.playoff is not None
    return Target("prize", "prize places", classes, prizes.places, prizes.clause, playoff)


def _wants(target: Target, p: Prospect) -> bool:
    """Whether ``target`` takes ``p``'s class (one with no classes takes every class)."""
    return not target.classes or p.klass in target.classes


def _row_outlook(
    stage: Stage,
    plan: Plan,
    p: Prospect,
    whole: Field,
    targets: Sequence[Target],
    fields: dict[str, Field],
    goal: Target | None,
    goal_field: Field | None,
) -> Outlook:
    best, worst = whole.places(p, plan.cap)
    clause = stage.ranking.clause
    reasons: list[Reason] = []
    if best == worst:
        reasons.append(Reason(clause, _("Final place %(place)s: nothing still to play can "
                                        "change it", place=Span(best, best))))  # fmt: skip
    else:
        reasons.append(Reason(clause, _("Can still finish anywhere from %(places)s",
                                        places=Span(best, worst))))  # fmt: skip
    if plan.bound is not None:
        reasons.append(Reason(clause, _("These places are bounds, not exact: %(why)s",
                                        why=plan.bound)))  # fmt: skip
    verdict: Verdict | None = None
    deciding: Target | None = None
    if stage.advancement is not None:
        # As ``podium.engine.advancement`` decides: the last quota taking the entrant's class.
        deciding = next((t for t in reversed(targets) if p.klass in t.classes), None)
        if deciding is None:
            verdict = "out"
            text = _("Cannot advance: no quota takes this entrant's class")
            reasons.append(Reason(stage.advancement.clause, text))
        else:
            verdict = fields[deciding.key].verdict(p, deciding, plan.cap)
            reasons.append(_verdict_reason(verdict, deciding))
    needs = None
    domain = plan.domains.get(p.id)
    aim, aim_field = (deciding, fields[deciding.key]) if deciding else (goal, goal_field)
    wanted = aim is not None and _wants(aim, p)
    still_open = verdict in (None, "open")
    if domain is not None and aim is not None and aim_field is not None and wanted and still_open:
        needs = _needs(p, domain, aim, aim_field, plan)
        reasons.append(needs.reason)
    return Outlook(best, worst, verdict, plan.bound is None, tuple(reasons), needs)


def _verdict_reason(verdict: Verdict, target: Target) -> Reason:
    known: dict[str, Value] = {"pool": term(target.label), "count": target.count}
    if verdict == "certain":
        text = _("Sure to advance: even at its worst it is within the %(count)s places for "
                 "%(pool)s", **known)  # fmt: skip
    elif verdict == "out":
        text = _("Cannot advance: even at its best, %(count)s or more others stay ahead for "
                 "the %(count)s places for %(pool)s", **known)  # fmt: skip
    else:
        text = _("Advancement still open: %(pool)s takes %(count)s", **known)
    return Reason(target.clause, text)


def _first(size: int, ok: Callable[[int], bool]) -> int | None:
    """The least index in 0…size−1 where the monotone predicate ``ok`` holds (else None)."""
    lo, hi = 0, size
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo if lo < size else None


def _needs(p: Prospect, domain: Domain, aim: Target, field: Field, plan: Plan) -> Needs:
    sure_key, inclusive = field.sure_key(p, aim)
    out_key = field.out_key(p, aim)
    cap = plan.cap

    def sure(x: int) -> bool:
        key = domain.key(x)
        if cap is not None:
            trial = Prospect(p.id, p.klass, key, key)
            return field.verdict(trial, aim, cap) == "certain"
        if sure_key is None:
            return True
        return key <= sure_key if inclusive else key < sure_key

    def alive(x: int) -> bool:
        # A tie at the cut may still go its way: only a result strictly behind is out.
        return out_key is None or domain.key(x) <= out_key

    first_sure = _first(domain.size, sure)
    first_alive = _first(domain.size, alive)
    sure_words = domain.words(first_sure) if first_sure is not None else None
    out_words = domain.words(first_alive - 1) if first_alive else None
    goal = term(aim.label)
    prize, title = aim.key == "prize", aim.key == "title"
    parts: list[Message] = []
    if sure_words is not None and title:
        parts.append(_("Needs %(result)s to be sure to win", result=sure_words))
    elif title:
        parts.append(_("Cannot be sure to win whatever it does"))
    elif sure_words is not None and prize:
        parts.append(_("Needs %(result)s to be sure of a prize place", result=sure_words))
    elif sure_words is not None:
        parts.append(_("Needs %(result)s to be sure to advance (%(goal)s)", result=sure_words,
                       goal=goal))  # fmt: skip
    elif prize:
        parts.append(_("Cannot be sure of a prize place whatever it does"))
    else:
        parts.append(_("Cannot be sure to advance (%(goal)s) whatever it does", goal=goal))
    if out_words is not None:
        parts.append(_("out of it with %(result)s or worse", result=out_words))
    text = parts[0] if len(parts) == 1 else _("%(first)s; %(second)s", first=parts[0],
                                              second=parts[1])  # fmt: skip
    if plan.bound is not None:
        text = _("%(needs)s (a bound)", needs=text)
    out_at = first_alive - 1 if first_alive else None
    return Needs(sure_words, out_words, Reason(aim.clause, text), first_sure, out_at)
