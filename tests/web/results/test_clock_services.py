"""Start and end signals, the one-tap finish, and times checked against the round's clock.

Hand-worked (cz-jigsaw, individual qualification: groups A and B, 90 minutes, 10 s per missing
piece; Czech entrants only take official places):
- Group A starts at 9:00:00. Anna taps "finished" at 10:02:03.4 → 1:02:03 (whole seconds; the
  exact 3 723 400 ms are kept). Cyril's time typed in as 1:20:00 at 10:10 is refused: the clock
  shows only 1:10:00.
- Group B starts at 9:05:00; Bohdan taps at 10:34:59 → 1:29:59; at 10:35:00 the limit has ended
  the round and a tap is refused.
- Dana's pieces (420) are refused while A runs (10:00) and taken at 10:31 (A ended at 10:30).
- Standings of group A as of 10:31: Anna 1:02:03 (1st), Dana 420 pcs (2nd).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import translation

from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Result, Signal
from podium.web.results.selectors.clock import clock_of, round_ended_at, stage_clocks
from podium.web.results.selectors.rows import standings_as_of
from podium.web.results.services.clock import result_finish, round_end, round_start
from podium.web.results.services.results import result_record

QUALI = "individual-qualification"


def at(h: int, m: int, s: float = 0) -> dt.datetime:
    return dt.datetime(2027, 1, 23, h, m, tzinfo=dt.UTC) + dt.timedelta(seconds=s)


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cz-jigsaw")
    people = staff(event, organizer="olga", head="renata", referee="rudolf")
    entries = {
        "anna": add_entry(event, 1, "Anna Nová", group="A"),
        "bohdan": add_entry(event, 2, "Bohdan Malý", group="B"),
        "cyril": add_entry(event, 3, "Cyril Dlouhý", group="A"),
        "dana": add_entry(event, 4, "Dana Krátká", group="A"),
    }
    return event, people, entries


def test_a_tap_records_the_whole_seconds_since_the_groups_start(cz: Any) -> None:
    event, people, e = cz
    round_start(event=event, stage=QUALI, group="A", by=people["organizer"], now=at(9, 0))
    tap = {"event": event, "stage": QUALI, "entry": e["anna"], "by": people["referee"]}
    done = result_finish(**tap, idempotency_key="tap-1", now=at(10, 2, 3.4))
    assert done.cells == {"time": "1:02:03", "missing": "", "pieces": ""}
    assert done.detail["elapsed_ms"] == 3_723_400
    # the phone lost its connection and sent the tap again a bit later: the same result
    assert result_finish(**tap, idempotency_key="tap-1", now=at(10, 5)).pk == done.pk
    with pytest.raises(Refused, match="#1: a result is already recorded — correct it instead"):
        result_finish(**tap, idempotency_key="tap-2", now=at(10, 6))
    assert Result.objects.count() == 1


def test_each_group_runs_on_its_own_clock_and_the_limit_ends_it(cz: Any) -> None:
    event, people, e = cz
    ref = people["referee"]
    round_start(event=event, stage=QUALI, group="A", by=people["organizer"], now=at(9, 0))
    with pytest.raises(Refused, match="#2: the round has not started yet"):
        result_finish(
            event=event, stage=QUALI, entry=e["bohdan"], by=ref, idempotency_key="b0",
            now=at(9, 3),
        )  # fmt: skip
    round_start(event=event, stage=QUALI, group="B", by=people["head"], now=at(9, 5))
    late = {"event": event, "stage": QUALI, "entry": e["bohdan"], "by": ref}
    with pytest.raises(Refused, match=r"#2: the round ended at 1:30:00"):
        result_finish(**late, idempotency_key="b1", now=at(10, 35))
    with translation.override("ru"), pytest.raises(Refused) as russian:
        result_finish(**late, idempotency_key="b1", now=at(10, 35))
    assert russian.value.message == "№ 2: раунд закончился в 1:30:00: финиш после конца — не финиш"
    assert result_finish(**late, idempotency_key="b2", now=at(10, 34, 59)).cells["time"] == (
        "1:29:59"
    )
    clocks = {
        c["label"]: c for c in stage_clocks(event, event.rulebook.stage(QUALI), now=at(10, 0))
    }
    assert (clocks["A"]["state"], clocks["A"]["elapsed"], clocks["A"]["remaining"]) == (
        "running", 3_600_000, 1_800_000,
    )  # fmt: skip
    assert clocks["B"]["elapsed"] == 55 * 60_000


def test_times_and_pieces_are_checked_against_the_clock(cz: Any) -> None:
    event, people, e = cz
    ref = people["referee"]
    round_start(event=event, stage=QUALI, group="A", by=people["organizer"], now=at(9, 0))
    with pytest.raises(Refused, match=r"#3: 1:20:00 is later than the round's clock, which shows "
                                       r"1:10:00") as refused:  # fmt: skip
        result_record(
            event=event, stage=QUALI, entry=e["cyril"], cells={"time": "1:20:00"}, by=ref,
            idempotency_key="c1", now=at(10, 10),
        )  # fmt: skip
    assert refused.value.field == "time"
    pieces = {"event": event, "stage": QUALI, "entry": e["dana"], "cells": {"pieces": "420"}}
    with pytest.raises(Refused, match="#4: the round is still running; pieces are counted"):
        result_record(**pieces, by=ref, idempotency_key="d1", now=at(10, 0))
    assert not Result.objects.exists()
    result_record(**pieces, by=ref, idempotency_key="d2", now=at(10, 31))
    result_finish(
        event=event, stage=QUALI, entry=e["anna"], by=ref, idempotency_key="a", now=at(10, 2, 3)
    )
    # a time written after the end may lie anywhere within the 90 minutes that ran
    result_record(
        event=event, stage=QUALI, entry=e["cyril"], cells={"time": "1:29:30"}, by=ref,
        idempotency_key="c2", now=at(10, 40),
    )  # fmt: skip
    rows = standings_as_of(event, QUALI, at=at(10, 41)).tables[0].rows
    assert [(r.entry.name, r.rank, r.entry.score_text) for r in rows] == [
        ("Anna Nová", 1, "1:02:03"),
        ("Cyril Dlouhý", 2, "1:29:30"),
        ("Dana Krátká", 3, "420 pcs"),
    ]


def test_a_restart_needs_a_reason_and_no_result_yet(cz: Any) -> None:
    event, people, e = cz
    org = people["organizer"]
    round_start(event=event, stage=QUALI, group="A", by=org, now=at(9, 0))
    with pytest.raises(Refused, match="already started; a restart needs a reason"):
        round_start(event=event, stage=QUALI, group="A", by=org, now=at(9, 1))
    restart = round_start(
        event=event, stage=QUALI, group="A", by=org, reason="false start: boxes opened early",
        now=at(9, 2),
    )  # fmt: skip
    assert clock_of(event, event.rulebook.stage(QUALI), group="A").started_at == restart.at
    result_finish(
        event=event, stage=QUALI, entry=e["anna"], by=people["referee"], idempotency_key="a",
        now=at(10, 0),
    )  # fmt: skip
    with pytest.raises(Refused, match="Results are already recorded on this clock"):
        round_start(event=event, stage=QUALI, group="A", by=org, reason="again", now=at(10, 1))
    assert Signal.objects.count() == 2


def test_an_early_end_needs_a_reason_and_ends_the_round(cz: Any) -> None:
    event, people, e = cz
    head = people["head"]
    with pytest.raises(Refused, match="Only an organizer or a head referee"):
        round_start(event=event, stage=QUALI, group="B", by=people["referee"], now=at(9, 0))
    with pytest.raises(Refused, match="no group “C”"):
        round_start(event=event, stage=QUALI, group="C", by=head, now=at(9, 0))
    round_start(event=event, stage=QUALI, group="B", by=head, now=at(9, 0))
    with pytest.raises(Refused, match="say why the round ends early"):
        round_end(event=event, stage=QUALI, group="B", by=head, now=at(10, 0))
    round_end(
        event=event, stage=QUALI, group="B", by=head, reason="every table has finished",
        now=at(10, 0),
    )  # fmt: skip
    with pytest.raises(Refused, match="not running"):
        round_end(event=event, stage=QUALI, group="B", by=head, reason="x", now=at(10, 5))
    with pytest.raises(Refused, match="#2: the round ended at 1:00:00"):
        result_finish(
            event=event, stage=QUALI, entry=e["bohdan"], by=people["referee"],
            idempotency_key="b", now=at(10, 1),
        )  # fmt: skip
    assert [a.action for a in AuditEntry.objects.order_by("id")] == ["round.start", "round.end"]


def test_the_round_ends_when_every_group_has_ended(cz: Any) -> None:
    event, people, _e = cz
    stage = event.rulebook.stage(QUALI)
    org = people["organizer"]
    assert round_ended_at(event, stage, now=at(9, 0)) is None  # nothing happened yet
    round_start(event=event, stage=QUALI, group="A", by=org, now=at(9, 0))
    assert round_ended_at(event, stage, now=at(11, 0)) is None  # B has not run
    round_start(event=event, stage=QUALI, group="B", by=org, now=at(9, 10))
    assert round_ended_at(event, stage, now=at(10, 35)) is None  # B still runs
    # both have run their 90 minutes: the round ended with B's limit at 10:40
    assert round_ended_at(event, stage, now=at(11, 0)) == at(10, 40)


def test_time_compensation_extends_the_pairs_clock(
    make_event: Any, staff: Any, add_entry: Any
) -> None:
    """Puzzle Party (Art. 3.3): 3:00 lost to a faulty puzzle are given back; the pair finishes
    at 2:02:00 on the clock, 2 minutes past the limit, and scores 1:59:00."""
    event = make_event("it-puzzle-party")
    people = staff(event, organizer="ornella", referee="rocco")
    pair = add_entry(event, 1, "Rossi / Bianchi", country="IT/IT")
    other = add_entry(event, 2, "Conti / Greco", country="IT/IT")
    round_start(event=event, stage="pairs", by=people["organizer"], now=at(10, 0))
    done = result_finish(
        event=event, stage="pairs", entry=pair, by=people["referee"], idempotency_key="p",
        compensation="3:00", compensation_reason="faulty puzzle replaced", now=at(12, 2),
    )  # fmt: skip
    assert done.cells["time"] == "2:02:00"
    with pytest.raises(Refused, match="#2: the round ended at 2:00:00"):
        result_finish(
            event=event, stage="pairs", entry=other, by=people["referee"], idempotency_key="o",
            now=at(12, 1),
        )  # fmt: skip
    (table,) = standings_as_of(event, "pairs", at=at(12, 3)).tables
    (row,) = table.rows
    assert row.entry.score_text == "1:59:00"
    assert any("0:03:00 compensated (faulty puzzle replaced)" in r.text for r in row.reasons)
