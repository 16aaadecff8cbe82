"""The ChGK season page (deti-kolomny): a play-off entered, corrected and annulled through it,
and the superfinal's state. The season and its play-offs are hand-worked in ``test_season.py``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from tests.web.battles.season_scenario import places, playoffs, record, settled_then_untied

from podium.web.models import Entry
from podium.web.results.selectors.rows import battle_item
from podium.web.results.services.results import result_record

# --- play-offs on the season page -------------------------------------------------------------


@pytest.mark.django_db
def test_the_season_page_enters_the_play_off_and_the_standings_follow(
    season: dict[str, Any], why: Any
) -> None:
    event, teams = season["event"], season["teams"]
    client = Client()
    client.force_login(season["organizer"])
    url = reverse("season:index", kwargs={"slug": event.slug})
    html = client.get(url).content.decode()
    assert "Tied on points for places 1–3" in html
    assert "play-off pending" in html
    standings = reverse("standings:stage", kwargs={"slug": event.slug, "stage": "chgk-season"})
    board = client.get(standings).content.decode()
    assert board.count("play-off pending") == 3

    def match(name: str, value: str) -> Any:
        number = teams[name].number
        return client.post(
            reverse("season:match", kwargs={"slug": event.slug, "number": number}),
            {f"match-{number}-playoff": value, f"match-{number}-idempotency_key": f"p-{name}"},
        )

    refused = match("Alfa", "7")
    assert refused.status_code == 400
    assert "#1 Alfa: 7 questions taken in a match of 6 questions" in refused.content.decode()
    assert playoffs() == 0
    for name, value in (("Alfa", "2"), ("Beta", "4"), ("Gamma", "4")):
        assert match(name, value).status_code == 302
    html = client.get(url).content.decode()
    assert "Extra question 1 for places 1–2" in html
    extra = reverse("season:extra", kwargs={"slug": event.slug, "first": 1})
    only_one = client.post(extra, {"extra-1-taken-2": "1", "extra-1-idempotency_key": "e1"})
    assert only_one.status_code == 400
    assert "enter it for #3 Gamma too" in only_one.content.decode()
    assert playoffs() == 3
    done = client.post(
        extra,
        {"extra-1-taken-2": "0", "extra-1-taken-3": "1", "extra-1-idempotency_key": "e1"},
    )
    assert done.status_code == 302
    html = client.get(url).content.decode()
    assert "settled" in html
    assert "Play-off: 4 in the match, then 1 — place 1" in html
    board = client.get(standings).content.decode()
    assert "play-off pending" not in board
    beta = re.search(r'<tr id="row-all-(\d+)"[^>]*>(?:(?!</tr>).)*>Beta</a>', board, re.S)
    assert beta
    assert "Play-off: 4 in the match, then 0 — place 2" in why(
        standings, "all", beta.group(1), client
    )
    assert places(event)[:3] == [
        ("Gamma", 1, 1, False), ("Beta", 2, 2, False), ("Alfa", 3, 3, False),
    ]  # fmt: skip


@pytest.mark.django_db
def test_the_season_page_corrects_a_play_off_with_a_reason(season: dict[str, Any]) -> None:
    event, teams = season["event"], season["teams"]
    record(season, "Alfa", "3")
    beta = record(season, "Beta", "5")
    record(season, "Gamma", "4")
    client = Client()
    client.force_login(season["head"])
    url = reverse("season:correct", kwargs={"slug": event.slug, "number": 2})
    page = client.get(reverse("season:index", kwargs={"slug": event.slug})).content.decode()
    assert f'name="correct-2-result" value="{beta.pk}"' in page
    assert 'name="correct-2-playoff" value="5"' in page
    fields = {"correct-2-result": beta.pk, "correct-2-playoff": "2", "correct-2-reason": ""}
    refused = client.post(url, {**fields, "correct-2-idempotency_key": "k1"})
    assert refused.status_code == 400
    assert "This field is required." in refused.content.decode()
    assert playoffs() == 3
    done = client.post(
        url, {**fields, "correct-2-reason": "Sheet misread", "correct-2-idempotency_key": "k2"},
        follow=True,
    )  # fmt: skip
    assert "#2 Beta: play-off corrected to “2”." in done.content.decode()
    assert places(event)[:3] == [
        ("Gamma", 1, 1, False),
        ("Alfa", 2, 2, False),
        ("Beta", 3, 3, False),
    ]
    stale = client.post(
        url, {**fields, "correct-2-playoff": "1", "correct-2-reason": "again",
              "correct-2-idempotency_key": "k3"},
    )  # fmt: skip
    assert stale.status_code == 400
    assert "#2 Beta was changed meanwhile: its play-off is now “2”." in stale.content.decode()
    assert teams["Beta"].results.filter(kind="correction").count() == 1


@pytest.mark.django_db
def test_the_season_page_annuls_a_play_off_the_season_refuses(season: dict[str, Any]) -> None:
    event, head = season["event"], season["head"]
    made = settled_then_untied(season)
    client = Client()
    client.force_login(head)
    index = reverse("season:index", kwargs={"slug": event.slug})
    page = client.get(index).content.decode()
    assert "The season table cannot be ranked yet:" in page
    assert "#1 Alfa is not tied for a prize place: it has no play-off" in page
    assert page.count('class="annul"') == 3
    url = reverse("season:annul", kwargs={"slug": event.slug, "number": 1})
    refused = client.post(
        url,
        {"annul-1-result": made["Alfa"].pk, "annul-1-reason": "", "annul-1-idempotency_key": "k"},
    )
    assert refused.status_code == 400
    assert "This field is required." in refused.content.decode()
    for name, number in (("Alfa", 1), ("Beta", 2), ("Gamma", 3)):
        done = client.post(
            reverse("season:annul", kwargs={"slug": event.slug, "number": number}),
            {f"annul-{number}-result": made[name].pk, f"annul-{number}-reason": "No tie now",
             f"annul-{number}-idempotency_key": f"k-{name}"},
            follow=True,
        )  # fmt: skip
        assert f"#{number} {name}: play-off annulled." in done.content.decode()
    page = client.get(index).content.decode()
    assert "cannot be ranked" not in page
    assert "No tie for a prize place: no play-off is needed." in page
    assert places(event)[:3] == [
        ("Gamma", 1, 1, False),
        ("Alfa", 2, 2, False),
        ("Beta", 3, 3, False),
    ]


# --- the superfinal ---------------------------------------------------------------------------


def battle(s: dict[str, Any], a: str, b: str, score: tuple[int, int]) -> None:
    one, two = s["teams"][a].number, s["teams"][b].number
    result_record(
        event=s["event"], stage="brainball", item=battle_item(1, one, two),
        cells={"round": "1", "team1": str(one), "team2": str(two), "score1": str(score[0]),
               "score2": str(score[1])},
        by=s["referee"], idempotency_key=f"b-{a}-{b}",
    )  # fmt: skip


def superfinal_part(client: Client, event: Any) -> str:
    html = client.get(reverse("season:index", kwargs={"slug": event.slug})).content.decode()
    return html.split('id="superfinal"')[1].split("</section>")[0]


@pytest.mark.django_db
def test_the_superfinal_state_names_the_two_winners(season: dict[str, Any]) -> None:
    event = season["event"]
    client = Client()
    client.force_login(season["organizer"])
    battle(season, "Alfa", "Beta", (4, 2))  # Brainball: Alfa 2 points, Beta 0
    part = superfinal_part(client, event)
    assert "tied for first: Alfa, Beta, Gamma" in part
    assert "play-off pending" in part
    assert "Brainball: <strong>#1 <bdi>Alfa</bdi></strong>" in part
    record(season, "Alfa", "3")
    record(season, "Beta", "5")
    record(season, "Gamma", "4")
    part = superfinal_part(client, event)
    assert "ChGK season standings: <strong>#2 <bdi>Beta</bdi></strong>" in part
    runner = reverse("battles:superfinal", kwargs={"slug": event.slug, "stage": "superfinal"})
    assert f'href="{runner}"' in part
    assert "No superfinal" not in part


@pytest.mark.django_db
def test_no_superfinal_when_the_same_team_won_both(season: dict[str, Any]) -> None:
    event = season["event"]
    client = Client()
    client.force_login(season["organizer"])
    battle(season, "Beta", "Alfa", (5, 1))
    for name, value in (("Alfa", "3"), ("Beta", "5"), ("Gamma", "4")):
        record(season, name, value)
    part = superfinal_part(client, event)
    won = "No superfinal: the same team won both — <bdi>Beta</bdi> is the absolute champion."
    assert won in part
    assert "Superfinal runner" not in part
    assert Entry.objects.get(name="Beta").number == 2
