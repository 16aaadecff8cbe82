"""The superfinal: one match between two champions over questions of both disciplines (п. 16).

Vocabulary:
- question: one row, numbered 1, 2, … in the order asked, with its discipline (``chgk`` or
  ``brainball``) and ``1`` or ``0`` for each of the two teams. Both teams may take a ChGK
  question; a Brainball question is won by one team at most.
- regular questions: the stage's ``sequence`` (12 ChGK, then 12 Brainball).
- pair: after a tie in the regular questions, one question of each ``decider`` discipline in
  turn (one ChGK, one Brainball); the match is checked only after a complete pair.
- through score: questions taken over the whole match; the regular questions and the pairs are
  scored together.
- checkpoint: the end of the regular questions or of a pair, where a lead decides the match.
- decided: a team leads at a checkpoint; no question may follow. Until then the match is
  undecided: the table shows the current score and both teams share the top place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from podium.engine.entries import Entry, Reason
from podium.engine.errors import Problems
from podium.engine.inputs import RawRow, Reader, columns_of, require_columns
from podium.engine.messages import Line, Message, Span, Value, _
from podium.engine.standings import Given, Row, Table, build_table
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import Stage, SuperfinalStage

DISCIPLINES = {"chgk": "chgk", "brainball": "brainball"}
TAKEN = {"1": 1, "0": 0}
FIXED = ("id", "discipline")


@dataclass(frozen=True, slots=True)
class Question:
    number: int
    discipline: str
    taken: tuple[int, int]  # by team, in the match's team order


@dataclass(frozen=True, slots=True)
class Checkpoint:
    label: Message
    last: int
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Course:
    """How the match went: its checkpoints, and the question that decided it (if any yet)."""

    checkpoints: tuple[Checkpoint, ...]
    decided_after: int | None
    totals: tuple[int, int]
    asked: int


def regular_count(stage: SuperfinalStage) -> int:
    return sum(count for _, count in stage.sequence)


def discipline_at(stage: SuperfinalStage, number: int) -> str:
    """The discipline question ``number`` must be: the sequence, then the decider in turn."""
    remaining = number
    for discipline, count in stage.sequence:
        if remaining <= count:
            return discipline
        remaining -= count
    return stage.decider[(remaining - 1) % len(stage.decider)]


def through_score(stage: SuperfinalStage, taken: Sequence[tuple[int, int]]) -> Course:
    """Scores questions 1, 2, … in order, stopping at the first checkpoint with a leader."""
    regular, pair = regular_count(stage), len(stage.decider)
    totals = (0, 0)
    checkpoints: list[Checkpoint] = []
    for number, (a, b) in enumerate(taken, 1):
        totals = (totals[0] + a, totals[1] + b)
        if number < regular or (number - regular) % pair:
            continue
        if number == regular:
            label = _("the %(n)s regular questions", n=regular)
        else:
            label = _("pair %(k)s (questions %(first)s–%(last)s)", k=(number - regular) // pair,
                      first=number - pair + 1, last=number)  # fmt: skip
        checkpoints.append(Checkpoint(label, number, totals))
        if totals[0] != totals[1]:
            return Course(tuple(checkpoints), number, totals, number)
    return Course(tuple(checkpoints), None, totals, len(taken))


# --- Reading questions ----------------------------------------------------------------------


def match_teams(rows: Sequence[RawRow], problems: Problems) -> tuple[str, ...]:
    """The team columns, in a fixed order (by name) so nothing depends on the header."""
    columns = set(columns_of(rows)) - set(FIXED)
    teams = tuple(sorted(columns, key=lambda t: (t.casefold(), t)))
    if len(teams) != 2:
        shown: Value = ", ".join(teams) if teams else _("none")
        problems.add(
            "columns",
            _(
                "a superfinal is a match between two teams, one column each; found %(n)s team "
                "columns (%(teams)s)",
                n=len(teams),
                teams=shown,
            ),
        )
    return teams


def read_questions(
    stage: SuperfinalStage, rows: Sequence[RawRow], teams: tuple[str, str], problems: Problems
) -> list[Question]:
    """Every well-formed question, by number; each problem is added to ``problems``."""
    reader = Reader(problems)
    numbers: list[tuple[int, int]] = []
    questions: list[Question] = []
    for row in rows:
        before = len(problems)
        number = _number(reader, row)
        discipline = reader.choice(row, "discipline", DISCIPLINES)
        a, b = (_taken(reader, row, team) for team in teams)
        if number is not None:
            numbers.append((number, row.line))
        in_order = True
        if number is not None and discipline is not None:
            in_order = _check_discipline(reader, row, stage, number, discipline)
        # A question in the wrong discipline is one mistake; its answers are not judged by it.
        if in_order and discipline == "brainball" and a == b == 1:
            reader.problems.add(
                reader.where(row, teams[1]),
                _("both teams cannot win a Brainball question: it goes to one team at most"),
            )
        if len(problems) > before or number is None or discipline is None:
            continue
        if a is not None and b is not None:
            questions.append(Question(number, discipline, (a, b)))
    _check_numbering(reader, numbers)
    questions.sort(key=lambda q: q.number)
    _check_after_decision(reader, stage, questions, numbers)
    return questions


def _number(reader: Reader, row: RawRow) -> int | None:
    if not reader.text(row, "id"):
        reader.problems.add(reader.where(row, "id"), _("a value is required (the question number)"))
        return None
    number = reader.count(row, "id", what=_("question number"))
    if number == 0:
        reader.problems.add(reader.where(row, "id"), _("questions are numbered from 1"))
        return None
    return number


def _taken(reader: Reader, row: RawRow, team: str) -> int | None:
    if not reader.text(row, team):
        reader.problems.add(reader.where(row, team), _("a value is required (1 or 0)"))
        return None
    return reader.choice(row, team, TAKEN)


def _check_discipline(
    reader: Reader, row: RawRow, stage: SuperfinalStage, number: int, discipline: str
) -> bool:
    expected = discipline_at(stage, number)
    if discipline != expected:
        order: Value = ""
        for d, n in stage.sequence:
            part = f"{n} {d}"
            order = _("%(first)s, then %(next)s", first=order, next=part) if order else part
        pairs = ", ".join(stage.decider)
        reader.problems.add(
            reader.where(row, "discipline"),
            _(
                "question %(n)s must be %(expected)s, not %(given)s (the order is %(order)s, "
                "then pairs of %(pairs)s)",
                n=number,
                expected=expected,
                given=discipline,
                order=order,
                pairs=pairs,
            ),
        )
        return False
    return True


def _check_numbering(reader: Reader, numbers: Sequence[tuple[int, int]]) -> None:
    """Question numbers run 1…N, each once."""
    lines: dict[int, int] = {}
    for number, line in numbers:
        if number in lines:
            reader.problems.add(
                f"row {line}, column id",
                _("duplicate question %(n)s (also on %(row)s)", n=number, row=Line(lines[number])),
            )
        else:
            lines[number] = line
    expected = 1
    for number in sorted(lines):
        if number > expected:
            missing = (
                _("question %(first)s is missing before question %(n)s", first=expected, n=number)
                if number - 1 == expected
                else _("questions %(first)s–%(last)s are missing before question %(n)s",
                       first=expected, last=number - 1, n=number)
            )  # fmt: skip
            reader.problems.add(f"row {lines[number]}, column id", missing)
        expected = number + 1


def _check_after_decision(
    reader: Reader,
    stage: SuperfinalStage,
    questions: Sequence[Question],
    numbers: Sequence[tuple[int, int]],
) -> None:
    """No question may follow the one that decided the match."""
    course = through_score(stage, [q.taken for q in _in_order(questions)])
    if course.decided_after is None:
        return
    for number, line in numbers:
        if number > course.decided_after:
            reader.problems.add(
                f"row {line}, column id",
                _(
                    "the superfinal was already decided after question %(n)s",
                    n=course.decided_after,
                ),
            )


def _in_order(questions: Sequence[Question]) -> list[Question]:
    """Questions 1, 2, … up to the first gap: what can be scored in order."""
    prefix: list[Question] = []
    for q in questions:
        if q.number != len(prefix) + 1:
            break
        prefix.append(q)
    return prefix


# --- The table ------------------------------------------------------------------------------


def _score(teams: tuple[str, str], totals: tuple[int, int]) -> str:
    return f"{teams[0]} {totals[0]} – {teams[1]} {totals[1]}"


def _checkpoint_note(clause: str | None, teams: tuple[str, str], c: Checkpoint) -> Reason:
    score = _score(teams, c.totals)
    return Reason(clause, _("After %(checkpoint)s: %(score)s", checkpoint=c.label, score=score))


def course_notes(
    stage: SuperfinalStage, teams: tuple[str, str], course: Course
) -> tuple[Reason, ...]:
    # The through score and the pairs are the ranking's clause (п. 16), not the stage's.
    clause = stage.ranking.clause or stage.clause
    notes = [_checkpoint_note(clause, teams, c) for c in course.checkpoints]
    if course.decided_after is not None:
        leader = teams[0] if course.totals[0] > course.totals[1] else teams[1]
        text = _(
            "Decided by question %(question)s: %(leader)s leads %(score)s",
            question=course.decided_after,
            leader=leader,
            score=f"{max(course.totals)}:{min(course.totals)}",
        )
    else:
        text = _("Undecided: the superfinal goes on (%(score)s after question %(question)s)",
                 score=_score(teams, course.totals), question=course.asked)  # fmt: skip
    notes.append(Reason(clause, text))
    return tuple(notes)


def _undecided_table(stage: SuperfinalStage, entries: Sequence[Entry]) -> Table:
    # Nobody has won yet, so a current lead is no place: both share the top, with no prize.
    shares = Reason(
        stage.ranking.clause,
        _("Shares places %(places)s: the superfinal is not decided yet", places=Span(1, 2)),
    )
    rows = tuple(
        Row(
            entry=e,
            rank=1,
            rank_to=2,
            official_rank=1,
            official_rank_to=2,
            points=None,
            advances=False,
            playoff=False,
            prize=False,
            why=Given((shares, *e.notes)),
        )
        for e in sorted(entries, key=lambda e: (e.name.casefold(), e.name, e.id))
    )
    return Table("all", stage.title, rows)


def tables(rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow]) -> list[Table]:
    if not isinstance(stage, SuperfinalStage):
        raise TypeError(f"stage '{stage.key}' is a {stage.format} stage, not a superfinal")
    problems = Problems()
    require_columns(columns_of(rows), FIXED, problems)
    found = match_teams(rows, problems)
    problems.raise_if_any()
    first, second = found
    teams = (first, second)
    questions = read_questions(stage, rows, teams, problems)
    problems.raise_if_any()
    course = through_score(stage, [q.taken for q in questions])
    notes = course_notes(stage, teams, course)
    entries = [
        Entry(
            id=team,
            name=team,
            metrics={"questions": total},
            score=_("%(n)s q", n=total),
            notes=notes,
        )
        for team, total in zip(teams, course.totals, strict=True)
    ]
    if course.decided_after is None:
        return [_undecided_table(stage, entries)]
    return [build_table("all", stage.title, entries, stage)]
