"""The bowling desk through its views: a squad's lane sheet, game totals block by block,
corrections, and one game entered frame by frame (ČBA supplementary qualifier, ``cba-qualifier``).

Hand-worked case (master men, three blocks of two games each; the rulebook ranks by total, then
the higher high game, then the higher low game, § 9 a–b):

    #1 Adam    200 190 | 210 180 | 220 200   = 390 + 390 + 420 = 1200, high 220, low 180
    #2 Bohuš   230 170 | 200 200 | 200 200   = 400 + 400 + 400 = 1200, high 230, low 170
    #3 Cyril   230 175 | 195 200 | 200 200   = 405 + 395 + 400 = 1200, high 230, low 175

All three total 1200. Adam's high game (220) is lower than 230, so he is 3rd; Bohuš and Cyril
both have 230, and Cyril's low game (175) beats Bohuš's (170): Cyril 1st, Bohuš 2nd, Adam 3rd.
#4 David bowls in Standard men (180 170 | 160 190 | 175 165 = 1040): his own table. After block 1
alone the table is Cyril 405, Bohuš 400, Adam 390 ("after 2 of 6 games").

Frames: the World Bowling scoresheet (rule 2.1.2) ``X X X 7 2 (8)/ F9 X 7/ 9- XX8`` makes 30, 57,
76, 85, 95, 104, 124, 143, 152, 180; the Exercism canonical cases give their expected totals and
every invalid Exercism sequence is refused naming the roll, with nothing stored.

Lanes: four players on lane pairs 1–2 and 3–4 (two per pair). With two pairs the schedule moves
every player to the other pair in block 2 and back in block 3, keeping the side: a player
starting on the right lane of 1–2 (lane 2) starts block 2 on the right lane of 3–4 (lane 4).
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.draws.services import draw_make
from podium.web.models import Entry, Event, Result, Squad
from podium.web.results.selectors.rows import standings_as_of

DATA = Path(__file__).resolve().parents[2] / "data" / "bowling"
STAGE = "qualification"
SERIES = {
    1: ("Adam", [200, 190, 210, 180, 220, 200]),
    2: ("Bohuš", [230, 170, 200, 200, 200, 200]),
    3: ("Cyril", [230, 175, 195, 200, 200, 200]),
}


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def squad_event(make_user: Any, make_event: Any, add_entry: Any, staff: Any) -> dict[str, Any]:
    org = make_user("olga")
    event = make_event("cba-qualifier", organizer=org, status=Event.Status.CLOSED)
    users = staff(event, referee="rudolf", head="hana")
    squad = Squad.objects.create(event=event, name="Squad A", starts_at=event.starts_at, capacity=8)
    players = {
        n: add_entry(event, n, name, division="master-men", squad=squad)
        for n, (name, _games) in SERIES.items()
    }
    players[4] = add_entry(event, 4, "David", division="standard-men", squad=squad)
    return {"event": event, "org": org, "squad": squad, "players": players, **users}


def sheet_url(event: Event, squad: Squad) -> str:
    return reverse("bowling:lanes", kwargs={"slug": event.slug, "squad_id": squad.pk})


def block_url(event: Event, entry: Entry, number: int) -> str:
    return reverse(
        "bowling:block",
        kwargs={"slug": event.slug, "stage": STAGE, "entry_id": entry.pk, "number": number},
    )


def frames_url(event: Event, entry: Entry, game: int) -> str:
    return reverse(
        "bowling:frames",
        kwargs={"slug": event.slug, "stage": STAGE, "entry_id": entry.pk, "game": game},
    )


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{re.escape(name)}"(?: value="([^"]*)")?', html)
    assert found is not None, name
    return found.group(1) or ""


def post_block(client: Client, event: Event, squad: Squad, entry: Entry, games: list[int]) -> Any:
    """Fills the player's next-block form as the lane sheet renders it, and sends it."""
    html = client.get(sheet_url(event, squad)).content.decode()
    number = int(re.search(rf"/{entry.pk}/block/(\d+)/", html).group(1))  # type: ignore[union-attr]
    prefix = f"e{entry.pk}-"
    data = {
        prefix + "idempotency_key": hidden(html, prefix + "idempotency_key"),
        prefix + "result": hidden(html, prefix + "result"),
    }
    first = 2 * (number - 1) + 1
    for offset, game in enumerate(games):
        data[f"{prefix}g{first + offset}"] = str(game)
    return client.post(block_url(event, entry, number), data)


def post_frames(client: Client, url: str, rolls: str, action: str = "save", **extra: str) -> Any:
    """Types the rolls into the frames page as it renders (its hidden fields), and sends it."""
    page = client.get(url).content.decode()
    data = {"idempotency_key": hidden(page, "idempotency_key"), "result": hidden(page, "result"),
            "rolls": rolls, "action": action, **extra}  # fmt: skip
    return client.post(url, data)


def current(entry: Entry) -> Result:
    chain = Result.objects.filter(entry=entry).order_by("id")
    replaced = {r.corrects_id for r in chain}
    return next(r for r in chain if r.pk not in replaced)


def table(event: Event, key: str) -> list[tuple[str, int, str]]:
    standings = standings_as_of(event, STAGE)
    rows = next(t for t in standings.tables if t.key == key).rows
    return [(r.entry.name, r.rank, r.entry.score_text) for r in rows]


# --- game totals block by block -------------------------------------------------------------


def test_three_blocks_one_after_another_give_the_total_and_the_division_order(
    squad_event: dict[str, Any],
) -> None:
    event, squad, players = squad_event["event"], squad_event["squad"], squad_event["players"]
    client = client_for(squad_event["referee"])
    for block in range(3):
        for number, (_name, games) in SERIES.items():
            response = post_block(
                client, event, squad, players[number], games[2 * block : 2 * block + 2]
            )
            assert response.status_code == 302, response.content.decode()
        if block == 0:
            assert table(event, "master-men") == [
                ("Cyril", 1, "405 (230 high) after 2 of 6 games"),
                ("Bohuš", 2, "400 (230 high) after 2 of 6 games"),
                ("Adam", 3, "390 (200 high) after 2 of 6 games"),
            ]
    david = post_block(client, event, squad, players[4], [180, 170])
    assert david.status_code == 302

    for number, (_name, games) in SERIES.items():
        chain = list(Result.objects.filter(entry=players[number]).order_by("id"))
        assert [r.kind for r in chain] == ["record", "progress", "progress"]
        assert chain[-1].cells == {f"g{i}": str(g) for i, g in enumerate(games, 1)}

    assert table(event, "master-men") == [
        ("Cyril", 1, "1200 (230 high)"),
        ("Bohuš", 2, "1200 (230 high)"),
        ("Adam", 3, "1200 (220 high)"),
    ]
    rows = next(t for t in standings_as_of(event, STAGE).tables if t.key == "master-men").rows
    why = [row.reasons[0].text for row in rows]
    assert why == [
        "First: total pinfall 1200, highest game 230, lowest game 175",
        "Below Cyril on lowest game: 170 against 175",
        "Below Bohuš on highest game: 220 against 230",
    ]
    assert rows[1].reasons[0].clause == "§ 9 b) vyšší nejnižší dosažený nához"
    assert rows[2].reasons[0].clause == "§ 9 a) vyšší dosažený nához"
    assert table(event, "standard-men") == [("David", 1, "350 (180 high) after 2 of 6 games")]

    html = client.get(sheet_url(event, squad)).content.decode()
    card = html[html.index('id="player-1"') : html.index('id="player-2"')]
    assert [int(v) for v in re.findall(r'data-game="\d">(\d*)<', card)] == SERIES[1][1]
    assert '<td class="total">1200</td>' in card
    assert "not verified" in card
    assert "All games are recorded." in card


def test_a_block_sent_twice_is_recorded_once_and_a_game_over_300_is_refused(
    squad_event: dict[str, Any],
) -> None:
    event, squad, players = squad_event["event"], squad_event["squad"], squad_event["players"]
    client = client_for(squad_event["referee"])
    adam = players[1]
    html = client.get(sheet_url(event, squad)).content.decode()
    data = {
        f"e{adam.pk}-idempotency_key": hidden(html, f"e{adam.pk}-idempotency_key"),
        f"e{adam.pk}-g1": "200",
        f"e{adam.pk}-g2": "190",
    }
    assert client.post(block_url(event, adam, 1), data).status_code == 302
    assert client.post(block_url(event, adam, 1), data).status_code == 302  # a dropped reply
    assert Result.objects.filter(entry=adam).count() == 1

    bad = post_block(client, event, squad, adam, [301, 180])
    assert bad.status_code == 400
    assert "column g3: 301 is more than the 300 this allows" in bad.content.decode()
    negative = post_block(client, event, squad, adam, [-5, 180])
    assert "column g3: -5 is negative: a game score cannot be below 0" in negative.content.decode()
    assert Result.objects.filter(entry=adam).count() == 1
    # a later block before the first one is a gap in the series
    cyril = players[3]
    gap = client.post(
        block_url(event, cyril, 2),
        {f"e{cyril.pk}-idempotency_key": uuid.uuid4().hex, f"e{cyril.pk}-g3": "200",
         f"e{cyril.pk}-g4": "200"},
    )  # fmt: skip
    assert gap.status_code == 400
    assert "column g1: every game needs its score" in gap.content.decode()
    assert not Result.objects.filter(entry=cyril).exists()


def test_a_correction_needs_a_reason_and_keeps_the_rolls_of_unchanged_games(
    squad_event: dict[str, Any],
) -> None:
    event, squad, players = squad_event["event"], squad_event["squad"], squad_event["players"]
    client = client_for(squad_event["referee"])
    adam = players[1]
    saved = post_frames(client, frames_url(event, adam, 1), "X X X X X X X X X X X X")
    assert saved.status_code == 302
    assert post_block(client, event, squad, adam, [300, 150]).status_code == 302  # g2
    seen = current(adam)
    assert seen.cells["g1"] == "300"
    assert seen.detail == {"rolls": {"g1": "X " * 11 + "X"}}
    url = reverse("bowling:correct", kwargs={"slug": event.slug, "stage": STAGE,
                                             "entry_id": adam.pk})  # fmt: skip
    data = {f"c{adam.pk}-idempotency_key": uuid.uuid4().hex, f"c{adam.pk}-result": seen.pk,
            f"c{adam.pk}-g1": "300", f"c{adam.pk}-g2": "160"}  # fmt: skip
    no_reason = client.post(url, data)
    assert no_reason.status_code == 400
    assert "A correction needs a reason." in no_reason.content.decode()
    assert Result.objects.filter(entry=adam).count() == 2
    data[f"c{adam.pk}-reason"] = "Lane 3 scorer showed 160"
    assert client.post(url, data).status_code == 302
    fixed = current(adam)
    assert (fixed.kind, fixed.cells["g2"], fixed.reason) == (
        "correction", "160", "Lane 3 scorer showed 160",
    )  # fmt: skip
    assert fixed.detail["rolls"] == {"g1": "X X X X X X X X X X X X"}


# --- frame by frame -------------------------------------------------------------------------


def running_totals(html: str) -> list[int]:
    return [int(t) for t in re.findall(r'<div class="running">(\d+)</div>', html)]


def test_the_world_bowling_scoresheet_through_the_frames_page(
    squad_event: dict[str, Any],
) -> None:
    sheet = json.loads((DATA / "worldbowling-scoresheet.json").read_text())
    event, players = squad_event["event"], squad_event["players"]
    client = client_for(squad_event["referee"])
    bohus = players[2]
    url = frames_url(event, bohus, 1)
    page = client.get(url).content.decode()
    key = hidden(page, "idempotency_key")
    check = client.post(url, {"idempotency_key": key, "rolls": sheet["scoresheet_marks"],
                              "action": "check"})  # fmt: skip
    assert check.status_code == 200
    assert running_totals(check.content.decode()) == sheet["cumulative_frame_scores"]
    assert not Result.objects.exists()  # checking stores nothing
    saved = client.post(url, {"idempotency_key": key, "rolls": sheet["scoresheet_marks"],
                              "action": "save"})  # fmt: skip
    assert saved.status_code == 302
    result = Result.objects.get()
    assert result.cells["g1"] == "180" == str(sheet["cumulative_frame_scores"][-1])
    assert result.detail == {"rolls": {"g1": "X X X 7 2 8 / F 9 X 7 / 9 - X X 8"}}
    again = client.get(url).content.decode()  # the stored rolls come back with their frames
    assert running_totals(again) == sheet["cumulative_frame_scores"]
    assert "Game 1 is recorded as 180." in again


def test_a_frame_typed_as_a_miss_then_pins_is_accepted(squad_event: dict[str, Any]) -> None:
    """The scoresheet writes a frame that starts with a miss as "-8": 0 then 8, never -8."""
    event, players = squad_event["event"], squad_event["players"]
    client = client_for(squad_event["referee"])
    saved = post_frames(client, frames_url(event, players[1], 1), "-8 9/ X " + "-8 " * 7)
    assert saved.status_code == 302
    result = Result.objects.get()
    # -8 = 8; 9/ + X = 20; X + 0 + 8 = 18; then seven frames of 8.
    assert result.cells["g1"] == str(8 + 20 + 18 + 7 * 8) == "102"
    assert result.detail == {"rolls": {"g1": "- 8 9 / X" + " - 8" * 7}}


VALID = [
    "consecutive strikes each get the two roll bonus",
    "a spare in the last frame gets a one roll bonus that is counted once",
    "a strike in the last frame gets a two roll bonus that is counted once",
    "two bonus rolls after a strike in the last frame can score more than 10 points if one is a "
    "strike",
    "last two strikes followed by only last bonus with non strike points",
    "all strikes is a perfect game",
]


def exercism() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((DATA / "exercism-canonical-data.json").read_text())[
        "cases"
    ]
    return cases


def test_exercism_games_entered_frame_by_frame_give_the_expected_totals(
    squad_event: dict[str, Any],
) -> None:
    event, players = squad_event["event"], squad_event["players"]
    client = client_for(squad_event["referee"])
    david = players[4]
    cases = {c["description"]: c for c in exercism()}
    expected = []
    for game, description in enumerate(VALID, start=1):
        case = cases[description]
        rolls = " ".join(str(p) for p in case["input"]["previousRolls"])
        response = post_frames(client, frames_url(event, david, game), rolls)
        assert response.status_code == 302, (description, response.content.decode())
        expected.append(case["expected"])
        assert current(david).cells[f"g{game}"] == str(case["expected"])
    assert expected == [81, 17, 18, 26, 31, 300]
    result = current(david)
    assert [r.kind for r in Result.objects.filter(entry=david).order_by("id")] == [
        "record", "progress", "progress", "progress", "progress", "progress",
    ]  # fmt: skip
    assert len(result.detail["rolls"]) == 6
    assert table(event, "standard-men") == [("David", 1, "473 (300 high)")]


def test_invalid_exercism_sequences_are_refused_naming_the_roll_and_nothing_is_stored(
    squad_event: dict[str, Any],
) -> None:
    event, players = squad_event["event"], squad_event["players"]
    client = client_for(squad_event["referee"])
    adam = players[1]
    refused = [c for c in exercism() if isinstance(c["expected"], dict)]
    assert len(refused) == 15
    for case in refused:
        given = case["input"]
        rolls = given["previousRolls"] + ([given["roll"]] if "roll" in given else [])
        response = post_frames(client, frames_url(event, adam, 1), " ".join(map(str, rolls)))
        assert response.status_code == 400, case["description"]
        html = response.content.decode()
        errors = re.search(r'<ul class="errorlist"[^>]*>(.*?)</ul>', html, re.S)
        assert errors is not None, case["description"]
        message = errors.group(1)
        if rolls == [-1]:
            # Typed, "-1" is the scoresheet's miss then 1 (like "-8"): still refused, as a game
            # of one frame; a roll below 0 cannot be typed at all.
            assert "roll 3: the game is not finished" in message, message
        elif "roll" in given:  # the roll the exercise adds is the one refused
            assert f"roll {len(rolls)}: " in message, (case["description"], message)
        else:
            assert "the game is not finished" in message, (case["description"], message)
    assert not Result.objects.exists()
    # one refusal word for word, as the referee reads it
    five_six = post_frames(client, frames_url(event, adam, 1), "X 7 5", "check")
    assert "roll 3: two rolls in a frame cannot score more than 10 pins (7 + 5)" in (
        five_six.content.decode()
    )


def test_saving_a_game_that_has_a_total_is_a_correction_with_a_reason(
    squad_event: dict[str, Any],
) -> None:
    event, squad, players = squad_event["event"], squad_event["squad"], squad_event["players"]
    client = client_for(squad_event["referee"])
    cyril = players[3]
    assert post_block(client, event, squad, cyril, [230, 175]).status_code == 302
    url = frames_url(event, cyril, 2)
    page = client.get(url).content.decode()
    assert "Reason for the correction" in page
    data = {"idempotency_key": hidden(page, "idempotency_key"), "result": hidden(page, "result"),
            "rolls": "9 / X X X X X X X X X 8 1", "action": "save"}  # fmt: skip
    assert "The game has a total already" in page
    without = client.post(url, data)
    assert without.status_code == 400
    assert "A correction needs a reason." in without.content.decode()
    data["reason"] = "Frames re-entered from the lane's scoresheet"
    assert client.post(url, data).status_code == 302
    fixed = current(cyril)
    # 9/ then eight strikes, then X 8 1 in frame 10: 20, 50, 80, 110, 140, 170, 200, 230, 258, 277
    assert fixed.kind == "correction"
    assert fixed.cells["g2"] == "277"
    assert fixed.detail["rolls"] == {"g2": "9 / X X X X X X X X X 8 1"}


# --- the lane sheet -------------------------------------------------------------------------


def test_the_lane_sheet_shows_each_players_lanes_per_block_from_the_draw(
    squad_event: dict[str, Any],
) -> None:
    event, squad, players = squad_event["event"], squad_event["squad"], squad_event["players"]
    draw = draw_make(
        event=event, kind="lanes", stage=STAGE, seed="squad-a-2012", by=squad_event["org"],
        squad=squad, lane_pairs=[(1, 2), (3, 4)], per_pair=2,
    )  # fmt: skip
    seats = {s[0]: (s[1], s[2]) for s in draw.result["outcome"]["seats"]}
    assert sorted(seats) == sorted(p.pk for p in players.values())
    client = client_for(squad_event["referee"])
    response = client.get(sheet_url(event, squad))
    assert response.status_code == 200
    html = response.content.decode()
    assert "@media print" in html
    assert "squad-a-2012" in html
    pairs = {0: (1, 2), 1: (3, 4)}
    for player in players.values():
        pair, side = seats[player.pk]
        card = html[html.index(f'id="player-{player.number}"') :]
        card = card[: card.index("</article>")]
        places = re.findall(
            r'data-block="(\d)">Block \d: lanes (\d)–(\d), starts on lane (\d)', card
        )
        other = 1 - pair
        expect = []
        for block, on in ((1, pair), (2, other), (3, pair)):
            left, right = pairs[on]
            start = left if side == "left" else right
            expect.append((str(block), str(left), str(right), str(start)))
        assert places == expect, (player.name, side)
    # the block tables of the American system: two players per pair in every block
    assert html.count('<table class="lanes"') == 3
    assert "Block 2 (games 3, 4)" in html

    # the frames page shows the lane of every frame (the American system)
    right_starter = next(p for p in players.values() if seats[p.pk] == (0, "right"))
    page = client.get(frames_url(event, right_starter, 3)).content.decode()  # block 2: 3–4
    lanes = re.findall(r'<span class="lane">lane (\d)</span>', page)
    assert lanes == ["4", "3"] * 5


def test_the_desk_is_for_the_events_staff_only(squad_event: dict[str, Any], make_user: Any) -> None:
    event, squad, players = squad_event["event"], squad_event["squad"], squad_event["players"]
    stranger = client_for(make_user("someone"))
    for url in (
        reverse("bowling:index", kwargs={"slug": event.slug}),
        sheet_url(event, squad),
        frames_url(event, players[1], 1),
    ):
        assert stranger.get(url).status_code == 404
        assert Client().get(url).status_code == 302  # to the login page
        assert client_for(squad_event["head"]).get(url).status_code == 200
    posted = stranger.post(block_url(event, players[1], 1), {"e1-g1": "200"})
    assert posted.status_code == 404
    assert not Result.objects.exists()
