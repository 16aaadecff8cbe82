"""The ChGK season's Brainball battle schedule (deti-kolomny) and the season page that shows it.

Schedule, hand-worked: 10 teams play a round-robin twice: 10 × 9 / 2 = 45 pairs per round, 90
battles; 9 matchdays per round, each of 5 battles, two at a time on two stages → time slots of
2, 2 and 1 battles. Every team plays 18 battles, 9 per round, and at most 2 more on one stage
than on the other.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.battles.services.schedule import schedule_make
from podium.web.draws.services import draw_rerun
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Draw
from podium.web.results.selectors.rows import battle_item
from podium.web.results.services.results import result_record

# --- the schedule -----------------------------------------------------------------------------


@pytest.fixture
def league(people: dict[str, Any], add_entry: Any) -> dict[str, Any]:
    event = people["event"]
    teams = [add_entry(event, n, f"Team {n}", "RU", category="teams") for n in range(1, 11)]
    # A team outside the competition plays ChGK only: it gets no battles.
    add_entry(event, 11, "Guests", "RU", category="teams", scored=False)
    return {**people, "teams": teams}


def bouts(draw: Draw) -> list[dict[str, int]]:
    return list(draw.result["outcome"]["bouts"])


@pytest.mark.django_db
def test_the_schedule_is_a_double_round_robin_on_two_stages(league: dict[str, Any]) -> None:
    event = league["event"]
    draw = schedule_make(event=event, stage="brainball", by=league["organizer"], seed="s-2026")
    assert (draw.kind, draw.stage, draw.seed) == ("battles", "brainball", "s-2026")
    assert draw.result["inputs"] == {"teams": list(range(1, 11)), "rounds": 2, "stages": 2}
    made = bouts(draw)
    assert len(made) == 90
    # Every pair twice, the second time with sides swapped.
    first = Counter((b["team1"], b["team2"]) for b in made if b["round"] == 1)
    second = Counter((b["team2"], b["team1"]) for b in made if b["round"] == 2)
    assert first == second
    assert len(first) == 45
    assert set(first.values()) == {1}
    assert {frozenset(p) for p in first} == {
        frozenset((a, b)) for a in range(1, 11) for b in range(a + 1, 11)
    }
    # No team twice in a time slot; at most one battle per stage and slot.
    slots: dict[tuple[int, int, int], list[int]] = {}
    for b in made:
        slots.setdefault((b["round"], b["day"], b["slot"]), []).extend([b["team1"], b["team2"]])
    assert all(len(teams) == len(set(teams)) for teams in slots.values())
    assert Counter(len(t) // 2 for t in slots.values()) == Counter({2: 36, 1: 18})  # 18 days
    assert len({(b["round"], b["day"], b["slot"], b["stage"]) for b in made}) == 90
    # Balanced: 18 battles each, within 2 of each other on the two stages.
    for team in range(1, 11):
        mine = Counter(b["stage"] for b in made if team in (b["team1"], b["team2"]))
        assert mine[1] + mine[2] == 18
        assert abs(mine[1] - mine[2]) <= 2
    logged = AuditEntry.objects.get(action="draw.make")
    assert logged.data["kind"] == "battles"
    assert (logged.data["seed"], logged.data["battles"]) == ("s-2026", 90)


@pytest.mark.django_db
def test_the_public_draws_page_lists_the_schedule_and_its_rerun_reproduces_it(
    league: dict[str, Any], client: Any
) -> None:
    event = league["event"]
    draw = schedule_make(event=event, stage="brainball", by=league["organizer"], seed="s-2026")
    assert draw_rerun(draw=draw).reproduced
    page = client.get(reverse("draws:public", kwargs={"slug": event.slug})).content.decode()
    assert "Brainball battles" in page
    first = bouts(draw)[0]
    assert f"#{first['team1']} – #{first['team2']} ({first['stage']})" in page
    verify = reverse("draws:verify", kwargs={"slug": event.slug, "draw_id": draw.pk})
    assert client.get(verify).status_code == 200


@pytest.mark.django_db
def test_a_re_draw_only_before_any_battle_is_recorded(league: dict[str, Any]) -> None:
    event, org = league["event"], league["organizer"]
    schedule_make(event=event, stage="brainball", by=org, seed="one")
    again = schedule_make(event=event, stage="brainball", by=org, seed="two")
    assert Draw.objects.filter(event=event, kind="battles").first() == again  # the newest
    b = bouts(again)[0]
    result_record(
        event=event, stage="brainball", item=battle_item(b["round"], b["team1"], b["team2"]),
        cells={"round": str(b["round"]), "team1": str(b["team1"]), "team2": str(b["team2"]),
               "score1": "4", "score2": "2"},
        by=league["referee"], idempotency_key="b1",
    )  # fmt: skip
    with pytest.raises(Refused, match=r"1 battle is already recorded .* seed two"):
        schedule_make(event=event, stage="brainball", by=org, seed="three")
    assert Draw.objects.filter(event=event, kind="battles").count() == 2
    with pytest.raises(Refused, match="Only an organizer"):
        schedule_make(event=event, stage="brainball", by=league["head"], seed="x")


@pytest.mark.django_db
def test_the_season_page_shows_the_schedule_recorded_battles_and_the_balance(
    league: dict[str, Any],
) -> None:
    event, org = league["event"], league["organizer"]
    client = Client()
    client.force_login(org)
    url = reverse("season:index", kwargs={"slug": event.slug})
    assert "No battle schedule drawn yet." in client.get(url).content.decode()
    response = client.post(reverse("season:schedule", kwargs={"slug": event.slug}), {"seed": "pg"})
    assert response.status_code == 302
    draw = Draw.objects.get(event=event, kind="battles")
    first = bouts(draw)[0]
    a, b = first["team1"], first["team2"]
    # Recorded with the sides the other way round: the page turns the score to the bout's sides.
    result_record(
        event=event, stage="brainball", item=battle_item(1, a, b),
        cells={"round": "1", "team1": str(b), "team2": str(a), "score1": "1", "score2": "5"},
        by=league["referee"], idempotency_key="b1",
    )  # fmt: skip
    html = client.get(url).content.decode()
    slot = html.split('id="slot-1-1-1"')[1].split("</tr>")[0]
    assert f"Team {a} – Team {b}" in slot
    assert "5 : 1" in slot
    assert "✓ recorded" in slot
    desk = reverse("battles:index", kwargs={"slug": event.slug, "stage": "brainball"})
    assert f'href="{desk}?round=1&amp;team1=' in slot  # the other stage's battle: to the desk
    assert "90 battles, 1 recorded" in html
    assert "re-run from the seed: the same schedule" in html
    assert "Guests" not in html
    for team in range(1, 11):
        row = html.split(f'id="balance-{team}"')[1].split("</tr>")[0]
        counts = [int(c.split(">")[-1]) for c in row.split("</td>")[1:3]]
        assert sum(counts) == 18
        assert abs(counts[0] - counts[1]) <= 2
    assert "Battles are recorded against this schedule" in html
    refused = client.post(reverse("season:schedule", kwargs={"slug": event.slug}), {"seed": "z"})
    assert refused.status_code == 400
    assert "1 battle is already recorded" in refused.content.decode()
    assert Draw.objects.filter(event=event, kind="battles").count() == 1


@pytest.mark.django_db
def test_the_season_page_is_for_organizers_and_head_referees(league: dict[str, Any]) -> None:
    event = league["event"]
    url = reverse("season:index", kwargs={"slug": event.slug})
    client = Client()
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(league["referee"])
    assert client.get(url).status_code == 404
    client.force_login(league["head"])
    page = client.get(url).content.decode()
    assert "Draw the schedule" not in page  # the organizer draws it
    assert client.post(reverse("season:schedule", kwargs={"slug": event.slug})).status_code == 400
    assert not Draw.objects.exists()
