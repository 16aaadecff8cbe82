"""Results from the command line's CSV, recorded or corrected through the results services
(see ``podium.web.files.services.imports``); its rows are read and checked by
``podium.web.files.services.imports.result_rows``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.rules.schema.stages import Stage
from podium.web.chgk.services.rounds import round_questions_follow
from podium.web.files.services.imports.common import (
    ACTIONS,
    Checked,
    ImportRefused,
    Issue,
    dry_run,
    guard,
    once,
)
from podium.web.files.services.imports.result_rows import ResultRow, entry_rows, item_rows
from podium.web.files.services.imports.stray import decided
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.models import Event, Result
from podium.web.readers.tables import Sheet
from podium.web.results.selectors.rows import (
    ENTRY_FORMATS,
    ITEM_FORMATS,
    current_results,
)
from podium.web.results.services.results import (
    check_not_final,
    check_round,
    recorded_stage,
    result_correct,
    result_record,
)
from podium.web.standings.selectors.standings import live_tables

# --- results from the command line's CSV --------------------------------------------------------


@dataclass
class ResultsPlan(Checked):
    stage: Stage
    round: int
    rows: list[ResultRow]
    general: list[Issue]
    notes: list[str] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)

    def count(self, action: str) -> int:
        return sum(r.action == action for r in self.rows)

    @property
    def counts(self) -> dict[str, int]:
        return {a: self.count(a) for a in ACTIONS}


def results_stage(event: Event, stage: str, round: int) -> Stage:
    the_stage = recorded_stage(event, stage)
    check_round(event, the_stage, round)
    check_not_final(event, the_stage, round)
    return the_stage


def _record_rows(
    event: Event,
    stage: Stage,
    round: int,
    rows: list[ResultRow],
    by: Any,
    token: str,
    reason: str,
    sheet: Sheet,
    now: dt.datetime,
    said: dict[int, list[str]],
) -> list[Result]:
    """Records or corrects every row through the results service, in file order."""
    current = {(r.entry_id or r.item): r for r in current_results(event, stage.key, round)}
    made = []
    detail = {"entered": "import", "file": sheet.name}
    for row in rows:
        if row.issues or row.action not in ("record", "correct"):
            continue
        key = f"import-{token}/{row.row}"
        # The organizer's reading of a stray cell stays on the result it made.
        kept = {**detail, "notes": said[row.row]} if said.get(row.row) else detail
        try:
            with transaction.atomic():
                if row.action == "record":
                    result = result_record(
                        event=event,
                        stage=stage.key,
                        cells=row.cells,
                        by=by,
                        idempotency_key=key,
                        entry=row.entry,
                        item=row.item,
                        round=round,
                        detail=kept,
                        now=now,
                    )
                else:
                    seen = current[row.entry.pk if row.entry is not None else row.item]
                    result = result_correct(
                        result=seen,
                        cells=row.cells,
                        by=by,
                        reason=reason,
                        idempotency_key=key,
                        detail=kept,
                        now=now,
                    )
        except Refused as exc:
            column = "id" if exc.field == "entry" else (exc.field or "")
            row.issues.append(Issue(row.row, column, refusal_text(exc)))
            continue
        made.append(result)
    return made


def _results_plan(
    event: Event,
    stage: str,
    round: int,
    sheet: Sheet,
    by: Any,
    token: str,
    reason: str,
    now: dt.datetime,
    decisions: Mapping[int, str],
) -> tuple[ResultsPlan, list[Result]]:
    the_stage = results_stage(event, stage, round)
    sheet, undecided, said = decided(sheet, decisions)
    if the_stage.format in ENTRY_FORMATS:
        rows, general, notes = entry_rows(event, the_stage, round, sheet, reason)
        for row in rows:
            row.issues += undecided.get(row.row, [])
    elif the_stage.format in ITEM_FORMATS:
        rows, general, notes = item_rows(event, the_stage, round, sheet, reason)
    else:  # pragma: no cover - recorded_stage lets only these through
        raise Refused(_("Results of this stage are not imported."))
    notes[:0] = [n for n in (sheet.note, *sheet.table_notes) if n]
    plan = ResultsPlan(the_stage, round, rows, general, notes)
    made: list[Result] = []
    if not general:
        masks = (r.cells.get("mask", "") for r in rows if r.entry is not None and not r.issues)
        follow = round_questions_follow(
            event=event, stage=the_stage, round=round, masks=masks, by=by
        )
        if follow:
            notes.append(follow)
        made = _record_rows(event, the_stage, round, rows, by, token, reason, sheet, now, said)
    if plan.ok:
        plan.tables, problems = live_tables(event, the_stage, round)
        plan.notes += problems
    return plan, made


def results_preview(
    *,
    event: Event,
    stage: str,
    round: int,
    sheet: Sheet,
    by: Any,
    reason: str = "",
    now: dt.datetime | None = None,
    decisions: Mapping[int, str] | None = None,
) -> ResultsPlan:
    """What importing the results file into the round would record or correct, every problem
    per row and column (the engine's too), and the round's table after it; nothing is saved."""
    guard(event, by)
    now = now or timezone.now()
    reason = reason.strip()
    chosen = decisions or {}
    return dry_run(
        lambda: _results_plan(event, stage, round, sheet, by, "preview", reason, now, chosen)[0]
    )


def results_import(
    *,
    event: Event,
    stage: str,
    round: int,
    sheet: Sheet,
    by: Any,
    token: str,
    reason: str = "",
    now: dt.datetime | None = None,
    decisions: Mapping[int, str] | None = None,
) -> list[Result]:
    """Records every row of the results file through ``result_record`` (or corrects a current
    result, given a reason), all or nothing (``ImportRefused``)."""
    guard(event, by)
    now = now or timezone.now()
    reason = reason.strip()
    with transaction.atomic():
        event = locked_event(event.pk)
        once(event, "results.import", token)
        plan, made = _results_plan(
            event, stage, round, sheet, by, token, reason, now, decisions or {}
        )
        if not plan.ok:
            raise ImportRefused(plan.issues)
        audit(
            event=event,
            actor=by,
            action="results.import",
            target=f"{stage} {round}",
            token=token,
            file=sheet.name,
            stage=stage,
            round=round,
            reason=reason,
            recorded=plan.count("record"),
            corrected=plan.count("correct"),
            unchanged=plan.count("unchanged"),
        )
    return made
