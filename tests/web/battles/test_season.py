"""The prize play-offs of a ChGK season (п. 12, deti-kolomny), recorded through the services.

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

from decimal import Decimal
from typing import Any

import pytest
from tests.web.battles.season_scenario import (
    places,
    playoffs,
    record,
    settled_then_untied,
    table,
    texts,
)

from podium.web.battles.selectors.season import playoff_groups, season_stage
from podium.web.battles.services.extra_questions import playoff_next, playoff_question
from podium.web.battles.services.playoffs import playoff_annul, playoff_correct, playoff_record
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Result
from podium.web.results.services.results import result_correct

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
