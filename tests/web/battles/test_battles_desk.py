"""The Brainball desk through its views: battles of the league and its table so far, refused
battles, corrections, and the superfinal runner (``deti-kolomny``: 6-question battles, two
rounds; superfinal 12 ChGK + 12 Brainball, then pairs until a team leads after a pair).

Hand-worked league (round 1; 2 points a win, 1 a draw, 0 a loss; then the points between the
tied teams, then the question difference):

    1. Sovy – Filiny 4:2      4. Sovy – Volki 3:3
    2. Filiny – Ezhi 6:0      5. Filiny – Volki 3:3
    3. Sovy – Ezhi 2:3        6. Ezhi – Volki 0:4

After battles 1–3 every team has 2 points and 2 between them (a circle), so the question
difference decides: Filiny 8:4 (+4), Sovy 6:5 (+1), Ezhi 3:8 (−5).
After all six: Volki 4 points (1–2–0, 10:6), Sovy 3 (1–1–1, 9:8, +1), Filiny 3 (1–1–1, 11:7,
+4), Ezhi 2 (1–0–2, 3:12). Sovy and Filiny tie on 3; Sovy beat Filiny 4:2, so head-to-head puts
Sovy 2nd although Filiny's question difference (+4) is better.

Superfinal (Sovy #1 against Filiny #2): 12 ChGK questions both take 6, Sovy 3 more; 12 Brainball
questions Sovy wins 6, Filiny 6: 15:12 after the 24 — decided, a 25th question is refused.
Tied case: both teams take all 12 ChGK questions and win 6 Brainball questions each: 18:18 after
the 24; pair 1 (25 ChGK both take it, 26 Brainball nobody) 19:19 goes on; question 27 (ChGK,
only Sovy) leads 20:19 but the match is only checked after the pair; 28 (Brainball, nobody)
closes pair 2 at 20:19: Sovy is the absolute champion after question 28.
Correction: with 25 to Sovy alone and 26 to nobody, Sovy leads 19:18 after pair 1; the jury
gives 26 to Filiny (a correction with a reason): 19:19, and the runner asks question 27.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from podium.web.models import Event, Publication, Result

STAGE = "brainball"
SUPER = "superfinal"


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def league(make_user: Any, make_event: Any, add_entry: Any, staff: Any) -> dict[str, Any]:
    org = make_user("olga")
    event = make_event("deti-kolomny", organizer=org)
    users = staff(event, referee="rudolf", head="hana")
    teams = {
        name: add_entry(event, n, name, country="RU")
        for n, name in enumerate(["Sovy", "Filiny", "Ezhi", "Volki"], start=1)
    }
    return {"event": event, "org": org, "teams": teams, **users}


def index_url(event: Event) -> str:
    return reverse("battles:index", kwargs={"slug": event.slug, "stage": STAGE})


def record_battle(
    client: Client, event: Event, round_: int, team1: Any, team2: Any, score1: Any, score2: Any
) -> Any:
    page = client.get(index_url(event)).content.decode()
    form = page[page.index('id="battle-form"') :]
    key = re.search(r'name="idempotency_key" value="([^"]+)"', form).group(1)  # type: ignore[union-attr]
    return client.post(
        reverse("battles:record", kwargs={"slug": event.slug, "stage": STAGE}),
        {"idempotency_key": key, "round": round_, "team1": team1.number, "team2": team2.number,
         "score1": score1, "score2": score2},
    )  # fmt: skip


def league_rows(html: str) -> list[tuple[str, str, str, str, str]]:
    """(place, team, W–D–L, questions, points) of each row of the league table on the page."""
    rows = re.findall(
        r'<tr class="league-row"><td class="place">([^<]+)\.</td><td class="team">([^<\n]+)'
        r".*?</td>\s*<td>\d+</td><td>([^<]+)</td><td>([^<]+)</td><td>[^<]+</td>"
        r'<td class="points">([^<]+)</td>',
        html,
        re.S,
    )
    return [tuple(r.strip() for r in row) for row in rows]  # type: ignore[misc]


def test_a_final_league_offers_no_battle_to_record_or_correct(league: dict[str, Any]) -> None:
    event, teams = league["event"], league["teams"]
    client = client_for(league["referee"])
    assert record_battle(client, event, 1, teams["Sovy"], teams["Filiny"], 4, 2).status_code == 302
    assert "Record a battle" in client.get(index_url(event)).content.decode()
    Publication.objects.create(
        event=event, stage=STAGE, state="final", version=1, changed_by=league["org"],
        changed_at=timezone.now(),
    )  # fmt: skip  # set up directly: publishing final has its own tests
    html = client.get(index_url(event)).content.decode()
    assert "These results are final: changes need the organizer to reopen them." in html
    assert "Record a battle" not in html
    assert 'id="battle-form"' not in html
    assert "Correct this battle" not in html
    assert "Sovy 4 : 2 Filiny" in " ".join(html.split())


BATTLES = [
    ("Sovy", "Filiny", 4, 2),
    ("Filiny", "Ezhi", 6, 0),
    ("Sovy", "Ezhi", 2, 3),
    ("Sovy", "Volki", 3, 3),
    ("Filiny", "Volki", 3, 3),
    ("Ezhi", "Volki", 0, 4),
]


def test_the_league_table_after_a_few_battles_and_head_to_head_deciding(
    league: dict[str, Any],
) -> None:
    event, teams = league["event"], league["teams"]
    client = client_for(league["referee"])
    assert "No battle recorded yet." in client.get(index_url(event)).content.decode()
    for n, (a, b, sa, sb) in enumerate(BATTLES, start=1):
        response = record_battle(client, event, 1, teams[a], teams[b], sa, sb)
        assert response.status_code == 302, response.content.decode()
        if n == 3:
            html = client.get(index_url(event)).content.decode()
            assert league_rows(html) == [
                ("1", "Filiny", "1–0–1", "8:4", "2"),
                ("2", "Sovy", "1–0–1", "6:5", "2"),
                ("3", "Ezhi", "1–0–1", "3:8", "2"),
            ]
    result = Result.objects.get(item="b1-1-2")
    assert result.cells == {"round": "1", "team1": "1", "team2": "2", "score1": "4",
                            "score2": "2"}  # fmt: skip
    html = client.get(index_url(event)).content.decode()
    assert league_rows(html) == [
        ("1", "Volki", "1–2–0", "10:6", "4"),
        ("2", "Sovy", "1–1–1", "9:8", "3"),
        ("3", "Filiny", "1–1–1", "11:7", "3"),
        ("4", "Ezhi", "1–0–2", "3:12", "2"),
    ]
    assert ">+4<" in html
    assert ">+1<" in html
    sovy_why = html[html.index('<td class="team">Sovy') : html.index('<td class="team">Filiny')]
    assert "Round 1, battle b1-1-2: beat Filiny 4:2" in sovy_why
    assert "Sovy 4 : 2 Filiny" in html  # the battle list


def test_refused_battles_store_nothing(league: dict[str, Any]) -> None:
    event, teams = league["event"], league["teams"]
    client = client_for(league["referee"])
    sovy, filiny = teams["Sovy"], teams["Filiny"]
    assert record_battle(client, event, 1, sovy, filiny, 4, 2).status_code == 302
    cases = [
        ((1, teams["Ezhi"], teams["Volki"], 4, 3),
         "column score2: 4 + 3 questions won, but a battle has 6 and each is won by one team at "
         "most"),
        ((1, teams["Ezhi"], teams["Volki"], 7, 0),
         "column score1: 7 is more than the 6 this allows"),
        ((1, sovy, sovy, 3, 3), "column team2: &#x27;Sovy&#x27; cannot play against itself"),
        ((1, filiny, sovy, 3, 1),
         "Filiny and Sovy already met in round 1: correct that battle below instead."),
    ]  # fmt: skip
    for args, message in cases:
        response = record_battle(client, event, *args)
        assert response.status_code == 400
        assert message in response.content.decode(), message
        assert Result.objects.count() == 1
    # the same pairing in the second round is another battle
    assert record_battle(client, event, 2, filiny, sovy, 3, 1).status_code == 302
    assert Result.objects.filter(item="b2-1-2").get().cells["team1"] == "2"


def test_a_battle_is_corrected_with_a_reason(league: dict[str, Any]) -> None:
    event, teams = league["event"], league["teams"]
    client = client_for(league["referee"])
    record_battle(client, event, 1, teams["Sovy"], teams["Filiny"], 4, 2)
    first = Result.objects.get()
    url = reverse("battles:correct", kwargs={"slug": event.slug, "stage": STAGE,
                                             "result_id": first.pk})  # fmt: skip
    page = client.get(index_url(event)).content.decode()
    key = re.search(rf'name="b{first.pk}-idempotency_key" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    data = {f"b{first.pk}-idempotency_key": key, f"b{first.pk}-score1": "4",
            f"b{first.pk}-score2": "1"}  # fmt: skip
    refused = client.post(url, data)
    assert refused.status_code == 400
    assert "A correction needs a reason." in refused.content.decode()
    assert Result.objects.count() == 1
    data[f"b{first.pk}-reason"] = "Question 6 went to nobody (host's sheet)"
    assert client.post(url, data).status_code == 302
    fixed = Result.objects.get(corrects=first)
    assert fixed.cells["score2"] == "1"
    assert fixed.reason.startswith("Question 6")
    assert "Sovy 4 : 1 Filiny" in client.get(index_url(event)).content.decode()


def test_the_desk_is_for_the_events_staff_only(league: dict[str, Any], make_user: Any) -> None:
    event = league["event"]
    stranger = client_for(make_user("someone"))
    for url in (
        index_url(event),
        reverse("battles:superfinal", kwargs={"slug": event.slug, "stage": SUPER}),
    ):
        assert stranger.get(url).status_code == 404
        assert Client().get(url).status_code == 302
    assert (
        stranger.post(
            reverse("battles:record", kwargs={"slug": event.slug, "stage": STAGE}), {}
        ).status_code
        == 404
    )
    assert not Result.objects.exists()


# --- the superfinal --------------------------------------------------------------------------


def super_url(event: Event) -> str:
    return reverse("battles:superfinal", kwargs={"slug": event.slug, "stage": SUPER})


def tap(client: Client, event: Event, answer: str, number: int | None = None) -> Any:
    """Taps an answer button of the question the page asks (or of question ``number``)."""
    page = client.get(super_url(event)).content.decode()
    form = page[page.index('id="ask"') :] if 'id="ask"' in page else page
    key = re.search(r'name="idempotency_key" value="([^"]+)"', form).group(1)  # type: ignore[union-attr]
    asked = re.search(r'name="number" value="(\d+)"', form)
    return client.post(
        reverse("battles:answer", kwargs={"slug": event.slug, "stage": SUPER}),
        {"idempotency_key": key, "answer": answer,
         "number": number or (asked.group(1) if asked else "")},
    )  # fmt: skip


def asking(client: Client, event: Event) -> str | None:
    page = client.get(super_url(event)).content.decode()
    found = re.search(r"<h2>(Question \d+ — \w+)</h2>", page)
    return found.group(1) if found else None


@pytest.fixture
def superfinal(league: dict[str, Any], put_in_stage: Any) -> dict[str, Any]:
    teams = league["teams"]
    put_in_stage(league["event"], SUPER, teams["Sovy"], teams["Filiny"], source="chgk-season")
    return league


def test_the_page_waits_for_the_two_winners(league: dict[str, Any], put_in_stage: Any) -> None:
    event = league["event"]
    client = client_for(league["head"])
    page = client.get(super_url(event)).content.decode()
    assert "The winners are not in yet" in page
    assert 'id="ask"' not in page
    put_in_stage(event, SUPER, league["teams"]["Sovy"], source="chgk-season")
    page = client.get(super_url(event)).content.decode()
    assert "The winners are not in yet" in page
    assert "#1 <bdi>Sovy</bdi>" in page
    assert (
        client.post(
            reverse("battles:answer", kwargs={"slug": event.slug, "stage": SUPER}),
            {"idempotency_key": "k", "answer": "first", "number": 1},
        ).status_code
        == 404
    )
    assert not Result.objects.exists()


def test_a_decided_24_stops_the_superfinal_and_a_25th_question_is_refused(
    superfinal: dict[str, Any],
) -> None:
    event = superfinal["event"]
    client = client_for(superfinal["head"])
    assert asking(client, event) == "Question 1 — ChGK"
    for n in range(1, 13):  # ChGK: both take 6; Sovy alone 3; Filiny alone 0; nobody 3
        answer = "both" if n <= 6 else "first" if n <= 9 else "none"
        assert tap(client, event, answer).status_code == 302
    assert asking(client, event) == "Question 13 — Brainball"
    for n in range(13, 25):  # Brainball: 6 each
        assert tap(client, event, "first" if n % 2 else "second").status_code == 302
    q13 = Result.objects.get(item="q13")
    assert q13.cells == {"discipline": "brainball", "1": "1", "2": "0"}
    assert Result.objects.get(item="q1").cells == {"discipline": "chgk", "1": "1", "2": "1"}

    page = client.get(super_url(event)).content.decode()
    assert asking(client, event) is None
    assert "Sovy — absolute champion!" in page
    assert "Decided after question 24: 15 : 12." in page
    assert "After the 24 regular questions: Sovy 15 – 12 Filiny" in page

    refused = tap(client, event, "first", number=25)
    assert refused.status_code == 400
    assert "q25: column id: the superfinal was already decided after question 24" in (
        refused.content.decode()
    )
    assert Result.objects.count() == 24


def test_a_tied_24_goes_to_pairs_and_stops_at_the_first_pair_with_a_leader(
    superfinal: dict[str, Any],
) -> None:
    event = superfinal["event"]
    client = client_for(superfinal["referee"])
    for _n in range(12):
        tap(client, event, "both")
    for n in range(13, 25):
        tap(client, event, "first" if n % 2 else "second")
    assert asking(client, event) == "Question 25 — ChGK"
    page = client.get(super_url(event)).content.decode()
    assert "After the 24 regular questions: Sovy 18 – 18 Filiny" in page
    assert "Pair 1 after a tie" in page

    assert tap(client, event, "both").status_code == 302  # 25 is ChGK: both may take it
    refused = tap(client, event, "both")  # question 26 is Brainball: one team at most
    assert refused.status_code == 400
    assert "both teams cannot win a Brainball question" in refused.content.decode()
    assert Result.objects.count() == 25
    assert tap(client, event, "none").status_code == 302  # 26: 19:19 after pair 1
    stale = tap(client, event, "first", number=26)  # a second phone still showing question 26
    assert stale.status_code == 400
    assert "Question 26 is already recorded; the page now asks the next one." in (
        stale.content.decode()
    )
    assert Result.objects.count() == 26
    assert asking(client, event) == "Question 27 — ChGK"
    assert tap(client, event, "first").status_code == 302  # 27: 20:19, but mid-pair
    assert asking(client, event) == "Question 28 — Brainball"
    assert 'id="champion"' not in client.get(super_url(event)).content.decode()
    assert tap(client, event, "none").status_code == 302  # 28: pair 2 ends 20:19

    page = client.get(super_url(event)).content.decode()
    assert asking(client, event) is None
    assert "Sovy — absolute champion!" in page
    assert "Decided after question 28: 20 : 19." in page
    assert "After pair 1 (questions 25–26): Sovy 19 – 19 Filiny" in page
    assert "After pair 2 (questions 27–28): Sovy 20 – 19 Filiny" in page
    assert tap(client, event, "first", number=29).status_code == 400
    assert Result.objects.count() == 28


def test_the_last_question_is_corrected_with_a_reason_until_final(
    superfinal: dict[str, Any],
) -> None:
    event = superfinal["event"]
    client = client_for(superfinal["head"])
    for _n in range(12):
        tap(client, event, "both")
    for n in range(13, 25):
        tap(client, event, "first" if n % 2 else "second")
    tap(client, event, "first")  # 25
    tap(client, event, "none")  # 26: Sovy leads 19:18 after pair 1
    assert "Sovy — absolute champion!" in client.get(super_url(event)).content.decode()

    last = Result.objects.get(item="q26")
    url = reverse("battles:superfinal-correct", kwargs={"slug": event.slug, "stage": SUPER})
    data = {"idempotency_key": "fix-26", "number": 26, "result": last.pk, "answer": "second"}
    refused = client.post(url, data)
    assert refused.status_code == 400
    assert "A correction needs a reason." in refused.content.decode()
    assert Result.objects.count() == 26
    older = client.post(url, {**data, "number": 25, "result": Result.objects.get(item="q25").pk,
                              "reason": "x"})  # fmt: skip
    assert "Only the last question asked may be corrected." in older.content.decode()
    data["reason"] = "The jury gave question 26 to Filiny"
    assert client.post(url, data).status_code == 302
    fixed = Result.objects.get(corrects=last)
    assert fixed.cells == {"discipline": "brainball", "1": "0", "2": "1"}
    # 19:19 after pair 1 now: the runner asks again
    assert asking(client, event) == "Question 27 — ChGK"

    Publication.objects.create(
        event=event, stage=SUPER, round=1, state="final", version=1, changed_at=timezone.now()
    )
    page = client.get(super_url(event)).content.decode()
    assert "Correct question 26" not in page
    assert 'id="ask"' not in page
    again = client.post(url, {**data, "result": fixed.pk, "idempotency_key": "fix-26-b",
                              "answer": "none"})  # fmt: skip
    assert again.status_code == 400
    assert "These results are final." in again.content.decode()
    assert Result.objects.count() == 27
