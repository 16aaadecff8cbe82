"""Results from the command line's CSV, recorded or corrected through the results services
(see ``podium.web.files.services.imports``)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.rules.schema.stages import Stage
from podium.web.chgk.services.rounds import round_questions_follow
from podium.web.files.services.imports.common import (
    ACTIONS,
    Checked,
    ImportRefused,
    Issue,
    dry_run,
    engine_issues,
    extra_cells,
    guard,
    once,
)
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.stages import stage_entries
from podium.web.kernel.text import name_key
from podium.web.models import Entry, Event, Result
from podium.web.readers.tables import Sheet, column_letter
from podium.web.registration.selectors.entries import roster
from podium.web.results.selectors.rows import (
    ENTRY_FORMATS,
    ITEM_FORMATS,
    battle_item,
    current_results,
    format_columns,
    item_row,
    labels_by_number,
    question_item,
    raw_row,
)
from podium.web.results.services.results import (
    check_not_final,
    check_round,
    recorded_stage,
    result_correct,
    result_record,
    shown,
)
from podium.web.standings.selectors.standings import live_tables

# --- results from the command line's CSV --------------------------------------------------------

KNOWN_COLUMNS = {
    "id",
    "name",
    "country",
    "group",
    "gender",
    "average",
    "birth_date",
    "qualified",
    "scored",
    "time",
    "missing",
    "pieces",
    "done",
    "questions",
    "mask",
    "tour",
    "round",
    "team1",
    "team2",
    "score1",
    "score2",
    "discipline",
    "division",
    "compensation",
    "compensation_reason",
}


def csv_column(name: str) -> str:
    """The command line's rule: known column names in any case; others (teams) as written."""
    lowered = name.strip().casefold()
    if lowered in KNOWN_COLUMNS or (lowered.startswith("g") and lowered[1:].isdigit()):
        return lowered
    return name.strip()


@dataclass
class ResultRow:
    row: int
    subject: str = ""
    entry: Entry | None = None
    item: str = ""
    cells: dict[str, str] = field(default_factory=dict)
    action: str = ""  # "record", "correct" or "unchanged"
    before: str = ""  # the current result, shown
    issues: list[Issue] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def values(self) -> str:
        return shown(self.cells) if self.cells else ""


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


def _records(sheet: Sheet) -> tuple[list[tuple[int, dict[str, str]]], list[Issue], list[str]]:
    header = [csv_column(h) for h in sheet.header]
    issues = []
    for index, name in enumerate(header):
        if not name:
            issues.append(
                Issue(None, column_letter(index), _("a column has no name in the header"))
            )
        elif header.index(name) != index:
            issues.append(Issue(None, name, _("the column appears twice in the header")))
    if "id" not in header:
        issues.append(Issue(None, "id", _("missing required column")))
    records = [(n, dict(zip(header, cells, strict=True))) for n, cells in sheet.rows]
    return records, issues, header


def _entry_rows(
    event: Event, stage: Stage, round: int, sheet: Sheet, reason: str
) -> tuple[list[ResultRow], list[Issue], list[str]]:
    records, general, header = _records(sheet)
    columns = format_columns(stage)
    notes = []
    present = [c for c in columns if c in header]
    if not present:
        general.append(
            Issue(
                None,
                "",
                _("The file has none of the columns of %(stage)s (%(columns)s).")
                % {"stage": stage.title, "columns": ", ".join(columns)},
            )
        )
    ignored = [h for h in header if h and h not in columns and h not in KNOWN_COLUMNS]
    if ignored:
        notes.append(_("Columns not read: %(columns)s.") % {"columns": ", ".join(ignored)})
    entries = {e.number: e for e in stage_entries(event, stage).prefetch_related(roster())}
    current = {r.entry_id: r for r in current_results(event, stage.key, round)}
    named: dict[str, list[int]] = defaultdict(list)
    for found in entries.values():
        named[name_key(found.name)].append(found.number)
    rows: list[ResultRow] = []
    seen: dict[int, int] = {}
    for number, record in records:
        row = ResultRow(row=number)
        rows.append(row)
        extra = extra_cells(sheet, number)
        if extra:
            row.issues.append(extra)
        row.notes += sheet.cell_notes.get(number, [])
        text = (record.get("id") or "").strip().removeprefix("#")
        name = (record.get("name") or "").strip()
        if not text and name and sheet.by_name:
            # The rating site's table has no entry numbers: its teams are found by name.
            found = named.get(name_key(name), [])
            if len(found) != 1:
                row.issues.append(_unnamed(number, name, found, stage))
                continue
            text = str(found[0])
        if not text:
            row.issues.append(Issue(number, "id", _("every row needs an id (the entry number)")))
            continue
        if not text.isdigit():
            row.issues.append(
                Issue(number, "id", _("“%(id)s” is not an entry number") % {"id": text})
            )
            continue
        entry = entries.get(int(text))
        if entry is None:
            row.issues.append(
                Issue(
                    number,
                    "id",
                    _("#%(id)s is not in the entry list of %(stage)s")
                    % {"id": text, "stage": stage.title},
                )
            )
            continue
        if entry.number in seen:
            row.issues.append(
                Issue(
                    number,
                    "id",
                    _("#%(id)d is already on row %(row)d")
                    % {"id": entry.number, "row": seen[entry.number]},
                )
            )
            continue
        seen[entry.number] = number
        row.entry = entry
        row.subject = f"#{entry.number} {entry.name}"
        row.cells = {c: (record.get(c) or "").strip() for c in columns}
        name = (record.get("name") or "").strip()
        if name and name.casefold() != entry.name.casefold():
            row.notes.append(_("the file names it “%(name)s”") % {"name": name})
        group = (record.get("group") or "").strip()
        if stage.groups and group and group != entry.group:
            row.issues.append(
                Issue(
                    number,
                    "group",
                    _("the file says group %(file)s; #%(number)d is in group %(group)s")
                    % {"file": group, "number": entry.number, "group": entry.group or "—"},
                )
            )
        _action(row, current.get(entry.pk), reason)
    good = [r for r in rows if r.entry is not None]
    if good and not general:
        raws = [raw_row(r.entry, stage, r.cells, r.row) for r in good if r.entry is not None]
        try:
            compute_standings(event.rulebook, stage.key, raws)
        except InputError as exc:
            by_row, rest = engine_issues(exc)
            for r in good:
                r.issues += by_row.get(r.row, [])
            general += rest
    return rows, general, notes


def _unnamed(number: int, name: str, found: list[int], stage: Stage) -> Issue:
    if found:
        numbers = ", ".join(f"#{n}" for n in sorted(found))
        text = _("“%(name)s” names several entries (%(numbers)s)") % {
            "name": name,
            "numbers": numbers,
        }
    else:
        text = _("“%(name)s” is not a team of %(stage)s: register it first") % {
            "name": name,
            "stage": stage.title,
        }
    return Issue(number, "name", text)


def _action(row: ResultRow, current: Result | None, reason: str) -> None:
    if current is None:
        row.action = "record"
        return
    row.before = shown(current.cells)
    same = {c: current.cells.get(c, "") for c in row.cells} == row.cells
    if same:
        row.action = "unchanged"
    elif reason:
        row.action = "correct"
    else:
        row.action = "correct"
        row.issues.append(
            Issue(
                row.row,
                "",
                _(
                    "%(subject)s already has a result (%(before)s); give the reason "
                    "for the correction on the form to correct it"
                )
                % {"subject": row.subject, "before": row.before},
            )
        )


def _team_resolver(event: Event, stage: Stage) -> Callable[[str], str | None]:
    """A team as a file names it (its number, label or name) → its entry number."""
    labels = labels_by_number(event, stage)
    names: dict[str, list[str]] = defaultdict(list)
    for number, label in labels.items():
        names[label.casefold()].append(number)
    entries = stage_entries(event, stage)
    for entry in entries:
        if str(entry.number) not in names[entry.name.casefold()]:
            names[entry.name.casefold()].append(str(entry.number))

    def resolve(text: str) -> str | None:
        text = text.strip()
        if text.removeprefix("#").isdigit() and text.removeprefix("#") in labels:
            return text.removeprefix("#")
        found = names.get(text.casefold(), [])
        return found[0] if len(found) == 1 else None

    return resolve


def _item_rows(
    event: Event, stage: Stage, round: int, sheet: Sheet, reason: str
) -> tuple[list[ResultRow], list[Issue], list[str]]:
    records, general, header = _records(sheet)
    resolve = _team_resolver(event, stage)
    labels = labels_by_number(event, stage)
    current = {r.item: r for r in current_results(event, stage.key, round)}
    rows: list[ResultRow] = []
    seen: dict[str, int] = {}
    teams: dict[str, str] = {}  # superfinal: team column → entry number
    if stage.format == "superfinal":
        for column in header:
            if column and column not in ("id", "discipline") and column not in KNOWN_COLUMNS:
                number = resolve(column)
                if number is None:
                    general.append(
                        Issue(
                            None,
                            column,
                            _("the column is not a team of %(stage)s") % {"stage": stage.title},
                        )
                    )
                else:
                    teams[column] = number
        missing = [labels[n] for n in labels if n not in teams.values()]
        for label in missing:
            general.append(
                Issue(None, "", _("The file has no column for %(team)s.") % {"team": label})
            )
    for number, record in records:
        row = ResultRow(row=number)
        rows.append(row)
        extra = extra_cells(sheet, number)
        if extra:
            row.issues.append(extra)
        if stage.format == "head-to-head":
            both = []
            for column in ("team1", "team2"):
                text = (record.get(column) or "").strip()
                found = resolve(text) if text else None
                if found is None:
                    row.issues.append(
                        Issue(
                            number,
                            column,
                            _("“%(team)s” is not a team of %(stage)s")
                            % {"team": text, "stage": stage.title},
                        )
                    )
                both.append(found)
            turn = (record.get("round") or "").strip()
            if not turn.isdigit():
                row.issues.append(
                    Issue(number, "round", _("“%(round)s” is not a round number") % {"round": turn})
                )
            if row.issues or None in both:
                continue
            first, second = both[0] or "", both[1] or ""
            row.item = battle_item(int(turn), int(first), int(second))
            row.cells = {
                "round": turn,
                "team1": first,
                "team2": second,
                "score1": (record.get("score1") or "").strip(),
                "score2": (record.get("score2") or "").strip(),
            }
            row.subject = f"{_('round')} {turn}: {labels[first]} – {labels[second]}"
        else:
            text = (record.get("id") or "").strip()
            if not text.isdigit() or int(text) < 1:
                row.issues.append(
                    Issue(number, "id", _("“%(id)s” is not a question number") % {"id": text})
                )
                continue
            row.item = question_item(int(text))
            row.cells = {"discipline": (record.get("discipline") or "").strip()}
            row.cells |= {n: (record.get(c) or "").strip() for c, n in teams.items()}
            row.subject = _("question %(n)s") % {"n": text}
        if row.item in seen:
            row.issues.append(
                Issue(
                    number,
                    "id",
                    _("%(subject)s is already on row %(row)d")
                    % {"subject": row.subject, "row": seen[row.item]},
                )
            )
            continue
        seen[row.item] = number
        _action(row, current.get(row.item), reason)
    good = [r for r in rows if r.item]
    if good and not general:
        others = [r for item, r in current.items() if item not in seen]
        raws = [item_row(stage, r.item, r.cells, labels, r.row) for r in good]
        raws += [item_row(stage, r.item, r.cells, labels, 10**6 + n) for n, r in enumerate(others)]
        try:
            compute_standings(event.rulebook, stage.key, raws)
        except InputError as exc:
            by_row, rest = engine_issues(exc)
            for r in good:
                r.issues += by_row.get(r.row, [])
            # Problems on rows of results already recorded (not in the file) concern the file
            # as a whole: its battles or questions do not fit with those.
            general += rest
            general += [
                Issue(None, "", i.message)
                for n, found in by_row.items()
                if n >= 10**6
                for i in found
            ]
    return rows, general, []


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
) -> list[Result]:
    """Records or corrects every row through the results service, in file order."""
    current = {(r.entry_id or r.item): r for r in current_results(event, stage.key, round)}
    made = []
    detail = {"entered": "import", "file": sheet.name}
    for row in rows:
        if row.issues or row.action not in ("record", "correct"):
            continue
        key = f"import-{token}/{row.row}"
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
                        detail=detail,
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
                        detail=detail,
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
) -> tuple[ResultsPlan, list[Result]]:
    the_stage = results_stage(event, stage, round)
    if the_stage.format in ENTRY_FORMATS:
        rows, general, notes = _entry_rows(event, the_stage, round, sheet, reason)
    elif the_stage.format in ITEM_FORMATS:
        rows, general, notes = _item_rows(event, the_stage, round, sheet, reason)
    else:  # pragma: no cover - recorded_stage lets only these through
        raise Refused(_("Results of this stage are not imported."))
    if sheet.note:
        notes.insert(0, sheet.note)
    plan = ResultsPlan(the_stage, round, rows, general, notes)
    made: list[Result] = []
    if not general:
        masks = (r.cells.get("mask", "") for r in rows if r.entry is not None and not r.issues)
        follow = round_questions_follow(
            event=event, stage=the_stage, round=round, masks=masks, by=by
        )
        if follow:
            notes.append(follow)
        made = _record_rows(event, the_stage, round, rows, by, token, reason, sheet, now)
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
) -> ResultsPlan:
    """What importing the results file into the round would record or correct, every problem
    per row and column (the engine's too), and the round's table after it; nothing is saved."""
    guard(event, by)
    now = now or timezone.now()
    reason = reason.strip()
    return dry_run(lambda: _results_plan(event, stage, round, sheet, by, "preview", reason, now)[0])


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
) -> list[Result]:
    """Records every row of the results file through ``result_record`` (or corrects a current
    result, given a reason), all or nothing (``ImportRefused``)."""
    guard(event, by)
    now = now or timezone.now()
    reason = reason.strip()
    with transaction.atomic():
        event = locked_event(event.pk)
        once(event, "results.import", token)
        plan, made = _results_plan(event, stage, round, sheet, by, token, reason, now)
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
