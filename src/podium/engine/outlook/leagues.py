"""The outlook of formats whose entrants share their unknowns: a season's tours, a Brainball
league's battles, a superfinal's questions.

Vocabulary (see ``podium.engine.outlook.core``):
- tour points: what one remaining tour can give a team: from 0 (absent, which the rules allow,
  or placed past the points table) to the first place's points.
- supply: the points one tour hands out in all, whatever the ties (shared places split the
  points of the places they span; rounding to the rulebook's decimals adds at most half a unit
  per team). Teams climbing to one level must share it, which caps how many can.
- remaining battles: the rows of a league whose two scores are empty; each can end in a win,
  a draw or a loss for either side.
- remaining questions: a superfinal's regular questions not yet in the file; either team may
  take each (a Brainball question at most one of them), and a tie after them goes to pairs of
  questions that can settle it either way.
- what it takes, counted however the result falls: a superfinalist's questions left may be
  ChGK ones, which the other team can take too, before Brainball ones, which it cannot; a
  league team's match points may come from battles against anyone but the rival compared.
  A league team gets it only with at most ``LAST_BATTLES`` battles left: its last round, not a
  season of battles still ahead.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from decimal import Decimal

from podium.engine.compute import compute_standings
from podium.engine.entries import Number
from podium.engine.formats.superfinal import discipline_at, regular_count
from podium.engine.inputs import RawRow
from podium.engine.messages import Value, _, ngettext
from podium.engine.outlook.core import Cap, Prospect
from podium.engine.outlook.plans import (
    Domain,
    Plan,
    decimal_key,
    questions_domain,
    read_prefix,
)
from podium.engine.standings import Standings
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import (
    ChgkSeasonStage,
    ChgkTourStage,
    HeadToHeadStage,
    Stage,
    SuperfinalStage,
)

LAST_BATTLES = 3


def _points(value: Number | None) -> Decimal:
    return Decimal(0) if value is None else Decimal(value)  # type: ignore[arg-type]


def season_plan(
    rulebook: Rulebook,
    stage: Stage,
    rows: Sequence[RawRow],
    remaining: int,
    pending: Sequence[RawRow] = (),
) -> Plan:
    """``pending``: rows naming teams with no tour yet (only their ids are read)."""
    assert isinstance(stage, ChgkSeasonStage)
    tour = rulebook.stage(stage.tour)
    assert isinstance(tour, ChgkTourStage)
    per_place = list(tour.points.per_place) if tour.points else []
    top = max(per_place, default=Decimal(0))
    current = compute_standings(rulebook, stage.key, rows)
    teams = sum(len(t.rows) for t in current.tables)
    unit = Decimal(1).scaleb(-(tour.points.decimals if tour.points else 0))
    supply = sum(per_place, Decimal(0)) + unit * teams / 2  # rounding: half a unit per team
    if not remaining:
        return _final(current)
    prospects: dict[str, list[Prospect]] = {}
    gains: dict[str, Decimal] = {}
    for table in current.tables:
        listed = []
        for row in table.rows:
            e = row.entry
            now = _points(row.points)
            gain = top * remaining if e.official else Decimal(0)
            gains[e.id] = gain
            listed.append(Prospect(e.id, e.klass, decimal_key(now + gain), decimal_key(now)))
        known = {p.id for p in listed}
        # A team that has played no tour yet can still take points in the tours left.
        for waiting in pending:
            team = (waiting.cells.get("id") or "").strip()
            if team and team not in known:
                known.add(team)
                gains[team] = top * remaining
                listed.append(Prospect(team, "official", decimal_key(gains[team]), decimal_key(0)))
        prospects[table.key] = listed
    cap = _supply_cap(gains, supply * remaining)
    bound = _("the remaining tours' places are shared out among all the teams, which these "
              "bounds count only as a total of points per tour; ties on points may still go "
              "either way")  # fmt: skip
    plan = Plan(current, prospects, ambiguous=True, bound=bound, cap=cap)
    if remaining == 1:
        values = sorted({Decimal(0), *per_place})
        for listed in prospects.values():
            for p in listed:
                if p.klass == "official":
                    plan.domains[p.id] = _tour_points_domain(values, level(p.low))
    return plan


def _final(current: Standings) -> Plan:
    """Every tour or battle played: the places stand as ranked (tie-breaks included), but for
    ties held for a play-off, which can end either way among the tied teams."""
    prospects = {
        t.key: [Prospect(r.entry.id, r.entry.klass, ((1, r.rank),), ((1, r.rank),)) for r in t.rows]
        for t in current.tables
    }
    held = any(r.playoff for t in current.tables for r in t.rows)
    return Plan(current, prospects, ambiguous=held, bound=None)


def level(key: tuple[object, ...]) -> Decimal:
    (inner,) = key
    return -inner[1]  # type: ignore[index, no-any-return]


def _supply_cap(gains: dict[str, Decimal], supply: Decimal) -> Cap:
    """How many others can reach ``p``'s worst points: those already there, and the others that
    the points still to hand out can lift there, cheapest first."""

    def cap(p: Prospect, others: Sequence[Prospect]) -> int | None:
        target = level(p.low)
        reached = 0
        needs: list[Decimal] = []
        for q in others:
            gap = target - level(q.low)
            if gap <= 0:
                reached += 1
            elif gap <= gains[q.id]:
                needs.append(gap)
        left = supply
        for need in sorted(needs):
            if need > left:
                break
            left -= need
            reached += 1
        return reached

    return cap


def _tour_points_domain(values: Sequence[Decimal], now: Decimal) -> Domain:
    def words(x: int) -> Value:
        return _("%(points)s pts in the last tour", points=values[x])

    return Domain(len(values), lambda x: decimal_key(now + values[x]), words)


def league_plan(rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow]) -> Plan:
    assert isinstance(stage, HeadToHeadStage)

    def unplayed(row: RawRow) -> bool:
        return not any((row.cells.get(c) or "").strip() for c in ("score1", "score2"))

    played = [r for r in rows if not unplayed(r)]
    left: dict[str, int] = {}
    mutual: dict[frozenset[str], int] = {}
    for row in rows:
        if unplayed(row):
            pair = [(row.cells.get(column) or "").strip() for column in ("team1", "team2")]
            for team in pair:
                left[team] = left.get(team, 0) + 1
            mutual[frozenset(pair)] = mutual.get(frozenset(pair), 0) + 1
    battles = dict(left)
    current = compute_standings(rulebook, stage.key, played)
    if not left:  # match points alone would share the places the tie-breaks settle
        return _final(current)
    match = stage.match
    prospects: dict[str, list[Prospect]] = {}
    domains: dict[str, Domain] = {}
    for table in current.tables:
        listed = []
        for standing in table.rows:
            e = standing.entry
            now, n = _points(e.metrics.get("match_points")), left.pop(e.id, 0)
            if 0 < n <= LAST_BATTLES:
                domains[e.id] = _battles_domain(stage, now, n)
            listed.append(
                Prospect(e.id, e.klass, decimal_key(now + match.win * n),
                         decimal_key(now + match.loss * n))
            )  # fmt: skip
        # Teams with no battle played yet still stand in the way of the others.
        listed.extend(
            Prospect(team, "official", decimal_key(match.win * n), decimal_key(match.loss * n))
            for team, n in sorted(left.items())
        )
        prospects[table.key] = listed
    bound = _("each remaining battle gives points to both its teams, which these bounds do not "
              "follow; ties on match points may still go either way")  # fmt: skip
    points = {p.id: level(p.low) - stage.match.loss * battles.get(p.id, 0)
              for listed in prospects.values() for p in listed}  # fmt: skip
    cap = _battles_cap(stage, points, battles, mutual)
    return Plan(current, prospects, ambiguous=True, bound=bound, cap=cap, domains=domains)


def _sums(stage: HeadToHeadStage, n: int) -> list[Decimal]:
    """Every total of match points ``n`` battles can give one team, from the least up."""
    match = stage.match
    return list(_totals(match.win, match.draw, match.loss, n))


@functools.lru_cache(maxsize=1024)
def _totals(win: Decimal, draw: Decimal, loss: Decimal, n: int) -> tuple[Decimal, ...]:
    # Asked once per rival and value by the cap: made once per scale and count.
    return tuple(sorted(
        {win * w + draw * d + loss * (n - w - d) for w in range(n + 1) for d in range(n + 1 - w)}
    ))  # fmt: skip


@functools.lru_cache(maxsize=1024)
def _total_set(win: Decimal, draw: Decimal, loss: Decimal, n: int) -> frozenset[Decimal]:
    return frozenset(_totals(win, draw, loss, n))


def _battles_cap(
    stage: HeadToHeadStage,
    now: dict[str, Decimal],
    battles: dict[str, int],
    mutual: dict[frozenset[str], int],
) -> Cap:
    """How many others can, each on its own, reach ``p``'s worst: ``p``'s points now plus the
    ``v`` it takes in its battles left however it took them. A rival takes its most when ``p``
    takes its points from the other battles first; what ``p`` must still take from their
    battles together, the rival loses."""
    match = stage.match

    def rival_most(v: Decimal, mine: int, theirs: int, k: int) -> Decimal:
        elsewhere = _total_set(match.win, match.draw, match.loss, mine - k)
        together = [
            (match.win * a + match.draw * b + match.loss * (k - a - b),
             match.loss * a + match.draw * b + match.win * (k - a - b))
            for a in range(k + 1) for b in range(k + 1 - a)
        ]  # fmt: skip
        best = max((got for took, got in together if v - took in elsewhere), default=None)
        return match.win * (theirs - k) + (match.win * k if best is None else best)

    def cap(p: Prospect, others: Sequence[Prospect]) -> int:
        level_p = level(p.low)
        v, mine = level_p - now[p.id], battles.get(p.id, 0)
        return sum(
            now[q.id] + rival_most(v, mine, battles.get(q.id, 0),
                                   mutual.get(frozenset((p.id, q.id)), 0)) >= level_p
            for q in others
        )  # fmt: skip

    return cap


def _battles_domain(stage: HeadToHeadStage, now: Decimal, n: int) -> Domain:
    """The match points a team can take in its ``n`` battles left, from the least up."""
    values = _sums(stage, n)

    def words(x: int) -> Value:
        return ngettext("%(points)s match points in the battle left",
                        "%(points)s match points in the %(n)s battles left", n,
                        points=values[x])  # fmt: skip

    return Domain(len(values), lambda x: decimal_key(now + values[x]), words)


def superfinal_plan(rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow]) -> Plan:
    assert isinstance(stage, SuperfinalStage)
    current = compute_standings(rulebook, stage.key, rows)
    left = max(0, regular_count(stage) - len(rows))
    decided = all(r.rank == r.rank_to for t in current.tables for r in t.rows)
    if decided:
        left = 0
    prospects = {
        t.key: [
            Prospect(r.entry.id, r.entry.klass,
                     decimal_key(_points(r.entry.metrics["questions"]) + left),
                     decimal_key(_points(r.entry.metrics["questions"])))
            for r in t.rows
        ]
        for t in current.tables
    }  # fmt: skip
    plan = Plan(current, prospects, ambiguous=not decided, bound=None)
    if left:
        asked = regular_count(stage) - left
        chgk = sum(discipline_at(stage, n) == "chgk" for n in range(asked + 1, asked + left + 1))
        now = {p.id: level(p.low) for listed in prospects.values() for p in listed}
        plan.cap = _questions_cap(now, left, chgk)
        criteria, _whole = read_prefix(stage, frozenset({"questions"}))
        for p_id, taken in now.items():
            plan.domains[p_id] = questions_domain(int(taken), left, criteria)
    return plan


def _questions_cap(now: dict[str, Decimal], left: int, chgk: int) -> Cap:
    """How many others can reach ``p``'s worst, its questions now plus ``x`` of those left
    however it took them: at worst its ChGK questions first, which both teams may take, and
    only then Brainball questions, each of which the others lose."""

    def cap(p: Prospect, others: Sequence[Prospect]) -> int:
        x = level(p.low) - now[p.id]
        denied = max(Decimal(0), x - chgk)
        return sum(now[q.id] + left - denied >= level(p.low) for q in others)

    return cap
