"""Game totals (bowling): each entrant bowls a fixed number of games; the pinfall is added up.

Vocabulary:
- game: one game's score, 0–300 (a ten-pin game; ``podium.engine.tenpin`` scores its rolls).
- total: the pinfall of all games.
- series in progress: the first games are recorded and the rest are still empty (a squad that
  is still bowling, recorded block by block or game by game); it is ranked on the games so far.
  An empty game before a recorded one is a gap, and refused.
- outside-in tie-break: equal totals are compared on the highest game, then the lowest, then the
  next highest, the next lowest, and so on (ČBA §9 a–c); still equal after every game, the
  entrants share the place (our decision).
- division: the table an entrant plays in, from gender and the ladder average as of the
  rulebook's reference date; an entrant not on the ladder goes to the lowest (fallback) division.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from operator import itemgetter

from podium.engine.entries import Reason
from podium.engine.formats.common import Scored, ScoreRow, single_result_tables
from podium.engine.inputs import Competitor, RawRow, Reader
from podium.engine.messages import MessageError, Value, _, reason_of, term
from podium.engine.standings import Table
from podium.rules.schema import Rulebook
from podium.rules.schema.classification import Division, Divisions
from podium.rules.schema.stages import GamesStage, Stage

MAX_GAME = 300
GAME_SCORE = _("game score")  # what a bad game cell is said to be (made once, not per cell)


# The metric names of the n-th highest and n-th lowest game, written once rather than per row.
_OUTSIDE_IN = tuple(
    (n, f"high-game{suffix}", f"low-game{suffix}") for n, suffix in ((1, ""), (2, "-2"), (3, "-3"))
)


_OUTSIDE_IN_NAMES = tuple(name for _, high, low in _OUTSIDE_IN for name in (high, low))
_OUTSIDE_IN_PICKS = itemgetter(*(i for n, _, _ in _OUTSIDE_IN for i in (n - 1, -n)))


def outside_in(games: Sequence[int]) -> dict[str, int | None]:
    """The metrics ``high-game``, ``low-game``, ``high-game-2``… of a set of games."""
    ordered = sorted(games, reverse=True)
    count = len(ordered)
    if count >= len(_OUTSIDE_IN_NAMES):  # a whole series: every metric has its game
        return dict(zip(_OUTSIDE_IN_NAMES, _OUTSIDE_IN_PICKS(ordered), strict=True))
    metrics: dict[str, int | None] = {}
    for n, high, low in _OUTSIDE_IN:
        metrics[high] = ordered[n - 1] if count >= 2 * n - 1 else None
        metrics[low] = ordered[-n] if count >= 2 * n else None
    return metrics


def assign_division(
    divisions: Divisions, gender: str | None, average: Decimal | None
) -> tuple[Division, Reason]:
    """The division for a gender and ladder average, with the reason (and its clause)."""
    candidates = [d for d in divisions.items if d.gender in (None, gender)]
    day = divisions.reference_date.isoformat() if divisions.reference_date else None
    if average is None:
        fallback = next(d for d in candidates if d.fallback)
        known: dict[str, Value] = {"division": term(fallback.title)}
        text = (
            _("Division %(division)s: not on the ladder as of %(day)s, so the lowest division",
              day=day, **known)
            if day
            else _("Division %(division)s: not on the ladder, so the lowest division", **known)
        )  # fmt: skip
        return fallback, Reason(divisions.fallback_clause or fallback.clause, text)
    for division in candidates:
        low, high = division.average_min, division.average_max
        if (low is None or average >= low) and (high is None or average <= high):
            known = {"division": term(division.title), "average": average,
                     "bounds": _bounds(division)}  # fmt: skip
            text = (
                _("Division %(division)s: ladder average %(average)s as of %(day)s (%(bounds)s)",
                  day=day, **known)
                if day
                else _("Division %(division)s: ladder average %(average)s (%(bounds)s)", **known)
            )  # fmt: skip
            return division, Reason(division.clause, text)
    shown: Value = average if average is not None else "—"
    raise MessageError(_("no division takes gender %(gender)s with average %(average)s",
                         gender=str(gender), average=shown))  # fmt: skip


def _bounds(division: Division) -> Value:
    low, high = division.average_min, division.average_max
    if low is not None and high is not None:
        return _("%(low)s–%(high)s", low=low, high=high)
    if low is not None:
        return _("%(low)s or more", low=low)
    return _("up to %(high)s", high=high if high is not None else "—")


def tables(rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow]) -> list[Table]:
    if not isinstance(stage, GamesStage):
        raise TypeError(f"not a games stage: {stage.format}")
    columns = [f"g{i}" for i in range(1, stage.games + 1)]
    divisions = rulebook.divisions if stage.tables_by == "division" else None
    order: list[str] = []
    titles: dict[str, str] = {}
    if divisions is not None:
        order = [d.key for d in divisions.items]
        titles = {d.key: f"{stage.title} — {d.title}" for d in divisions.items}
    return single_result_tables(
        rulebook, stage, rows, columns, _scorer(columns, divisions), order, titles
    )


# The divisions chosen, by gender and the ladder average as its reason writes it (``160.10`` and
# ``160.1`` are one value but two texts).
_Assigned = dict[tuple[str | None, str | None], tuple[Division, Reason]]


def _scorer(columns: Sequence[str], divisions: Divisions | None) -> ScoreRow:
    # Many players share a gender and an average: each division and its reason is chosen once.
    assigned: _Assigned = {}

    def score(row: RawRow, reader: Reader, competitor: Competitor | None) -> Scored | None:
        problems = reader.problems
        before = len(problems)
        games: Sequence[int | None] | None = _plain_games(row, columns)
        if games is None:
            games = [reader.count(row, c, maximum=MAX_GAME, what=GAME_SCORE) for c in columns]
        if None in games:  # only a row missing a game (or with a bad one) is looked at again
            filled = [n for n, c in enumerate(columns) if reader.text(row, c)]
            bowled = filled[-1] + 1 if filled else len(columns)  # a series in progress ends here
            for column, game in zip(columns[:bowled], games, strict=False):
                if game is None and not reader.text(row, column):
                    problems.add(reader.where(row, column), _("every game needs its score"))
        table, note = _division(row, reader, competitor, divisions, assigned)
        if len(problems) > before:
            return None
        scores = [g for g in games if g is not None]
        total = sum(scores)
        metrics: dict[str, int | None] = {"total": total, **outside_in(scores)}
        known: dict[str, Value] = {"total": total, "high": max(scores)}
        text = _("%(total)s (%(high)s high)", **known)
        notes: tuple[Reason, ...] = (note,) if note else ()
        if len(scores) < len(columns):
            text = _("%(total)s (%(high)s high) after %(bowled)s of %(games)s games",
                     bowled=len(scores), games=len(columns), **known)  # fmt: skip
            progress = _("Series in progress: %(bowled)s of %(games)s games", bowled=len(scores),
                         games=len(columns))  # fmt: skip
            notes += (Reason(None, progress),)
        return Scored(metrics, text, notes, table)

    return score


def _plain_games(row: RawRow, columns: Sequence[str]) -> list[int] | None:
    """Every game, when each is plain digits and at most 300 (as in nearly every row); else
    ``None``, and the reader reads them one by one, saying what is wrong with each."""
    texts = [row.cells.get(c) or "" for c in columns]
    digits = "".join(texts)
    if not (all(texts) and digits.isascii() and digits.isdigit()):
        return None
    games = [int(text) for text in texts]
    return games if max(games) <= MAX_GAME else None


def _division(
    row: RawRow,
    reader: Reader,
    competitor: Competitor | None,
    divisions: Divisions | None,
    assigned: _Assigned,
) -> tuple[str | None, Reason | None]:
    if divisions is None:
        return None, None
    given = reader.text(row, "division")
    if given:
        known = {d.key: d for d in divisions.items}
        if given not in known:
            shown = ", ".join(known)
            reader.problems.add(
                reader.where(row, "division"),
                _("unknown division '%(division)s' (%(known)s)", division=given, known=shown),
            )
            return None, None
        entered = _("Division %(division)s, as entered", division=term(known[given].title))
        return given, Reason(known[given].clause, entered)
    if competitor is None:
        return None, None
    if competitor.gender is None and any(d.gender is not None for d in divisions.items):
        reader.problems.add(
            reader.where(row, "gender"), _("M or F is needed to choose the division")
        )
        return None, None
    gender, average = competitor.gender, competitor.average
    key = (gender, None if average is None else str(average))
    known_division = assigned.get(key)
    if known_division is None:
        try:
            known_division = assigned[key] = assign_division(divisions, gender, average)
        except ValueError as exc:  # an average in no division's range (e.g. 189.995)
            reader.problems.add(reader.where(row, "average"), reason_of(exc))
            return None, None
    division, reason = known_division
    return division.key, reason
