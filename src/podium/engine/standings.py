"""Standings: ranked, classified, pointed and advanced tables, each row with its reasons.

Vocabulary:
- table: one independent ranking of a stage (a group, a division, or ``all``).
- rank / rank_to: overall position among everyone in the table (shared: first and last place).
- official rank: the place among official entrants only (``None`` outside the competition).
- points: points per official place, shared places splitting their points.
- pool: an advancement quota (see ``podium.engine.advancement``).
- reasons: why a row stands where it does, each with the clause of the rule that decided it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.advancement import Decision, advance
from podium.engine.entries import Entry, Reason
from podium.engine.ranking import (
    Criterion,
    Placed,
    PlayoffZone,
    RowCriterion,
    Split,
    criteria_for,
    official_places,
    rank,
)
from podium.engine.wording import span
from podium.rules.schema import Points, Stage


@dataclass(frozen=True, slots=True)
class Row:
    entry: Entry
    rank: int
    rank_to: int
    official_rank: int | None
    official_rank_to: int | None
    points: Decimal | None
    advances: bool
    playoff: bool
    prize: bool
    reasons: tuple[Reason, ...]


@dataclass(frozen=True, slots=True)
class Table:
    key: str
    title: str
    rows: tuple[Row, ...]


@dataclass(frozen=True, slots=True)
class Standings:
    rulebook: str
    stage: str
    tables: tuple[Table, ...]


def split_points(place: int, place_to: int, points: Points) -> Decimal:
    """The points of places ``place``…``place_to``, shared equally and rounded (half up)."""
    table = points.per_place
    spanned = [table[p - 1] if p <= len(table) else Decimal(0) for p in range(place, place_to + 1)]
    exact = sum(spanned, Decimal(0)) / len(spanned)
    return exact.quantize(Decimal(1).scaleb(-points.decimals), rounding=ROUND_HALF_UP)


def build_table(key: str, title: str, entries: Sequence[Entry], stage: Stage) -> Table:
    ranking = stage.ranking
    criteria = criteria_for([c.key for c in ranking.criteria])
    clauses = {c.key: c.clause or ranking.clause for c in ranking.criteria}
    zone = None
    if ranking.playoff:
        first, last = ranking.playoff.places
        zone = PlayoffZone(ranking.playoff.after, first, last)
    placed = rank(entries, criteria, playoff=zone)
    official = official_places(placed)
    scope = f" in group {key}" if key in stage.groups else ""
    decisions = advance(placed, stage.advancement, key, scope) if stage.advancement else {}
    runner_up = placed[1].split if len(placed) > 1 else None
    rows = []
    for p in placed:
        e = p.entry
        off_rank, off_rank_to = official.get(e.id, (None, None))
        reasons: list[Reason] = []
        if e.outside:
            reasons.append(e.outside)
        reasons.extend(_rank_reasons(p, criteria, clauses, stage, runner_up))
        reasons.extend(e.notes)
        points = None
        if stage.points and off_rank is not None and off_rank_to is not None:
            points = split_points(off_rank, off_rank_to, stage.points)
            reasons.append(_points_reason(off_rank, off_rank_to, points, stage.points))
        decision = decisions.get(e.id, Decision(False, None))
        if decision.reason:
            reasons.append(decision.reason)
        prize = _prize(stage, p, off_rank)
        if prize:
            reasons.append(Reason(stage.prizes.clause if stage.prizes else None, "Wins a prize"))
        rows.append(
            Row(
                entry=e,
                rank=p.place,
                rank_to=p.place_to,
                official_rank=off_rank,
                official_rank_to=off_rank_to,
                points=points,
                advances=decision.advances,
                playoff=p.playoff and e.official,
                prize=prize,
                reasons=tuple(reasons),
            )
        )
    return Table(key, title, tuple(rows))


def _rank_reasons(
    p: Placed,
    criteria: Sequence[Criterion],
    clauses: dict[str, str | None],
    stage: Stage,
    runner_up: Split | None,
) -> list[Reason]:
    reasons: list[Reason] = []
    if p.split is not None:
        s = p.split
        reasons.append(
            Reason(
                clauses[s.criterion.key],
                f"Below {s.above.name} on {s.criterion.label}: "
                f"{s.criterion.describe(s.value)} against {s.criterion.describe(s.above_value)}",
            )
        )
    elif p.place == 1 and not p.tied:
        # Show what the leader leads on: the criteria up to the one that split off the next row.
        shown = criteria[: (criteria.index(runner_up.criterion) + 1) if runner_up else 1]
        values = [(c, c.column([p.entry])[0]) for c in shown if isinstance(c, RowCriterion)]
        text = ", ".join(c.phrase(v) for c, v in values if v is not None)
        reasons.append(Reason(clauses[criteria[0].key], f"First: {text}"))
    if p.tied:
        shared = span(p.place, p.place_to)
        playoff = stage.ranking.playoff
        if p.playoff and playoff is not None:
            reasons.append(
                Reason(
                    playoff.clause, f"Tied for places {shared}: to be settled by {playoff.method}"
                )
            )
        else:
            compared = ", ".join(c.label for c in criteria)
            reasons.append(
                Reason(stage.ranking.clause, f"Shares places {shared}: equal on {compared}")
            )
    return reasons


def _points_reason(place: int, place_to: int, points: Decimal, rule: Points) -> Reason:
    if place == place_to:
        return Reason(rule.clause, f"{points} points for official place {place}")
    table = rule.per_place
    parts = " + ".join(
        str(table[q - 1]) if q <= len(table) else "0" for q in range(place, place_to + 1)
    )
    n = place_to - place + 1
    text = f"Shares official places {place}–{place_to}: ({parts}) / {n} = {points} points"
    return Reason(rule.clause, text)


def _prize(stage: Stage, p: Placed, official_rank: int | None) -> bool:
    prizes = stage.prizes
    if prizes is None:
        return False
    place = official_rank if prizes.official_only else p.place
    return place is not None and place <= prizes.places
