"""Taps from a referee's phone: results sent in a batch, perhaps long after they were tapped,
each answered on its own, and the referee's choice when two devices disagree.

Vocabulary:
- tap: one result typed or tapped on a phone, kept there (the outbox) until the server answers
  it: its idempotency key, the entrant's number, either ``finish`` (the round's clock read at
  the tap) or the result's cells, when it was tapped on the phone's clock and the phone's
  offset from the server's clock (server minus phone, measured when the page last reached it).
- moment of a tap: the phone's time of the tap plus its offset, on the server's clock; a
  finish is timed at that moment, so a tap sent ten minutes late keeps its time. A moment in
  the future or more than a day old is refused.
- answer: ``stored``; ``already`` (this key was stored before — a replay, however late, answers
  the same result — or another device recorded the same value); ``conflict`` (another device
  recorded a different value for this card: both values, who typed the other and when);
  ``refused`` (a rule says no, in words).
- resolution: after a conflict the referee keeps theirs (the other value stays; the choice is
  audited) or keeps mine (a correction of the other value, its reason naming the conflict).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from podium.engine.timing import format_clock
from podium.rules.schema.stages import Stage
from podium.web.kernel.audit import audit
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_staff
from podium.web.models import Entry, Event, Result
from podium.web.results.selectors.rows import current_of_entries
from podium.web.results.services.clock import finish_time, result_finish
from podium.web.results.services.results import (
    clean_cells,
    key_of,
    recorded_stage,
    result_correct,
    result_record,
)

# How far back a tap may have been made (a phone offline for a whole day is still heard).
OLDEST = dt.timedelta(hours=24)
# A phone's clock and offset are measured, not exact: a moment this far ahead is "now".
AHEAD = dt.timedelta(seconds=5)


@dataclass(frozen=True)
class Tap:
    key: str
    number: int
    finish: bool = False
    cells: dict[str, str] = field(default_factory=dict)
    at_ms: int | None = None  # the phone's clock at the tap, ms since the epoch
    offset_ms: int = 0  # server minus phone


@dataclass(frozen=True)
class Answer:
    key: str
    status: str  # stored, already, conflict, refused
    number: int
    message: str = ""
    cells: dict[str, str] = field(default_factory=dict)
    by: str = ""
    at: str = ""
    result: int | None = None
    theirs: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v not in ("", None, {})}


def moment_of(tap: Tap, now: dt.datetime) -> dt.datetime:
    """The tap's moment on the server's clock (see the vocabulary)."""
    if tap.at_ms is None:
        return now
    moment = dt.datetime.fromtimestamp((tap.at_ms + tap.offset_ms) / 1000, tz=dt.UTC)
    if moment > now + AHEAD:
        raise Refused(_("The tap's time is in the future: check the phone's clock."))
    if moment < now - OLDEST:
        raise Refused(_("The tap is more than a day old; enter the result by hand."))
    return min(moment, now)


def person(user: Any) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _answer(tap: Tap, status: str, result: Result, message: str = "") -> Answer:
    return Answer(
        key=tap.key, status=status, number=tap.number, message=message, cells=result.cells,
        by=person(result.recorded_by), at=result.recorded_at.isoformat(), result=result.pk,
    )  # fmt: skip


def _mine(event: Event, stage: Stage, round: int, entry: Entry, tap: Tap, moment: Any) -> Any:
    """The cells this tap would record (a finish read off the entrant's clock at its moment)."""
    if not tap.finish:
        return clean_cells(stage, tap.cells)
    millis = finish_time(event, stage, round, entry, moment)
    return clean_cells(stage, {"time": format_clock(millis - millis % 1000)})


def _same(mine: dict[str, str], theirs: dict[str, str]) -> bool:
    """The same result, whatever empty columns either side left out."""
    return {k: v for k, v in mine.items() if v} == {k: v for k, v in theirs.items() if v}


def _store(
    event: Event, stage: str, round: int, entry: Entry, tap: Tap, by: Any, moment: Any
) -> Result:
    if tap.finish:
        return result_finish(
            event=event, stage=stage, entry=entry, round=round, by=by, idempotency_key=tap.key,
            now=moment,
        )  # fmt: skip
    return result_record(
        event=event, stage=stage, entry=entry, round=round, cells=tap.cells, by=by,
        idempotency_key=tap.key, now=moment, detail={"tap": "phone"},
    )  # fmt: skip


def tap_apply(
    *, event: Event, stage: str, round: int, tap: Tap, by: Any, now: dt.datetime | None = None
) -> Answer:
    """Answers one tap (see the vocabulary): stores it through the recording services, which
    lock, check every rule and audit, or says why not."""
    now = now or timezone.now()
    try:
        key = key_of(tap.key)
        earlier = (
            Result.objects.filter(event=event, idempotency_key=key)
            .select_related("recorded_by", "entry")
            .first()
        )
        if earlier is not None:
            if earlier.entry is None or earlier.entry.number != tap.number:
                raise Refused(_("This submission key was already used for a different result."))
            return _answer(tap, "already", earlier)
        the_stage = recorded_stage(event, stage)
        if not is_staff(by, event):
            raise Refused(_("Only an organizer or referee of this event may record results."))
        entry = event.entries.filter(number=tap.number).first()
        if entry is None:
            raise Refused(_("No entrant has the number %(number)d.") % {"number": tap.number})
        moment = moment_of(tap, now)
        found = current_of_entries(event, stage, round, [entry.pk])
        if found:
            theirs = found[0]
            mine = _mine(event, the_stage, round, entry, tap, moment)
            if _same(mine, theirs.cells):
                return _answer(tap, "already", theirs)
            answer = _answer(tap, "conflict", theirs)
            return Answer(
                key=tap.key, status="conflict", number=tap.number, cells=mine,
                result=theirs.pk, theirs={"cells": theirs.cells, "by": answer.by, "at": answer.at},
                message=_("#%(number)d already has another value, typed on another device.")
                % {"number": tap.number},
            )  # fmt: skip
        done = _store(event, stage, round, entry, tap, by, moment)
    except Refused as refusal:
        return Answer(
            key=tap.key, status="refused", number=tap.number, message=refusal_text(refusal)
        )
    return _answer(tap, "stored", done)


def conflict_resolve(
    *,
    event: Event,
    stage: str,
    round: int,
    result: Result,
    keep: str,
    cells: dict[str, str],
    by: Any,
    idempotency_key: str,
) -> Result:
    """The referee's choice after a conflict: ``theirs`` keeps ``result`` (audited), ``mine``
    corrects it to ``cells`` with a reason naming the conflict."""
    if result.event_id != event.pk or (result.stage, result.round) != (stage, round):
        raise Refused(_("This result is not part of this round."))
    if not is_staff(by, event):
        raise Refused(_("Only an organizer or referee of this event may change results."))
    if keep == "theirs":
        audit(
            event=event, actor=by, action="result.conflict-theirs", target=result.entry or "",
            stage=stage, round=round, kept=result.cells, dropped=cells,
        )  # fmt: skip
        return result
    if keep != "mine":
        raise Refused(_("Choose to keep your value or theirs."), field="keep")
    reason = _("Two devices disagreed (“%(theirs)s” by %(who)s); %(me)s kept their own value.") % {
        "theirs": ", ".join(v for v in result.cells.values() if v),
        "who": person(result.recorded_by),
        "me": person(by),
    }
    return result_correct(
        result=result, cells=cells, by=by, reason=reason, idempotency_key=idempotency_key
    )
