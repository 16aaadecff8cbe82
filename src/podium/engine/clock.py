"""The clock of one round: when it started, when it ends, and what it shows at a moment.

Vocabulary:
- start signal: the moment the organizer started the round (server time, timezone-aware).
- limit: the stage's time limit; the round ends on the clock at start + limit.
- end signal: the organizer ended the round before its limit (everyone has finished, or a round
  without a limit such as a ChGK tour is over).
- end: the earlier of the limit and the end signal; ``None`` while neither is known.
- state: ``waiting`` (no start yet), ``running`` or ``ended``.
- elapsed: time since the start in whole milliseconds, never past the end: what a one-tap
  "finished" records.
- extended clock: one entrant's clock with time given back (a faulty puzzle replaced): its limit
  is later by the time compensated.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from podium.engine.messages import MessageError, _
from podium.engine.timing import format_clock

State = Literal["waiting", "running", "ended"]


class ClockError(MessageError):
    """A time that the round's clock does not allow, with a sentence saying why."""


def _ms(delta: dt.timedelta) -> int:
    return delta // dt.timedelta(milliseconds=1)


@dataclass(frozen=True, slots=True)
class RoundClock:
    started_at: dt.datetime | None
    limit_ms: int | None = None
    ended_at: dt.datetime | None = None

    def __post_init__(self) -> None:
        if self.ended_at is not None and self.started_at is None:
            raise ValueError("a round cannot end before it has started")
        if self.started_at and self.ended_at and self.ended_at < self.started_at:
            raise ValueError("a round cannot end before its start")

    def extended(self, extra_ms: int) -> RoundClock:
        """This clock with its limit longer by ``extra_ms`` (time given back to one entrant)."""
        if extra_ms < 0:
            raise ValueError("a clock is extended by a positive time")
        if self.limit_ms is None or not extra_ms:
            return self
        return RoundClock(self.started_at, self.limit_ms + extra_ms, self.ended_at)

    @property
    def ends_at(self) -> dt.datetime | None:
        if self.started_at is None:
            return None
        limit = (
            self.started_at + dt.timedelta(milliseconds=self.limit_ms)
            if self.limit_ms is not None
            else None
        )
        ends = [t for t in (limit, self.ended_at) if t is not None]
        return min(ends) if ends else None

    def state(self, now: dt.datetime) -> State:
        if self.started_at is None or now < self.started_at:
            return "waiting"
        ends = self.ends_at
        if ends is not None and now >= ends:
            return "ended"
        return "running"

    def elapsed(self, now: dt.datetime) -> int:
        """Milliseconds since the start at ``now``, stopped at the end (0 before the start)."""
        if self.started_at is None or now <= self.started_at:
            return 0
        ends = self.ends_at
        return _ms((min(now, ends) if ends is not None else now) - self.started_at)

    def remaining(self, now: dt.datetime) -> int | None:
        """Milliseconds left until the end (``None`` for a round without a known end)."""
        ends = self.ends_at
        if ends is None:
            return None
        if self.started_at is None or now <= self.started_at:
            return _ms(ends - self.started_at) if self.started_at else None
        return max(_ms(ends - now), 0)

    def finish(self, now: dt.datetime) -> int:
        """The time a finish signalled at ``now`` records; refused outside the running round."""
        state = self.state(now)
        if state == "waiting":
            raise ClockError(_("the round has not started yet: there is no time to record"))
        if state == "ended":
            assert self.ends_at is not None
            ended = format_clock(self.elapsed(self.ends_at))
            raise ClockError(
                _("the round ended at %(time)s: a finish after the end is not a finish", time=ended)
            )
        return self.elapsed(now)

    def check_recorded(self, millis: int, now: dt.datetime) -> None:
        """A time written by hand must lie within the round as far as it has run by ``now``."""
        if self.started_at is None:
            return  # no start signal in Podium: the referee's clock is the only one
        shown = self.elapsed(now)
        if millis > shown:
            raise ClockError(
                _(
                    "%(time)s is later than the round's clock, which shows %(clock)s",
                    time=format_clock(millis),
                    clock=format_clock(shown),
                )
            )
