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
- sanctioned: a team whose tour result counts as 0 under a sanction (``sanctioned: yes``; п. 8:
  a player not on its roster, or who played for another team); it keeps its place in the list
  of teams that played, with 0 questions.
- play-off: the extra match that settles a tie for a prize place of the season (п. 12): one row
  per tied team with ``tour: playoff`` and ``playoff``, the questions it took in the 6-question
  match and then each single extra question (``4 1 0``); see ``podium.engine.playoff``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import islice
from typing import NamedTuple

from podium.engine.classification import Classifier
from podium.engine.entries import Entry, Number, Reason
from podium.engine.errors import InputError, Problem, Problems
from podium.engine.formats.common import members_range
from podium.engine.inputs import (
    YES_NO,
    Competitor,
    RawRow,
    Reader,
    columns_of,
    read_competitors,
    require_columns,
)
from podium.engine.messages import Joined, Line, Message, MessageError, Value, _, ngettext
from podium.engine.playoff import needless, uneven
from podium.engine.ranking import Placed, official_places
from podium.engine.standings import NO_PLACE, SpanPoints, Table, build_table, placings
from podium.rules.schema import ChgkSeasonStage, ChgkTourStage, Rulebook, Stage

PLAYOFF = "playoff"
QUESTION_RATING = "question-rating"  # the criterion's key (``podium.engine.criteria``)
MARKS = {"1": _("taken"), "0": _("not taken"), "X": _("withdrawn"), "?": _("disputed")}
_MARKS_HELP = Joined(
    tuple(
        _("%(mark)s (%(meaning)s)", mark=mark, meaning=meaning) for mark, meaning in MARKS.items()
    )
)
_MARK_SET = frozenset(MARKS)
_FAULTS = 5  # wrong marks named one by one in a refusal; the rest are counted
_SHOWN = 60  # marks of a refused mask shown in its message
_WRONG = re.compile(r"[^10X?]")  # sought in C: a good mark can precede a wrong one by millions


# --- Masks ----------------------------------------------------------------------------------


class Mask(NamedTuple):
    """Named tuples, this and ``TourResult``: one is made per team and tour, and a tuple is
    made fastest."""

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
    # Most masks have no X and no ?: a search in C spares walking them mark by mark.
    if mark not in marks:
        return ()
    return tuple(i for i, m in enumerate(marks, 1) if m == mark)


def parse_mask(text: str, questions: int) -> Mask:
    """A mask of exactly ``questions`` marks; ``ValueError`` saying every fault otherwise."""
    marks = text.strip()
    # Masks are nearly all good: one check in C passes them, the faults are sought only if not.
    if len(marks) == questions and _MARK_SET.issuperset(marks):
        return Mask(marks)
    # A hostile cell can hold millions of marks: the message names the first few faults and
    # shows the start of the mask, so its size does not grow with the cell's.
    wrong = len(marks) - sum(marks.count(m) for m in MARKS)
    faults: list[Value] = [
        _("'%(mark)s' at question %(n)s", mark=m, n=i)
        for i, m in ((f.start() + 1, f.group()) for f in islice(_WRONG.finditer(marks), _FAULTS))
    ]
    if wrong > _FAULTS:
        more = wrong - _FAULTS
        faults.append(
            ngettext("%(more)s more wrong mark", "%(more)s more wrong marks", more, more=more)
        )
    if faults:
        faults[-1] = _("%(fault)s (marks are %(marks)s)", fault=faults[-1], marks=_MARKS_HELP)
    if len(marks) != questions:
        faults.append(_("%(count)s marks, but the tour has %(n)s questions", count=len(marks),
                        n=questions))  # fmt: skip
    shown = marks if len(marks) <= _SHOWN else marks[: _SHOWN - 1] + "…"
    raise MessageError(_("mask '%(mask)s' has %(faults)s", mask=shown,
                         faults=Joined(tuple(faults), "; ")))  # fmt: skip


# --- One tour -------------------------------------------------------------------------------


class TourResult(NamedTuple):
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
    in_order = sorted(withdrawn.items())
    results: list[TourResult] = []
    for row, competitor in zip(rows, competitors, strict=True):
        mask = masks.get(row.line)
        if mask is not None and not in_order and not (row.cells.get("questions") or "").strip():
            # The common row: a good mask, no question withdrawn and no count to check it by.
            if competitor is not None:
                results.append(TourResult(competitor, mask.taken, mask))
            continue
        before = len(problems)
        if mask is not None and in_order:
            _check_withdrawn(reader, row, mask, in_order)
        taken = _taken(reader, row, mask, questions, len(withdrawn))
        if competitor is not None and taken is not None and len(problems) == before:
            results.append(TourResult(competitor, taken, mask))
    return results


def _read_masks(reader: Reader, rows: Sequence[RawRow], questions: int) -> dict[int, Mask]:
    masks: dict[int, Mask] = {}

    def parse(text: str) -> Mask:
        return parse_mask(text, questions)

    for row in rows:
        text = row.cells.get("mask")
        if text and len(text) == questions and _MARK_SET.issuperset(text):
            masks[row.line] = Mask(text)  # a good mask as written (nearly all of them)
            continue
        mask = reader.typed(row, "mask", parse)
        if mask is not None:
            masks[row.line] = mask
    return masks


def _withdrawn(masks: dict[int, Mask]) -> dict[int, int]:
    """Each withdrawn question, with the first row that marks it ``X``."""
    first: dict[int, int] = {}
    for line in sorted(line for line, mask in masks.items() if "X" in mask.marks):
        for number in masks[line].withdrawn:
            first.setdefault(number, line)
    return first


def _check_withdrawn(
    reader: Reader, row: RawRow, mask: Mask, withdrawn: Sequence[tuple[int, int]]
) -> None:
    """``withdrawn``: each withdrawn question and its first row, by question (sorted once)."""
    # A withdrawn question is struck for everyone, so one team's X must be every team's X.
    marked = set(mask.withdrawn)
    for number, line in withdrawn:
        if number not in marked:
            reader.problems.add(
                reader.where(row, "mask"),
                _(
                    "question %(n)s is withdrawn (X) on %(row)s but not here",
                    n=number,
                    row=Line(line),
                ),
            )


def _taken(
    reader: Reader, row: RawRow, mask: Mask | None, questions: int, withdrawn: int
) -> int | None:
    if not reader.text(row, "questions"):
        if mask is None and not reader.text(row, "mask"):
            reader.problems.add(
                reader.where(row, "questions"), _("give the questions taken or a mask")
            )
        return None if mask is None else mask.taken
    count = reader.count(row, "questions", what=_("number of questions"))
    if count is None:
        return None
    playable = questions - withdrawn
    if count > playable:
        reader.problems.add(
            reader.where(row, "questions"),
            _("%(count)s questions taken, but the tour has %(playable)s (%(n)s, %(withdrawn)s "
              "withdrawn)", count=count, playable=playable, n=questions, withdrawn=withdrawn)
            if withdrawn
            else _("%(count)s questions taken, but the tour has %(n)s", count=count, n=questions),
        )  # fmt: skip
        return None
    if mask is not None and mask.taken != count:
        reader.problems.add(
            reader.where(row, "questions"),
            _(
                "%(count)s questions taken, but the mask has %(taken)s taken (1)",
                count=count,
                taken=mask.taken,
            ),
        )
        return None
    return count


def _appeal_clause(rulebook: Rulebook) -> str | None:
    """The clause of the appeals on questions: they withdraw questions and settle disputes."""
    return next((a.clause for a in rulebook.appeals if a.kinds), None)


def _mask_notes(mask: Mask | None, clause: str | None) -> tuple[Reason, ...]:
    if mask is None or ("X" not in mask.marks and "?" not in mask.marks):
        return ()
    notes: list[Reason] = []
    withdrawn, disputed = mask.withdrawn, mask.disputed
    if withdrawn:
        text = ngettext(
            "Question %(numbers)s withdrawn for every team: the tour counts %(playable)s questions",
            "Questions %(numbers)s withdrawn for every team: the tour counts %(playable)s "
            "questions",
            len(withdrawn),
            numbers=", ".join(str(n) for n in withdrawn),
            playable=len(mask.marks) - len(withdrawn),
        )
        notes.append(Reason(clause, text))
    if disputed:
        text = ngettext(
            "%(n)s disputed answer pending: results are preliminary (question %(numbers)s not "
            "counted until the verdict)",
            "%(n)s disputed answers pending: results are preliminary (questions %(numbers)s not "
            "counted until the verdict)",
            len(disputed),
            numbers=", ".join(str(n) for n in disputed),
        )
        notes.append(Reason(clause, text))
    return tuple(notes)


def tour_length(stage: ChgkTourStage, rows: Sequence[RawRow]) -> int:
    """The number of questions of one tour: the rulebook's ``questions``, or, when the rulebook
    lets tours vary (``max_questions``), the length of the tour's first mask within that bound
    (the other masks must agree; ``parse_mask`` names those that do not). A tour given by counts
    only is checked against the bound."""
    longest = stage.max_questions
    if longest is None:
        return stage.questions
    for row in rows:
        length = len((row.cells.get("mask") or "").strip())
        if 1 <= length <= longest:
            return length
    return longest


def tour_entries(
    rulebook: Rulebook,
    stage: ChgkTourStage,
    rows: Sequence[RawRow],
    competitors: Sequence[Competitor | None],
    problems: Problems,
) -> list[Entry]:
    """One entry per team of one tour, classified (an unscored team plays outside, п. 10)."""
    clause = _appeal_clause(rulebook)
    classify = Classifier(rulebook, members=members_range(rulebook, stage))
    reader = Reader(problems)
    by_line = {row.line: row for row in rows}
    entries: list[Entry] = []
    scores: dict[int, Message] = {}  # a tour's teams share a few counts: one score for each
    length = tour_length(stage, rows)
    results = read_tour(rows, competitors, length, problems)
    length_note = _length_note(stage, length, results)
    for result in results:
        team = result.competitor
        klass, outside = classify(team, problems)
        notes = _mask_notes(result.mask, clause)
        if length_note is not None:
            notes = (length_note, *notes)
        taken = result.taken
        score = scores.get(taken) or scores.setdefault(taken, _("%(n)s q", n=taken))
        row = by_line[team.line]
        sanctioned: bool | None = None
        if "sanctioned" in row.cells:
            sanctioned = reader.choice(row, "sanctioned", YES_NO)
        if sanctioned:
            notes = (*notes, _sanction_note(rulebook, result.taken))
            taken, score = 0, _("0 q (sanction; %(taken)s taken)", taken=result.taken)
        # By position, in the order of Entry's fields: one is made per team and tour.
        entries.append(Entry(team.id, team.name, {"questions": taken}, score, "all", klass,
                             outside, notes))  # fmt: skip
    rating = next((c for c in stage.ranking.criteria if c.key == QUESTION_RATING), None)
    if rating is not None:  # worked out only where a rulebook ranks by it
        rating_clause = rating.clause or stage.ranking.clause
        entries = with_question_rating(entries, results, by_line, rating_clause, reader)
    return entries


def _length_note(stage: ChgkTourStage, length: int, results: Sequence[TourResult]) -> Reason | None:
    """Where the rulebook lets tours vary, why this tour has the length it has."""
    longest = stage.max_questions
    if longest is None:
        return None
    if any(r.mask is not None for r in results):
        text = _("A tour of %(n)s questions, as its masks give (the rulebook allows up to "
                 "%(max)s)", n=length, max=longest)  # fmt: skip
    else:
        text = _("Tour given by counts only: each is checked against the longest tour the "
                 "rulebook allows, %(max)s questions", max=longest)  # fmt: skip
    return Reason(stage.clause, text)


# --- The question rating --------------------------------------------------------------------


def with_question_rating(
    entries: Sequence[Entry],
    results: Sequence[TourResult],
    by_line: Mapping[int, RawRow],
    clause: str | None,
    reader: Reader,
) -> list[Entry]:
    """The entries with their question rating: a question taken by k of the tour's N official
    teams is worth N − k + 1, and a team's rating is the sum over the questions it took. A
    withdrawn question is nobody's; a disputed one is not taken until its verdict; a team whose
    tour counts 0 under a sanction rates 0 (its answers still count in k: they say how hard the
    question was). A team given by a count only has no mask to rate: a problem of its row."""
    masks = {r.competitor.id: r.mask for r in results}
    official = [e for e in entries if e.official]
    n = len(official)
    taken_by: list[int] = []
    for entry in official:
        mask = masks.get(entry.id)
        if mask is None:
            continue
        if len(taken_by) < len(mask.marks):
            taken_by.extend([0] * (len(mask.marks) - len(taken_by)))
        for i, mark in enumerate(mask.marks):
            if mark == "1":
                taken_by[i] += 1
    worth = [n - k + 1 for k in taken_by]
    rated: list[Entry] = []
    for entry, result in zip(entries, results, strict=True):
        mask = result.mask
        if mask is None:
            row = by_line[result.competitor.line]
            reader.problems.add(
                reader.where(row, "mask"),
                _("the question rating needs the team's mask, not only its count"),
            )
            rated.append(entry)
            continue
        terms = [worth[i] for i, mark in enumerate(mask.marks) if mark == "1"]
        sanctioned = entry.metrics["questions"] != result.taken
        value = 0 if sanctioned else sum(terms)
        if sanctioned or not terms:
            text = _("Question rating: 0 (no question counted; a question taken by k of %(n)s "
                     "teams is worth %(n)s − k + 1)", n=n)  # fmt: skip
        else:
            text = _("Question rating: %(terms)s = %(rating)s (a question taken by k of %(n)s "
                     "teams is worth %(n)s − k + 1)", terms=" + ".join(str(t) for t in terms),
                     rating=value, n=n)  # fmt: skip
        metrics = {**entry.metrics, "question_rating": value}
        notes = (*entry.notes, Reason(clause, text))
        rated.append(entry._replace(metrics=metrics, notes=notes))
    return rated


def _sanction_note(rulebook: Rulebook, taken: int) -> Reason:
    """Why a team's tour counts 0: the sanction whose effect is ``tour-result-zero``."""
    clause = next(
        (
            e.clause or s.clause
            for s in rulebook.sanctions
            for e in s.effects
            if e.kind == "tour-result-zero"
        ),
        None,
    )
    text = _("Tour result counted as 0 under a sanction (%(taken)s questions taken)", taken=taken)
    return Reason(clause, text)


def _require_columns(rows: Sequence[RawRow], required: Sequence[str]) -> None:
    problems = Problems()
    columns = columns_of(rows)
    require_columns(columns, required, problems)
    if "questions" not in columns and "mask" not in columns:
        problems.add("column questions", _("missing required column (or give a mask column)"))
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
    reader = Reader(problems)
    by_tour = _split_by_tour(reader, rows, competitors)
    playoff = stage.ranking.playoff
    playoff_rows, playoff_teams = by_tour.pop(PLAYOFF, ([], []))
    match = playoff.questions if playoff else None
    playoffs = _playoff_results(reader, playoff_rows, playoff_teams, match)
    # Tours are read in the order they first appear, so their problems come in file order.
    entries = {
        tour: tour_entries(rulebook, tour_stage, tour_rows, tour_competitors, problems)
        for tour, (tour_rows, tour_competitors) in by_tour.items()
    }
    tours = sorted(entries, key=tour_order)
    _check_same_class(tours, by_tour, entries, problems)
    problems.raise_if_any()
    # Each tour is placed as its own table would place it; the season reads only the places.
    placed = {tour: placings(entries[tour], tour_stage)[1] for tour in tours}
    season = _season_entries(stage, tour_stage, placed)
    if playoffs:
        _check_playoffs(playoffs, build_table("all", stage.title, season, stage), problems)
    return build_table("all", stage.title, season, stage, playoffs.results if playoffs else None)


@dataclass(frozen=True, slots=True)
class _Playoffs:
    results: dict[str, tuple[int, ...]]
    lines: dict[str, int]

    def __bool__(self) -> bool:
        return bool(self.results)


def _check_playoffs(playoffs: _Playoffs, unsettled: Table, problems: Problems) -> None:
    """Only teams held for a play-off have one, and the teams still tied played as many
    extra questions each."""
    held = [r.placed for r in unsettled.rows if r.playoff and r.placed is not None]
    ids = {p.entry.id for p in held}
    for team, line in sorted(playoffs.lines.items(), key=lambda kv: kv[1]):
        if team not in ids:
            problems.add(
                f"row {line}, column playoff",
                _("'%(team)s' is not tied for a prize place: it has no play-off", team=team),
            )
    for a, b in uneven(held, playoffs.results):
        longer, shorter = (a, b) if len(playoffs.results[a]) > len(playoffs.results[b]) else (b, a)
        problems.add(
            f"row {playoffs.lines[shorter]}, column playoff",
            _(
                "'%(shorter)s' and '%(longer)s' are still tied, but '%(longer)s' played more "
                "extra questions: each is asked of every team still tied",
                shorter=shorter,
                longer=longer,
            ),
        )
    for team in needless(held, playoffs.results):
        problems.add(
            f"row {playoffs.lines[team]}, column playoff",
            _(
                "'%(team)s' has extra questions after the play-off had separated it from every "
                "other team: they are asked only of teams still tied",
                team=team,
            ),
        )
    problems.raise_if_any()


def _playoff_results(
    reader: Reader,
    rows: Sequence[RawRow],
    competitors: Sequence[Competitor | None],
    match: int | None,
) -> _Playoffs:
    """Each tied team's play-off, from the play-off's rows: ``playoff`` holds the match's
    questions, then each extra one."""
    results: dict[str, tuple[int, ...]] = {}
    lines: dict[str, int] = {}
    for row, team in zip(rows, competitors, strict=True):
        if team is None:
            continue
        parts = reader.text(row, "playoff").replace(",", " ").split()
        if not parts or not all(p.isdigit() for p in parts):
            reader.problems.add(
                reader.where(row, "playoff"),
                _("the questions taken in the play-off match, then each extra question: '4 1 0'"),
            )
            continue
        values = tuple(int(p) for p in parts)
        if match is not None and values[0] > match:
            reader.problems.add(
                reader.where(row, "playoff"),
                _(
                    "%(taken)s questions taken in a play-off match of %(n)s",
                    taken=values[0],
                    n=match,
                ),
            )
            continue
        if any(v > 1 for v in values[1:]):
            reader.problems.add(
                reader.where(row, "playoff"), _("each extra question is taken (1) or not (0)")
            )
            continue
        results[team.id] = values
        lines[team.id] = row.line
    return _Playoffs(results, lines)


def _tour_stage(rulebook: Rulebook, stage: ChgkSeasonStage) -> ChgkTourStage:
    tour_stage = rulebook.stage(stage.tour)
    if not isinstance(tour_stage, ChgkTourStage):
        raise InputError(
            [
                Problem(
                    f"stage {stage.key}",
                    _(
                        "its tour stage '%(tour)s' is a %(format)s stage, not a chgk-tour stage",
                        tour=stage.tour,
                        format=tour_stage.format,
                    ),
                )
            ]
        )
    return tour_stage


_TourRows = tuple[list[RawRow], list[Competitor | None]]


def _split_by_tour(
    reader: Reader, rows: Sequence[RawRow], competitors: Sequence[Competitor | None]
) -> dict[str, _TourRows]:
    """Each tour's rows and their competitors, in file order; the play-off's rows as a tour of
    their own, ``PLAYOFF`` (written in any case)."""
    by_tour: dict[str, _TourRows] = {}
    tours: dict[str, _TourRows | None] = {}  # by the cell as written: a season has few tours
    for row, competitor in zip(rows, competitors, strict=True):
        cell = row.cells.get("tour") or ""
        if cell in tours:
            known = tours[cell]
        else:
            tour = cell.strip()
            if tour.casefold() == PLAYOFF:
                tour = PLAYOFF
            known = tours[cell] = by_tour.setdefault(tour, ([], [])) if tour else None
        if known is None:
            reader.problems.add(reader.where(row, "tour"), _("a season row needs its tour"))
            continue
        known[0].append(row)
        known[1].append(competitor)
    return by_tour


def _check_same_class(
    tours: Sequence[str],
    by_tour: Mapping[str, _TourRows],
    entries: Mapping[str, Sequence[Entry]],
    problems: Problems,
) -> None:
    # A team is in the season or outside it as a whole: its tours must agree. Only a team that
    # plays outside in some tour can disagree (most seasons have none), so only those are read.
    outside = {e.id for tour in tours for e in entries[tour] if not e.official}
    if not outside:
        return
    first: dict[str, tuple[bool, int]] = {}
    for tour in tours:
        # Only the first row of a (tour, id) can have a competitor (a repeat is a duplicate-id
        # problem), so the competitors give each entry's row without reading the cells again.
        lines = {c.id: c.line for c in by_tour[tour][1] if c is not None and c.id in outside}
        for entry in entries[tour]:
            if entry.id not in outside:
                continue
            line = lines[entry.id]
            seen = first.setdefault(entry.id, (entry.official, line))
            if seen[0] != entry.official:
                known: dict[str, Value] = {"team": entry.id, "row": Line(seen[1])}
                problems.add(
                    f"row {line}, column scored",
                    _("team '%(team)s' plays in the competition here but outside it on %(row)s",
                      **known)
                    if entry.official
                    else _("team '%(team)s' plays outside the competition here but in it on "
                           "%(row)s", **known),
                )  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Shown:
    """A tour standing with the parts of a season row's notes that show it, worked out once for
    every team that shares it (the teams of one shared place, or all those absent)."""

    standing: TourStanding
    points_text: Message  # its part of "Points per tour"
    place_text: Decimal  # its term in "Sum of tour places"
    absent_note: Reason | None


@dataclass(frozen=True, slots=True)
class _TourIndex:
    """One tour's standing of each official team, and the standing of a team absent from it."""

    standings: dict[str, _Shown]
    absent: _Shown


def _tour_index(
    tour: str,
    placed: Sequence[Placed],
    points: SpanPoints | None,
    stage: ChgkSeasonStage,
    names: dict[str, list[str]],
) -> _TourIndex:
    """``names``: each official team's name in this tour is added to its names."""
    places = official_places(placed)
    official = [p.entry for p in placed if p.entry.official]
    after = len(official) + 1
    absent = _shown(TourStanding(tour, 0, Decimal(0), Decimal(after), str(after), True), stage)
    # A tour has few distinct results (places follow questions), so each is worked out once;
    # the points follow from the places (one span, one share of the points).
    results: dict[tuple[int, int, Number | None], _Shown] = {}
    standings: dict[str, _Shown] = {}
    for entry in official:
        team = entry.id
        names[team].append(entry.name)
        # Ids are unique within a tour; should one repeat, its first row counts.
        if team in standings:
            continue
        first, last = places.get(team, NO_PLACE)
        if first is None or last is None:
            standings[team] = absent
            continue
        taken = entry.metrics["questions"]
        key = (first, last, taken)
        shown = results.get(key)
        if shown is None:
            won = (points(first, last) if points is not None else None) or Decimal(0)
            standing = _standing(tour, first, last, int(taken or 0), won)
            shown = results[key] = _shown(standing, stage)
        standings[team] = shown
    return _TourIndex(standings, absent)


def _standing(tour: str, first: int, last: int, questions: int, points: Decimal) -> TourStanding:
    return TourStanding(
        tour=tour,
        questions=questions,
        points=points,
        place=mean_place(first, last),
        places=str(first) if first == last else f"{first}–{last}",
        absent=False,
    )


def _shown(standing: TourStanding, stage: ChgkSeasonStage) -> _Shown:
    note = _absent_note(standing, stage) if standing.absent else None
    return _Shown(standing, _tour_points(standing), standing.place.normalize(), note)


def _season_entries(
    stage: ChgkSeasonStage, tour_stage: ChgkTourStage, placed: Mapping[str, Sequence[Placed]]
) -> list[Entry]:
    """``placed``: each tour's entries as placed in it, in the order of the tours."""
    # Each tour is indexed once, so a team's tours are looked up, not searched for.
    names: dict[str, list[str]] = defaultdict(list)  # each team's name in each tour it played
    points = SpanPoints(tour_stage.points) if tour_stage.points else None
    indexes = [_tour_index(tour, p, points, stage, names) for tour, p in placed.items()]
    # Teams outside the competition take no points, so the season table leaves them out (and
    # the indexes name only the official teams).
    teams = sorted(names)
    return [
        _season_entry(
            team,
            names[team],
            [index.standings.get(team, index.absent) for index in indexes],
            stage,
            tour_stage,
        )
        for team in teams
    ]


def _season_entry(
    team: str,
    names: Sequence[str],
    tours: Sequence[_Shown],
    stage: ChgkSeasonStage,
    tour_stage: ChgkTourStage,
) -> Entry:
    standings = [t.standing for t in tours]
    points = sum([s.points for s in standings], Decimal(0))
    questions = sum([s.questions for s in standings])
    place_sum = sum([s.place for s in standings], Decimal(0))
    played = [s.tour for s in standings if not s.absent]
    played_text = _("Tours played: %(tours)s (%(played)s of %(season)s)",
                    tours=", ".join(played), played=len(played), season=len(standings))  # fmt: skip
    per_tour = Joined(tuple(t.points_text for t in tours), "; ")
    terms = Joined(tuple(t.place_text for t in tours), " + ")
    sum_text = _("Sum of tour places: %(terms)s = %(sum)s", terms=terms, sum=place_sum.normalize())
    notes = [
        Reason(stage.clause, played_text),
        Reason(
            tour_stage.points.clause if tour_stage.points else tour_stage.clause,
            _("Points per tour: %(tours)s", tours=per_tour),
        ),
        Reason(stage.ranking.clause, sum_text),
    ]
    notes.extend(t.absent_note for t in tours if t.absent_note is not None)
    earlier = sorted(set(names[:-1]) - {names[-1]})
    if earlier:
        names_text = ", ".join(f"'{n}'" for n in earlier)
        notes.append(Reason(None, _("Also played as %(names)s", names=names_text)))
    return Entry(
        id=team,
        name=names[-1],
        metrics={"points": points, "season_questions": questions, "place_sum": place_sum},
        score=_("%(points)s pts (%(questions)s q)", points=points, questions=questions),
        notes=tuple(notes),
        points=points,
    )


def _tour_points(s: TourStanding) -> Message:
    if s.absent:
        return _("tour %(tour)s: absent (place %(places)s), 0 points", tour=s.tour,
                 places=s.places)  # fmt: skip
    known: dict[str, Value] = {"tour": s.tour, "points": s.points, "places": s.places,
                               "questions": s.questions}  # fmt: skip
    if "–" in s.places:
        return _("tour %(tour)s: %(points)s (places %(places)s → %(mean)s, %(questions)s q)",
                 mean=s.place.normalize(), **known)  # fmt: skip
    return _("tour %(tour)s: %(points)s (place %(places)s, %(questions)s q)", **known)


def _absent_note(s: TourStanding, stage: ChgkSeasonStage) -> Reason:
    text = _(
        "Absent from tour %(tour)s: counted at place %(places)s, after the last official team, "
        "with no points and no questions (our interpretation)",
        tour=s.tour,
        places=s.places,
    )
    return Reason(stage.absent_clause, text)


# --- The format -----------------------------------------------------------------------------


def tables(rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow]) -> list[Table]:
    if isinstance(stage, ChgkTourStage):
        return [tour_table(rulebook, stage, rows)]
    if isinstance(stage, ChgkSeasonStage):
        return [season_table(rulebook, stage, rows)]
    raise TypeError(f"stage '{stage.key}' is a {stage.format} stage, not a ChGK one")
