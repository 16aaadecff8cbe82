"""Disputed answers stay anonymous until the verdict (the jury decides without the team's name).

Vocabulary:
- disputed mark: ``?`` in a team's ChGK mask, an answer the table could not judge; the jury
  accepts it (``1``) or not (``0``).
- open dispute: a disputed mark nobody has decided by the moment a table is as of. Laid over the
  rows, the verdicts in force turn every decided ``?`` into ``1`` or ``0``
  (``podium.web.disputes.selectors.rulings``), so a ``?`` left in a row is an open dispute.
- under appeal: a question of a tour with at least one open dispute. Which question is public;
  which team disputed it is not.
- blind row: a tour row whose open ``?`` marks are written ``0``, exactly as an answer not (yet)
  counted: a ``?`` counts as not taken until the verdict, so every count, place and point is the
  one the rules give, and the disputing team looks like every team that missed the question.
- appeal note: the one reason every row of a tour with a question under appeal carries, naming
  the questions and never a team (results are preliminary for everyone until the verdict).
- who sees the ``?``: only what records a sheet (the referees' grid at the desk, the head
  referee's comparison of two scorers' sheets, the API's read of recorded results for the token
  that writes them) and the database itself (the event archive, the admin). Every table, chart,
  export and file made from the rows is blind, for the public and the staff alike; the jury sees
  a dispute by its tour, question and letter only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from podium.engine.entries import Reason
from podium.engine.inputs import RawRow
from podium.engine.messages import Message, ngettext
from podium.rules.schema import Rulebook
from podium.web.disputes.selectors.rulings import Notes

DISPUTED = "?"
NOT_COUNTED = "0"


def disputed_questions(mask: str) -> tuple[int, ...]:
    """The questions (from 1) a mask marks ``?``: the one test of a disputed answer."""
    if DISPUTED not in mask:  # nearly every mask: one search in C
        return ()
    return tuple(q for q, mark in enumerate(mask, start=1) if mark == DISPUTED)


def blind_mask(mask: str) -> str:
    """The mask as anyone outside the entry screen sees it: a ``?`` written as a miss."""
    return mask.replace(DISPUTED, NOT_COUNTED)


def under_appeal(masks: Iterable[str]) -> tuple[int, ...]:
    """The questions with an open dispute in any of these (ruled) masks, in order."""
    return tuple(sorted({q for mask in masks for q in disputed_questions(mask)}))


@dataclass(frozen=True)
class Blinded:
    """A tour's rows made blind, the appeal note of each row, and the questions under appeal."""

    rows: list[RawRow]
    notes: Notes = field(default_factory=dict)
    questions: tuple[int, ...] = ()


def blind_rows(rulebook: Rulebook, rows: Sequence[RawRow]) -> Blinded:
    """The rows of one tour, rulings already applied, with every open dispute blind (see the
    vocabulary); rows without one are returned as they are."""
    questions = under_appeal(row.cells.get("mask") or "" for row in rows)
    if not questions:
        return Blinded(list(rows))
    blind = [
        RawRow(row.line, {**row.cells, "mask": blind_mask(row.cells["mask"])})
        if DISPUTED in (row.cells.get("mask") or "")
        else row
        for row in rows
    ]
    clause = next((a.clause for a in rulebook.appeals if a.kinds), None)
    note = Reason(clause, appeal_text(questions))
    notes: Notes = defaultdict(list)
    for row in rows:
        notes[row.cells["id"]].append(note)
    return Blinded(blind, notes, questions)


def appeal_text(questions: Sequence[int]) -> Message:
    """The appeal note's text (a message the page translates)."""
    return ngettext(
        "Question %(numbers)s is under appeal: a disputed answer waits for the jury's verdict "
        "and counts as not taken until then, so the results are preliminary",
        "Questions %(numbers)s are under appeal: disputed answers wait for the jury's verdict "
        "and count as not taken until then, so the results are preliminary",
        len(questions),
        numbers=", ".join(str(q) for q in questions),
    )
