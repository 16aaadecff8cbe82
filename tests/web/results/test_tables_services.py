"""The team table (cz-jigsaw teams: a 1000- and a 500-piece puzzle, 150 minutes, one puzzle in
progress at a time, 10 s per missing piece).

Hand-worked, the round starting at 9:00:
- Sovy: puzzle 1 (1000) on the table, checked and timed at 10:10:00 (1 missing) → 1 of 2 done,
  no result yet; puzzle 2 (500) finished at 11:05:00 (no missing) → the result 2/2 at 2:05:00
  + 1 × 10 s = 2:05:10.
- Kosi: puzzle 2 (500) first; switching to puzzle 1 is refused until the 500 is taken apart;
  after the switch the 1000 is finished at 9:50:00; the 500 is back on the table and at the
  limit (11:30) 420 pieces are counted on it → 1/2 + 420 pcs.
- Table: Sovy 1st (2/2), Kosi 2nd (1/2 + 420 pcs).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import translation

from podium.web.kernel.refusals import Refused
from podium.web.models import Result, TableStep
from podium.web.results.forms import ResultForm
from podium.web.results.selectors.rows import current_results, standings_as_of
from podium.web.results.selectors.tables import table_of
from podium.web.results.services.clock import round_start
from podium.web.results.services.tables import table_pieces, table_step

TEAM = "team"


def at(h: int, m: int) -> dt.datetime:
    return dt.datetime(2027, 1, 23, h, m, tzinfo=dt.UTC)


@pytest.fixture
def teams(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cz-jigsaw")
    people = staff(event, organizer="olga", referee="rudolf")
    sovy = add_entry(event, 1, "Sovy", country="CZ/CZ/CZ", category="teams")
    kosi = add_entry(event, 2, "Kosi", country="CZ/CZ/CZ/CZ", category="teams")
    round_start(event=event, stage=TEAM, by=people["organizer"], now=at(9, 0))
    n = iter(range(1000))

    def step(entry: Any, kind: str, when: dt.datetime, **more: Any) -> TableStep:
        return table_step(
            event=event, stage=TEAM, entry=entry, kind=kind, by=people["referee"],
            idempotency_key=f"s{next(n)}", now=when, **more,
        )  # fmt: skip

    return event, people, sovy, kosi, step


def test_puzzle_one_is_checked_and_timed_before_puzzle_two(teams: Any) -> None:
    event, _people, sovy, _kosi, step = teams
    step(sovy, "start", at(9, 0), puzzle=0)
    with pytest.raises(Refused, match=r"puzzle 1 \(1000 pieces\) is on the table: only one"):
        step(sovy, "start", at(9, 30), puzzle=1)
    step(sovy, "finish", at(10, 10), missing=1)
    table = table_of(event, event.rulebook.stage(TEAM), 1, sovy)
    assert (table.done, table.on_table, table.cells()["time"]) == (1, None, "1:10:00")
    assert current_results(event, TEAM, at=at(12, 0)) == []  # not whole: the ranking needs puzzle 2
    step(sovy, "start", at(10, 11), puzzle=1)
    step(sovy, "finish", at(11, 5))
    (result,) = current_results(event, TEAM, at=at(12, 0))
    assert result.kind == "record"
    assert result.cells == {"done": "2", "time": "2:05:00", "pieces": "", "missing": "1"}
    assert result.detail["finished"] == [
        {"puzzle": 1, "at_ms": 4_200_000, "missing": 1},
        {"puzzle": 2, "at_ms": 7_500_000, "missing": 0},
    ]
    rows = standings_as_of(event, TEAM, at=at(11, 6)).tables[0].rows
    assert [(r.entry.name, r.entry.score_text) for r in rows] == [("Sovy", "2/2 2:05:10 (+10 s)")]


def test_a_switch_needs_the_first_taken_apart_then_pieces_at_the_limit(teams: Any) -> None:
    event, people, sovy, kosi, step = teams
    step(kosi, "start", at(9, 0), puzzle=1)
    with pytest.raises(Refused, match="must be taken apart completely and put back in its box"):
        step(kosi, "switch", at(9, 20), puzzle=0)
    with translation.override("it"), pytest.raises(Refused) as italian:
        step(kosi, "switch", at(9, 20), puzzle=0)
    assert italian.value.message.startswith(
        "N. 2: prima del cambio, puzzle 2 (500 pezzi) va smontato"
    )
    step(kosi, "switch", at(9, 21), puzzle=0, taken_apart=True)
    step(kosi, "finish", at(9, 50))
    step(kosi, "start", at(9, 51), puzzle=1)
    pieces = {"event": event, "stage": TEAM, "entry": kosi, "by": people["referee"]}
    with pytest.raises(Refused, match="still running; pieces are counted when it ends"):
        table_pieces(**pieces, pieces=300, idempotency_key="p0", now=at(11, 0))
    with pytest.raises(Refused, match=r"501 pieces: puzzle 2 \(500 pieces\) has 500"):
        table_pieces(**pieces, pieces=501, idempotency_key="p1", now=at(11, 30))
    done = table_pieces(
        **pieces, pieces=420, groups=[400, 20, 2], idempotency_key="p2", now=at(11, 30)
    )
    assert done.cells == {"done": "1", "time": "0:50:00", "pieces": "420", "missing": ""}
    assert done.detail["groups"] == [400, 20, 2]
    assert table_pieces(**pieces, pieces=420, idempotency_key="p2", now=at(11, 31)).pk == done.pk
    with pytest.raises(Refused, match="round has ended: no puzzle starts"):
        step(sovy, "start", at(11, 31), puzzle=0)
    step_at_limit = table_of(event, event.rulebook.stage(TEAM), 1, kosi)
    assert (step_at_limit.done, step_at_limit.on_table) == (1, 1)


def test_the_team_table_ranks_finished_puzzles_then_pieces(teams: Any) -> None:
    event, people, sovy, kosi, step = teams
    step(sovy, "start", at(9, 0), puzzle=0)
    step(sovy, "finish", at(10, 10), missing=1)
    step(sovy, "start", at(10, 11), puzzle=1)
    step(sovy, "finish", at(11, 5))
    step(kosi, "start", at(9, 0), puzzle=0)
    step(kosi, "finish", at(9, 50))
    step(kosi, "start", at(9, 51), puzzle=1)
    table_pieces(
        event=event, stage=TEAM, entry=kosi, by=people["referee"], pieces=420,
        idempotency_key="k", now=at(11, 30),
    )  # fmt: skip
    rows = standings_as_of(event, TEAM, at=at(11, 31)).tables[0].rows
    assert [(r.entry.name, r.rank, r.entry.score_text) for r in rows] == [
        ("Sovy", 1, "2/2 2:05:10 (+10 s)"),
        ("Kosi", 2, "1/2 + 420 pcs"),
    ]


def test_steps_are_refused_for_whom_is_not_at_a_team_table(
    teams: Any, make_user: Any, add_entry: Any
) -> None:
    event, people, sovy, _kosi, step = teams
    solo = add_entry(event, 9, "Anna Nová", group="A")
    with pytest.raises(Refused, match="not in the entry list of Teams"):
        step(solo, "start", at(9, 0), puzzle=0)
    with pytest.raises(Refused, match="no puzzle is on the table to finish"):
        step(sovy, "finish", at(9, 30))
    with pytest.raises(Refused, match="Only an organizer or referee"):
        table_step(
            event=event, stage=TEAM, entry=sovy, kind="start", puzzle=0, by=make_user("x"),
            idempotency_key="x", now=at(9, 0),
        )  # fmt: skip
    with pytest.raises(Refused, match="one puzzle per entrant"):
        table_step(
            event=event, stage="individual-final", entry=sovy, kind="start", puzzle=0,
            by=people["referee"], idempotency_key="y", now=at(9, 0),
        )  # fmt: skip
    assert not Result.objects.exists()
    assert not TableStep.objects.exists()


def test_a_pieces_summed_stage_records_the_pieces_on_all_puzzles(
    make_event: Any, staff: Any, add_entry: Any
) -> None:
    # The same teams' table under the WJPC team rule (unfinished: pieces-summed): Kosi finished
    # the 1000 and has 420 on the 500, so 1420 pieces are recorded and ranked, not 420.
    from podium.rules.loader import preset_text

    text = (
        preset_text("cz-jigsaw")
        .replace(
            "    puzzles: [1000, 500]\n",
            "    puzzles: [1000, 500]\n    unfinished: {method: pieces-summed}\n",
        )
        .replace("        - key: puzzles-done\n", "        - key: finished\n")
    )
    event = make_event("cz-jigsaw")
    event.rulebook_text = text
    event.save(update_fields=["rulebook_text"])
    event.refresh_from_db()
    people = staff(event, organizer="olga", referee="rudolf")
    kosi = add_entry(event, 2, "Kosi", country="CZ/CZ/CZ/CZ", category="teams")
    hory = add_entry(event, 3, "Hory", country="CZ/CZ/CZ", category="teams")
    round_start(event=event, stage=TEAM, by=people["organizer"], now=at(9, 0))
    keys = iter(range(100))
    for entry, finished_at in ((kosi, at(9, 50)), (hory, at(10, 30))):
        for kind, when, more in (
            ("start", at(9, 0), {"puzzle": 0}),
            ("finish", finished_at, {"missing": 0}),
            ("start", finished_at, {"puzzle": 1}),
        ):
            table_step(
                event=event, stage=TEAM, entry=entry, kind=kind, by=people["referee"],
                idempotency_key=f"s{next(keys)}", now=when, **more,
            )  # fmt: skip
    kosi_result = table_pieces(
        event=event, stage=TEAM, entry=kosi, by=people["referee"], pieces=420,
        idempotency_key="k", now=at(11, 30),
    )  # fmt: skip
    table_pieces(
        event=event, stage=TEAM, entry=hory, by=people["referee"], pieces=480,
        idempotency_key="h", now=at(11, 30),
    )  # fmt: skip
    assert kosi_result.cells == {"done": "1", "time": "0:50:00", "pieces": "1420", "missing": ""}
    # The result form asks the referee for the same sum.
    form = ResultForm(event.rulebook.stage(TEAM))
    assert str(form.fields["pieces"].label) == "Pieces on all puzzles (not finished)"
    rows = standings_as_of(event, TEAM, at=at(11, 31)).tables[0].rows
    assert [(r.entry.name, r.rank, r.entry.score_text) for r in rows] == [
        ("Hory", 1, "1/2 + 1480 pcs"),
        ("Kosi", 2, "1/2 + 1420 pcs"),
    ]
