"""One ChGK tour: its teams' rows checked and turned into a table.

Vocabulary (see ``podium.engine.formats.chgk.masks`` for masks and withdrawn questions):
- tour: one sitting of ``stage.questions`` questions; a team's result is the number of questions
  it took, and places follow that number (standard competition places, 1, 2, 2, 4).
- tour length: the rulebook's ``questions``, or, where it lets tours vary (``max_questions``),
  the length of the tour's masks.
- sanctioned: a team whose tour result counts as 0 under a sanction (``sanctioned: yes``; п. 8:
  a player not on its roster, or who played for another team); it keeps its place in the list
  of teams that played, with 0 questions.
- question rating: a question taken by k of the tour's N official teams is worth N − k + 1; a
  team's rating is the sum over the questions it took (a criterion some rulebooks rank by).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from podium.engine.classification import Classifier
from podium.engine.entries import Entry, Reason
from podium.engine.errors import Problems
from podium.engine.formats.chgk.masks import (
    Mask,
    check_withdrawn,
    first_withdrawn,
    mask_notes,
    read_masks,
)
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
from podium.engine.messages import Message, _
from podium.engine.standings import Table, build_table
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import ChgkTourStage

QUESTION_RATING = "question-rating"  # the criterion's key (``podium.engine.criteria``)


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
    masks = read_masks(reader, rows, questions)
    withdrawn = first_withdrawn(masks)
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
            check_withdrawn(reader, row, mask, in_order)
        taken = _taken(reader, row, mask, questions, len(withdrawn))
        if competitor is not None and taken is not None and len(problems) == before:
            results.append(TourResult(competitor, taken, mask))
    return results


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
        notes = mask_notes(result.mask, clause)
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


def require_tour_columns(rows: Sequence[RawRow], required: Sequence[str]) -> None:
    """The ``required`` columns, and the questions taken or a mask: a tour's or a season's."""
    problems = Problems()
    columns = columns_of(rows)
    require_columns(columns, required, problems)
    if "questions" not in columns and "mask" not in columns:
        problems.add("column questions", _("missing required column (or give a mask column)"))
    problems.raise_if_any()


def tour_table(rulebook: Rulebook, stage: ChgkTourStage, rows: Sequence[RawRow]) -> Table:
    require_tour_columns(rows, ["id"])
    problems = Problems()
    competitors = read_competitors(rows, problems)
    entries = tour_entries(rulebook, stage, rows, competitors, problems)
    problems.raise_if_any()
    return build_table("all", stage.title, entries, stage)


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
