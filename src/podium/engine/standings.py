"""Standings: ranked, classified, pointed and advanced tables, each row with its reasons.

Vocabulary:
- table: one independent ranking of a stage (a group, a division, or ``all``).
- rank / rank_to: overall position among everyone in the table (shared: first and last place).
- official rank: the place among official entrants only (``None`` outside the competition).
- placings: a stage's criteria and its entries placed by them, before any row is made (a
  season places its tours so, reading only their places).
- points: points per official place, shared places splitting their points; worked out once per
  span of places (``SpanPoints``).
- pool: an advancement quota (see ``podium.engine.advancement``).
- reasons: why a row stands where it does, each with the clause of the rule that decided it.
  Every decision is made when the table is built; the sentences are written when a row's reasons
  are read (an explanation per table renders them), so large tables stay cheap to compute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple, Protocol

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.absence import Absentee
from podium.engine.advancement import Decision, advance
from podium.engine.collector import paused_gc
from podium.engine.entries import Entry, Reason
from podium.engine.messages import Joined, Span, _, term
from podium.engine.playoff import settle
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
from podium.rules.schema import Rulebook
from podium.rules.schema.ranking import Points
from podium.rules.schema.stages import ChgkSeasonStage, HeadToHeadStage, Stage


class Explanation(Protocol):
    def reasons(self, row: Row) -> tuple[Reason, ...]: ...


@dataclass(frozen=True, slots=True)
class Given:
    """Reasons written out in advance (a table a format builds by hand)."""

    items: tuple[Reason, ...]

    def reasons(self, row: Row) -> tuple[Reason, ...]:
        return self.items


@dataclass(frozen=True, slots=True)
class Footnoted:
    """A row's own reasons, then the footnotes added to it."""

    base: Explanation
    extra: tuple[Reason, ...]

    def reasons(self, row: Row) -> tuple[Reason, ...]:
        return (*self.base.reasons(row), *self.extra)


class Row(NamedTuple):
    """A named tuple, made once per row of every table (see ``Entry``)."""

    entry: Entry
    rank: int
    rank_to: int
    official_rank: int | None
    official_rank_to: int | None
    points: Decimal | None
    advances: bool
    playoff: bool
    prize: bool
    why: Explanation
    placed: Placed | None = None
    decision: Decision | None = None

    @property
    def reasons(self) -> tuple[Reason, ...]:
        return self.why.reasons(self)


@dataclass(frozen=True, slots=True)
class Table:
    key: str
    title: str
    rows: tuple[Row, ...]
    absent: tuple[Absentee, ...] = ()  # at its foot, unranked (``podium.engine.absence``)


@dataclass(frozen=True, slots=True)
class Standings:
    rulebook: str
    stage: str
    tables: tuple[Table, ...]


def with_notes(table: Table, notes: Mapping[str, Sequence[Reason]]) -> Table:
    """The table with ``notes`` added to the reasons of the rows they name (by entrant id)."""
    rows = tuple(
        row._replace(why=Footnoted(row.why, tuple(notes[row.entry.id])))
        if row.entry.id in notes
        else row
        for row in table.rows
    )
    return Table(table.key, table.title, rows, table.absent)


def split_points(place: int, place_to: int, points: Points) -> Decimal:
    """The points of places ``place``…``place_to``, shared equally and rounded (half up)."""
    table = points.per_place
    if place > len(table):
        return Decimal(0).quantize(Decimal(1).scaleb(-points.decimals))
    spanned = [table[p - 1] if p <= len(table) else Decimal(0) for p in range(place, place_to + 1)]
    exact = sum(spanned, Decimal(0)) / len(spanned)
    return exact.quantize(Decimal(1).scaleb(-points.decimals), rounding=ROUND_HALF_UP)


class SpanPoints:
    """The points of each official span of places under a points rule, each span worked out
    once: a tie of n costs n, not n²."""

    def __init__(self, rule: Points) -> None:
        self.rule = rule
        self._pointed = len(rule.per_place)
        self._known: dict[tuple[int, int], Decimal] = {}

    def __call__(self, first: int, last: int) -> Decimal:
        # Every span starting past the points table scores the same zero: one key serves them all.
        key = (first, last) if first <= self._pointed else _PAST_POINTS
        points = self._known.get(key)
        if points is None:
            points = self._known[key] = split_points(first, last, self.rule)
        return points


def placings(
    entries: Sequence[Entry], stage: Stage, playoffs: Mapping[str, Sequence[int]] | None = None
) -> tuple[list[Criterion], list[Placed]]:
    """The stage's criteria and the entries placed by them; ``playoffs``: play-off results by
    entrant id, settling the ties held for a play-off."""
    ranking = stage.ranking
    criteria = criteria_for([c.key for c in ranking.criteria])
    zone = None
    if ranking.playoff:
        first, last = ranking.playoff.places
        zone = PlayoffZone(ranking.playoff.after, first, last)
    placed = rank(entries, criteria, playoff=zone)
    if playoffs:
        placed = settle(placed, playoffs)
    return criteria, placed


@paused_gc
def build_table(
    key: str,
    title: str,
    entries: Sequence[Entry],
    stage: Stage,
    playoffs: Mapping[str, Sequence[int]] | None = None,
) -> Table:
    """``playoffs``: play-off results by entrant id, settling the ties held for a play-off."""
    criteria, placed = placings(entries, stage, playoffs)
    official = official_places(placed)
    group = key if key in stage.groups else ""
    decisions = advance(placed, stage.advancement, key, group) if stage.advancement else {}
    why = _TableExplanation(stage, criteria, placed[1].split if len(placed) > 1 else None)
    points_of = SpanPoints(stage.points) if stage.points is not None else None
    prizes = stage.prizes
    prize_places = prizes.places if prizes else 0
    by_official = prizes is None or prizes.official_only
    rows: list[Row] = []
    append = rows.append
    for p in placed:
        e = p.entry
        off_rank, off_rank_to = official.get(e.id, NO_PLACE)
        points = e.points if e.official else None
        if points_of is not None and off_rank is not None and off_rank_to is not None:
            points = points_of(off_rank, off_rank_to)
        decision = decisions.get(e.id) if decisions else None
        prize_place = off_rank if by_official else p.place
        append(
            Row(
                e,
                p.place,
                p.place_to,
                off_rank,
                off_rank_to,
                points,
                decision is not None and decision.advances,
                p.playoff and e.klass == "official",
                prize_place is not None and prize_place <= prize_places,
                why,
                p,
                decision,
            )
        )
    return Table(key, title, tuple(rows))


NO_PLACE: tuple[None, None] = (None, None)  # an entrant's official places outside the competition
_PAST_POINTS = (0, 0)  # the key of every span past the points table (no real span is 0–0)


class _TableExplanation:
    """Writes the reasons of the rows of one table from the decisions stored on them."""

    def __init__(self, stage: Stage, criteria: Sequence[Criterion], runner_up: Split | None):
        self.stage = stage
        self.criteria = criteria
        self.runner_up = runner_up
        ranking = stage.ranking
        self.clauses = {c.key: c.clause or ranking.clause for c in ranking.criteria}

    def reasons(self, row: Row) -> tuple[Reason, ...]:
        e, stage = row.entry, self.stage
        reasons: list[Reason] = []
        if e.outside:
            reasons.append(e.outside)
        if row.placed is not None:
            reasons.extend(self._rank(row.placed))
        reasons.extend(e.notes)
        first, last = row.official_rank, row.official_rank_to
        if stage.points and row.points is not None and first is not None and last is not None:
            reasons.append(_points_reason(first, last, row.points, stage.points))
        if row.decision is not None:
            reasons.append(row.decision.reason)
        if row.prize:
            reasons.append(Reason(stage.prizes.clause if stage.prizes else None, _("Wins a prize")))
        return tuple(reasons)

    def _rank(self, p: Placed) -> list[Reason]:
        criteria, clauses, ranking = self.criteria, self.clauses, self.stage.ranking
        reasons: list[Reason] = []
        if p.split is not None:
            s = p.split
            text = _(
                "Below %(name)s on %(criterion)s: %(value)s against %(above)s",
                name=s.above.name,
                criterion=s.criterion.label,
                value=s.criterion.describe(s.value),
                above=s.criterion.describe(s.above_value),
            )
            reasons.append(Reason(clauses[s.criterion.key], text))
        elif p.place == 1 and not p.tied:
            # Show what the leader leads on: the criteria up to the one that split off the next.
            runner_up = self.runner_up
            shown = criteria[: (criteria.index(runner_up.criterion) + 1) if runner_up else 1]
            values = [(c, c.column([p.entry])[0]) for c in shown if isinstance(c, RowCriterion)]
            leads = Joined(tuple(c.phrase(v) for c, v in values if v is not None))
            reasons.append(Reason(clauses[criteria[0].key], _("First: %(leads)s", leads=leads)))
        if p.settled is not None:
            playoff = ranking.playoff
            reasons.append(Reason(playoff.clause if playoff else None, p.settled))
        elif p.tied:
            shared = Span(p.place, p.place_to)
            playoff = ranking.playoff
            if p.playoff and playoff is not None:
                text = _(
                    "Tied for places %(places)s: to be settled by %(method)s",
                    places=shared,
                    method=term(playoff.method),
                )
                reasons.append(Reason(playoff.clause, text))
            else:
                compared = Joined(tuple(c.label for c in criteria))
                text = _("Shares places %(places)s: equal on %(criteria)s", places=shared,
                         criteria=compared)  # fmt: skip
                reasons.append(Reason(ranking.clause, text))
        return reasons


def _points_reason(place: int, place_to: int, points: Decimal, rule: Points) -> Reason:
    if place == place_to:
        text = _("%(points)s points for official place %(place)s", points=points, place=place)
        return Reason(rule.clause, text)
    table = rule.per_place
    parts = " + ".join(
        str(table[q - 1]) if q <= len(table) else "0" for q in range(place, place_to + 1)
    )
    text = _(
        "Shares official places %(first)s–%(last)s: (%(parts)s) / %(n)s = %(points)s points",
        first=place,
        last=place_to,
        parts=parts,
        n=place_to - place + 1,
        points=points,
    )
    return Reason(rule.clause, text)


def points_decimals(rulebook: Rulebook, stage: Stage) -> int | None:
    """The decimals a stage's row points are shown with, or ``None`` where its rows stand on no
    points (DESIGN §3): place points, a season's sum of tour points, a league's match points."""
    if stage.points is not None:
        return stage.points.decimals
    if isinstance(stage, ChgkSeasonStage):
        tour = rulebook.stage(stage.tour)
        return tour.points.decimals if tour.points is not None else None
    if isinstance(stage, HeadToHeadStage):
        match = stage.match
        exponents = [
            int(d.normalize().as_tuple().exponent) for d in (match.win, match.draw, match.loss)
        ]
        return max(0, *(-e for e in exponents))
    return None
