"""The live outlook of a Brainball league on the web: the battles of the drawn schedule not yet
recorded reach the engine as still to play (as the CLI reads battle rows with empty scores).

Hand-worked (deti-kolomny, win 2 / draw 1 / loss 0, a double round-robin of three teams, six
battles; four recorded, two scheduled):
- round 1: Лисы beat Совы 4:2, Лисы beat Ежи 5:1, Совы beat Ежи 3:2; round 2: Лисы beat Совы
  4:1. Лисы 6 pts, Совы 2, Ежи 0; left: Лисы–Ежи and Совы–Ежи (round 2).
- Лисы: 6 to 8; the others reach at most 4 (Совы has no battle left: 2; Ежи 0 + 2 × 2):
  first whatever happens.
- Совы: 2, no battle left; Ежи can reach 4 (above) or stay at 0 (below): places 2–3.
- Ежи: 0 to 4: at best above Совы (2), never up to Лисы (6): places 2–3.
The engine's league outlook is a bound (each remaining battle gives points to both its teams),
so the ranges are marked "≈" while a battle is left; here the bound is the true range. Once
the schedule's last battle is recorded the places are final and exact. Without a drawn
schedule nothing tells which battles are left, so the rows carry no outlook.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from tests.web.standings.test_standings_pages import marks, row_html, stage_url

from podium.web.battles.services.schedule import schedule_make
from podium.web.results.selectors.rows import battle_item
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

TEAMS = {1: "Лисы", 2: "Совы", 3: "Ежи"}
PLAYED = [(1, 1, 2, (4, 2)), (1, 1, 3, (5, 1)), (1, 2, 3, (3, 2)), (2, 1, 2, (4, 1))]
LEFT = [(2, 1, 3), (2, 2, 3)]


@pytest.fixture
def league(make_event: Any, staff: Any, add_entry: Any) -> dict[str, Any]:
    event = make_event(
        "deti-kolomny", language="en", starts_at=dt.datetime(2026, 1, 10, 16, 0, tzinfo=dt.UTC)
    )
    people = staff(event, organizer="olga", referee="rita")
    for number, name in TEAMS.items():
        add_entry(event, number, name, "RU", category="teams")
    return {"event": event, **people}


def record(league: dict[str, Any], round: int, a: int, b: int, score: tuple[int, int]) -> None:
    result_record(
        event=league["event"], stage="brainball", item=battle_item(round, a, b),
        cells={"round": str(round), "team1": str(a), "team2": str(b), "score1": str(score[0]),
               "score2": str(score[1])},
        by=league["referee"], idempotency_key=f"b{round}-{a}-{b}",
    )  # fmt: skip


def api_outlook(event: Any) -> dict[str, Any]:
    url = f"/api/events/{event.slug}/stages/brainball/rounds/1/standings"
    response = Client().get(url)
    assert response.status_code == 200
    return {r["name"]: r["outlook"] for t in response.json()["tables"] for r in t["rows"]}


def draw_and_play(league: dict[str, Any]) -> Any:
    event = league["event"]
    draw = schedule_make(event=event, stage="brainball", by=league["organizer"], seed="s-1")
    bouts = draw.result["outcome"]["bouts"]
    pairs = {(b["round"], *sorted((b["team1"], b["team2"]))) for b in bouts}
    assert pairs == {(r, a, b) for r, a, b, _ in PLAYED} | set(LEFT)
    return event


def play(league: dict[str, Any]) -> Any:
    event = league["event"]
    for round, a, b, score in PLAYED:
        record(league, round, a, b, score)
    publication_set(event=event, stage="brainball", state="preliminary", by=league["organizer"])
    return event


def test_scheduled_battles_count_as_still_to_play(league: dict[str, Any]) -> None:
    draw_and_play(league)
    event = play(league)
    html = Client().get(stage_url(event, "brainball")).content.decode()
    assert [marks(row_html(html, "all", n)).split()[-1] for n in (1, 2, 3)] == [
        "unverified", "≈2–3", "≈2–3",
    ]  # fmt: skip
    projector = Client().get(f"{stage_url(event, 'brainball')}projector/").content.decode()
    assert "≈can finish 2–3" in marks(row_html(projector, "all", 3))
    assert "can finish" not in marks(row_html(projector, "all", 1))
    got = api_outlook(event)
    assert {name: (o["best"], o["worst"], o["exact"]) for name, o in got.items()} == {
        "Лисы": (1, 1, False), "Совы": (2, 3, False), "Ежи": (2, 3, False),
    }  # fmt: skip
    assert got["Лисы"]["reasons"][0]["text"] == (
        "Final place 1st: nothing still to play can change it"
    )
    assert got["Ежи"]["reasons"][1]["text"].startswith(
        "These places are bounds, not exact: each remaining battle gives points to both its teams"
    )


def test_the_last_scheduled_battle_makes_the_places_exact(league: dict[str, Any]) -> None:
    draw_and_play(league)
    event = play(league)
    record(league, 2, 1, 3, (4, 2))
    # Ежи beats Совы 5:1: both on 2 pts and a win each between them; Ежи ahead on question
    # difference (10:13 to 7:15), so 2nd and 3rd, not a shared 2nd on match points.
    record(league, 2, 2, 3, (1, 5))
    got = api_outlook(event)
    assert {name: (o["best"], o["worst"], o["exact"]) for name, o in got.items()} == {
        "Лисы": (1, 1, True), "Ежи": (2, 2, True), "Совы": (3, 3, True),
    }  # fmt: skip


def test_without_a_schedule_no_outlook_is_shown(league: dict[str, Any]) -> None:
    event = play(league)
    assert api_outlook(event) == {"Лисы": None, "Совы": None, "Ежи": None}
    html = Client().get(stage_url(event, "brainball")).content.decode()
    assert "2–3" not in marks(row_html(html, "all", 3))
