"""The HTTP API: public reads, draft rounds behind a token, results written by a scoring
machine through the same services as the console, JSON errors, idempotency and rate limits.

Hand-worked cases:

- cz-jigsaw, individual qualification (time + 10 s per missing piece; finishers by time, then
  non-finishers by pieces; only Czech entrants take official places). Group A: #1 Anna (CZ)
  1:02:03, #3 Cyril (CZ) 1:00:00 with 2 missing pieces → 1:00:20, #4 Dana (CZ) unfinished
  with 420 pieces, #5 Eva (SK) 1:01:00. Order: Cyril 1st (official 1st), Eva 2nd (foreign:
  no official place), Anna 3rd (official 2nd), Dana 4th (official 3rd). Group B: #2 Bohdan
  (CZ) 1:29:59, 1st. The API's rows are the CLI's rows (``standings_data``) plus ``number``,
  ``next`` and ``unverified``.
- cba-qualifier (six games in blocks of 2 + 2 + 2): the lane 3 machine posts Adam's block 1
  as totals 200 and 190, then block 2 as rolls — game 3 ``X X X 7 2 (8)/ F9 X 7/ 9- XX8``
  (World Bowling's scoresheet: 30 57 76 85 95 104 124 143 152 180 → 180) and game 4
  ``9/ 9/ 9/ 9/ 9/ 9/ 9/ 9/ 9/ 9/9`` (ten spares of 9 + 1, each worth 19 → 190). Stored
  cells: g1…g4 = 200 190 180 190 (g5, g6 empty), the rolls in ``detail.rolls``; the table
  shows Adam 760 after 4 of 6 games, ahead of Bohuš's block 1 (230 + 170 = 400).
  Refused: a game of 301 (more than 300, the perfect game), and rolls ``7 5`` (the second
  roll knocks 5 of the 3 pins left) — 422 naming the field, nothing stored.
- cz-jigsaw one-tap finish: group A started 1:02:03.2 before the tap → ``1:02:03``.
- deti-kolomny Brainball (6 questions a battle; 2 points a win, 1 a draw): round 1 #1 Sokol
  4:2 #2 Volna, #2 Volna 3:3 #3 Kometa → Sokol 2, Kometa 1 and Volna 1 (they drew each other;
  question difference Kometa 0, Volna −2) → Sokol, Kometa, Volna. Corrected to Sokol 2:4
  Volna: Volna 3, Kometa 1, Sokol 0. A score of 7:0 in a battle of 6 questions is refused.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from podium.engine.document import standings_data
from podium.web.events.services.tokens import token_create, token_revoke
from podium.web.models import ApiToken, AuditEntry, Event, Result, Squad
from podium.web.results.selectors.rows import standings_as_of
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

QUALI = "individual-qualification"
EXTRAS = {"number", "next", "unverified", "outlook"}  # outlook: as `--outlook` adds it
CLI_KEYS = {
    "id", "name", "table", "rank", "rank_to", "official_rank", "official_rank_to", "points",
    "advances", "pool", "playoff", "prize", "official", "class", "score", "metrics", "reasons",
}  # fmt: skip


def bearer(secret: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def post(client: Client, url: str, body: dict[str, Any], secret: str, key: str) -> Any:
    return client.post(
        url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **bearer(secret)
    )


# --- cz-jigsaw: reads ---------------------------------------------------------------------------


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any) -> dict[str, Any]:
    event = make_event("cz-jigsaw", status=Event.Status.CLOSED)
    people = staff(event, organizer="ota", referee="radek")
    entries = {
        1: add_entry(event, 1, "Anna Nová", group="A"),
        2: add_entry(event, 2, "Bohdan Malý", group="B"),
        3: add_entry(event, 3, "Cyril Dlouhý", group="A"),
        4: add_entry(event, 4, "Dana Krátká", group="A"),
        5: add_entry(event, 5, "Eva Malá", "SK", group="A"),
    }
    results = {
        1: {"time": "1:02:03"},
        2: {"time": "1:29:59"},
        3: {"time": "1:00:00", "missing": "2"},
        4: {"pieces": "420"},
        5: {"time": "1:01:00"},
    }
    for number, cells in results.items():
        result_record(
            event=event, stage=QUALI, entry=entries[number], cells=cells, by=people["referee"],
            idempotency_key=f"cz-{number}",
        )  # fmt: skip
    _token, secret = token_create(
        event=event, name="referee Radek's tablet", user=people["referee"], by=people["organizer"]
    )
    return {"event": event, "secret": secret, **people}


def standings_url(slug: str, stage: str, round: int = 1) -> str:
    return f"/api/events/{slug}/stages/{stage}/rounds/{round}/standings"


@pytest.mark.django_db
def test_a_wrong_method_or_path_is_answered_in_json_too() -> None:
    """A program never gets an HTML or plain-text page from the API, not even for a method a
    path does not take or a POST to a path that does not exist (no CSRF page)."""
    client = Client(enforce_csrf_checks=True)
    wrong = client.post("/api/events", data={}, content_type="application/json")
    assert wrong.status_code == 405
    assert wrong["Allow"] == "GET"
    assert wrong.json() == {
        "code": "method-not-allowed",
        "message": "POST is not allowed here; this path takes GET.",
        "fields": {},
        "clause": None,
    }
    nowhere = client.post("/api/events/", data={}, content_type="application/json")
    assert nowhere.status_code == 404
    assert nowhere.json()["code"] == "not-found"
    deleted = client.delete("/api/")
    assert deleted.status_code == 405
    assert deleted.json()["code"] == "method-not-allowed"
    assert deleted["Allow"] == "GET, HEAD"


def test_a_draft_round_is_404_for_the_public_and_200_with_a_token_of_the_event(
    cz: dict[str, Any],
) -> None:
    client = Client()
    url = standings_url("cz-jigsaw", QUALI)
    hidden = client.get(url)
    assert hidden.status_code == 404
    assert hidden.json() == {
        "code": "not-found", "message": "Not found.", "fields": {}, "clause": None
    }  # fmt: skip
    seen = client.get(url, **bearer(cz["secret"]))
    assert seen.status_code == 200
    assert seen.json()["state"] == "draft"
    stages = {s["key"]: s for s in client.get("/api/events/cz-jigsaw/stages").json()}
    assert stages[QUALI]["rounds"] == [
        {"number": 1, "title": "", "starts_at": None, "questions": None, "state": "draft",
         "visible": False, "version": None}
    ]  # fmt: skip


def test_the_standings_rows_are_the_cli_rows_of_the_same_standings(cz: dict[str, Any]) -> None:
    event = cz["event"]
    publication_set(event=event, stage=QUALI, state="preliminary", by=cz["organizer"])
    answer = Client().get(standings_url("cz-jigsaw", QUALI))
    assert answer.status_code == 200
    data = answer.json()
    assert (data["event"], data["rulebook"], data["stage"], data["round"]) == (
        "cz-jigsaw", "cz-jigsaw", QUALI, 1,
    )  # fmt: skip
    assert (data["state"], data["version"], data["as_of"]) == ("preliminary", None, None)
    expected = standings_data(standings_as_of(event, QUALI))
    assert [(t["key"], t["title"]) for t in data["tables"]] == [
        (t["key"], t["title"]) for t in expected["tables"]
    ]
    for table, cli in zip(data["tables"], expected["tables"], strict=True):
        assert {k for row in table["rows"] for k in row} == CLI_KEYS | EXTRAS
        assert [{k: v for k, v in row.items() if k not in EXTRAS} for row in table["rows"]] == (
            cli["rows"]
        )
    group_a = next(t for t in data["tables"] if t["key"] == "A")
    assert [(r["number"], r["rank"], r["official_rank"]) for r in group_a["rows"]] == [
        ("3", 1, 1), ("5", 2, None), ("1", 3, 2), ("4", 4, 3),
    ]  # fmt: skip
    cyril = group_a["rows"][0]
    assert cyril["score"].startswith("1:00:20")
    assert cyril["unverified"] is True  # nobody has confirmed it yet
    assert cyril["reasons"]
    assert all({"clause", "text"} == set(r) for r in cyril["reasons"])
    assert any(r["clause"] for r in cyril["reasons"])
    eva = group_a["rows"][1]
    assert (eva["official"], eva["class"]) == (False, "foreign")
    group_b = next(t for t in data["tables"] if t["key"] == "B")
    assert [(r["number"], r["rank"]) for r in group_b["rows"]] == [("2", 1)]


def test_a_final_round_shows_its_frozen_version(cz: dict[str, Any]) -> None:
    event, org = cz["event"], cz["organizer"]
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    from podium.web.models import Verification
    from podium.web.results.services.checks import result_confirm

    for result in Result.objects.filter(event=event):
        result_confirm(result=result, by=org)
    publication_set(event=event, stage=QUALI, state="final", by=org)
    data = Client().get(standings_url("cz-jigsaw", QUALI)).json()
    assert Verification.objects.count() == 5
    assert (data["state"], data["version"]) == ("final", 1)
    assert data["as_of"] is not None
    assert [v["version"] for v in data["versions"]] == [1]
    group_a = next(t for t in data["tables"] if t["key"] == "A")
    assert [r["number"] for r in group_a["rows"]] == ["3", "5", "1", "4"]
    assert Client().get(standings_url("cz-jigsaw", QUALI) + "?version=1").json()["version"] == 1
    assert Client().get(standings_url("cz-jigsaw", QUALI) + "?version=2").status_code == 404


def test_a_live_table_answers_304_while_nothing_changed(cz: dict[str, Any]) -> None:
    publication_set(event=cz["event"], stage=QUALI, state="preliminary", by=cz["organizer"])
    client = Client()
    first = client.get(standings_url("cz-jigsaw", QUALI))
    etag = first["ETag"]
    assert client.get(standings_url("cz-jigsaw", QUALI), HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_events_entries_and_a_draft_event(
    cz: dict[str, Any], make_event: Any, make_user: Any
) -> None:
    make_event("it-puzzle-party", status=Event.Status.DRAFT, organizer=make_user("paola"))
    client = Client()
    events = client.get("/api/events").json()
    assert [e["slug"] for e in events["items"]] == ["cz-jigsaw"]
    assert client.get("/api/events/it-puzzle-party").status_code == 404
    assert client.get("/api/events/it-puzzle-party/stages").status_code == 404
    event = client.get("/api/events/cz-jigsaw").json()
    assert (event["title"], event["status"], event["rulebook"]) == (
        "cz-jigsaw", "closed", "cz-jigsaw",
    )  # fmt: skip
    page = client.get("/api/events/cz-jigsaw/entries?limit=2&offset=1").json()
    assert (page["count"], page["limit"], page["offset"]) == (5, 2, 1)
    assert [(e["number"], e["name"], e["group"], e["countries"]) for e in page["items"]] == [
        (2, "Bohdan Malý", "B", ["CZ"]), (3, "Cyril Dlouhý", "A", ["CZ"]),
    ]  # fmt: skip
    too_many = client.get("/api/events/cz-jigsaw/entries?limit=1000")
    assert too_many.status_code == 422
    assert too_many.json()["code"] == "invalid"
    assert set(too_many.json()["fields"]) == {"limit"}


# --- cba-qualifier: a scoring machine writes ------------------------------------------------------


@pytest.fixture
def lanes(make_event: Any, staff: Any, add_entry: Any) -> dict[str, Any]:
    event = make_event("cba-qualifier", status=Event.Status.CLOSED)
    people = staff(event, organizer="olga", referee="rudolf")
    squad = Squad.objects.create(event=event, name="Squad A", starts_at=event.starts_at, capacity=8)
    adam = add_entry(event, 1, "Adam", division="master-men", squad=squad)
    bohus = add_entry(event, 2, "Bohuš", division="master-men", squad=squad)
    token, secret = token_create(
        event=event, name="lane 3 scoring machine", user=people["referee"], by=people["organizer"]
    )
    return {"event": event, "adam": adam, "bohus": bohus, "token": token, "secret": secret,
            **people}  # fmt: skip


RESULTS = "/api/events/cba-qualifier/stages/qualification/rounds/1/results"
GAME_3 = "X X X 7 2 (8)/ F9 X 7/ 9- XX8"
GAME_4 = "9/ 9/ 9/ 9/ 9/ 9/ 9/ 9/ 9/ 9/9"


def test_a_bowling_machine_posts_block_1_then_block_2_with_rolls(lanes: dict[str, Any]) -> None:
    client, secret = Client(), lanes["secret"]
    first = post(client, RESULTS, {"entry": 1, "cells": {"g1": "200", "g2": 190}}, secret, "a-b1")
    assert first.status_code == 201, first.json()
    assert first.json()["kind"] == "record"
    assert first.json()["recorded_by"] == "rudolf"
    second = post(
        client, RESULTS,
        {"entry": 1, "games": [{"game": 3, "rolls": GAME_3}, {"game": 4, "rolls": GAME_4}]},
        secret, "a-b2",
    )  # fmt: skip
    assert second.status_code == 201, second.json()
    done = second.json()
    assert done["kind"] == "progress"
    assert done["corrects"] == first.json()["id"]
    assert done["cells"] == {"g1": "200", "g2": "190", "g3": "180", "g4": "190", "g5": "", "g6": ""}
    assert done["detail"]["rolls"] == {
        "g3": "X X X 7 2 8 / F 9 X 7 / 9 - X X 8",
        "g4": "9 / 9 / 9 / 9 / 9 / 9 / 9 / 9 / 9 / 9 / 9",
    }
    assert done["detail"]["api_token"] == "lane 3 scoring machine"
    # The one-game shape of the same thing: Bohuš's block 1 as rolls of game 1, then game 2.
    post(client, RESULTS, {"entry": 2, "game": 1, "rolls": "X " * 12}, secret, "b-g1")
    stored = Result.objects.filter(entry=lanes["bohus"]).get()
    assert stored.cells["g1"] == "300"
    post(client, RESULTS, {"entry": 2, "cells": {"g1": "300", "g2": "100"}}, secret, "b-g2")
    assert AuditEntry.objects.filter(action="result.progress").count() == 2

    table = client.get(
        "/api/events/cba-qualifier/stages/qualification/rounds/1/standings", **bearer(secret)
    ).json()
    rows = [r for t in table["tables"] for r in t["rows"]]
    assert [(r["number"], r["metrics"]["total"]) for r in rows] == [("1", 760), ("2", 400)]
    listed = client.get(RESULTS, **bearer(secret)).json()
    assert listed["count"] == 2
    assert [r["cells"]["g4"] for r in listed["items"]] == ["190", ""]


def test_a_refused_write_names_the_field_and_stores_nothing(lanes: dict[str, Any]) -> None:
    client, secret = Client(), lanes["secret"]
    high = post(client, RESULTS, {"entry": 1, "cells": {"g1": "301"}}, secret, "x1")
    assert high.status_code == 422
    assert high.json()["code"] == "refused"
    assert set(high.json()["fields"]) == {"g1"}
    assert "300" in high.json()["fields"]["g1"]
    rolls = post(client, RESULTS, {"entry": 1, "game": 1, "rolls": "7 5"}, secret, "x2")
    assert rolls.status_code == 422
    assert set(rolls.json()["fields"]) == {"rolls"}
    assert "roll 2" in rolls.json()["message"]
    listed = post(
        client, RESULTS, {"entry": 1, "games": [{"game": 2, "rolls": "X X X"}]}, secret, "x3"
    )  # an unfinished game
    assert listed.status_code == 422
    assert set(listed.json()["fields"]) == {"games.0.rolls"}
    unknown = post(client, RESULTS, {"entry": 99, "cells": {"g1": "200"}}, secret, "x4")
    assert (unknown.status_code, unknown.json()["fields"]) == (
        422, {"entry": "This event has no entry #99."},
    )  # fmt: skip
    column = post(client, RESULTS, {"entry": 1, "cells": {"g9": "200"}}, secret, "x5")
    assert (column.status_code, set(column.json()["fields"])) == (422, {"g9"})
    shape = post(client, RESULTS, {"entry": "one", "cells": []}, secret, "x6")
    assert shape.status_code == 422
    assert shape.json()["code"] == "invalid"
    assert set(shape.json()["fields"]) == {"entry", "cells"}
    no_key = client.post(RESULTS, {"entry": 1}, content_type="application/json", **bearer(secret))
    assert (no_key.status_code, set(no_key.json()["fields"])) == (422, {"Idempotency-Key"})
    assert Result.objects.count() == 0


def test_an_idempotent_retry_stores_once(lanes: dict[str, Any]) -> None:
    client, secret = Client(), lanes["secret"]
    body = {"entry": 1, "cells": {"g1": "200", "g2": "190"}}
    first = post(client, RESULTS, body, secret, "retry-1")
    again = post(client, RESULTS, body, secret, "retry-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    block_2 = {"entry": 1, "cells": {"g3": "180", "g4": "190"}}
    assert post(client, RESULTS, block_2, secret, "retry-2").status_code == 201
    assert post(client, RESULTS, block_2, secret, "retry-2").status_code == 200
    assert Result.objects.count() == 2
    other = post(client, RESULTS, {"entry": 1, "cells": {"g3": "181"}}, secret, "retry-2")
    assert other.status_code == 409
    assert other.json()["code"] == "idempotency-conflict"
    assert set(other.json()["fields"]) == {"Idempotency-Key"}
    elsewhere = post(client, RESULTS, {"entry": 2, "cells": {"g1": "200"}}, secret, "retry-1")
    assert elsewhere.status_code == 409
    assert Result.objects.count() == 2


def test_a_correction_needs_a_reason_and_keeps_the_rolls_of_unchanged_games(
    lanes: dict[str, Any],
) -> None:
    client, secret = Client(), lanes["secret"]
    corrections = "/api/events/cba-qualifier/stages/qualification/rounds/1/corrections"
    both = [{"game": 1, "rolls": GAME_3}, {"game": 2, "rolls": GAME_4}]
    post(client, RESULTS, {"entry": 1, "games": both}, secret, "c0")
    # Through /results a recorded game is not changed (a next step only fills in)…
    changed = post(client, RESULTS, {"entry": 1, "cells": {"g2": "189"}}, secret, "c-1")
    assert (changed.status_code, set(changed.json()["fields"])) == (422, {"g2"})
    assert "correct it instead" in changed.json()["message"]
    # …a correction changes it, with a reason.
    bare = post(client, corrections, {"entry": 1, "cells": {"g2": "189"}}, secret, "c1")
    assert (bare.status_code, set(bare.json()["fields"])) == (422, {"reason"})
    fixed = post(
        client, corrections, {"entry": 1, "cells": {"g2": "189"}, "reason": "lane 3 misread"},
        secret, "c2",
    )  # fmt: skip
    assert fixed.status_code == 201
    assert fixed.json()["kind"] == "correction"
    assert fixed.json()["cells"]["g2"] == "189"
    assert fixed.json()["detail"]["rolls"] == {"g1": "X X X 7 2 8 / F 9 X 7 / 9 - X X 8"}
    assert Result.objects.count() == 2


def test_a_one_tap_finish_reads_the_time_off_the_clock(
    cz: dict[str, Any], add_entry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.utils import timezone

    from podium.web.results.services.clock import round_start

    tap = timezone.now()
    started = tap - dt.timedelta(hours=1, minutes=2, seconds=3.2)
    round_start(event=cz["event"], stage=QUALI, group="A", by=cz["organizer"], now=started)
    add_entry(cz["event"], 6, "Filip Rychlý", group="A")
    monkeypatch.setattr(timezone, "now", lambda: tap)
    url = f"/api/events/cz-jigsaw/stages/{QUALI}/rounds/1/finishes"
    done = post(Client(), url, {"entry": 6}, cz["secret"], "tap-6")
    assert done.status_code == 201, done.json()
    assert done.json()["cells"]["time"] == "1:02:03"
    assert done.json()["detail"]["finish"] == "tap"
    again = post(Client(), url, {"entry": 6}, cz["secret"], "tap-6")
    assert (again.status_code, again.json()["id"]) == (200, done.json()["id"])
    late = post(Client(), url, {"entry": 2}, cz["secret"], "tap-2")  # group B never started
    assert late.status_code == 422
    assert "#2" in late.json()["message"]


@pytest.fixture
def league(make_event: Any, staff: Any, add_entry: Any) -> dict[str, Any]:
    event = make_event("deti-kolomny", status=Event.Status.CLOSED)
    people = staff(event, organizer="oleg", referee="roman")
    for number, name in ((1, "Sokol"), (2, "Volna"), (3, "Kometa")):
        add_entry(event, number, name, "RU")
    _token, secret = token_create(
        event=event, name="Brainball desk", user=people["referee"], by=people["organizer"]
    )
    return {"event": event, "secret": secret}


def test_brainball_battles_are_recorded_and_corrected(league: dict[str, Any]) -> None:
    client, secret = Client(), league["secret"]
    base = "/api/events/deti-kolomny/stages/brainball/rounds/1"

    def battle(team1: int, team2: int, score1: Any, score2: Any, key: str) -> Any:
        body = {"round": 1, "team1": team1, "team2": team2, "score1": score1, "score2": score2}
        return post(client, f"{base}/battles", body, secret, key)

    first = battle(1, 2, 4, 2, "b1")
    assert first.status_code == 201, first.json()
    assert (first.json()["item"], first.json()["cells"]) == (
        "b1-1-2", {"round": "1", "team1": "1", "team2": "2", "score1": "4", "score2": "2"},
    )  # fmt: skip
    assert battle(2, 3, "3", "3", "b2").status_code == 201
    twice = battle(2, 1, 1, 1, "b3")
    assert (twice.status_code, set(twice.json()["fields"])) == (422, {"team2"})
    too_many = battle(1, 3, 7, 0, "b4")
    assert too_many.status_code == 422
    assert too_many.json()["code"] == "refused"
    stranger = battle(1, 9, 1, 0, "b5")
    assert (stranger.status_code, set(stranger.json()["fields"])) == (422, {"team2"})
    assert Result.objects.filter(event=league["event"]).count() == 2

    def order() -> list[tuple[str, float]]:
        table = client.get(f"{base}/standings", **bearer(secret)).json()
        # DESIGN §3: a league row stands on its match points (2 a win, 1 a draw).
        return [(r["name"], r["points"]) for r in table["tables"][0]["rows"]]

    assert order() == [("Sokol", 2), ("Kometa", 1), ("Volna", 1)]
    fixed = post(
        client, f"{base}/corrections",
        {"item": "b1-1-2", "cells": {"score1": "2", "score2": "4"}, "reason": "scores swapped"},
        secret, "b6",
    )  # fmt: skip
    assert fixed.status_code == 201, fixed.json()
    assert order() == [("Volna", 3), ("Kometa", 1), ("Sokol", 0)]


def test_tokens_revoked_of_another_event_or_missing(
    lanes: dict[str, Any], cz: dict[str, Any]
) -> None:
    client = Client()
    body = {"entry": 1, "cells": {"g1": "200"}}
    missing = client.post(RESULTS, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k")
    assert (missing.status_code, missing.json()["code"]) == (401, "unauthorized")
    assert missing["WWW-Authenticate"].startswith("Bearer")
    wrong = post(client, RESULTS, body, "podium_not-a-token", "k")
    assert (wrong.status_code, wrong.json()["code"]) == (401, "token-unknown")
    other = post(client, RESULTS, body, cz["secret"], "k")  # a cz-jigsaw token
    assert (other.status_code, other.json()["code"]) == (403, "wrong-event")
    cz["event"].status = Event.Status.DRAFT
    cz["event"].save()
    # a draft event: only its own token sees it, anyone else (another event's token too) gets 404
    listed = client.get("/api/events", **bearer(cz["secret"])).json()["items"]
    assert [e["slug"] for e in listed] == ["cba-qualifier", "cz-jigsaw"]
    assert [e["slug"] for e in client.get("/api/events").json()["items"]] == ["cba-qualifier"]
    assert client.get("/api/events/cz-jigsaw", **bearer(lanes["secret"])).status_code == 404
    draft = "/api/events/cz-jigsaw/stages/individual-qualification/rounds/1/results"
    lanes_secret = lanes["secret"]
    assert post(client, draft, {"entry": 1, "cells": {}}, lanes_secret, "k").status_code == 404
    token_revoke(token=lanes["token"], by=lanes["organizer"])
    revoked = post(client, RESULTS, body, lanes_secret, "k")
    assert (revoked.status_code, revoked.json()["code"]) == (401, "token-revoked")
    # a revoked token reads nothing either, not even what is public
    assert client.get("/api/events", **bearer(lanes_secret)).status_code == 401
    assert Result.objects.filter(event=lanes["event"]).count() == 0


def test_a_token_notes_when_it_was_last_used(lanes: dict[str, Any]) -> None:
    assert lanes["token"].last_used_at is None
    Client().get("/api/events", **bearer(lanes["secret"]))
    assert ApiToken.objects.get(pk=lanes["token"].pk).last_used_at is not None


def test_anonymous_use_is_limited_per_minute_and_tokens_are_not(
    lanes: dict[str, Any], settings: Any
) -> None:
    settings.PODIUM_API_ANONYMOUS_PER_MINUTE = 3
    client = Client()
    for _ in range(3):
        assert client.get("/api/events").status_code == 200
    limited = client.get("/api/events/cba-qualifier")
    assert limited.status_code == 429
    assert limited.json()["code"] == "rate-limited"
    assert 1 <= int(limited["Retry-After"]) <= 60
    # another address has its own count; a token holder is counted apart
    assert client.get("/api/events", REMOTE_ADDR="192.0.2.7").status_code == 200
    for _ in range(5):
        assert client.get("/api/events", **bearer(lanes["secret"])).status_code == 200


def test_the_docs_page_loads_nothing_from_elsewhere(db: None) -> None:
    page = Client().get("/api/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "/api/events/{slug}/stages/{stage}/rounds/{round}/standings" in html
    assert "cdn" not in html.lower()
    assert '<script src="http' not in html
    schema = Client().get("/api/openapi.json").json()
    assert schema["paths"]["/api/events"]["get"]["security"] == [{"BearerToken": []}, {}]
