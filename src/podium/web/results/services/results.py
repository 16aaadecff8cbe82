"""Recording results: the first one, the next steps, corrections, and the competitor's agreement.

Vocabulary:
- result, round, subject, kind, current result, idempotency key, agreement: see
  ``podium.web.models.results``. Every write here appends a row.
- guard: what every write checks first — the writer is staff of the event, the stage's format is
  recorded here, the round exists and is not final, and the subject takes part in the stage.
- stale write: a next step or correction of a result that someone else replaced meanwhile; it is
  refused with both values shown, so two referees writing at once never lose an update.
- next step (progress): fills in what was empty and changes nothing already recorded; in a team
  stage the finished puzzles only grow (the table flow, ``podium.web.results.services.tables``).
- row check, clock check: what the values themselves must pass, see
  ``podium.web.results.services.validation``.

An entry's results are written under a lock on the entry, a round's battles and questions under
a lock on the event; constraints in the database back this up (one first result per subject
and round, one replacement per result, one key per submission).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.rules.schema.stages import Stage, TeamSolveStage
from podium.web.disputes.services.discipline import admission_refusal
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_head_referee, is_staff
from podium.web.kernel.stages import has_calendar, in_stage, stage_entries
from podium.web.kernel.text import text_problem
from podium.web.models import Agreement, Entry, Event, Publication, Result, Round
from podium.web.registration.selectors.entries import roster
from podium.web.results.selectors.publication import publication_state
from podium.web.results.selectors.rows import (
    ENTRY_FORMATS,
    RECORDED_FORMATS,
    current_of,
    format_columns,
)
from podium.web.results.services.validation import subject_name, validate

MAX_KEY = 100


def recorded_stage(event: Event, key: str) -> Stage:
    """The stage ``key`` of the event, if its results are recorded in Podium."""
    try:
        stage = event.rulebook.stage(key)
    except KeyError:
        raise Refused(_("This event has no such stage."), field="stage") from None
    if stage.format not in RECORDED_FORMATS:
        raise Refused(
            _("Results of the format “%(format)s” are not recorded this way.")
            % {"format": stage.format},
            field="stage",
        )
    return stage


def check_round(event: Event, stage: Stage, round: int) -> None:
    """The round exists: on the calendar for a ChGK tour, else only round 1."""
    if has_calendar(stage):
        if not Round.objects.filter(event=event, stage=stage.key, number=round).exists():
            raise Refused(
                _("Round %(round)d of %(stage)s is not on the calendar.")
                % {"round": round, "stage": stage.title},
                field="round",
            )
    elif round != 1:
        raise Refused(_("%(stage)s sits once: it has round 1 only.") % {"stage": stage.title})


def check_not_final(event: Event, stage: Stage, round: int) -> None:
    if publication_state(event, stage.key, round) == Publication.State.FINAL:
        raise Refused(
            _(
                "These results are final. To change them, the organizer first reopens them "
                "with a recorded reason (a new version)."
            )
        )


def key_of(idempotency_key: str) -> str:
    key = (idempotency_key or "").strip()
    if not key or len(key) > MAX_KEY or text_problem(key) is not None:
        raise Refused(
            _("Every submission needs a key of 1 to %(max)d characters.") % {"max": MAX_KEY},
            field="idempotency_key",
        )
    return key


def teams_of(event: Event, stage: Stage) -> tuple[str, ...]:
    """A superfinal's team columns: the entry numbers of its entry list."""
    if stage.format != "superfinal":
        return ()
    return tuple(str(n) for n in stage_entries(event, stage).values_list("number", flat=True))


def clean_cells(
    stage: Stage, cells: Mapping[str, Any], teams: tuple[str, ...] = ()
) -> dict[str, str]:
    """The format's columns as text; an unknown column is refused."""
    columns = format_columns(stage, teams)
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


def _progress_refusal(stage: Stage, before: dict[str, str], after: dict[str, str]) -> str | None:
    """Why a next step may not change ``before`` into ``after`` (``None``: it may)."""
    if isinstance(stage, TeamSolveStage):
        done_before, done_after = int(before.get("done") or 0), int(after.get("done") or 0)
        if done_after < done_before:
            return _("A next step cannot take back a finished puzzle; correct it instead.")
        if done_after == done_before and before.get("time") != after.get("time"):
            return _("A next step keeps the time of the puzzles already finished.")
        return None
    changed = [c for c, v in before.items() if v and after.get(c, "") != v]
    if changed:
        return _(
            "A next step only fills in what is still empty; %(columns)s would change — "
            "correct it instead, with a reason."
        ) % {"columns": ", ".join(changed)}
    if after == before:
        return _("These are the values already recorded; nothing to add.")
    return None


def _locked(event: Event, entry: Entry | None) -> tuple[Event, Entry | None]:
    if entry is not None:
        locked = (
            Entry.objects.select_for_update(of=("self",))
            .select_related("event")
            .prefetch_related(roster())
            .get(pk=entry.pk)
        )
        return locked.event, locked
    return locked_event(event.pk), None


def resubmitted(
    event: Event, key: str, *, detail: Mapping[str, Any] | None = None, **same: Any
) -> Result | None:
    """The result already recorded under this key, if this is the same submission again: the
    same values of the fields ``same`` names, and of the ``detail`` keys given."""
    earlier = Result.objects.filter(event=event, idempotency_key=key).first()
    if earlier is None:
        return None
    stored = earlier.detail or {}
    if any(getattr(earlier, field) != value for field, value in same.items()) or any(
        stored.get(k) != v for k, v in (detail or {}).items()
    ):
        raise Refused(
            _("This submission key was already used for a different result."),
            field="idempotency_key",
        )
    return earlier


def _already(entry: Entry | None, item: str) -> Refused:
    return Refused(
        _("%(subject)s: a result is already recorded — correct it instead.")
        % {"subject": subject_name(entry, item)},
        field="entry",
    )


def result_record(
    *,
    event: Event,
    stage: str,
    cells: Mapping[str, Any],
    by: Any,
    idempotency_key: str,
    entry: Entry | None = None,
    item: str = "",
    round: int = 1,
    detail: Mapping[str, Any] | None = None,
    now: dt.datetime | None = None,
) -> Result:
    """Records the first result of an entry (or of a battle or question) in a round; the same
    submission again returns the first record."""
    now = now or timezone.now()
    key = key_of(idempotency_key)
    the_stage = recorded_stage(event, stage)
    per_entry = the_stage.format in ENTRY_FORMATS
    if per_entry and (entry is None or item):
        raise Refused(_("A result of this stage belongs to an entry."), field="entry")
    if not per_entry and (entry is not None or not item):
        raise Refused(_("A result of this stage belongs to a battle or a question."))
    with transaction.atomic():
        event, entry = _locked(event, entry)
        if entry is not None and entry.event_id != event.pk:
            raise Refused(_("This entry is not part of this event."), field="entry")
        if not is_staff(by, event):
            raise Refused(_("Only an organizer or referee of this event may record results."))
        values = clean_cells(the_stage, cells, teams_of(event, the_stage))
        earlier = resubmitted(
            event, key, entry_id=entry.pk if entry else None, item=item, stage=stage,
            round=round, corrects_id=None, cells=values,
        )  # fmt: skip
        if earlier is not None:
            return earlier
        check_round(event, the_stage, round)
        check_not_final(event, the_stage, round)
        if entry is not None and not in_stage(event, the_stage, entry):
            raise Refused(
                _("#%(number)d %(name)s is not in the entry list of %(stage)s.")
                % {"number": entry.number, "name": entry.name, "stage": the_stage.title},
                field="entry",
            )
        if entry is not None:
            barred = admission_refusal(event, stage, round, entry, now)
            if barred is not None:
                raise barred
        if the_stage.format == "head-to-head":
            # A battle is recorded for both its teams: neither may have withdrawn or be barred.
            numbers = [n for n in (values.get("team1", ""), values.get("team2", "")) if n.isdigit()]
            for team in Entry.objects.filter(event=event, number__in=numbers):
                barred = admission_refusal(event, stage, round, team, now)
                if barred is not None:
                    raise barred
        first = Result.objects.filter(event=event, stage=stage, round=round)
        if first.filter(entry=entry, item=item).exists():
            raise _already(entry, item)
        validate(event, the_stage, round, entry, item, values, now)
        try:
            with transaction.atomic():
                result = Result.objects.create(
                    event=event, stage=stage, round=round, entry=entry, item=item,
                    cells=values, detail=dict(detail or {}), kind=Result.Kind.RECORD,
                    recorded_by=by, recorded_at=now, idempotency_key=key,
                )  # fmt: skip
        except IntegrityError:
            raise _already(entry, item) from None
        audit(
            event=event, actor=by, action="result.record", target=entry or item, stage=stage,
            round=round, cells=values,
        )  # fmt: skip
    return result


def _check_replaceable(
    event: Event,
    stage: Stage,
    result: Result,
    values: dict[str, str],
    *,
    kind: str,
    by: Any,
    subject: str,
) -> None:
    """Refuses to replace ``result`` with ``values`` when it is no longer the current one, when
    the competitor's agreement made it final, or when the step or correction is not one."""
    current = current_of(result)
    if current.pk != result.pk:
        raise Refused(
            _(
                "%(subject)s was changed meanwhile: it is now “%(current)s” (you changed "
                "“%(stale)s”). Check the current value and change that one if needed."
            )
            % {
                "subject": subject,
                "current": shown(current.cells),
                "stale": shown(result.cells),
            }
        )
    agreed = Agreement.objects.filter(result=result).exists()
    head_correction = kind == Result.Kind.CORRECTION and is_head_referee(by, event)
    if agreed and stage.recording.agreed_is_final and not head_correction:
        raise Refused(
            _(
                "%(subject)s: the competitor agreed with this result, so no later claim "
                "is heard; only the head referee may correct it, with a reason."
            )
            % {"subject": subject},
            clause=stage.recording.agreement_clause,
        )
    if kind == Result.Kind.PROGRESS:
        refusal = _progress_refusal(stage, result.cells, values)
        if refusal:
            raise Refused(refusal)
    elif values == result.cells:
        raise Refused(_("These are the values already recorded; nothing to correct."))


def _replace(
    *,
    result: Result,
    cells: Mapping[str, Any],
    by: Any,
    kind: str,
    reason: str,
    idempotency_key: str,
    detail: Mapping[str, Any] | None,
    now: dt.datetime | None,
) -> Result:
    """A next step or a correction of the CURRENT result; a stale one is refused."""
    now = now or timezone.now()
    key = key_of(idempotency_key)
    reason = (reason or "").strip()
    with transaction.atomic():
        event, entry = _locked(result.event, result.entry)
        result = Result.objects.select_related("event").get(pk=result.pk)
        the_stage = recorded_stage(event, result.stage)
        if not is_staff(by, event):
            raise Refused(_("Only an organizer or referee of this event may change results."))
        values = clean_cells(the_stage, cells, teams_of(event, the_stage))
        earlier = resubmitted(event, key, corrects_id=result.pk, kind=kind, cells=values)
        if earlier is not None:
            return earlier
        if kind == Result.Kind.CORRECTION and not reason:
            raise Refused(_("A correction needs a reason."), field="reason")
        check_not_final(event, the_stage, result.round)
        if kind == Result.Kind.PROGRESS and entry is not None:
            # An expelled or withdrawn entrant bowls no further block (a correction may still
            # put right what was played before).
            barred = admission_refusal(event, result.stage, result.round, entry, now)
            if barred is not None:
                raise barred
        subject = subject_name(entry, result.item)
        _check_replaceable(event, the_stage, result, values, kind=kind, by=by, subject=subject)
        validate(event, the_stage, result.round, entry, result.item, values, now)
        try:
            with transaction.atomic():
                newer = Result.objects.create(
                    event=event, stage=result.stage, round=result.round, entry=entry,
                    item=result.item, cells=values,
                    detail=dict(result.detail if detail is None else detail), kind=kind,
                    recorded_by=by, recorded_at=now, corrects=result, reason=reason,
                    idempotency_key=key,
                )  # fmt: skip
        except IntegrityError:
            raise Refused(
                _("%(subject)s was changed meanwhile; reload it and check the current value.")
                % {"subject": subject}
            ) from None
        action = "result.correct" if kind == Result.Kind.CORRECTION else "result.progress"
        audit(
            event=event, actor=by, action=action, target=entry or result.item,
            stage=result.stage, round=result.round, was=result.cells, cells=values, reason=reason,
        )  # fmt: skip
    return newer


def result_progress(
    *,
    result: Result,
    cells: Mapping[str, Any],
    by: Any,
    idempotency_key: str,
    detail: Mapping[str, Any] | None = None,
    now: dt.datetime | None = None,
) -> Result:
    """Records the next step of the current result (what was not known yet)."""
    return _replace(
        result=result, cells=cells, by=by, kind=Result.Kind.PROGRESS, reason="",
        idempotency_key=idempotency_key, detail=detail, now=now,
    )  # fmt: skip


def result_correct(
    *,
    result: Result,
    cells: Mapping[str, Any],
    by: Any,
    reason: str,
    idempotency_key: str,
    detail: Mapping[str, Any] | None = None,
    now: dt.datetime | None = None,
) -> Result:
    """Records a correction of the CURRENT result, with its reason."""
    return _replace(
        result=result, cells=cells, by=by, kind=Result.Kind.CORRECTION, reason=reason,
        idempotency_key=idempotency_key, detail=detail, now=now,
    )  # fmt: skip


def result_agree(*, result: Result, by: Any, now: dt.datetime | None = None) -> Agreement:
    """The competitor agrees with the current result on the referee's device (once)."""
    now = now or timezone.now()
    with transaction.atomic():
        event, entry = _locked(result.event, result.entry)
        result = Result.objects.get(pk=result.pk)
        the_stage = recorded_stage(event, result.stage)
        if not is_staff(by, event):
            raise Refused(_("Only an organizer or referee of this event may take an agreement."))
        if not the_stage.recording.competitor_confirms:
            raise Refused(_("In this stage the competitor does not confirm the result."))
        done = Agreement.objects.filter(result=result).first()
        if done is not None:
            return done
        current = current_of(result)
        if current.pk != result.pk:
            raise Refused(
                _("%(subject)s was changed meanwhile: the competitor agrees to “%(current)s”.")
                % {"subject": subject_name(entry, result.item), "current": shown(current.cells)}
            )
        agreement = Agreement.objects.create(result=result, agreed_at=now, on_device_of=by)
        audit(
            event=event, actor=by, action="result.agree", target=entry or result.item,
            stage=result.stage, round=result.round, cells=result.cells,
        )  # fmt: skip
    return agreement
