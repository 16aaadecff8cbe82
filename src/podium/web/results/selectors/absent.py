"""The entrants of a round without a result, as rows the engine lists at the foot of a table
(``podium.engine.absence``).

Vocabulary:
- entrant of the round: an entry on the stage's entry list (``kernel.stages.stage_entries``).
- status: ``absent`` for one not checked in where the rulebook keeps a check-in (a no-show);
  for one present (checked in, or no check-in kept): ``dnf`` once its group's clock has ended
  (by a signal or its time limit) without its result, and while the clock runs it is still
  solving, so not listed at all; ``dns`` where the round has no clock or it has not started.
  A team without a row in a ChGK tour is ``absent`` from it (the season's rule says so).
- foot rows: listed only once the round has a result, so a round nobody has played yet shows
  no table, as before. Read in one query whatever their number.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.utils import timezone

from podium.engine.compute import NO_FOOT
from podium.engine.inputs import RawRow
from podium.rules.schema.stages import Stage
from podium.web.kernel.stages import stage_entries
from podium.web.models import Entry, Event
from podium.web.results.selectors.clock import clocks, group_of, limit_ms


def _status(entry: Entry, kept: bool, clock_ended: bool | None) -> str | None:
    if kept and getattr(entry, "check_in", None) is None:
        return "absent"
    if clock_ended is None:
        return "dns"
    return "dnf" if clock_ended else None


def _clocks_ended(
    event: Event, stage: Stage, round: int, at: dt.datetime | None
) -> dict[str, bool | None]:
    """Clock group → whether its clock has ended (``None``: never started); a stage without a
    clock (games, tours) reads no signal."""
    if limit_ms(stage) is None:
        return {}
    now = at or timezone.now()
    ended: dict[str, bool | None] = {}
    for group, clock in clocks(event, stage, round, at).items():
        ends = clock.ended_at or clock.ends_at
        ended[group] = None if clock.started_at is None else ends is not None and ends <= now
    return ended


def absent_rows(
    event: Event, stage: Stage, round: int, rows: Sequence[RawRow], at: dt.datetime | None = None
) -> list[RawRow]:
    """A row with a ``status`` for every entrant of the round without a row in ``rows`` (see
    the vocabulary); none while ``rows`` is empty."""
    if not rows or stage.format in NO_FOOT:
        return []
    done = {row.cells.get("id", "") for row in rows}
    entries = [
        e
        for e in stage_entries(event, stage).select_related("check_in")
        if str(e.number) not in done
    ]
    if not entries:
        return []
    ended = _clocks_ended(event, stage, round, at)
    kept = event.rulebook.check_in is not None
    made = []
    for line, entry in enumerate(entries, start=len(rows) + 1):
        status = (
            "absent"
            if stage.format == "chgk-tour"
            else _status(entry, kept, ended.get(group_of(entry, stage)))
        )
        if status is None:
            continue
        cells = {
            "id": str(entry.number),
            "name": entry.name,
            "group": entry.group if stage.groups else "",
            "division": entry.division,
            "status": status,
        }
        made.append(RawRow(line, cells))
    return made
