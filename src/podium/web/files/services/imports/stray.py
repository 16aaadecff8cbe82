"""The organizer's decisions on the stray cells of the rating site's table (see
``podium.web.readers.ratingsheet``): each cell that is neither a mark nor an answer is read as
the mark the organizer chose for it, and the choice is said in a note on the team's row (and
kept on its result); a cell not decided yet is a problem of its row, so nothing is saved.

Vocabulary:
- decision: a stray cell's index in ``Sheet.stray`` → its mark: ``1`` taken, ``0`` not taken,
  ``?`` disputed, ``X`` withdrawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from django.utils.translation import gettext as _

from podium.web.files.services.imports.common import Issue
from podium.web.readers.ratingsheet import mark_words
from podium.web.readers.tables import Sheet

DECISIONS = ("1", "0", "?", "X")


def decided(
    sheet: Sheet, decisions: Mapping[int, str]
) -> tuple[Sheet, dict[int, list[Issue]], dict[int, list[str]]]:
    """The sheet with each decided stray cell's mark in its team's mask, the problems of the
    rows with a cell not decided, and the notes saying each decision, by row."""
    if not sheet.stray:
        return sheet, {}, {}
    masks = {n: list(cells[2]) for n, cells in sheet.rows}
    undecided: dict[int, list[Issue]] = {}
    said: dict[int, list[str]] = {}
    for index, cell in enumerate(sheet.stray):
        row, mark = int(cell["row"]), decisions.get(index, "")
        if mark not in DECISIONS:
            undecided.setdefault(row, []).append(
                Issue(
                    row, "mask", _("%(stray)s: decide how to read it") % {"stray": cell["message"]}
                )
            )
            continue
        masks[row][int(cell["position"])] = mark
        said.setdefault(row, []).append(
            _("%(cell)s: “%(value)s” read as %(mark)s, as the organizer decided")
            % {"cell": cell["cell"], "value": cell["value"], "mark": mark_words(mark)}
        )
    rows = tuple((n, (*cells[:2], "".join(masks[n]), *cells[3:])) for n, cells in sheet.rows)
    notes = {
        n: [*sheet.cell_notes.get(n, []), *said.get(n, [])] for n in {*sheet.cell_notes, *said}
    }
    return replace(sheet, rows=rows, cell_notes=notes), undecided, said
