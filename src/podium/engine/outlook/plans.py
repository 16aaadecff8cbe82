"""Each format's part of the outlook: its completions, its keys and what a result in the round
left is.

Vocabulary (see ``podium.engine.outlook.core`` for keys and prospects):
- completion: the results file with everything still to play filled in. The *low* completion
  gives every entrant its worst (a timed entrant unfinished with no piece, an empty game 0, a
  missing or disputed question not taken); the *high* one its best (a finish at the clock now
  with no piece missing, an empty game 300, every open question taken). Both are ranked by the
  engine itself, and each entry's key is read from the stage's own criteria.
- independent metrics: those an entrant's own unknowns alone decide; a criterion reading
  anything else (a question rating, which depends on the other teams' answers; a head-to-head
  result) ends the read prefix, and ties on the prefix become ambiguous.
- plan: what a format hands the counting: the current standings, the prospects per table,
  whether ties are ambiguous, why the places are a bound (``None``: exact), a cap, and for an
  entrant with one round left, its *domain* (see ``Domain``).
- domain: the results an entrant can still get in its last round, numbered from the worst (0)
  to the best, with the key and the words of each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from podium.engine.compute import compute_standings
from podium.engine.entries import Entry, Number
from podium.engine.formats.games import outside_in
from podium.engine.inputs import RawRow
from podium.engine.messages import Message, Value, _
from podium.engine.outlook.core import Cap, Key, Prospect
from podium.engine.ranking import Criterion, Direction, GroupCriterion, RowCriterion, criteria_for
from podium.engine.standings import Standings
from podium.engine.timing import format_clock, parse_clock
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import (
    ChgkTourStage,
    GamesStage,
    Stage,
    TeamSolveStage,
    TimedSolveStage,
)


@dataclass(frozen=True, slots=True)
class Domain:
    size: int
    key: Callable[[int], Key]
    words: Callable[[int], Value]


@dataclass(slots=True)
class Plan:
    standings: Standings
    prospects: dict[str, list[Prospect]]
    ambiguous: bool
    bound: Message | None
    cap: Cap | None = None
    domains: dict[str, Domain] = field(default_factory=dict)  # by entrant id


def read_prefix(stage: Stage, independent: frozenset[str]) -> tuple[list[Criterion], bool]:
    """The criteria the outlook reads, and whether that is all of them."""
    keys = [c.key for c in stage.ranking.criteria]
    playoff = stage.ranking.playoff
    read: list[Criterion] = []
    for criterion in criteria_for(keys):
        if isinstance(criterion, GroupCriterion) or not isinstance(criterion, RowCriterion):
            return read, False
        if criterion.metric not in independent:
            return read, False
        read.append(criterion)
        if playoff is not None and criterion.key == playoff.after:
            return read, len(read) == len(keys)
    return read, True


def key_of(metrics: Mapping[str, Number | None], criteria: Sequence[Criterion]) -> Key:
    """Smaller is better, as ``podium.engine.ranking`` sorts; ``None`` where a metric does not
    apply (a non-finisher's time: the criterion before it has already split them)."""
    key: list[object] = []
    for c in criteria:
        v = metrics[c.metric]  # type: ignore[attr-defined]
        key.append((0,) if v is None else (1, -v if c.direction is Direction.HIGHER else v))
    return tuple(key)


def _entries(standings: Standings) -> dict[str, Entry]:
    return {row.entry.id: row.entry for table in standings.tables for row in table.rows}


def completed_plan(
    rulebook: Rulebook,
    stage: Stage,
    rows: Sequence[RawRow],
    fill: Callable[[RawRow, bool], RawRow],
    independent: frozenset[str],
    bound: Message,
    current_rows: Sequence[RawRow] | None = None,
    pending: Sequence[RawRow] = (),
) -> Plan:
    """The plan of a format whose unknowns are each entrant's own: its low and high
    completions ranked by the engine; ``current_rows``: the file as the engine ranks it now,
    where that differs from ``rows`` (a mask still being written); ``pending``: rows of
    entrants with nothing recorded yet, who are in every completion but not in the table now."""
    current = compute_standings(rulebook, stage.key, current_rows or rows)
    every = [*rows, *pending]
    lows = compute_standings(rulebook, stage.key, [fill(r, False) for r in every])
    low = _entries(lows)
    high = _entries(compute_standings(rulebook, stage.key, [fill(r, True) for r in every]))
    criteria, whole = read_prefix(stage, independent)
    ambiguous = not whole or stage.ranking.playoff is not None
    prospects: dict[str, list[Prospect]] = {}
    for table in lows.tables:
        prospects[table.key] = [
            Prospect(
                r.entry.id,
                r.entry.klass,
                key_of(high[r.entry.id].metrics, criteria),
                key_of(low[r.entry.id].metrics, criteria),
            )
            for r in table.rows
        ]
    return Plan(current, prospects, ambiguous, None if whole else bound)


def _with(row: RawRow, **cells: str) -> RawRow:
    return RawRow(row.line, {**row.cells, **cells})


# --- Timed rounds ---------------------------------------------------------------------------


def clock_now(
    stage: TimedSolveStage | TeamSolveStage, rows: Sequence[RawRow], now_ms: int | None
) -> int:
    """The round's clock now: given, or the largest time in the file; never past the limit."""
    if now_ms is None:
        times = []
        for row in rows:
            text = (row.cells.get("time") or "").strip()
            try:
                times.append(parse_clock(text) if text else 0)
            except ValueError:
                times.append(0)  # the engine names the bad cell when it ranks the file
        now_ms = max(times, default=0)
    return min(now_ms, stage.time_limit_min * 60_000)


def timed_plan(
    rulebook: Rulebook,
    stage: Stage,
    rows: Sequence[RawRow],
    now_ms: int | None,
    pending: Sequence[RawRow] = (),
) -> Plan:
    assert isinstance(stage, TimedSolveStage | TeamSolveStage)
    now = clock_now(stage, rows, now_ms)
    clock = format_clock(now)
    if isinstance(stage, TimedSolveStage):

        def fill(row: RawRow, best: bool) -> RawRow:
            if (row.cells.get("time") or "").strip():
                return row
            if best:
                return _with(row, time=clock, pieces="", missing="")
            return _with(row, pieces="0", missing="")

    else:
        n = len(stage.puzzles)
        summed = stage.unfinished.method == "pieces-summed"

        def fill(row: RawRow, best: bool) -> RawRow:
            done_text = (row.cells.get("done") or "").strip()
            done = int(done_text) if done_text.isdigit() else None
            finished = done == n if done is not None else (summed and bool(row.cells.get("time")))
            if finished:
                return row
            if done is None and not summed:
                row, done = _with(row, done="0"), 0  # nothing recorded yet
            if best:
                return _with(row, done=str(n), time=clock, pieces="", missing="")
            least = sum(sorted(stage.puzzles)[: done or 0]) if summed else 0
            return _with(row, pieces=str(least), missing="")

    independent = frozenset({"finished", "time_ms", "pieces", "done"})
    plan = completed_plan(rulebook, stage, rows, fill, independent, _BOUND_TIED, None, pending)
    for row in rows:
        ident = (row.cells.get("id") or "").strip()
        if isinstance(stage, TimedSolveStage):
            if not (row.cells.get("time") or "").strip():
                plan.domains[ident] = _finish_domain(stage, now)
        elif fill(row, True) is not row:  # a team still solving
            plan.domains[ident] = _team_domain(stage, now, fill(row, False))
    return plan


def _finish_domain(stage: TimedSolveStage, now: int) -> Domain:
    """Unfinished with 0…pieces−1 pieces, then a finish from the limit down to the clock now,
    second by second."""
    pieces, limit = stage.pieces, stage.time_limit_min * 60_000
    seconds = max(0, (limit - now) // 1000)
    criteria, _whole = read_prefix(stage, frozenset({"finished", "time_ms", "pieces"}))

    def metrics(x: int) -> dict[str, Number | None]:
        if x < pieces:
            return {"finished": 0, "time_ms": None, "pieces": x}
        return {"finished": 1, "time_ms": limit - (x - pieces) * 1000, "pieces": None}

    def words(x: int) -> Value:
        if x < pieces:
            return _("unfinished with %(n)s pcs", n=x)
        return _("a finish in %(time)s", time=format_clock(limit - (x - pieces) * 1000))

    return Domain(pieces + seconds + 1, lambda x: key_of(metrics(x), criteria), words)


def _team_domain(stage: TeamSolveStage, now: int, low: RawRow) -> Domain:
    """A team still solving, from its worst (``low``: the puzzles it has done, no piece more)
    up: under ``puzzles-done`` each count of puzzles done with 0 up to the biggest puzzle's
    pieces on the one in progress; under ``pieces-summed`` the pieces summed up to every piece
    but the last; then every puzzle done, from the limit down to the clock now, second by
    second."""
    n, limit = len(stage.puzzles), stage.time_limit_min * 60_000
    seconds = max(0, (limit - now) // 1000)
    criteria, _whole = read_prefix(stage, frozenset({"finished", "time_ms", "pieces", "done"}))
    least = int(low.cells.get("pieces") or 0)
    if stage.unfinished.method == "pieces-summed":
        steps, span, start = sum(stage.puzzles) - least, 1, 0
    else:
        start = int((low.cells.get("done") or "0").strip() or 0)
        span = max(stage.puzzles) + 1
        steps = (n - start) * span

    def unfinished(x: int) -> tuple[int, int]:  # (puzzles done, pieces) of a result x < steps
        return (start + x // span, x % span) if span > 1 else (start, least + x)

    def metrics(x: int) -> dict[str, Number | None]:
        if x < steps:
            done, pieces = unfinished(x)
            return {"finished": 0, "done": done, "time_ms": None, "pieces": pieces}
        return {"finished": 1, "done": n, "time_ms": limit - (x - steps) * 1000, "pieces": None}

    def words(x: int) -> Value:
        if x >= steps:
            return _("a finish in %(time)s", time=format_clock(limit - (x - steps) * 1000))
        done, pieces = unfinished(x)
        if span == 1:
            return _("unfinished with %(n)s pcs", n=pieces)
        return _("%(done)s of %(all)s puzzles done and %(n)s pcs on the one in progress",
                 done=done, all=n, n=pieces)  # fmt: skip

    return Domain(steps + seconds + 1, lambda x: key_of(metrics(x), criteria), words)


_BOUND_TIED = _(
    "a criterion read after the ones compared here (or a play-off) may still split a tie either way"
)


# --- Bowling --------------------------------------------------------------------------------


def games_plan(
    rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow], pending: Sequence[RawRow] = ()
) -> Plan:
    assert isinstance(stage, GamesStage)
    columns = [f"g{i}" for i in range(1, stage.games + 1)]

    def fill(row: RawRow, best: bool) -> RawRow:
        empty = {
            c: ("300" if best else "0") for c in columns if not (row.cells.get(c) or "").strip()
        }
        return _with(row, **empty) if empty else row

    metrics = frozenset({"total", *outside_in([0] * stage.games)})
    plan = completed_plan(rulebook, stage, rows, fill, metrics, _BOUND_TIED, None, pending)
    criteria, _whole = read_prefix(stage, metrics)
    for row in rows:
        texts = [(row.cells.get(c) or "").strip() for c in columns]
        if texts.count("") == 1 and texts[-1] == "" and all(t.isdigit() for t in texts[:-1]):
            bowled = [int(t) for t in texts[:-1]]
            plan.domains[(row.cells.get("id") or "").strip()] = _game_domain(bowled, criteria)
    return plan


def _game_domain(bowled: list[int], criteria: Sequence[Criterion]) -> Domain:
    def key(x: int) -> Key:
        games = [*bowled, x]
        return key_of({"total": sum(games), **outside_in(games)}, criteria)

    return Domain(301, key, lambda x: _("%(n)s in the last game", n=x))


# --- A ChGK tour ----------------------------------------------------------------------------


def tour_plan(
    rulebook: Rulebook,
    stage: Stage,
    rows: Sequence[RawRow],
    remaining: int | None,
    pending: Sequence[RawRow] = (),
) -> Plan:
    assert isinstance(stage, ChgkTourStage)
    length = stage.questions if stage.max_questions is None else stage.max_questions

    def fill(row: RawRow, best: bool) -> RawRow:
        mask = (row.cells.get("mask") or "").strip()
        count = (row.cells.get("questions") or "").strip()
        mark = "1" if best else "0"
        if mask:
            padded = mask.replace("?", mark)
            padded += mark * max(0, length - len(padded))
            return _with(row, mask=padded, questions="")
        if count.isdigit() and remaining and best:
            return _with(row, questions=str(min(length, int(count) + remaining)))
        if not count:  # nothing recorded yet: anything from none to every question
            return _with(row, questions=str(length) if best else "0")
        return row

    def so_far(row: RawRow) -> RawRow:
        mask = (row.cells.get("mask") or "").strip()
        return _with(row, mask=mask + "0" * (length - len(mask))) if 0 < len(mask) < length else row

    plan = completed_plan(rulebook, stage, rows, fill, frozenset({"questions"}), _BOUND_RATING,
                          [so_far(r) for r in rows], pending)  # fmt: skip
    criteria, _whole = read_prefix(stage, frozenset({"questions"}))
    for row in rows:
        mask = (row.cells.get("mask") or "").strip()
        count = (row.cells.get("questions") or "").strip()
        if mask:
            taken, left = mask.count("1"), mask.count("?") + max(0, length - len(mask))
        elif count.isdigit():
            taken, left = int(count), min(remaining or 0, length - int(count))
        else:
            continue
        if left:
            plan.domains[(row.cells.get("id") or "").strip()] = questions_domain(
                taken, left, criteria
            )
    return plan


_BOUND_RATING = _(
    "the question rating depends on every team's answers, so ties on questions may still go "
    "either way"
)


def questions_domain(taken: int, left: int, criteria: Sequence[Criterion]) -> Domain:
    def words(x: int) -> Value:
        return _("%(n)s of the %(left)s questions left", n=x, left=left)

    return Domain(left + 1, lambda x: key_of({"questions": taken + x}, criteria), words)


def decimal_key(points: Decimal | int) -> Key:
    return ((1, -points),)
