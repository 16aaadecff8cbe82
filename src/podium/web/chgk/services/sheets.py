"""Recording a ChGK tour sheet: the masks of several teams of one tour at once, all or nothing,
and the second scorer's sheet that checks them.

Vocabulary:
- sheet: the question masks of several teams in one round (tour) of a chgk-tour stage, sent
  together by one scorer. Nothing of it is stored unless every row can be stored.
- row: one team's mask on the sheet. A team without a result gets its first result; a team
  whose result differs gets a correction, only when the sheet gives a reason; a team whose
  result is the same is left alone (unchanged).
- seen result: the result of a team the scorer had in front of them; a row is compared with it,
  so a result someone else changed meanwhile is refused, never overwritten (stale write).
- row key: the sheet's idempotency key and the team's number (``KEY/7``), so a sheet sent twice
  records each row once.
- check sheet: the second scorer's blind sheet; each row is a second entry of the team's current
  result (``podium.web.results.services.checks``): it matches and verifies, or it is a mismatch.
- mismatch: a row of the check sheet whose marks differ, with the numbers of those questions.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.engine.compare import mask_differences
from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.messages import relabel
from podium.rules.schema.stages import ChgkTourStage
from podium.web.kernel.audit import audit
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_staff
from podium.web.kernel.texts import problem_text, shown_value
from podium.web.models import Entry, Event, Result, SecondEntry, Verification
from podium.web.results.selectors.rows import current_results, of_round, raw_row
from podium.web.results.selectors.tours import fixed_length, length_problem, varies
from podium.web.results.services.checks import second_entry_record
from podium.web.results.services.results import (
    MAX_KEY,
    check_not_final,
    check_round,
    key_of,
    recorded_stage,
    result_correct,
    result_record,
)

_ROW = re.compile(r"\brow (\d+)")
# Room for "/<team number>" after the sheet's key.
SHEET_KEY_MAX = MAX_KEY - 8
_ACTIONS = ("recorded", "corrected", "unchanged")
_STATUSES = ("match", "mismatch", "no-first", "verified")


class SheetRefused(Refused):
    """A sheet refused as a whole; ``problems`` lists every problem of every row."""

    def __init__(self, problems: Sequence[tuple[int, str]]):
        # By team number, each team's problems in the order they were found.
        self.problems = tuple(text for _number, text in sorted(problems, key=lambda p: p[0]))
        message = _("Nothing was saved: %(problems)s") % {"problems": "; ".join(self.problems)}
        super().__init__(message, field="masks")


@dataclass(frozen=True)
class SheetRow:
    entry: Entry
    action: Literal["recorded", "corrected", "unchanged"]
    result: Result


@dataclass(frozen=True)
class CheckRow:
    entry: Entry
    status: Literal["match", "mismatch", "no-first", "verified"]
    questions: tuple[int, ...] = ()  # the questions whose marks differ
    second_entry: SecondEntry | None = None


@dataclass(frozen=True)
class CheckedSheet:
    rows: tuple[CheckRow, ...]

    def _with(self, status: str) -> list[CheckRow]:
        return [r for r in self.rows if r.status == status]

    @property
    def matches(self) -> list[CheckRow]:
        return self._with("match")

    @property
    def mismatches(self) -> list[CheckRow]:
        return self._with("mismatch")

    @property
    def skipped(self) -> list[CheckRow]:
        """Teams with no first result yet: nothing to check against."""
        return self._with("no-first")

    @property
    def already_verified(self) -> list[CheckRow]:
        return self._with("verified")


def label(entry: Entry) -> str:
    return f"#{entry.number} {entry.name}"


def clean_mask(text: str) -> str:
    """A mask as typed, without spaces and with ``x`` as ``X``."""
    return "".join((text or "").split()).upper()


def _mask_of(result: Result | None) -> str | None:
    return None if result is None else clean_mask(result.cells.get("mask", ""))


def _named(entry: Entry, message: str) -> tuple[int, str]:
    """A problem of a team's row, led by the team (the services' own refusals lead with it)."""
    text = message if message.startswith(f"#{entry.number}") else f"{label(entry)}: {message}"
    return entry.number, text


def _engine_problems(
    event: Event, stage: ChgkTourStage, rows: Sequence[tuple[Entry, str]]
) -> list[tuple[int, str]]:
    """Every problem the engine finds in these teams' masks read as one tour, by team."""
    raws = [
        raw_row(entry, stage, {"mask": mask, "questions": ""}, line)
        for line, (entry, mask) in enumerate(rows, start=1)
    ]
    try:
        compute_standings(event.rulebook, stage.key, raws)
    except InputError as exc:
        by_line = {line: entry for line, (entry, _mask) in enumerate(rows, start=1)}

        def name(line: int) -> str | None:
            entry = by_line.get(line)
            return label(entry) if entry else None

        problems = []
        for p in exc.problems:
            where = _ROW.match(p.where)
            entry = by_line.get(int(where.group(1))) if where else None
            text = shown_value(relabel(p.message, name))
            problems.append(_named(entry, text) if entry else (0, problem_text(p)))
        return problems
    return []


def _length_problems(
    event: Event, stage: ChgkTourStage, round: int, sheet: Sequence[tuple[Entry, str]]
) -> list[tuple[int, str]]:
    """The sheet's masks that are not as long as the tour
    (``podium.web.results.selectors.tours``)."""
    length = fixed_length(event, stage, round) if varies(stage) else None
    if length is None:
        return []  # the engine holds the masks to the rulebook's ``questions``, or to one length
    found = [(entry, length_problem({"mask": mask}, length, round)) for entry, mask in sheet]
    return [_named(entry, problem) for entry, problem in found if problem is not None]


def _tour_stage(event: Event, stage: str, round: int, by: Any) -> ChgkTourStage:
    """The guard every sheet passes first (see ``podium.web.results.services.results``)."""
    the_stage = recorded_stage(event, stage)
    if not isinstance(the_stage, ChgkTourStage):
        raise Refused(_("A tour sheet is for a ChGK tour stage."), field="stage")
    if not is_staff(by, event):
        raise Refused(_("Only an organizer or referee of this event may record results."))
    check_round(event, the_stage, round)
    check_not_final(event, the_stage, round)
    return the_stage


def _sheet_key(idempotency_key: str) -> str:
    key = key_of(idempotency_key)
    if len(key) > SHEET_KEY_MAX:
        raise Refused(
            _("A sheet's key is at most %(max)d characters.") % {"max": SHEET_KEY_MAX},
            field="idempotency_key",
        )
    return key


def _planned(
    event: Event,
    stage: str,
    round: int,
    sheet: Sequence[tuple[Entry, str]],
    current: Mapping[int, Result],
    seen: Mapping[Entry, Result | None] | None,
    reason: str,
) -> tuple[list[tuple[Entry, str, Result | None]], list[tuple[int, str]]]:
    """The rows of the sheet that change, each with the result it changes (``None``: the team's
    first result), and the problems of the rows: a seen result that is not the team's in this
    tour, a change without a reason."""
    planned: list[tuple[Entry, str, Result | None]] = []
    problems: list[tuple[int, str]] = []
    for entry, mask in sheet:
        base = current.get(entry.pk) if seen is None else seen.get(entry)
        now_current = current.get(entry.pk)
        if base is not None and (base.event_id, base.stage, base.round, base.entry_id) != (
            event.pk, stage, round, entry.pk,
        ):  # fmt: skip
            problems.append(_named(entry, _("the result seen is not this team's in this tour.")))
            continue
        if _mask_of(base) == mask or (base is None and _mask_of(now_current) == mask):
            continue
        if base is not None and not reason:
            problems.append(
                _named(entry, _("the recorded mask would change; give the reason for it."))
            )
        planned.append((entry, mask, base))
    return planned, problems


def _written(
    *,
    event: Event,
    stage: str,
    round: int,
    planned: Sequence[tuple[Entry, str, Result | None]],
    by: Any,
    key: str,
    reason: str,
    now: dt.datetime,
) -> dict[int, SheetRow]:
    """Records or corrects each planned row (``podium.web.results.services.results``), by team
    id; every row the services refuse is a problem of the sheet."""
    problems: list[tuple[int, str]] = []
    done: dict[int, SheetRow] = {}
    for entry, mask, base in planned:
        row_key = f"{key}/{entry.number}"
        detail = {"entered": "tour sheet", "sheet": key}
        try:
            if base is None:
                result = result_record(
                    event=event, stage=stage, round=round, entry=entry, cells={"mask": mask},
                    by=by, idempotency_key=row_key, detail=detail, now=now,
                )  # fmt: skip
                done[entry.pk] = SheetRow(entry, "recorded", result)
            else:
                result = result_correct(
                    result=base, cells={"mask": mask}, by=by, reason=reason,
                    idempotency_key=row_key, detail=detail, now=now,
                )  # fmt: skip
                done[entry.pk] = SheetRow(entry, "corrected", result)
        except Refused as refused:
            problems.append(_named(entry, refused.message))
    if problems:
        raise SheetRefused(problems)
    return done


def tour_sheet_record(
    *,
    event: Event,
    stage: str,
    round: int,
    masks: Mapping[Entry, str],
    by: Any,
    idempotency_key: str,
    reason: str = "",
    seen: Mapping[Entry, Result | None] | None = None,
    now: dt.datetime | None = None,
) -> list[SheetRow]:
    """Records the masks of a tour sheet in one transaction (see the vocabulary).

    ``seen``: each team's result as the scorer saw it (``None``: none yet); without it, rows
    are compared with the current results.
    """
    now = now or timezone.now()
    key = _sheet_key(idempotency_key)
    reason = (reason or "").strip()
    the_stage = _tour_stage(event, stage, round, by)
    sheet = sorted(((e, clean_mask(m)) for e, m in masks.items()), key=lambda r: r[0].number)
    if not sheet:
        raise Refused(_("The sheet has no masks."), field="masks")
    with transaction.atomic():
        current = {r.entry_id: r for r in current_results(event, stage, round)}
        on_sheet = {entry.pk for entry, _mask in sheet}
        others = [
            (r.entry, _mask_of(r) or "") for r in current.values() if r.entry_id not in on_sheet
        ]
        problems = _length_problems(event, the_stage, round, sheet) or _engine_problems(
            event, the_stage, sheet + others
        )
        planned, refused = _planned(event, stage, round, sheet, current, seen, reason)
        problems += refused
        if problems:
            raise SheetRefused(problems)
        done = _written(
            event=event, stage=stage, round=round, planned=planned, by=by, key=key,
            reason=reason, now=now,
        )  # fmt: skip
        rows = [
            done.get(entry.pk) or SheetRow(entry, "unchanged", current[entry.pk])
            for entry, _mask in sheet
            if entry.pk in done or entry.pk in current
        ]
        numbers = {a: [r.entry.number for r in rows if r.action == a] for a in _ACTIONS}
        audit(
            event=event, actor=by, action="sheet.record", target=f"{stage} {round}", stage=stage,
            round=round, sheet=key, reason=reason, teams=numbers,
        )  # fmt: skip
    return rows


def tour_check_record(
    *,
    event: Event,
    stage: str,
    round: int,
    masks: Mapping[Entry, str],
    by: Any,
    idempotency_key: str,
    now: dt.datetime | None = None,
) -> CheckedSheet:
    """The second scorer's sheet: a second entry of every team's current result, all or nothing.

    A team with no first result is skipped, and one already verified is left alone; both are
    reported in the answer.
    """
    now = now or timezone.now()
    key = _sheet_key(idempotency_key)
    the_stage = _tour_stage(event, stage, round, by)
    sheet = sorted(((e, clean_mask(m)) for e, m in masks.items()), key=lambda r: r[0].number)
    if not sheet:
        raise Refused(_("The sheet has no masks."), field="masks")
    problems = _length_problems(event, the_stage, round, sheet) or _engine_problems(
        event, the_stage, sheet
    )
    if problems:
        raise SheetRefused(problems)
    rows: list[CheckRow] = []
    with transaction.atomic():
        current = {r.entry_id: r for r in current_results(event, stage, round)}
        verified = Verification.objects.filter(**of_round(event, stage, round))
        checked = set(verified.values_list("result_id", flat=True))
        for entry, mask in sheet:
            first = current.get(entry.pk)
            if first is None:
                rows.append(CheckRow(entry, "no-first"))
                continue
            earlier = SecondEntry.objects.filter(
                result__event=event, idempotency_key=f"{key}/{entry.number}"
            ).first()
            if first.pk in checked and earlier is None:
                rows.append(CheckRow(entry, "verified"))
                continue
            try:
                second = second_entry_record(
                    result=first, cells={"mask": mask}, by=by,
                    idempotency_key=f"{key}/{entry.number}", now=now,
                )  # fmt: skip
            except Refused as refused:
                problems.append(_named(entry, refused.message))
                continue
            if second.differences:
                differ = mask_differences(first.cells.get("mask", ""), mask)
                rows.append(CheckRow(entry, "mismatch", differ, second))
            else:
                rows.append(CheckRow(entry, "match", (), second))
        if problems:
            raise SheetRefused(problems)
        numbers = {s: [r.entry.number for r in rows if r.status == s] for s in _STATUSES}
        audit(
            event=event, actor=by, action="sheet.check", target=f"{stage} {round}", stage=stage,
            round=round, sheet=key, teams=numbers,
        )  # fmt: skip
    return CheckedSheet(tuple(rows))
