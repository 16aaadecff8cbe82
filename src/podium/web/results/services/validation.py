"""The values of a result checked before they are written: the engine's own reading of the row,
a ChGK tour's length, and the round's clock.

Vocabulary:
- row check: the engine runs on the row (with the round's other battles or questions), and any
  problem it finds in the row being written is refused with its message.
- clock check: a time recorded in a stage with a start signal must lie within the round's clock
  (extended by any time compensated), so a time outside the round is refused.
"""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _

from podium.engine.clock import ClockError
from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.timing import parse_clock
from podium.rules.schema.stages import ChgkTourStage, Stage
from podium.web.kernel.refusals import Refused
from podium.web.kernel.texts import error_text, shown_value, where_text
from podium.web.models import Entry, Event
from podium.web.results.selectors.clock import clock_of, group_of
from podium.web.results.selectors.rows import (
    current_results,
    groups_by_number,
    item_row,
    labels_by_number,
    raw_row,
)
from podium.web.results.selectors.tours import fixed_length, length_problem, varies


def subject_name(entry: Entry | None, item: str) -> str:
    """Who or what a result is of, for a refusal: ``#7`` for an entry, else the item."""
    return f"#{entry.number}" if entry is not None else item


def _refuse_problems(subject: str, exc: InputError, line: int) -> None:
    """Refuses with the engine's problems of row ``line`` (the one being written)."""
    prefix = f"row {line}"
    mine = [p for p in exc.problems if p.where == prefix or p.where.startswith(prefix + ",")]
    mine = mine or [p for p in exc.problems if not p.where.startswith("row ")] or exc.problems
    texts = []
    for p in mine:
        where = p.where.removeprefix(prefix).removeprefix(", ")
        what = shown_value(p.message)
        texts.append(f"{where_text(where)}: {what}" if where else what)
    first = mine[0].where.removeprefix(prefix).removeprefix(", ")
    field = first.removeprefix("column ") if first.startswith("column ") else None
    raise Refused(
        _("%(subject)s: %(problems)s") % {"subject": subject, "problems": "; ".join(texts)},
        field=field,
    ) from None


def validate(
    event: Event,
    stage: Stage,
    round: int,
    entry: Entry | None,
    item: str,
    cells: dict[str, str],
    now: dt.datetime,
) -> None:
    """Runs the engine on the row (with the round's other battles or questions), so any problem
    it finds is refused with its message, and checks a recorded time against the clock."""
    if entry is not None:
        rows = [raw_row(entry, stage, cells)]
        line = 1
    else:
        labels, groups = labels_by_number(event, stage), groups_by_number(event, stage)
        others = [r for r in current_results(event, stage.key, round, now) if r.item != item]
        rows = [
            item_row(stage, r.item, r.cells, labels, n, groups) for n, r in enumerate(others, 1)
        ]
        line = len(rows) + 1
        rows.append(item_row(stage, item, cells, labels, line, groups))
    length = None
    if entry is not None and isinstance(stage, ChgkTourStage) and varies(stage):
        length = fixed_length(event, stage, round)
    if entry is not None and length is not None:
        problem = length_problem(cells, length, round)
        if problem is not None:
            raise Refused(
                _("#%(number)d: %(problem)s") % {"number": entry.number, "problem": problem},
                field="mask" if cells.get("mask") else "questions",
            )
    try:
        compute_standings(event.rulebook, stage.key, rows)
    except InputError as exc:
        _refuse_problems(subject_name(entry, item), exc, line)
    if entry is None:
        return
    clock = clock_of(event, stage, round, group_of(entry, stage))
    if cells.get("pieces") and clock.state(now) == "running":
        raise Refused(
            _("#%(number)d: the round is still running; pieces are counted when it ends.")
            % {"number": entry.number},
            field="pieces",
        )
    if cells.get("time"):
        extra = parse_clock(cells["compensation"]) if cells.get("compensation") else 0
        try:
            clock.extended(extra).check_recorded(parse_clock(cells["time"]), now)
        except ClockError as exc:
            raise Refused(
                _("#%(number)d: %(problem)s")
                % {"number": entry.number, "problem": error_text(exc)},
                field="time",
            ) from None
