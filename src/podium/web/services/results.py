"""Recording, correcting and verifying results, and publishing a stage's standings.

Vocabulary:
- result, correction, current result, idempotency key, verification, publication: see
  ``podium.web.models.results``. Every write here appends a row; only publication rows carry a
  frozen table.
- stale correction: a correction of a result that someone else has corrected meanwhile; it is
  refused with both values shown, so two referees correcting at once never lose an update.
- single-result formats: timed solve, team solve, games and a ChGK tour — one row per entry
  holds its whole result. Other formats are not recorded here yet.

Every entry's results are written under a lock on that entry, so a first result, a correction
and a verification of the same entry never interleave; constraints in the database back this
up (one first result per entry and stage, one correction per result, one key per submission).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.rules.schema import Stage
from podium.web.models import Entry, Event, Publication, Result, Verification
from podium.web.selectors.results import (
    SINGLE_RESULT_FORMATS,
    current_results,
    format_columns,
    publication_current,
    raw_row,
    serialize,
    standings_as_of,
    unverified,
)
from podium.web.selectors.roles import is_organizer, is_staff
from podium.web.services.base import Refused, audit

MAX_KEY = 100


def _stage(event: Event, key: str) -> Stage:
    try:
        stage = event.rulebook.stage(key)
    except KeyError:
        raise Refused(_("This event has no such stage."), field="stage") from None
    if stage.format not in SINGLE_RESULT_FORMATS:
        raise Refused(
            _("Results of the format “%(format)s” are not recorded this way.")
            % {"format": stage.format},
            field="stage",
        )
    return stage


def _locked_entry(entry: Entry) -> Entry:
    return (
        Entry.objects.select_for_update(of=("self",))
        .select_related("event")
        .prefetch_related("members__person")
        .get(pk=entry.pk)
    )


def _key(idempotency_key: str) -> str:
    key = (idempotency_key or "").strip()
    if not key or len(key) > MAX_KEY:
        raise Refused(
            _("Every submission needs a key of 1 to %(max)d characters.") % {"max": MAX_KEY},
            field="idempotency_key",
        )
    return key


def _cells(stage: Stage, cells: Mapping[str, Any]) -> dict[str, str]:
    """The format's columns as text; an unknown column is refused."""
    columns = format_columns(stage)
    for column in cells:
        if column not in columns:
            raise Refused(
                _("“%(column)s” is not a column of this stage (%(columns)s).")
                % {"column": column, "columns": ", ".join(columns)},
                field=str(column),
            )
    return {c: "" if cells.get(c) is None else str(cells[c]).strip() for c in columns}


def shown(cells: Mapping[str, str]) -> str:
    """A result's values for a person to read: ``time 1:02:03, missing 1``."""
    return ", ".join(f"{c} {v}" for c, v in cells.items() if v) or "—"


def _validate(event: Event, stage: Stage, entry: Entry, cells: dict[str, str]) -> None:
    """Runs the engine on the one row, so any problem it finds is refused with its message."""
    try:
        compute_standings(event.rulebook, stage.key, [raw_row(entry, stage, cells)])
    except InputError as exc:
        problems = exc.problems
        texts = []
        for p in problems:
            where = p.where.removeprefix("row 1, ").removeprefix("row 1")
            texts.append(f"{where}: {p.message}" if where else p.message)
        first = problems[0].where.removeprefix("row 1, ") if problems else ""
        field = first.removeprefix("column ") if first.startswith("column ") else None
        raise Refused(
            _("#%(number)d: %(problems)s") % {"number": entry.number, "problems": "; ".join(texts)},
            field=field,
        ) from None


def _current_of(result: Result) -> Result:
    """The newest result of the correction chain that starts at ``result``."""
    while True:
        newer = Result.objects.filter(corrects=result).first()
        if newer is None:
            return result
        result = newer


def _resubmitted(
    event: Event,
    key: str,
    *,
    entry: Entry,
    stage: str,
    corrects: Result | None,
    cells: dict[str, str],
) -> Result | None:
    """The result already recorded under this key, if this is the same submission again."""
    earlier = Result.objects.filter(event=event, idempotency_key=key).first()
    if earlier is None:
        return None
    same = (
        earlier.entry_id == entry.pk
        and earlier.stage == stage
        and earlier.corrects_id == (corrects.pk if corrects else None)
        and earlier.cells == cells
    )
    if not same:
        raise Refused(
            _("This submission key was already used for a different result."),
            field="idempotency_key",
        )
    return earlier


def result_record(
    *,
    event: Event,
    stage: str,
    entry: Entry,
    cells: Mapping[str, Any],
    by: Any,
    idempotency_key: str,
    now: dt.datetime | None = None,
) -> Result:
    """Records an entry's first result in a stage (a resubmission returns the first record)."""
    now = now or timezone.now()
    key = _key(idempotency_key)
    the_stage = _stage(event, stage)
    with transaction.atomic():
        entry = _locked_entry(entry)
        if entry.event_id != event.pk:
            raise Refused(_("This entry is not part of this event."), field="entry")
        if not is_staff(by, event):
            raise Refused(_("Only an organizer or referee of this event may record results."))
        values = _cells(the_stage, cells)
        earlier = _resubmitted(event, key, entry=entry, stage=stage, corrects=None, cells=values)
        if earlier is not None:
            return earlier
        if entry.status != Entry.Status.CONFIRMED:
            raise Refused(
                _("#%(number)d is %(status)s, not confirmed; it has no result.")
                % {"number": entry.number, "status": entry.get_status_display()},
                field="entry",
            )
        if the_stage.category and entry.category != the_stage.category:
            raise Refused(
                _("#%(number)d is not in this stage (category %(category)s).")
                % {"number": entry.number, "category": the_stage.category},
                field="entry",
            )
        if Result.objects.filter(event=event, stage=stage, entry=entry).exists():
            raise Refused(
                _("#%(number)d: a result is already recorded — correct it instead.")
                % {"number": entry.number},
                field="entry",
            )
        _validate(event, the_stage, entry, values)
        try:
            with transaction.atomic():
                result = Result.objects.create(
                    event=event,
                    stage=stage,
                    entry=entry,
                    cells=values,
                    recorded_by=by,
                    recorded_at=now,
                    idempotency_key=key,
                )
        except IntegrityError:
            raise Refused(
                _("#%(number)d: a result is already recorded — correct it instead.")
                % {"number": entry.number},
                field="entry",
            ) from None
        audit(
            event=event, actor=by, action="result.record", target=entry, stage=stage, cells=values
        )
    return result


def result_correct(
    *,
    result: Result,
    cells: Mapping[str, Any],
    by: Any,
    reason: str,
    idempotency_key: str,
    now: dt.datetime | None = None,
) -> Result:
    """Records a correction of the CURRENT result; correcting a stale one is refused."""
    now = now or timezone.now()
    key = _key(idempotency_key)
    reason = (reason or "").strip()
    with transaction.atomic():
        entry = _locked_entry(result.entry)
        result = Result.objects.select_related("event").get(pk=result.pk)
        event = result.event
        the_stage = _stage(event, result.stage)
        if not is_staff(by, event):
            raise Refused(_("Only an organizer or referee of this event may correct results."))
        values = _cells(the_stage, cells)
        earlier = _resubmitted(
            event, key, entry=entry, stage=result.stage, corrects=result, cells=values
        )
        if earlier is not None:
            return earlier
        if not reason:
            raise Refused(_("A correction needs a reason."), field="reason")
        current = _current_of(result)
        if current.pk != result.pk:
            raise Refused(
                _(
                    "#%(number)d was corrected meanwhile: it is now “%(current)s” (you corrected "
                    "“%(stale)s”). Check the current value and correct that one if needed."
                )
                % {
                    "number": entry.number,
                    "current": shown(current.cells),
                    "stale": shown(result.cells),
                }
            )
        if values == result.cells:
            raise Refused(_("These are the values already recorded; nothing to correct."))
        _validate(event, the_stage, entry, values)
        try:
            with transaction.atomic():
                correction = Result.objects.create(
                    event=event,
                    stage=result.stage,
                    entry=entry,
                    cells=values,
                    recorded_by=by,
                    recorded_at=now,
                    corrects=result,
                    reason=reason,
                    idempotency_key=key,
                )
        except IntegrityError:
            raise Refused(
                _("#%(number)d was corrected meanwhile; reload it and check the current value.")
                % {"number": entry.number}
            ) from None
        audit(
            event=event,
            actor=by,
            action="result.correct",
            target=entry,
            stage=result.stage,
            was=result.cells,
            cells=values,
            reason=reason,
        )
    return correction


def result_verify(*, result: Result, by: Any, now: dt.datetime | None = None) -> Verification:
    """A second member of staff confirms the current result (a repeat returns the first)."""
    now = now or timezone.now()
    with transaction.atomic():
        entry = _locked_entry(result.entry)
        result = Result.objects.select_related("event").get(pk=result.pk)
        event = result.event
        if not is_staff(by, event):
            raise Refused(_("Only an organizer or referee of this event may verify results."))
        done = Verification.objects.filter(result=result).select_related("verified_by").first()
        if done is not None:
            if done.verified_by_id == getattr(by, "pk", None):
                return done
            raise Refused(
                _("This result is already verified by %(name)s.") % {"name": done.verified_by}
            )
        if result.recorded_by_id is not None and result.recorded_by_id == getattr(by, "pk", None):
            raise Refused(
                _("Whoever recorded a result cannot verify it; a second person must check it.")
            )
        current = _current_of(result)
        if current.pk != result.pk:
            raise Refused(
                _("#%(number)d was corrected meanwhile: verify the current “%(current)s”.")
                % {"number": entry.number, "current": shown(current.cells)}
            )
        verification = Verification.objects.create(result=result, verified_by=by, verified_at=now)
        audit(
            event=event,
            actor=by,
            action="result.verify",
            target=entry,
            stage=result.stage,
            cells=result.cells,
        )
    return verification


_NEXT = {
    Publication.State.DRAFT: {Publication.State.PRELIMINARY},
    Publication.State.PRELIMINARY: {Publication.State.DRAFT, Publication.State.FINAL},
}


def publication_set(
    *,
    event: Event,
    stage: str,
    state: str,
    by: Any,
    reason: str = "",
    now: dt.datetime | None = None,
) -> Publication:
    """Moves a stage draft → preliminary → final; final freezes the table as of ``now``.

    After final every change needs a reason and starts a new version (the old one stays).
    """
    now = now or timezone.now()
    reason = (reason or "").strip()
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer of this event may publish results."))
        _stage(event, stage)
        if state not in Publication.State.values:
            raise Refused(_("Unknown publication state."), field="state")
        target = Publication.State(state)
        current = publication_current(event, stage)
        was = Publication.State(current.state) if current else Publication.State.DRAFT
        version = current.version if current else 1
        if was == Publication.State.FINAL:
            if not reason:
                raise Refused(
                    _("These results are final: a change needs a recorded reason."),
                    field="reason",
                )
            version += 1
        elif target == was:
            raise Refused(
                _("The results are already %(state)s.") % {"state": target.label}, field="state"
            )
        elif target not in _NEXT[was]:
            raise Refused(
                _("Results go from %(was)s to %(next)s, not to %(state)s.")
                % {
                    "was": was.label,
                    "next": " / ".join(str(s.label) for s in sorted(_NEXT[was])),
                    "state": target.label,
                },
                field="state",
            )
        table = None
        if target == Publication.State.FINAL:
            table = _frozen(event, stage, now)
        publication = Publication.objects.create(
            event=event,
            stage=stage,
            state=target,
            version=version,
            table=table,
            changed_by=by,
            changed_at=now,
            reason=reason,
        )
        audit(
            event=event,
            actor=by,
            action="publication.set",
            target=f"{stage} v{version}",
            stage=stage,
            state=str(target),
            was=str(was),
            version=version,
            reason=reason,
        )
    return publication


def _frozen(event: Event, stage: str, now: dt.datetime) -> dict[str, Any]:
    if not current_results(event, stage, now):
        raise Refused(_("There are no results to publish as final."), field="state")
    waiting = unverified(event, stage, now)
    if waiting:
        numbers = ", ".join(f"#{r.entry.number}" for r in waiting)
        raise Refused(
            _("Final only when every result is verified; not yet: %(numbers)s.")
            % {"numbers": numbers},
            field="state",
        )
    try:
        standings = standings_as_of(event, stage, now)
    except InputError as exc:
        raise Refused("; ".join(str(p) for p in exc.problems), field="state") from None
    return {"as_of": now.isoformat(), **serialize(standings)}
