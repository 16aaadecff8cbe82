"""Making results official: a head referee's confirmation, a second entry, a resolved mismatch.

Vocabulary:
- verification, second entry, method: see ``podium.web.models.results``. The stage's rulebook
  chooses the method (``recording.verification``): ``head-referee`` or ``second-entry``.
- confirmation: the head referee (or an organizer) confirms the current result; never the
  person who recorded it.
- second entry: another member of staff enters the same result without seeing the first; when
  every column means the same (``podium.engine.compare``) the result is verified at once,
  otherwise it is a mismatch.
- mismatch: a second entry that differs; the head referee sees both values and resolves it by
  keeping the first, taking the second or giving another value, always with a reason. A changed
  value is recorded as a correction by the head referee; either way the result is verified.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, Literal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.engine.compare import differences
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import confirmers_text, is_head_referee, is_staff, may_confirm
from podium.web.kernel.texts import rt
from podium.web.models import Entry, Event, Result, SecondEntry, Verification
from podium.web.results.selectors.rows import current_of
from podium.web.results.services.results import (
    clean_cells,
    key_of,
    recorded_stage,
    result_correct,
    shown,
    teams_of,
)

Choice = Literal["first", "second", "other"]


def _subject(result: Result) -> str:
    return f"#{result.entry.number}" if result.entry_id else result.item


def _locked(result: Result) -> tuple[Event, Result]:
    """Locks what the result's writes lock (its entry, or the event for an item)."""
    if result.entry_id:
        Entry.objects.select_for_update(of=("self",)).get(pk=result.entry_id)
        event = Event.objects.get(pk=result.event_id)
    else:
        event = locked_event(result.event_id)
    return event, Result.objects.select_related("entry", "recorded_by").get(pk=result.pk)


def _check_current(result: Result, what: str) -> None:
    current = current_of(result)
    if current.pk != result.pk:
        raise Refused(
            _("%(subject)s was changed meanwhile: %(what)s the current “%(current)s”.")
            % {"subject": _subject(result), "what": what, "current": shown(current.cells)}
        )


def _not_verified(result: Result) -> None:
    done = Verification.objects.filter(result=result).select_related("verified_by").first()
    if done is not None:
        raise Refused(
            _("%(subject)s is already verified (%(method)s, %(name)s).")
            % {
                "subject": _subject(result),
                "method": done.get_method_display(),
                "name": done.verified_by,
            }
        )


def _method(event: Event, result: Result, wanted: str) -> None:
    stage = recorded_stage(event, result.stage)
    if stage.recording.verification != wanted:
        if wanted == "head-referee":
            text = _("In this stage a second entry by another referee checks each result.")
        else:
            text = _("In this stage the head referee confirms each result.")
        raise Refused(text, clause=stage.recording.clause)


def result_confirm(*, result: Result, by: Any, now: dt.datetime | None = None) -> Verification:
    """The head referee confirms the current result (a repeat by the same person returns it)."""
    now = now or timezone.now()
    with transaction.atomic():
        event, result = _locked(result)
        stage = recorded_stage(event, result.stage)
        if not may_confirm(by, event, stage.recording):
            raise Refused(
                _("Only these confirm the results of %(stage)s here: %(who)s.")
                % {"who": confirmers_text(stage.recording), "stage": rt(stage.title)},
                clause=stage.recording.confirmation_clause,
            )
        _method(event, result, "head-referee")
        done = Verification.objects.filter(result=result).first()
        if done is not None and done.verified_by_id == getattr(by, "pk", None):
            return done
        _not_verified(result)
        if result.recorded_by_id is not None and result.recorded_by_id == getattr(by, "pk", None):
            raise Refused(
                _("Whoever recorded a result cannot confirm it; a second person must check it.")
            )
        _check_current(result, _("confirm"))
        verification = Verification.objects.create(
            result=result,
            method=Verification.Method.HEAD_REFEREE,
            verified_by=by,
            verified_at=now,
        )
        audit(
            event=event, actor=by, action="result.confirm", target=result.entry or result.item,
            stage=result.stage, round=result.round, cells=result.cells,
        )  # fmt: skip
    return verification


def second_entry_record(
    *,
    result: Result,
    cells: Mapping[str, Any],
    by: Any,
    idempotency_key: str,
    now: dt.datetime | None = None,
) -> SecondEntry:
    """Another member of staff's independent entry of the current result; a match verifies it."""
    now = now or timezone.now()
    key = key_of(idempotency_key)
    with transaction.atomic():
        event, result = _locked(result)
        stage = recorded_stage(event, result.stage)
        if not is_staff(by, event):
            raise Refused(_("Only an organizer or referee of this event may enter results."))
        values = clean_cells(stage, cells, teams_of(event, stage))
        earlier = SecondEntry.objects.filter(result__event=event, idempotency_key=key).first()
        if earlier is not None:
            if earlier.result_id != result.pk or earlier.cells != values:
                raise Refused(
                    _("This submission key was already used for a different entry."),
                    field="idempotency_key",
                )
            return earlier
        _method(event, result, "second-entry")
        if result.recorded_by_id is not None and result.recorded_by_id == getattr(by, "pk", None):
            raise Refused(_("The second entry must be made by someone else than the first."))
        _check_current(result, _("enter"))
        _not_verified(result)
        differ = list(differences(result.cells, values))
        entry = SecondEntry.objects.create(
            result=result,
            cells=values,
            differences=differ,
            entered_by=by,
            entered_at=now,
            idempotency_key=key,
        )
        if not differ:
            Verification.objects.create(
                result=result,
                method=Verification.Method.SECOND_ENTRY,
                second_entry=entry,
                verified_by=by,
                verified_at=now,
            )
        audit(
            event=event, actor=by, action="result.second-entry",
            target=result.entry or result.item, stage=result.stage, round=result.round,
            cells=values, differences=differ,
        )  # fmt: skip
    return entry


def mismatch_resolve(
    *,
    second_entry: SecondEntry,
    choice: Choice,
    by: Any,
    reason: str,
    idempotency_key: str,
    cells: Mapping[str, Any] | None = None,
    now: dt.datetime | None = None,
) -> Verification:
    """The head referee settles a mismatch: the first value, the second, or another one."""
    now = now or timezone.now()
    reason = (reason or "").strip()
    with transaction.atomic():
        event, result = _locked(second_entry.result)
        second_entry = SecondEntry.objects.get(pk=second_entry.pk)
        stage = recorded_stage(event, result.stage)
        if not is_head_referee(by, event):
            raise Refused(
                _("Only a head referee or an organizer of this event resolves mismatches.")
            )
        if second_entry.matches:
            raise Refused(_("These two entries match: there is nothing to resolve."))
        if not reason:
            raise Refused(_("Say why this value is the right one."), field="reason")
        _check_current(result, _("resolve"))
        _not_verified(result)
        if choice == "first":
            chosen = dict(result.cells)
        elif choice == "second":
            chosen = dict(second_entry.cells)
        elif choice == "other" and cells is not None:
            chosen = clean_cells(stage, cells, teams_of(event, stage))
        else:
            raise Refused(_("Choose the first value, the second, or give another."), field="choice")
        if differences(result.cells, chosen):
            result = result_correct(
                result=result,
                cells=chosen,
                by=by,
                reason=_("mismatch resolved: %(reason)s") % {"reason": reason},
                idempotency_key=key_of(idempotency_key),
                now=now,
            )
        verification = Verification.objects.create(
            result=result,
            method=Verification.Method.RESOLUTION,
            second_entry=second_entry,
            verified_by=by,
            verified_at=now,
        )
        audit(
            event=event, actor=by, action="result.resolve", target=result.entry or result.item,
            stage=result.stage, round=result.round, first=second_entry.result.cells,
            second=second_entry.cells, chosen=chosen, reason=reason,
        )  # fmt: skip
    return verification
