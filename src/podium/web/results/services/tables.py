"""The referee at a team's table in a stage of several puzzles: start, switch, finish, pieces.

Vocabulary:
- table step, puzzle, on the table, switch: see ``podium.engine.teamflow``; the engine refuses
  a step the table does not allow (a second puzzle in progress, a switch without the first
  taken apart, a finish with nothing on the table) and the refusal is shown as it says.
- finish: the referee has checked the puzzle on the table; the time is read off the team's
  clock (whole seconds since the start). When it was the team's last puzzle, the team's result
  is recorded, with every finished puzzle in the result's detail.
- pieces at the limit: once the round has ended, the pieces counted on the puzzle in progress
  make the result of a team that did not finish every puzzle.
- result: a team's result is whole only when every puzzle is done or the limit is reached (the
  ranking needs the pieces of an unfinished puzzle), so, like an individual's, it is recorded
  then; until that, the table steps say how far the team has come.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.engine.teamflow import FlowError, Step, TeamTable
from podium.rules.schema.stages import TeamSolveStage
from podium.web.kernel.audit import audit
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_staff
from podium.web.kernel.stages import in_stage
from podium.web.kernel.texts import error_text
from podium.web.models import Entry, Event, Result, TableStep
from podium.web.results.selectors.clock import clock_of, group_of
from podium.web.results.selectors.rows import current_results
from podium.web.results.selectors.tables import table_of
from podium.web.results.services.clock import finish_time
from podium.web.results.services.results import (
    check_not_final,
    check_round,
    key_of,
    recorded_stage,
    result_progress,
    result_record,
)


def _team_stage(event: Event, stage: str, round: int, entry: Entry, by: Any) -> TeamSolveStage:
    the_stage = recorded_stage(event, stage)
    if not isinstance(the_stage, TeamSolveStage):
        raise Refused(_("This stage has one puzzle per entrant: record its finish instead."))
    if not is_staff(by, event):
        raise Refused(_("Only an organizer or referee of this event may record results."))
    check_round(event, the_stage, round)
    check_not_final(event, the_stage, round)
    if not in_stage(event, the_stage, entry):
        raise Refused(
            _("#%(number)d %(name)s is not in the entry list of %(stage)s.")
            % {"number": entry.number, "name": entry.name, "stage": the_stage.title},
            field="entry",
        )
    return the_stage


def _detail(table: TeamTable) -> dict[str, Any]:
    return {
        "finished": [
            {"puzzle": f.puzzle + 1, "at_ms": f.at_ms, "missing": f.missing} for f in table.finished
        ]
    }


def _save_result(
    event: Event,
    stage: TeamSolveStage,
    round: int,
    entry: Entry,
    cells: dict[str, str],
    detail: dict[str, Any],
    by: Any,
    key: str,
    now: dt.datetime,
) -> Result:
    current = next(
        (r for r in current_results(event, stage.key, round, now) if r.entry_id == entry.pk), None
    )
    if current is None:
        return result_record(
            event=event, stage=stage.key, entry=entry, round=round, cells=cells, detail=detail,
            by=by, idempotency_key=key, now=now,
        )  # fmt: skip
    return result_progress(
        result=current, cells=cells, detail=detail, by=by, idempotency_key=key, now=now
    )


def table_step(
    *,
    event: Event,
    stage: str,
    entry: Entry,
    kind: str,
    by: Any,
    idempotency_key: str,
    round: int = 1,
    puzzle: int | None = None,
    taken_apart: bool = False,
    missing: int = 0,
    now: dt.datetime | None = None,
) -> TableStep:
    """Records one step at the team's table (``puzzle`` counts from 0, as in the rulebook)."""
    now = now or timezone.now()
    key = key_of(idempotency_key)
    if kind not in TableStep.Kind.values:
        raise Refused(_("Unknown table step."), field="kind")
    with transaction.atomic():
        entry = (
            Entry.objects.select_for_update(of=("self",)).select_related("event").get(pk=entry.pk)
        )
        event = entry.event
        the_stage = _team_stage(event, stage, round, entry, by)
        earlier = TableStep.objects.filter(event=event, idempotency_key=key).first()
        if earlier is not None:
            if (earlier.entry_id, earlier.kind, earlier.puzzle) != (entry.pk, kind, puzzle):
                raise Refused(_("This submission key was already used for a different step."))
            return earlier
        table = table_of(event, the_stage, round, entry)
        at_ms = None
        if kind == TableStep.Kind.FINISH:
            millis = finish_time(event, the_stage, round, entry, now)
            at_ms = millis - millis % 1000
        elif clock_of(event, the_stage, round, group_of(entry, the_stage)).state(now) == "ended":
            raise Refused(_("The round has ended: no puzzle starts any more."))
        step = Step(kind, puzzle=puzzle, at_ms=at_ms, missing=missing, taken_apart=taken_apart)  # type: ignore[arg-type]
        try:
            after = table.apply(step)
        except FlowError as exc:
            raise Refused(
                _("#%(number)d: %(problem)s") % {"number": entry.number, "problem": error_text(exc)}
            ) from None
        saved = TableStep.objects.create(
            event=event, stage=stage, round=round, entry=entry, kind=kind, puzzle=puzzle,
            at_ms=at_ms, missing=missing, taken_apart=taken_apart, recorded_by=by,
            recorded_at=now, idempotency_key=key,
        )  # fmt: skip
        if kind == TableStep.Kind.FINISH and after.complete:
            _save_result(
                event, the_stage, round, entry, after.cells(), _detail(after), by,
                f"{key}:result", now,
            )  # fmt: skip
        audit(
            event=event, actor=by, action=f"table.{kind}", target=entry, stage=stage,
            round=round, puzzle=puzzle, at_ms=at_ms, missing=missing, taken_apart=taken_apart,
        )  # fmt: skip
    return saved


def table_pieces(
    *,
    event: Event,
    stage: str,
    entry: Entry,
    pieces: int,
    by: Any,
    idempotency_key: str,
    round: int = 1,
    groups: list[int] | None = None,
    now: dt.datetime | None = None,
) -> Result:
    """Completes the team's result at the limit with the pieces on the puzzle in progress."""
    now = now or timezone.now()
    key = key_of(idempotency_key)
    with transaction.atomic():
        entry = (
            Entry.objects.select_for_update(of=("self",)).select_related("event").get(pk=entry.pk)
        )
        event = entry.event
        the_stage = _team_stage(event, stage, round, entry, by)
        earlier = Result.objects.filter(event=event, idempotency_key=key).first()
        if earlier is not None and earlier.entry_id == entry.pk:
            return earlier
        table = table_of(event, the_stage, round, entry)
        if table.complete:
            raise Refused(
                _("#%(number)d finished every puzzle: there are no pieces to count.")
                % {"number": entry.number}
            )
        try:
            cells = table.cells(pieces, summed=the_stage.unfinished.method == "pieces-summed")
        except FlowError as exc:
            raise Refused(
                _("#%(number)d: %(problem)s")
                % {"number": entry.number, "problem": error_text(exc)},
                field="pieces",
            ) from None
        detail = _detail(table)
        if groups:
            detail["groups"] = groups
        return _save_result(event, the_stage, round, entry, cells, detail, by, key, now)
