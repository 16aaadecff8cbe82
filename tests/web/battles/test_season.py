"""The ChGK season's organizer page: the Brainball battle schedule, the prize play-offs (п. 12)
and the superfinal's state (deti-kolomny).

Schedule, hand-worked: 10 teams play a round-robin twice: 10 × 9 / 2 = 45 pairs per round, 90
battles; 9 matchdays per round, each of 5 battles, two at a time on two stages → time slots of
2, 2 and 1 battles. Every team plays 18 battles, 9 per round, and at most 2 more on one stage
than on the other.

Season, hand-worked (points 12, 10, 8, 7, 6 for places 1–5; questions taken of 15):
- Tour 1: Alfa 12, Beta 10, Gamma 9, Delta 7, Epsilon 5 → 12, 10, 8, 7, 6.
- Tour 2: Beta 12, Gamma 11, Alfa 9, Epsilon 7, Delta 6 → Beta 12, Gamma 10, Alfa 8,
  Epsilon 7, Delta 6.
- Tour 3: Gamma 13, Alfa 11, Beta 10, Delta 8, Epsilon 4 → Gamma 12, Alfa 10, Beta 8, Delta 7,
  Epsilon 6.
- Season: Alfa 12 + 8 + 10 = 30, Beta 10 + 12 + 8 = 30, Gamma 8 + 10 + 12 = 30 — tied on
  points for places 1–3, the prize places: a play-off (their questions, 32, 32 and 33, do not
  count there); Delta 7 + 6 + 7 = 20 (4th), Epsilon 6 + 7 + 6 = 19 (5th).
- Play-off A: the match Alfa 3, Beta 5, Gamma 4 → Beta 1st, Gamma 2nd, Alfa 3rd.
- Play-off B: the match Alfa 2, Beta 4, Gamma 4 → Alfa 3rd; Beta and Gamma still tied for 1st–2nd.
  Extra question 1: both take it (still tied); extra question 2: Gamma takes it, Beta does not →
  Gamma 1st ("4 1 1"), Beta 2nd ("4 1 0").
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.battles.selectors.season import playoff_groups, season_stage
from podium.web.battles.services.extra_questions import playoff_next, playoff_question
from podium.web.battles.services.playoffs import playoff_annul, playoff_correct, playoff_record
from podium.web.battles.services.schedule import schedule_make
from podium.web.chgk.services.rounds import round_add
from podium.web.draws.services import draw_rerun
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Draw, Entry, Result
from podium.web.results.selectors.rows import battle_item, standings_as_of
from podium.web.results.services.results import result_correct, result_record

MSK = dt.timezone(dt.timedelta(hours=3))
NAMES = ["Alfa", "Beta", "Gamma", "Delta", "Epsilon"]
TOURS = {
    1: {"Alfa": 12, "Beta": 10, "Gamma": 9, "Delta": 7, "Epsilon": 5},
    2: {"Beta": 12, "Gamma": 11, "Alfa": 9, "Epsilon": 7, "Delta": 6},
    3: {"Gamma": 13, "Alfa": 11, "Beta": 10, "Delta": 8, "Epsilon": 4},
}


@pytest.fixture
def people(make_event: Any, staff: Any) -> dict[str, Any]:
    event = make_event(
        "deti-kolomny", starts_at=dt.datetime(2026, 1, 10, 16, 0, tzinfo=dt.UTC),
        timezone="Europe/Moscow",
    )  # fmt: skip
    return {"event": event, **staff(event, organizer="olga", head="hana", referee="rita")}


def tour_start(n: int) -> dt.datetime:
    return dt.datetime(2026, 1, 10, 19, 0, tzinfo=MSK) + dt.timedelta(days=14 * (n - 1))


@pytest.fixture
def season(people: dict[str, Any], add_entry: Any) -> dict[str, Any]:
    event = people["event"]
    teams = {
        name: add_entry(event, n, name, "RU", category="teams")
        for n, name in enumerate(NAMES, start=1)
    }
    for tour, taken in TOURS.items():
        round_add(
            event=event, stage="chgk-tour", starts_at=tour_start(tour), by=people["organizer"]
        )
        for name, questions in taken.items():
            result_record(
                event=event, stage="chgk-tour", round=tour, entry=teams[name],
                cells={"questions": str(questions)}, by=people["referee"],
                idempotency_key=f"t{tour}-{name}", now=tour_start(tour) + dt.timedelta(hours=2),
            )  # fmt: skip
    return {**people, "teams": teams}


def table(event: Any) -> dict[str, Any]:
    [rows] = standings_as_of(event, "chgk-season").tables
    return {row.entry.name: row for row in rows.rows}


def places(event: Any) -> list[tuple[str, int, int, bool]]:
    return [(n, r.rank, r.rank_to, r.playoff) for n, r in table(event).items()]


def texts(row: Any) -> list[str]:
    return [r.text for r in row.reasons]


def playoffs() -> int:
    return Result.objects.filter(stage="chgk-season").count()


def record(s: dict[str, Any], name: str, playoff: Any, key: str | None = None) -> Result:
    return playoff_record(
        event=s["event"], entry=s["teams"][name], playoff=playoff, by=s["organizer"],
        idempotency_key=key or f"m-{name}",
    )  # fmt: skip


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


# --- play-offs --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_three_way_tie_on_a_prize_place_is_pending_until_the_match_settles_it(
    season: dict[str, Any],
) -> None:
    event = season["event"]
    got = {n: r.entry.metrics["points"] for n, r in table(event).items()}
    assert got == {
        "Alfa": Decimal("30.000"), "Beta": Decimal("30.000"), "Gamma": Decimal("30.000"),
        "Delta": Decimal("20.000"), "Epsilon": Decimal("19.000"),
    }  # fmt: skip
    assert places(event) == [
        ("Alfa", 1, 3, True), ("Beta", 1, 3, True), ("Gamma", 1, 3, True),
        ("Delta", 4, 4, False), ("Epsilon", 5, 5, False),
    ]  # fmt: skip
    assert any(
        "to be settled by an extra match of 6 questions" in t for t in texts(table(event)["Beta"])
    )
    [group] = playoff_groups(event, season_stage(event)).groups  # type: ignore[arg-type]
    assert (group.first, group.last, group.state) == (1, 3, "match")

    record(season, "Alfa", "3")
    record(season, "Beta", 5)
    assert places(event)[:3] == [("Alfa", 1, 3, True), ("Beta", 1, 3, True), ("Gamma", 1, 3, True)]
    record(season, "Gamma", "4")
    assert places(event) == [
        ("Beta", 1, 1, False), ("Gamma", 2, 2, False), ("Alfa", 3, 3, False),
        ("Delta", 4, 4, False), ("Epsilon", 5, 5, False),
    ]  # fmt: skip
    rows = table(event)
    assert "Play-off: 4 in the match — place 2" in texts(rows["Gamma"])
    assert "Play-off: 5 in the match — place 1" in texts(rows["Beta"])
    assert "Play-off: 3 in the match — place 3" in texts(rows["Alfa"])
    [group] = playoff_groups(event, season_stage(event)).groups  # type: ignore[arg-type]
    assert group.state == "settled"
    stored = Result.objects.filter(stage="chgk-season").order_by("id")
    assert [(r.entry.name, r.round, r.kind, r.cells) for r in stored] == [
        ("Alfa", 1, "record", {"playoff": "3"}),
        ("Beta", 1, "record", {"playoff": "5"}),
        ("Gamma", 1, "record", {"playoff": "4"}),
    ]
    assert AuditEntry.objects.filter(action="playoff.record").count() == 3


@pytest.mark.django_db
def test_still_tied_after_the_match_single_extra_questions_until_one_takes_it(
    season: dict[str, Any],
) -> None:
    event, teams, org = season["event"], season["teams"], season["organizer"]
    record(season, "Alfa", "2")
    beta = record(season, "Beta", "4")
    gamma = record(season, "Gamma", "4")
    assert places(event)[:3] == [("Beta", 1, 2, True), ("Gamma", 1, 2, True), ("Alfa", 3, 3, False)]
    assert "Play-off: 4 in the match; still tied for places 1st–2nd" in texts(table(event)["Beta"])
    [group] = playoff_groups(event, season_stage(event)).groups  # type: ignore[arg-type]
    [still] = group.still
    assert (group.state, still.first, still.last, still.question) == ("extra", 1, 2, 1)

    # Extra question 1, one team at a time: Beta's answer waits for Gamma's, then both count.
    waiting = playoff_next(result=beta, taken=True, by=org, idempotency_key="x1-beta")
    assert waiting.cells == {"playoff": "4", "next": "1"}
    assert places(event)[:2] == [("Beta", 1, 2, True), ("Gamma", 1, 2, True)]
    with pytest.raises(Refused, match="#2 Beta has already answered extra question 1; it waits "
                                      "for #3 Gamma"):  # fmt: skip
        playoff_next(result=waiting, taken=False, by=org, idempotency_key="x1-beta-again")
    playoff_next(result=gamma, taken=True, by=org, idempotency_key="x1-gamma")
    assert places(event)[:2] == [("Beta", 1, 2, True), ("Gamma", 1, 2, True)]
    assert "Play-off: 4 in the match, then 1; still tied for places 1st–2nd" in texts(
        table(event)["Gamma"]
    )
    # Extra question 2, both at once (the page's form): Gamma takes it, Beta does not.
    made = playoff_question(
        event=event, answers={teams["Beta"]: False, teams["Gamma"]: True}, by=org,
        idempotency_key="x2",
    )  # fmt: skip
    assert [(r.entry.name, r.kind, r.cells) for r in made] == [
        ("Beta", "progress", {"playoff": "4 1 0"}),
        ("Gamma", "progress", {"playoff": "4 1 1"}),
    ]
    assert places(event)[:3] == [
        ("Gamma", 1, 1, False), ("Beta", 2, 2, False), ("Alfa", 3, 3, False),
    ]  # fmt: skip
    rows = table(event)
    assert "Play-off: 4 in the match, then 1, 1 — place 1" in texts(rows["Gamma"])
    assert "Play-off: 4 in the match, then 1, 0 — place 2" in texts(rows["Beta"])
    assert "Play-off: 2 in the match — place 3" in texts(rows["Alfa"])
    # The chain of each team: the match, then each step replacing the one before.
    chain = Result.objects.filter(entry=teams["Beta"], stage="chgk-season").order_by("id")
    assert [(r.kind, r.cells, r.corrects_id) for r in chain] == [
        ("record", {"playoff": "4"}, None),
        ("progress", {"playoff": "4", "next": "1"}, chain[0].pk),
        ("progress", {"playoff": "4 1"}, chain[1].pk),
        ("progress", {"playoff": "4 1 0"}, chain[2].pk),
    ]
    with pytest.raises(Refused, match="no longer tied"):
        playoff_next(result=made[0], taken=True, by=org, idempotency_key="x3")


@pytest.mark.django_db
def test_a_mistyped_play_off_is_corrected_with_a_reason_and_the_places_follow(
    season: dict[str, Any],
) -> None:
    event, teams, org, head = season["event"], season["teams"], season["organizer"], season["head"]
    record(season, "Alfa", "3")
    beta = record(season, "Beta", "5")
    record(season, "Gamma", "4")
    assert [n for n, *_ in places(event)[:3]] == ["Beta", "Gamma", "Alfa"]
    before = playoffs()
    # Refused, nothing stored: no reason, the same value, a match of 7, and a team not tied.
    for playoff, reason, message in (
        ("2", "", "Say why the play-off is corrected."),
        ("5", "typo", "#2 Beta: the play-off is “5” already."),
        ("7", "typo", "#2 Beta: 7 questions taken in a match of 6 questions"),
        ("2 1", "typo", "#2 Beta has extra questions after the play-off had separated it"),
    ):
        with pytest.raises(Refused, match=message):
            playoff_correct(
                seen=beta, playoff=playoff, reason=reason, by=head, idempotency_key="c0"
            )
    assert playoffs() == before
    # Beta took 2, not 5: it drops to third; the old value stays in the chain.
    fixed = playoff_correct(
        seen=beta, playoff="2", reason="Sheet misread: 2, not 5", by=head, idempotency_key="c1"
    )
    assert (fixed.kind, fixed.cells, fixed.corrects_id, fixed.reason) == (
        "correction", {"playoff": "2"}, beta.pk, "Sheet misread: 2, not 5",
    )  # fmt: skip
    assert places(event)[:3] == [
        ("Gamma", 1, 1, False),
        ("Alfa", 2, 2, False),
        ("Beta", 3, 3, False),
    ]
    assert "Play-off: 2 in the match — place 3" in texts(table(event)["Beta"])
    # Sent again (a dropped connection): stored once.
    again = playoff_correct(
        seen=beta, playoff="2", reason="Sheet misread: 2, not 5", by=head, idempotency_key="c1"
    )
    assert again.pk == fixed.pk
    # A second head referee who still sees the old value is told, not overwritten.
    with pytest.raises(Refused, match="#2 Beta was changed meanwhile: its play-off is now “2”"):
        playoff_correct(seen=beta, playoff="3", reason="other", by=org, idempotency_key="c2")
    [entry] = AuditEntry.objects.filter(action="playoff.correct")
    assert entry.data["before"] == "5"
    assert entry.data["playoff"] == "2"
    assert teams["Beta"].pk == fixed.entry_id
    # A referee may not correct it.
    with pytest.raises(Refused, match="Only an organizer or a head referee"):
        playoff_correct(
            seen=fixed, playoff="1", reason="x", by=season["referee"], idempotency_key="c3"
        )


def settled_then_untied(s: dict[str, Any]) -> dict[str, Result]:
    """Play-off A recorded, then tour 1 corrected: Gamma took 11, not 9, so it is 2nd there (10
    points) and Beta 3rd (8); the season is Gamma 32, Alfa 30, Beta 28 — no tie any more."""
    made = {name: record(s, name, taken) for name, taken in (("Alfa", "3"), ("Beta", "5"),
                                                             ("Gamma", "4"))}  # fmt: skip
    [gamma_tour1] = Result.objects.filter(stage="chgk-tour", round=1, entry=s["teams"]["Gamma"])
    result_correct(
        result=gamma_tour1, cells={"questions": "11"}, by=s["head"], reason="Card misread",
        idempotency_key="t1-gamma-fix",
    )  # fmt: skip
    return made


@pytest.mark.django_db
def test_a_play_off_a_later_correction_made_moot_is_annulled_and_the_season_ranks_again(
    season: dict[str, Any],
) -> None:
    event, teams, org, head = season["event"], season["teams"], season["organizer"], season["head"]
    made = settled_then_untied(season)
    playoffs_now = playoff_groups(event, season_stage(event))  # type: ignore[arg-type]
    assert playoffs_now.problems == [
        f"{team} is not tied for a prize place: it has no play-off"
        for team in ("#1 Alfa", "#2 Beta", "#3 Gamma")
    ]
    assert [r.entry.name for r in playoffs_now.recorded] == ["Alfa", "Beta", "Gamma"]
    with pytest.raises(Refused, match="Say why the play-off no longer counts"):
        playoff_annul(seen=made["Alfa"], reason=" ", by=head, idempotency_key="a0")
    with pytest.raises(Refused, match="Only an organizer or a head referee"):
        playoff_annul(seen=made["Alfa"], reason="x", by=season["referee"], idempotency_key="a0")
    for name in ("Alfa", "Beta", "Gamma"):
        gone = playoff_annul(
            seen=made[name], reason="Tour 1 corrected: no tie", by=org, idempotency_key=f"a-{name}"
        )
        assert (gone.kind, gone.cells, gone.corrects_id) == ("correction", {"playoff": ""},
                                                              made[name].pk)  # fmt: skip
    with pytest.raises(Refused, match="#1 Alfa: its play-off is annulled already"):
        playoff_annul(seen=made["Alfa"], reason="again", by=org, idempotency_key="a-again")
    assert places(event)[:3] == [
        ("Gamma", 1, 1, False),
        ("Alfa", 2, 2, False),
        ("Beta", 3, 3, False),
    ]
    assert not any(t.startswith("Play-off") for t in texts(table(event)["Gamma"]))
    assert playoff_groups(event, season_stage(event)).groups == []  # type: ignore[arg-type]
    assert AuditEntry.objects.filter(action="playoff.annul").count() == 3
    # Tied again (the correction is undone): the new match continues each chain.
    fixed = Result.objects.get(stage="chgk-tour", round=1, entry=teams["Gamma"], kind="correction")
    result_correct(
        result=fixed, cells={"questions": "9"}, by=head, reason="The first reading was right",
        idempotency_key="t1-gamma-back",
    )  # fmt: skip
    assert places(event)[:3] == [("Alfa", 1, 3, True), ("Beta", 1, 3, True), ("Gamma", 1, 3, True)]
    again = record(season, "Alfa", "2", key="m-Alfa-2")
    assert (again.kind, again.corrects_id) == ("progress", Result.objects.get(
        stage="chgk-season", entry=teams["Alfa"], kind="correction").pk)  # fmt: skip


@pytest.mark.django_db
def test_bad_play_off_input_is_refused_with_nothing_stored(season: dict[str, Any]) -> None:
    event, teams, org = season["event"], season["teams"], season["organizer"]
    with pytest.raises(Refused, match="#4 Delta is not tied for a prize place: it has no play-off"):
        record(season, "Delta", "3")
    with pytest.raises(Refused, match="#1 Alfa: 7 questions taken in a match of 6 questions") as e:
        record(season, "Alfa", "7")
    assert e.value.clause
    assert "дополнительный матч из 6 вопросов" in e.value.clause
    with pytest.raises(Refused, match="Write the number of questions"):
        record(season, "Alfa", "four")
    with pytest.raises(Refused, match="Only an organizer or a head referee"):
        playoff_record(event=event, entry=teams["Alfa"], playoff="3", by=season["referee"],
                       idempotency_key="r")  # fmt: skip
    assert playoffs() == 0

    beta = record(season, "Beta", "4")
    gamma = record(season, "Gamma", "4")
    # An extra question before every tied team has played the match.
    with pytest.raises(Refused, match="not recorded yet: #1 Alfa"):
        playoff_next(result=beta, taken=True, by=org, idempotency_key="early")
    # Uneven: Alfa typed in with an extra question the others were not asked.
    with pytest.raises(Refused, match="#2 Beta and #1 Alfa are still tied, but #1 Alfa played "
                                      "more extra questions"):  # fmt: skip
        record(season, "Alfa", "4 1")
    with pytest.raises(Refused, match="its play-off match is recorded already"):
        record(season, "Beta", "4", key="again")
    assert playoffs() == 2
    record(season, "Alfa", "2")
    # An extra question for only one of the teams still tied.
    with pytest.raises(
        Refused, match="every team still tied for places 1–2: enter it for #3 Gamma"
    ):
        playoff_question(event=event, answers={teams["Beta"]: True}, by=org, idempotency_key="q")
    with pytest.raises(Refused, match="#1 Alfa is not still tied"):
        playoff_question(
            event=event, answers={teams["Beta"]: True, teams["Gamma"]: False, teams["Alfa"]: True},
            by=org, idempotency_key="q",
        )  # fmt: skip
    assert playoffs() == 3
    assert [r.cells for r in Result.objects.filter(stage="chgk-season").order_by("id")] == [
        {"playoff": "4"}, {"playoff": "4"}, {"playoff": "2"},
    ]  # fmt: skip
    assert gamma.kind == "record"


@pytest.mark.django_db
def test_a_resubmitted_play_off_is_stored_once(season: dict[str, Any]) -> None:
    event, teams, org = season["event"], season["teams"], season["organizer"]
    first = record(season, "Beta", "4", key="k-beta")
    assert record(season, "Beta", "4", key="k-beta") == first
    with pytest.raises(Refused, match="already used for a different result"):
        record(season, "Beta", "5", key="k-beta")
    record(season, "Gamma", "4")
    record(season, "Alfa", "1")
    answers = {teams["Beta"]: True, teams["Gamma"]: False}
    made = playoff_question(event=event, answers=answers, by=org, idempotency_key="k-x1")
    again = playoff_question(event=event, answers=answers, by=org, idempotency_key="k-x1")
    assert again == made
    with pytest.raises(Refused, match="already used for a different result"):
        playoff_question(
            event=event, answers={teams["Beta"]: False, teams["Gamma"]: False}, by=org,
            idempotency_key="k-x1",
        )  # fmt: skip
    assert playoffs() == 3 + 2
    assert places(event)[:3] == [
        ("Beta", 1, 1, False), ("Gamma", 2, 2, False), ("Alfa", 3, 3, False),
    ]  # fmt: skip


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
