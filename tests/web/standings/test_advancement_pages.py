"""The organizer's publication page: rounds of a ChGK tour stage with their dates, and the one
action that creates the next stage's entry list from a final table.

Hand-worked (cba-qualifier, master women advance 1–2 (§ 13)): Eva 1210, Jana 1190, Olga 1150
(all six games recorded and confirmed) → after final, one action advances Eva and Jana "to the
national final", each with the § 13 reason; Olga does not advance.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.chgk.services.rounds import round_add
from podium.web.models import Advancement
from podium.web.results.services.checks import result_confirm
from podium.web.results.services.clock import round_end, round_start
from podium.web.results.services.results import result_record

START = dt.datetime(2012, 3, 24, 9, 0, tzinfo=dt.UTC)


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def bowling(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cba-qualifier")
    people = staff(event, organizer="jan", head="pavel", referee="jiri")
    round_start(event=event, stage="qualification", by=people["head"], now=START)
    for number, name, games in (
        (1, "Eva Kovářová", (205, 210, 199, 198, 200, 198)),
        (2, "Jana Horáková", (190, 200, 195, 205, 200, 200)),
        (3, "Olga Malá", (190, 190, 190, 190, 190, 200)),
    ):
        player = add_entry(event, number, name, division="master-women")
        result = result_record(
            event=event, stage="qualification", entry=player, by=people["referee"],
            cells={f"g{i}": str(g) for i, g in enumerate(games, 1)},
            idempotency_key=f"p{number}", now=START + dt.timedelta(hours=3),
        )  # fmt: skip
        result_confirm(result=result, by=people["head"], now=START + dt.timedelta(hours=3))
    round_end(
        event=event, stage="qualification", by=people["head"], now=START + dt.timedelta(hours=4)
    )
    return event, people


def publish(client: Client, event: Any, stage: str, state: str, round: int = 1) -> str:
    url = reverse("publication:change", args=[event.slug, stage])
    return client.post(url, {"state": state, "round": round}, follow=True).content.decode()


def test_final_then_one_action_records_who_advances(bowling: Any) -> None:
    event, people = bowling
    client = client_for(people["organizer"])
    advance = reverse("advancement:advance", args=[event.slug, "qualification"])
    too_early = client.post(advance, follow=True).content.decode()
    assert "not final yet: only a final table advances anyone" in too_early
    publish(client, event, "qualification", "preliminary")
    page = publish(client, event, "qualification", "final")
    assert "Record who advances from the final table" in page
    done = client.post(advance, follow=True).content.decode()
    assert "2 entrants advance: #1, #2." in done
    made = Advancement.objects.order_by("entry__number")
    assert [(a.entry.name, a.table, a.to_stage) for a in made] == [
        ("Eva Kovářová", "master-women", ""),
        ("Jana Horáková", "master-women", ""),
    ]
    assert made[0].reason == "Advances: 1st of the 2 places for Master women"
    assert made[0].clause.startswith("§ 13 Kategorie Master")
    assert "#2 Jana Horáková — Advances: 2nd of the 2 places for Master women" in text(done)
    again = client.post(advance, follow=True).content.decode()
    assert "to advance again, give a reason" in again
    assert Advancement.objects.count() == 2


def test_the_advance_action_is_for_the_events_organizers_only(bowling: Any, make_user: Any) -> None:
    event, people = bowling
    advance = reverse("advancement:advance", args=[event.slug, "qualification"])
    assert client_for(people["head"]).post(advance).status_code == 404
    assert client_for(make_user("stranger")).post(advance).status_code == 404
    assert Client().post(advance).status_code == 302
    assert not Advancement.objects.exists()


def test_each_chgk_tour_is_published_on_its_own_with_its_dates(make_event: Any, staff: Any) -> None:
    event = make_event("deti-kolomny", timezone="Europe/Moscow")
    people = staff(event, organizer="ilya")
    for day in (14, 28):
        starts = dt.datetime(2010, 11, day, 19, 0, tzinfo=event.zone)
        round_add(event=event, stage="chgk-tour", starts_at=starts, by=people["organizer"])
    page = client_for(people["organizer"]).get(reverse("publication:index", args=[event.slug]))
    html = text(page.content.decode())
    assert "Round 1" in html
    assert "Round 2" in html
    assert "Preliminary from Nov. 15, 2010." in html
    assert "Preliminary from Nov. 29, 2010." in html
    assert "п. 17: Предварительные результаты каждого тура публикуются" in html
    refused = publish(client_for(people["organizer"]), event, "chgk-tour", "preliminary", 2)
    assert "There are no results" not in refused  # preliminary needs no result yet
    assert "is now preliminary (version 1)" in refused


def test_who_advanced_reads_in_the_organizers_language(bowling: Any) -> None:
    """The reason is kept as the engine wrote it (English); the page says it in the reader's
    language from the frozen table's message."""
    event, people = bowling
    client = client_for(people["organizer"])
    publish(client, event, "qualification", "preliminary")
    publish(client, event, "qualification", "final")
    client.post(reverse("advancement:advance", args=[event.slug, "qualification"]))
    cs = text(client.get(f"/cs/organize/{event.slug}/publication/").content.decode())
    assert "#1 Eva Kovářová — Postupuje: 1. místo z 2" in cs
    assert "Advances:" not in cs
    ru = text(client.get(f"/ru/organize/{event.slug}/publication/").content.decode())
    assert "#2 Jana Horáková — " in ru
    assert "Мастер — женщины" in ru
    assert "Advances:" not in ru
