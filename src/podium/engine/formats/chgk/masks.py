"""ChGK masks: a team's tour question by question, as the rating site writes it.

Vocabulary:
- mask: one mark per question: ``1`` taken, ``0`` not taken, ``X`` withdrawn, ``?`` disputed and
  not yet ruled on (not taken for now, so the result is preliminary).
- withdrawn question: struck from the tour for every team after an appeal; it is ``X`` in every
  mask and nobody can take it.
- disputed question: an answer whose appeal awaits its verdict; its team's result is
  preliminary until then.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice
from typing import NamedTuple

from podium.engine.entries import Reason
from podium.engine.inputs import RawRow, Reader
from podium.engine.messages import Joined, Line, MessageError, Value, _, ngettext

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


# --- Reading a tour's masks -----------------------------------------------------------------


def read_masks(reader: Reader, rows: Sequence[RawRow], questions: int) -> dict[int, Mask]:
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


def first_withdrawn(masks: dict[int, Mask]) -> dict[int, int]:
    """Each withdrawn question, with the first row that marks it ``X``."""
    first: dict[int, int] = {}
    for line in sorted(line for line, mask in masks.items() if "X" in mask.marks):
        for number in masks[line].withdrawn:
            first.setdefault(number, line)
    return first


def check_withdrawn(
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


def mask_notes(mask: Mask | None, clause: str | None) -> tuple[Reason, ...]:
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
