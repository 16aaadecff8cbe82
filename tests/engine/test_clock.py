"""The round clock: start, limit, early end, and what a finish records."""

from __future__ import annotations

import datetime as dt

import pytest

from podium.engine.clock import ClockError, RoundClock

START = dt.datetime(2027, 1, 23, 9, 0, tzinfo=dt.UTC)
LIMIT = 90 * 60_000  # cz-jigsaw qualification: 90 minutes


def at(minutes: float) -> dt.datetime:
    return START + dt.timedelta(minutes=minutes)


def test_a_round_without_a_start_is_waiting_and_records_nothing() -> None:
    clock = RoundClock(None, LIMIT)
    assert clock.state(at(5)) == "waiting"
    assert (clock.elapsed(at(5)), clock.ends_at, clock.remaining(at(5))) == (0, None, None)
    with pytest.raises(ClockError, match="has not started yet"):
        clock.finish(at(5))
    clock.check_recorded(3_600_000, at(5))  # no start signal: the referee's own clock counts


def test_running_clock_records_the_time_since_the_start() -> None:
    clock = RoundClock(START, LIMIT)
    assert clock.state(START - dt.timedelta(seconds=1)) == "waiting"
    assert clock.state(START) == "running"
    # 1 h 2 min 3.4 s after the signal
    now = START + dt.timedelta(hours=1, minutes=2, seconds=3, milliseconds=400)
    assert clock.finish(now) == 3_723_400
    assert clock.remaining(now) == LIMIT - 3_723_400
    assert clock.ends_at == at(90)


def test_the_limit_ends_the_round_on_the_clock() -> None:
    clock = RoundClock(START, LIMIT)
    assert clock.state(at(89.99)) == "running"
    assert clock.state(at(90)) == "ended"
    assert clock.elapsed(at(120)) == LIMIT  # the clock stops at the limit
    assert clock.remaining(at(120)) == 0
    with pytest.raises(ClockError, match=r"ended at 1:30:00"):
        clock.finish(at(90.5))


def test_an_early_end_signal_ends_the_round_before_its_limit() -> None:
    clock = RoundClock(START, LIMIT, ended_at=at(70))
    assert clock.ends_at == at(70)
    assert clock.state(at(69)) == "running"
    assert clock.state(at(70)) == "ended"
    assert clock.elapsed(at(80)) == 70 * 60_000
    # a ChGK tour has no limit: only its end signal ends it
    tour = RoundClock(START, None)
    assert (tour.ends_at, tour.state(at(600)), tour.remaining(at(600))) == (None, "running", None)
    assert RoundClock(START, None, ended_at=at(95)).state(at(96)) == "ended"


def test_a_time_written_by_hand_must_lie_within_the_clock() -> None:
    clock = RoundClock(START, LIMIT)
    clock.check_recorded(10 * 60_000, at(10))
    with pytest.raises(
        ClockError, match=r"0:45:00 is later than the round's clock, which shows 0:10:00"
    ):
        clock.check_recorded(45 * 60_000, at(10))


def test_an_extended_clock_gives_one_entrant_time_back() -> None:
    clock = RoundClock(START, 120 * 60_000).extended(3 * 60_000)  # Puzzle Party: 2 h + 3 min
    assert clock.state(at(121)) == "running"
    assert clock.finish(at(122)) == 122 * 60_000
    assert clock.state(at(123)) == "ended"
    assert RoundClock(START, None).extended(60_000) == RoundClock(START, None)
    with pytest.raises(ValueError, match="positive"):
        clock.extended(-1)


def test_a_round_cannot_end_before_it_starts() -> None:
    with pytest.raises(ValueError, match="before it has started"):
        RoundClock(None, LIMIT, ended_at=START)
    with pytest.raises(ValueError, match="before its start"):
        RoundClock(START, LIMIT, ended_at=at(-1))
