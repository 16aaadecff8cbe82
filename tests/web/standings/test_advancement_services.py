"""Advancing from a final table into the next stage, and the season winners into the superfinal.

Hand-worked (cz-jigsaw individual qualification; per group the 50 fastest Czechs and the 5
fastest foreigners; a tie across the cut sends everyone tied through):
- Group A: 52 Czechs finishing at 1:00:01, 1:00:02, … except that the 50th and 51st share
  1:00:50, and 7 foreigners → Czechs 1–51 advance (the 50th place is shared), the 52nd does
  not; foreigners 1–5 advance. Group B: 3 Czechs and 1 foreigner → all advance.
- So the final's entry list holds 51 + 5 + 3 + 1 = 60 entries, each with its reason.
- deti-kolomny: Сова wins the ChGK season, Ять the Brainball league → both meet in the
  superfinal; a season where one team wins both needs no superfinal.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from podium.web.chgk.services.rounds import round_add
from podium.web.kernel.refusals import Refused
from podium.web.kernel.stages import stage_entries
from podium.web.models import Advancement, Result, Verification
from podium.web.results.selectors.rows import battle_item
from podium.web.results.services.checks import result_confirm, second_entry_record
from podium.web.results.services.results import result_record
from podium.web.standings.services.advancement import advance_from, superfinal_winners
from podium.web.standings.services.publication import publication_set

QUALI, FINAL = "individual-qualification", "individual-final"


def clock(seconds: int) -> str:
    return f"1:00:{seconds:02d}" if seconds < 60 else f"1:01:{seconds - 60:02d}"


@pytest.fixture
def qualified(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cz-jigsaw")
    people = staff(event, organizer="olga", head="renata", referee="rudolf")
    number = iter(range(1, 200))
    field: list[tuple[Any, str]] = []
    for i in range(1, 53):
        seconds = 50 if i == 51 else i  # the 50th and 51st Czech share 1:00:50
        field.append((add_entry(event, next(number), f"Czech A{i}", group="A"), clock(seconds)))
    for i in range(1, 8):
        field.append((add_entry(event, next(number), f"Guest A{i}", "SK", group="A"), clock(i)))
    for i in range(1, 4):
        field.append((add_entry(event, next(number), f"Czech B{i}", group="B"), clock(i)))
    field.append((add_entry(event, next(number), "Guest B1", "PL", group="B"), clock(9)))
    now = timezone.now() - dt.timedelta(hours=2)
    # Set-up straight into the tables (the services record one result at a time).
    results = Result.objects.bulk_create(
        Result(
            event=event,
            stage=QUALI,
            entry=entry,
            cells={"time": t, "missing": "", "pieces": ""},
            recorded_by=people["referee"],
            recorded_at=now,
            idempotency_key=f"k{entry.number}",
        )
        for entry, t in field
    )
    Verification.objects.bulk_create(
        Verification(result=r, verified_by=people["head"], verified_at=now) for r in results
    )
    org = people["organizer"]
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    publication_set(event=event, stage=QUALI, state="final", by=org)
    return event, people, {e.name: e for e, _ in field}


def test_the_final_entry_list_comes_from_the_final_table(qualified: Any) -> None:
    event, people, by_name = qualified
    made = advance_from(event=event, stage=QUALI, by=people["organizer"])
    assert len(made) == 60
    names = {a.entry.name for a in made}
    assert {f"Czech A{i}" for i in range(1, 52)} <= names
    assert "Czech A52" not in names
    assert {f"Guest A{i}" for i in range(1, 6)} <= names
    assert not {"Guest A6", "Guest A7"} & names
    first = next(a for a in made if a.entry.name == "Czech A1")
    assert (first.to_stage, first.table, first.pool) == (FINAL, "A", "czech")
    assert first.reason == "Advances: 1st of the 50 places for Czech entrants in group A"
    assert "Účast zahraničních soutěžících neomezuje" in first.clause
    tied = next(a for a in made if a.entry.name == "Czech A51")
    assert tied.reason.startswith("Advances on a tie at the cut: shares 50th–51st")
    guest = next(a for a in made if a.entry.name == "Guest A5")
    assert guest.reason == "Advances: 5th of the 5 places for foreign entrants in group A"
    final = event.rulebook.stage(FINAL)
    assert stage_entries(event, final).count() == 60
    with pytest.raises(Refused, match="Czech A52 is not in the entry list of Individuals — final"):
        result_record(
            event=event, stage=FINAL, entry=by_name["Czech A52"], cells={"time": "0:50:00"},
            by=people["referee"], idempotency_key="f1",
        )  # fmt: skip


def test_advancing_again_needs_a_reason_and_an_untouched_next_stage(qualified: Any) -> None:
    event, people, by_name = qualified
    org = people["organizer"]
    advance_from(event=event, stage=QUALI, by=org)
    with pytest.raises(Refused, match="advanced already; to advance again, give a reason"):
        advance_from(event=event, stage=QUALI, by=org)
    again = advance_from(event=event, stage=QUALI, by=org, reason="version 1 checked twice")
    assert len(again) == 60
    assert Advancement.objects.filter(withdrawn_at__isnull=False).count() == 60
    assert stage_entries(event, event.rulebook.stage(FINAL)).count() == 60
    result_record(
        event=event, stage=FINAL, entry=by_name["Czech A1"], cells={"time": "0:50:00"},
        by=people["referee"], idempotency_key="f1",
    )  # fmt: skip
    with pytest.raises(Refused, match="already has results"):
        advance_from(event=event, stage=QUALI, by=org, reason="once more")


def test_only_a_final_table_advances_anyone(make_event: Any, staff: Any) -> None:
    event = make_event("cz-jigsaw")
    people = staff(event, organizer="olga", referee="rudolf")
    with pytest.raises(Refused, match="not final yet"):
        advance_from(event=event, stage=QUALI, by=people["organizer"])
    with pytest.raises(Refused, match="Only an organizer"):
        advance_from(event=event, stage=QUALI, by=people["referee"])
    with pytest.raises(Refused, match="Nobody advances from Individuals — final"):
        advance_from(event=event, stage=FINAL, by=people["organizer"])


# --- the superfinal --------------------------------------------------------------------------


def msk(day: int, h: int) -> dt.datetime:
    return dt.datetime(2010, 11, day, h, 0, tzinfo=dt.UTC)


@pytest.fixture
def season(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("deti-kolomny")
    people = staff(event, organizer="ilya", head="mikhail", referee="roman", referee2="rita")
    teams = [add_entry(event, n, name, "RU", category="teams") for n, name in
             ((1, "Сова"), (2, "Ять"), (3, "Пастила"))]  # fmt: skip
    round_add(event=event, stage="chgk-tour", starts_at=msk(14, 16), by=people["organizer"])
    return event, people, teams


def play(
    event: Any, people: Any, masks: list[str], battles: list[tuple[int, int, int, int]]
) -> None:
    """Tour 1 with these masks (both scorers agree) and these battles, everything final."""
    for team, mask in zip(event.entries.order_by("number"), masks, strict=True):
        first = result_record(
            event=event, stage="chgk-tour", entry=team, cells={"mask": mask},
            by=people["referee"], idempotency_key=f"t{team.number}", now=msk(14, 18),
        )  # fmt: skip
        second_entry_record(
            result=first, cells={"mask": mask}, by=people["referee2"],
            idempotency_key=f"c{team.number}", now=msk(14, 18),
        )  # fmt: skip
    for i, (a, b, sa, sb) in enumerate(battles):
        battle = result_record(
            event=event, stage="brainball", item=battle_item(1, a, b),
            cells={"round": "1", "team1": str(a), "team2": str(b), "score1": str(sa),
                   "score2": str(sb)},
            by=people["referee"], idempotency_key=f"b{i}", now=msk(14, 19),
        )  # fmt: skip
        result_confirm(result=battle, by=people["head"], now=msk(14, 19))
    org = people["organizer"]
    for stage in ("chgk-tour", "chgk-season", "brainball"):
        publication_set(event=event, stage=stage, state="preliminary", by=org, now=msk(15, 10))
        publication_set(event=event, stage=stage, state="final", by=org, now=msk(25, 10))


def test_the_two_season_winners_meet_in_the_superfinal(season: Any) -> None:
    event, people, (sova, yat, _pastila) = season
    # ChGK: Сова 10, Ять 8, Пастила 5 taken; Brainball: Ять beats both, Сова beats Пастила.
    play(event, people, ["1" * 10 + "0" * 5, "1" * 8 + "0" * 7, "1" * 5 + "0" * 10],
         [(1, 2, 2, 4), (2, 3, 5, 1), (1, 3, 4, 2)])  # fmt: skip
    made = superfinal_winners(event=event, stage="superfinal", by=people["organizer"])
    assert [(a.from_stage, a.entry.name, a.reason) for a in made] == [
        ("chgk-season", "Сова", "Wins ChGK season standings"),
        ("brainball", "Ять", "Wins Brainball"),
    ]
    assert "Абсолютного чемпиона клуба" in made[0].clause
    superfinal = event.rulebook.stage("superfinal")
    assert list(stage_entries(event, superfinal)) == [sova, yat]


def test_one_team_winning_both_needs_no_superfinal(season: Any) -> None:
    event, people, _teams = season
    play(event, people, ["1" * 10 + "0" * 5, "1" * 8 + "0" * 7, "1" * 5 + "0" * 10],
         [(1, 2, 4, 2), (2, 3, 5, 1), (1, 3, 4, 2)])  # fmt: skip
    with pytest.raises(Refused, match="Сова won every discipline: it is the absolute champion"):
        superfinal_winners(event=event, stage="superfinal", by=people["organizer"])
    assert not Advancement.objects.exists()
