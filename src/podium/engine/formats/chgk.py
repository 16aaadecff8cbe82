"""ChGK ("Что? Где? Когда?"): question tours, and the season summed over them.

Vocabulary:
- tour: one sitting of ``stage.questions`` questions; a team's result is the number of questions
  it took, and places follow that number (standard competition places, 1, 2, 2, 4).
- mask: a team's tour question by question, as the rating site writes it: ``1`` taken, ``0`` not
  taken, ``X`` withdrawn, ``?`` disputed and not yet ruled on (not taken for now, so the result is
  preliminary).
- withdrawn question: struck from the tour for every team after an appeal; it is ``X`` in every
  mask and nobody can take it.
- tour points: points per official place of a tour; teams sharing places share their points.
- season: one row per team and tour; a team's season is the sum of its tour points, then of its
  questions, then of its official tour places.
- tour place: a team's official place in a tour; a shared place counts as the mean of the places
  it spans (2nd–3rd → 2.5).
- absent: a team with no row in a tour; for the sum of places it stands after the tour's last
  official team (n + 1 for n official teams) and takes no points and no questions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from podium.engine.classification import classify
from podium.engine.entries import Entry, Reason
from podium.engine.errors import InputError, Problem, Problems
from podium.engine.formats.common import members_range
from podium.engine.inputs import Competitor, RawRow, Reader, read_competitors, require_columns
from podium.engine.standings import Row, Table, build_table
from podium.rules.schema import ChgkSeasonStage, ChgkTourStage, Rulebook, Stage

MARKS = {"1": "taken", "0": "not taken", "X": "withdrawn", "?": "disputed"}
_MARKS_HELP = ", ".join(f"{mark} ({meaning})" for mark, meaning in MARKS.items())


# --- Masks ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mask:
    marks: str

    @property
    def taken(self) -> int:
        return self.marks.count("1")

    @property
    def withdrawn(self) -> tuple[int, ...]:
        return _numbers(self.marks, "X")

    @property
    def disputed(self) -> tuple[int, ...]:
        return _numbers(self.marks, "?")


def _numbers(marks: str, mark: str) -> tuple[int, ...]:
    return tuple(i for i, m in enumerate(marks, 1) if m == mark)


def parse_mask(text: str, questions: int) -> Mask:
    """A mask of exactly ``questions`` marks; ``ValueError`` saying every fault otherwise."""
    marks = text.strip()
    faults = [f"'{m}' at question {i}" for i, m in enumerate(marks, 1) if m not in MARKS]
    if faults:
        faults[-1] += f" (marks are {_MARKS_HELP})"
    if len(marks) != questions:
        faults.append(f"{len(marks)} marks, but the tour has {questions} questions")
    if faults:
        raise ValueError(f"mask '{marks}' has " + "; ".join(faults))
    return Mask(marks)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _questions(numbers: Sequence[int]) -> str:
    """``question 7`` or ``questions 3, 7``."""
    word = "question" if len(numbers) == 1 else "questions"
    return f"{word} {', '.join(str(n) for n in numbers)}"


# --- One tour -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TourResult:
    """One team's checked tour row."""

    competitor: Competitor
    taken: int
    mask: Mask | None


def read_tour(
    rows: Sequence[RawRow],
    competitors: Sequence[Competitor | None],
    questions: int,
    problems: Problems,
) -> list[TourResult]:
    """The results of one tour's rows; each problem is added to ``problems``, naming its row."""
    reader = Reader(problems)
    masks = _read_masks(reader, rows, questions)
    withdrawn = _withdrawn(masks)
    results: list[TourResult] = []
    for row, competitor in zip(rows, competitors, strict=True):
        before = len(problems)
        mask = masks.get(row.line)
        if mask is not None:
            _check_withdrawn(reader, row, mask, withdrawn)
        taken = _taken(reader, row, mask, questions, len(withdrawn))
        if competitor is not None and taken is not None and len(problems) == before:
            results.append(TourResult(competitor, taken, mask))
    return results


def _read_masks(reader: Reader, rows: Sequence[RawRow], questions: int) -> dict[int, Mask]:
    masks: dict[int, Mask] = {}
    for row in rows:
        mask = reader.typed(row, "mask", lambda text: parse_mask(text, questions))
        if mask is not None:
            masks[row.line] = mask
    return masks


def _withdrawn(masks: dict[int, Mask]) -> dict[int, int]:
    """Each withdrawn question, with the first row that marks it ``X``."""
    first: dict[int, int] = {}
    for line in sorted(masks):
        for number in masks[line].withdrawn:
            first.setdefault(number, line)
    return first


def _check_withdrawn(reader: Reader, row: RawRow, mask: Mask, withdrawn: dict[int, int]) -> None:
    # A withdrawn question is struck for everyone, so one team's X must be every team's X.
    marked = set(mask.withdrawn)
    for number, line in sorted(withdrawn.items()):
        if number not in marked:
            reader.problems.add(
                reader.where(row, "mask"),
                f"question {number} is withdrawn (X) on row {line} but not here",
            )


def _taken(
    reader: Reader, row: RawRow, mask: Mask | None, questions: int, withdrawn: int
) -> int | None:
    if not reader.text(row, "questions"):
        if mask is None and not reader.text(row, "mask"):
            reader.problems.add(
                reader.where(row, "questions"), "give the questions taken or a mask"
            )
        return None if mask is None else mask.taken
    count = reader.count(row, "questions", what="number of questions")
    if count is None:
        return None
    playable = questions - withdrawn
    if count > playable:
        of = f"{playable} ({questions}, {withdrawn} withdrawn)" if withdrawn else str(questions)
        reader.problems.add(
            reader.where(row, "questions"),
            f"{count} questions taken, but the tour has {of}",
        )
        return None
    if mask is not None and mask.taken != count:
        reader.problems.add(
            reader.where(row, "questions"),
            f"{count} questions taken, but the mask has {mask.taken} taken (1)",
        )
        return None
    return count


def _appeal_clause(rulebook: Rulebook) -> str | None:
    """The clause of the appeals on questions: they withdraw questions and settle disputes."""
    return next((a.clause for a in rulebook.appeals if a.kinds), None)


def _mask_notes(mask: Mask | None, clause: str | None) -> tuple[Reason, ...]:
    if mask is None:
        return ()
    notes: list[Reason] = []
    if mask.withdrawn:
        which = _questions(mask.withdrawn)
        playable = len(mask.marks) - len(mask.withdrawn)
        text = (
            f"{which.capitalize()} withdrawn for every team: the tour counts {playable} questions"
        )
        notes.append(Reason(clause, text))
    if mask.disputed:
        pending = _plural(len(mask.disputed), "disputed answer")
        which = _questions(mask.disputed)
        text = f"{pending} pending: results are preliminary ({which} not counted until the verdict)"
        notes.append(Reason(clause, text))
    return tuple(notes)


def tour_entries(
    rulebook: Rulebook,
    stage: ChgkTourStage,
    rows: Sequence[RawRow],
    competitors: Sequence[Competitor | None],
    problems: Problems,
) -> list[Entry]:
    """One entry per team of one tour, classified (an unscored team plays outside, п. 10)."""
    clause = _appeal_clause(rulebook)
    members = members_range(rulebook, stage)
    entries: list[Entry] = []
    for result in read_tour(rows, competitors, stage.questions, problems):
        team = result.competitor
        klass, outside = classify(team, rulebook, problems, members=members)
        entries.append(
            Entry(
                id=team.id,
                name=team.name,
                metrics={"questions": result.taken},
                score=f"{result.taken} q",
                klass=klass,
                outside=outside,
                notes=_mask_notes(result.mask, clause),
            )
        )
    return entries


def _require_columns(rows: Sequence[RawRow], required: Sequence[str]) -> None:
    problems = Problems()
    columns = sorted({c for row in rows for c in row.cells})
    require_columns(columns, required, problems)
    if "questions" not in columns and "mask" not in columns:
        problems.add("column questions", "missing required column (or give a mask column)")
    problems.raise_if_any()


def tour_table(rulebook: Rulebook, stage: ChgkTourStage, rows: Sequence[RawRow]) -> Table:
    _require_columns(rows, ["id"])
    problems = Problems()
    competitors = read_competitors(rows, problems)
    entries = tour_entries(rulebook, stage, rows, competitors, problems)
    problems.raise_if_any()
    return build_table("all", stage.title, entries, stage)


# --- The season -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TourStanding:
    """Where one team stands in one tour of the season (``absent``: no row in that tour)."""

    tour: str
    questions: int
    points: Decimal
    place: Decimal
    places: str
    absent: bool


def tour_order(tour: str) -> tuple[int, int, str]:
    """Tours in their natural order: ``2`` before ``10``, numbers before names."""
    return (0, int(tour), tour) if tour.isdigit() else (1, 0, tour)


def mean_place(first: int, last: int) -> Decimal:
    """A shared place counts as the mean of the places it spans: 2nd–3rd → 2.5."""
    return Decimal(first + last) / 2


def season_table(rulebook: Rulebook, stage: ChgkSeasonStage, rows: Sequence[RawRow]) -> Table:
    tour_stage = _tour_stage(rulebook, stage)
    _require_columns(rows, ["id", "tour"])
    problems = Problems()
    competitors = read_competitors(rows, problems, unique_per="tour")
    by_tour = _split_by_tour(Reader(problems), rows, competitors)
    entries = {
        tour: tour_entries(
            rulebook, tour_stage, [r for r, _ in pairs], [c for _, c in pairs], problems
        )
        for tour, pairs in by_tour.items()
    }
    _check_same_class(rows, entries, problems)
    problems.raise_if_any()
    tours = sorted(entries, key=tour_order)
    tables = [
        build_table(tour, f"{tour_stage.title} {tour}", entries[tour], tour_stage) for tour in tours
    ]
    return build_table("all", stage.title, _season_entries(stage, tour_stage, tables), stage)


def _tour_stage(rulebook: Rulebook, stage: ChgkSeasonStage) -> ChgkTourStage:
    tour_stage = rulebook.stage(stage.tour)
    if not isinstance(tour_stage, ChgkTourStage):
        raise InputError(
            [
                Problem(
                    f"stage {stage.key}",
                    f"its tour stage '{stage.tour}' is a {tour_stage.format} stage, "
                    "not a chgk-tour stage",
                )
            ]
        )
    return tour_stage


def _split_by_tour(
    reader: Reader, rows: Sequence[RawRow], competitors: Sequence[Competitor | None]
) -> dict[str, list[tuple[RawRow, Competitor | None]]]:
    by_tour: dict[str, list[tuple[RawRow, Competitor | None]]] = defaultdict(list)
    for row, competitor in zip(rows, competitors, strict=True):
        tour = reader.text(row, "tour")
        if not tour:
            reader.problems.add(reader.where(row, "tour"), "a season row needs its tour")
            continue
        by_tour[tour].append((row, competitor))
    return dict(by_tour)


def _check_same_class(
    rows: Sequence[RawRow], entries: dict[str, list[Entry]], problems: Problems
) -> None:
    # A team is in the season or outside it as a whole: its tours must agree.
    reader = Reader(problems)
    lines: dict[tuple[str, str], int] = {}
    for r in rows:
        # The first row of a (tour, id) is the one used; a repeat is a duplicate-id problem.
        lines.setdefault((reader.text(r, "tour"), reader.text(r, "id")), r.line)
    first: dict[str, tuple[bool, int]] = {}
    for tour in sorted(entries, key=tour_order):
        for entry in entries[tour]:
            line = lines[(tour, entry.id)]
            seen = first.setdefault(entry.id, (entry.official, line))
            if seen[0] != entry.official:
                here = "in the competition" if entry.official else "outside the competition"
                there = "outside it" if entry.official else "in it"
                problems.add(
                    f"row {line}, column scored",
                    f"team '{entry.id}' plays {here} here but {there} on row {seen[1]}",
                )


def _season_entries(
    stage: ChgkSeasonStage, tour_stage: ChgkTourStage, tables: Sequence[Table]
) -> list[Entry]:
    # Teams outside the competition take no points, so the season table leaves them out.
    teams = sorted({row.entry.id for t in tables for row in t.rows if row.entry.official})
    entries = []
    for team in teams:
        standings = [_standing(table, team) for table in tables]
        names = [r.entry.name for t in tables for r in t.rows if r.entry.id == team]
        entries.append(_season_entry(team, names, standings, stage, tour_stage))
    return entries


def _standing(table: Table, team: str) -> TourStanding:
    official = [row for row in table.rows if row.entry.official]
    row: Row | None = next((r for r in official if r.entry.id == team), None)
    if row is None or row.official_rank is None or row.official_rank_to is None:
        after = len(official) + 1
        return TourStanding(table.key, 0, Decimal(0), Decimal(after), str(after), True)
    first, last = row.official_rank, row.official_rank_to
    taken = row.entry.metrics["questions"]
    return TourStanding(
        tour=table.key,
        questions=int(taken or 0),
        points=row.points or Decimal(0),
        place=mean_place(first, last),
        places=str(first) if first == last else f"{first}–{last}",
        absent=False,
    )


def _season_entry(
    team: str,
    names: Sequence[str],
    standings: Sequence[TourStanding],
    stage: ChgkSeasonStage,
    tour_stage: ChgkTourStage,
) -> Entry:
    points = sum((s.points for s in standings), Decimal(0))
    questions = sum(s.questions for s in standings)
    place_sum = sum((s.place for s in standings), Decimal(0))
    played = [s.tour for s in standings if not s.absent]
    notes = [
        Reason(
            stage.clause, f"Tours played: {', '.join(played)} ({len(played)} of {len(standings)})"
        ),
        Reason(
            tour_stage.points.clause if tour_stage.points else tour_stage.clause,
            "Points per tour: " + "; ".join(_tour_points(s) for s in standings),
        ),
        Reason(
            stage.ranking.clause,
            "Sum of tour places: "
            + " + ".join(_number(s.place) for s in standings)
            + f" = {_number(place_sum)}",
        ),
    ]
    notes.extend(_absent_note(s, stage) for s in standings if s.absent)
    earlier = sorted(set(names[:-1]) - {names[-1]})
    if earlier:
        notes.append(Reason(None, "Also played as " + ", ".join(f"'{n}'" for n in earlier)))
    return Entry(
        id=team,
        name=names[-1],
        metrics={"points": points, "season_questions": questions, "place_sum": place_sum},
        score=f"{points} pts ({questions} q)",
        notes=tuple(notes),
    )


def _tour_points(s: TourStanding) -> str:
    if s.absent:
        return f"tour {s.tour}: absent (place {s.places}), 0 points"
    shared = "–" in s.places
    where = f"places {s.places} → {_number(s.place)}" if shared else f"place {s.places}"
    return f"tour {s.tour}: {s.points} ({where}, {s.questions} q)"


def _absent_note(s: TourStanding, stage: ChgkSeasonStage) -> Reason:
    text = (
        f"Absent from tour {s.tour}: counted at place {s.places}, after the last official team, "
        "with no points and no questions (our interpretation)"
    )
    return Reason(stage.absent_clause, text)


def _number(value: Decimal) -> str:
    return f"{value.normalize():f}"


# --- The format -----------------------------------------------------------------------------


def tables(rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow]) -> list[Table]:
    if isinstance(stage, ChgkTourStage):
        return [tour_table(rulebook, stage, rows)]
    if isinstance(stage, ChgkSeasonStage):
        return [season_table(rulebook, stage, rows)]
    raise TypeError(f"stage '{stage.key}' is a {stage.format} stage, not a ChGK one")
