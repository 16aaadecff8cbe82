"""Reading the clock of a round from its signals (see ``podium.engine.clock``).

Vocabulary:
- signal, round: see ``podium.web.models.rounds``.
- clock group: the group whose clock an entry runs on — its qualification group in a stage
  with groups, else the whole stage (``""``). A signal for the whole stage counts for every
  group; the newest start wins, and only an end after it counts.
- end of a round: when every group's clock has ended (a group never started has not run yet):
  the time limit, or the head referee's end signal when the round ended early. A round run
  without signals (results typed in from paper) ends with its newest result typed on its
  scheduled day — the calendar's day of the round (a ChGK tour), else the event's first day —
  and at the close of that day (local midnight) when every result came later. A result typed
  after the day never moves the end: a correction weeks later must not reopen the appeal window
  of a tour played long ago (п. 14: "неделя с момента окончания тура").
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection
from typing import Any

from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.engine.clock import RoundClock
from podium.engine.timing import format_clock
from podium.rules.schema.stages import Stage, TeamSolveStage, TimedSolveStage
from podium.web.kernel.stages import has_calendar
from podium.web.kernel.texts import rt
from podium.web.models import Entry, Event, Result, Round, Signal


def limit_ms(stage: Stage) -> int | None:
    if isinstance(stage, TimedSolveStage | TeamSolveStage):
        return stage.time_limit_min * 60_000
    return None


def clock_groups(stage: Stage) -> tuple[str, ...]:
    return stage.groups or ("",)


def group_of(entry: Entry, stage: Stage) -> str:
    return entry.group if stage.groups else ""


def _signals(event: Event, stage: Stage, round: int, at: dt.datetime | None) -> list[Signal]:
    signals = Signal.objects.filter(event=event, stage=stage.key, round=round)
    if at is not None:
        signals = signals.filter(at__lte=at)
    return list(signals.order_by("at", "id"))


def _clock(signals: list[Signal], stage: Stage, group: str) -> RoundClock:
    mine = [s for s in signals if s.group in (group, "")]
    starts = [s for s in mine if s.kind == Signal.Kind.START]
    if not starts:
        return RoundClock(None, limit_ms(stage))
    start = starts[-1]
    ends = [s for s in mine if s.kind == Signal.Kind.END and (s.at, s.id) > (start.at, start.id)]
    return RoundClock(start.at, limit_ms(stage), ends[0].at if ends else None)


def clock_of(
    event: Event, stage: Stage, round: int = 1, group: str = "", at: dt.datetime | None = None
) -> RoundClock:
    """The clock of one group of the round, from the signals given by ``at``."""
    return _clock(_signals(event, stage, round, at), stage, group)


def clocks(
    event: Event, stage: Stage, round: int = 1, at: dt.datetime | None = None
) -> dict[str, RoundClock]:
    """Every clock group's clock (one query)."""
    signals = _signals(event, stage, round, at)
    return {group: _clock(signals, stage, group) for group in clock_groups(stage)}


def start_signal(
    event: Event, stage: Stage, round: int, group: str, at: dt.datetime | None = None
) -> Signal | None:
    """The start that the group's clock runs from, if any."""
    signals = _signals(event, stage, round, at)
    starts = [s for s in signals if s.kind == Signal.Kind.START and s.group in (group, "")]
    return starts[-1] if starts else None


def round_ended_at(
    event: Event, stage: Stage, round: int = 1, now: dt.datetime | None = None
) -> dt.datetime | None:
    """When the round ended by ``now`` (see the vocabulary); ``None`` while it runs or has no
    result."""
    return rounds_ended_at(event, stage, [round], now)[round]


def rounds_ended_at(
    event: Event, stage: Stage, rounds: Collection[int], now: dt.datetime | None = None
) -> dict[int, dt.datetime | None]:
    """``round_ended_at`` of each of ``rounds``, in at most three reads for any number of them."""
    now = now or timezone.now()
    signals: dict[int, list[Signal]] = defaultdict(list)
    for signal in Signal.objects.filter(
        event=event, stage=stage.key, round__in=list(rounds), at__lte=now
    ).order_by("at", "id"):
        signals[signal.round].append(signal)
    ended: dict[int, dt.datetime | None] = {}
    for round in rounds:
        every = [_clock(signals[round], stage, group) for group in clock_groups(stage)]
        started = [c for c in every if c.started_at is not None]
        if not started:
            continue  # run without signals: by its schedule, below
        if len(started) < len(every) or any(c.state(now) != "ended" for c in started):
            ended[round] = None
        else:
            ended[round] = max(c.ends_at for c in started if c.ends_at is not None)
    unsignalled = [r for r in rounds if r not in ended]
    if unsignalled:
        scheduled = scheduled_ends(event, stage, unsignalled)
        on_the_day = Q()
        for r in unsignalled:
            on_the_day |= Q(round=r, recorded_at__lte=scheduled[r])
        typed = {
            row["round"]: row["on_the_day"]
            for row in Result.objects.filter(
                event=event, stage=stage.key, round__in=unsignalled, recorded_at__lte=now
            )
            .order_by()
            .values("round")
            .annotate(on_the_day=Max("recorded_at", filter=on_the_day))
        }
        ended |= {r: (typed[r] or scheduled[r]) if r in typed else None for r in unsignalled}
    return ended


def scheduled_ends(event: Event, stage: Stage, rounds: Collection[int]) -> dict[int, dt.datetime]:
    """Round → when it was scheduled to end: the close (local midnight) of the calendar's day of
    the round, else of the event's first day. One read, none for a stage without a calendar."""
    calendar: dict[int, dt.datetime] = {}
    if has_calendar(stage):  # a stage that sits once has no calendar to read
        calendar = dict(
            Round.objects.filter(event=event, stage=stage.key, number__in=list(rounds)).values_list(
                "number", "starts_at"
            )
        )
    ends = {}
    for r in rounds:
        day = calendar.get(r, event.starts_at).astimezone(event.zone).date() + dt.timedelta(days=1)
        ends[r] = dt.datetime.combine(day, dt.time(0, 0), tzinfo=event.zone)
    return ends


def _epoch_ms(moment: dt.datetime | None) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


def clock_display(clock: RoundClock, label: str, now: dt.datetime | None = None) -> dict[str, Any]:
    """What the clock widget (``podium/_clock.html``) needs: epoch milliseconds and the state.

    The page carries the server's time, so the browser shows the server's clock whatever its own
    says; the widget counts on from there.
    """
    now = now or timezone.now()
    remaining = clock.remaining(now)
    # The time left is said in words ("1:29:56 left"), never with a minus sign: "−1:29:56" reads
    # as a negative time. The widget fills the same phrase in as it counts down.
    left = _("%(time)s left")
    return {
        "label": label,
        "state": clock.state(now),
        "started": _epoch_ms(clock.started_at),
        "ends": _epoch_ms(clock.ends_at),
        "server_now": _epoch_ms(now),
        "elapsed": clock.elapsed(now),
        "remaining": remaining,
        "left_format": left,
        "remaining_text": (
            "" if remaining is None else left % {"time": format_clock(remaining // 1000 * 1000)}
        ),
        # What the widget shows before (or without) its script: the server's reading, to the
        # whole second.
        "elapsed_text": format_clock(clock.elapsed(now) // 1000 * 1000),
    }


def stage_clocks(
    event: Event, stage: Stage, round: int = 1, now: dt.datetime | None = None
) -> list[dict[str, Any]]:
    """The clock widget data of every clock group of the round, labelled for people."""
    now = now or timezone.now()
    return [
        clock_display(clock, group or rt(stage.title), now)
        for group, clock in clocks(event, stage, round, now).items()
    ]
