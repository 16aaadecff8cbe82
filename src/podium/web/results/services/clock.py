"""Starting and ending rounds, and the one-tap "finished" that reads the time off the clock.

Vocabulary:
- signal, clock group, end of a round: see ``podium.web.models.rounds`` and
  ``podium.web.results.selectors.clock``. The organizer (or a head referee) gives the signals.
- false start: a second start of a clock that is already running; allowed only with a reason
  and only while nobody in that group has a result yet.
- early end: an end before the rulebook's time limit (everyone has finished); it needs a
  reason. A round without a limit (a ChGK tour) is simply ended.
- finish: the referee taps "finished" at the table; the time recorded is the whole seconds
  since the start on the entrant's clock (extended by any time compensated), and the exact
  moment is kept in the result's detail.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.engine.clock import ClockError
from podium.engine.timing import format_clock, parse_clock
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_head_referee
from podium.web.kernel.texts import error_text
from podium.web.models import Entry, Event, Result, Signal
from podium.web.results.selectors.clock import clock_groups, clock_of, group_of, limit_ms
from podium.web.results.services.results import (
    check_not_final,
    check_round,
    recorded_stage,
    result_record,
)

FINISH_FORMATS = ("timed-solve",)


def _signal_stage(event: Event, stage: str, round: int, group: str, by: Any) -> Any:
    if not is_head_referee(by, event):
        raise Refused(_("Only an organizer or a head referee of this event gives the signals."))
    the_stage = recorded_stage(event, stage)
    check_round(event, the_stage, round)
    if group and group not in the_stage.groups:
        raise Refused(
            _("%(stage)s has no group “%(group)s”.") % {"stage": the_stage.title, "group": group},
            field="group",
        )
    return the_stage


def _give(
    event: Event,
    stage: str,
    round: int,
    group: str,
    kind: str,
    by: Any,
    reason: str,
    now: dt.datetime,
) -> Signal:
    signal = Signal.objects.create(
        event=event, stage=stage, round=round, group=group, kind=kind, at=now, given_by=by,
        reason=reason,
    )  # fmt: skip
    audit(
        event=event, actor=by, action=f"round.{kind}", target=f"{stage} r{round} {group}",
        stage=stage, round=round, group=group, reason=reason,
    )  # fmt: skip
    return signal


def round_start(
    *,
    event: Event,
    stage: str,
    by: Any,
    round: int = 1,
    group: str = "",
    reason: str = "",
    now: dt.datetime | None = None,
) -> Signal:
    """Starts the clock of a group (or of the whole stage) now."""
    now = now or timezone.now()
    reason = (reason or "").strip()
    with transaction.atomic():
        event = locked_event(event.pk)
        the_stage = _signal_stage(event, stage, round, group, by)
        check_not_final(event, the_stage, round)
        groups = [group] if group else list(clock_groups(the_stage))
        running = [
            g for g in groups if clock_of(event, the_stage, round, g, now).state(now) != "waiting"
        ]
        if running:
            if not reason:
                raise Refused(
                    _("The clock of %(groups)s has already started; a restart needs a reason.")
                    % {"groups": ", ".join(g or the_stage.title for g in running)},
                    field="reason",
                )
            entries = Entry.objects.filter(event=event)
            if the_stage.groups and group:
                entries = entries.filter(group=group)
            if Result.objects.filter(
                event=event, stage=stage, round=round, entry__in=entries
            ).exists():
                raise Refused(
                    _("Results are already recorded on this clock: it can no longer restart.")
                )
        return _give(event, stage, round, group, Signal.Kind.START, by, reason, now)


def round_end(
    *,
    event: Event,
    stage: str,
    by: Any,
    round: int = 1,
    group: str = "",
    reason: str = "",
    now: dt.datetime | None = None,
) -> Signal:
    """Ends a running clock now (before its limit only with a reason)."""
    now = now or timezone.now()
    reason = (reason or "").strip()
    with transaction.atomic():
        event = locked_event(event.pk)
        the_stage = _signal_stage(event, stage, round, group, by)
        groups = [group] if group else list(clock_groups(the_stage))
        states = {g: clock_of(event, the_stage, round, g, now).state(now) for g in groups}
        if all(state != "running" for state in states.values()):
            raise Refused(_("This clock is not running: there is nothing to end."))
        if limit_ms(the_stage) is not None and not reason:
            raise Refused(
                _("The time limit has not been reached: say why the round ends early."),
                field="reason",
            )
        return _give(event, stage, round, group, Signal.Kind.END, by, reason, now)


def finish_time(
    event: Event, stage: Any, round: int, entry: Entry, now: dt.datetime, compensation: str = ""
) -> int:
    """Milliseconds on the entrant's clock at ``now``; refused outside the running round."""
    extra = parse_clock(compensation) if compensation else 0
    clock = clock_of(event, stage, round, group_of(entry, stage)).extended(extra)
    try:
        return clock.finish(now)
    except ClockError as exc:
        raise Refused(
            _("#%(number)d: %(problem)s") % {"number": entry.number, "problem": error_text(exc)}
        ) from None


def result_finish(
    *,
    event: Event,
    stage: str,
    entry: Entry,
    by: Any,
    idempotency_key: str,
    round: int = 1,
    missing: str = "",
    compensation: str = "",
    compensation_reason: str = "",
    now: dt.datetime | None = None,
) -> Result:
    """One tap "finished": records the time since the start as the entrant's result."""
    now = now or timezone.now()
    the_stage = recorded_stage(event, stage)
    if the_stage.format not in FINISH_FORMATS:
        raise Refused(_("In this stage a finish is recorded at the team's table."))
    earlier = Result.objects.filter(event=event, idempotency_key=idempotency_key).first()
    if earlier is not None and (earlier.entry_id, earlier.stage) == (entry.pk, stage):
        return earlier  # a resubmitted tap: the clock has moved on since, the result has not
    try:
        millis = finish_time(event, the_stage, round, entry, now, compensation)
    except ValueError:
        raise Refused(
            _("“%(text)s” is not a time: write M:SS.") % {"text": compensation},
            field="compensation",
        ) from None
    cells = {"time": format_clock(millis - millis % 1000), "missing": missing}
    if compensation:
        cells |= {"compensation": compensation, "compensation_reason": compensation_reason}
    return result_record(
        event=event, stage=stage, entry=entry, round=round, cells=cells, by=by,
        idempotency_key=idempotency_key, now=now,
        detail={"finish": "tap", "at": now.isoformat(), "elapsed_ms": millis},
    )  # fmt: skip
