"""When a round may be preliminary and when final: the dates the rulebooks set.

Hand-worked:
- deti-kolomny tour 1 is played on Sunday 14 November 2010 from 19:00 (Moscow). п. 17:
  preliminary results the day after → refused on the 14th, allowed on the 15th. п. 14: appeals
  within a week of the end of the tour → the tour is ended on the 16th at 9:01, so final is
  refused until 23 November 9:01 and allowed after it (every result verified).
- The season is final only when every tour it sums is final.
- cba-qualifier (§ 14.2, protests during the tournament, decided on site): final once the
  squad has ended and nothing is open; a round still running is refused.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

import pytest

from podium.web.chgk.services.rounds import round_add
from podium.web.kernel.refusals import Refused
from podium.web.models import Publication
from podium.web.results.services.checks import result_confirm, second_entry_record
from podium.web.results.services.clock import round_end, round_start
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import appeal_window_closes, publication_set

MSK = zoneinfo.ZoneInfo("Europe/Moscow")
TOUR = "chgk-tour"


def msk(day: int, h: int, m: int = 0) -> dt.datetime:
    return dt.datetime(2010, 11, day, h, m, tzinfo=MSK)


@pytest.fixture
def tour(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("deti-kolomny", timezone="Europe/Moscow")
    people = staff(event, organizer="ilya", head="mikhail", referee="roman", referee2="rita")
    round_add(event=event, stage=TOUR, starts_at=msk(14, 19), by=people["organizer"])
    sova = add_entry(event, 1, "Сова", country="RU", category="teams")
    round_start(event=event, stage=TOUR, by=people["organizer"], now=msk(14, 19))
    result = result_record(
        event=event, stage=TOUR, entry=sova, cells={"mask": "1" * 8 + "0" * 7},
        by=people["referee"], idempotency_key="s", now=msk(14, 21),
    )  # fmt: skip
    second_entry_record(
        result=result, cells={"mask": "1" * 8 + "0" * 7}, by=people["referee2"],
        idempotency_key="s2", now=msk(14, 21, 5),
    )  # fmt: skip
    return event, people


def test_chgk_preliminary_results_the_day_after_the_tour(tour: Any) -> None:
    event, people = tour
    org = people["organizer"]
    with pytest.raises(Refused, match=r"published from Nov\. 15, 2010") as refused:
        publication_set(event=event, stage=TOUR, state="preliminary", by=org, now=msk(14, 22))
    assert (refused.value.clause or "").startswith("п. 17: Предварительные результаты")
    done = publication_set(event=event, stage=TOUR, state="preliminary", by=org, now=msk(15, 9))
    assert done.state == "preliminary"


def test_chgk_final_only_after_the_week_for_appeals(tour: Any) -> None:
    event, people = tour
    org = people["organizer"]
    publication_set(event=event, stage=TOUR, state="preliminary", by=org, now=msk(15, 9))
    with pytest.raises(Refused, match="The round has not ended yet"):
        publication_set(event=event, stage=TOUR, state="final", by=org, now=msk(16, 9))
    round_end(event=event, stage=TOUR, by=people["head"], now=msk(16, 9, 1))
    stage = event.rulebook.stage(TOUR)
    assert appeal_window_closes(event, stage, 1, msk(30, 0)) == msk(23, 9, 1)
    with pytest.raises(Refused, match="after the appeal window closes"):
        publication_set(event=event, stage=TOUR, state="final", by=org, now=msk(23, 9))
    final = publication_set(event=event, stage=TOUR, state="final", by=org, now=msk(23, 9, 2))
    assert (final.state, final.version) == ("final", 1)
    assert [r["name"] for r in final.table["tables"][0]["rows"]] == ["Сова"]


def test_the_season_is_final_only_when_every_tour_is(tour: Any) -> None:
    event, people = tour
    org = people["organizer"]
    publication_set(event=event, stage="chgk-season", state="preliminary", by=org, now=msk(15, 9))
    with pytest.raises(Refused, match="every tour is; not yet: 1"):
        publication_set(event=event, stage="chgk-season", state="final", by=org, now=msk(30, 9))
    assert Publication.objects.filter(stage="chgk-season").count() == 1


def test_bowling_final_once_the_squad_has_ended(
    make_event: Any, staff: Any, add_entry: Any
) -> None:
    event = make_event("cba-qualifier")
    people = staff(event, organizer="jan", head="pavel", referee="jiri")
    player = add_entry(event, 1, "Karel Novák", division="master-men")
    start = dt.datetime(2012, 3, 24, 9, 0, tzinfo=dt.UTC)
    round_start(event=event, stage="qualification", by=people["head"], now=start)
    games = {f"g{i}": str(s) for i, s in enumerate((201, 188, 176, 210, 195, 199), 1)}
    result = result_record(
        event=event, stage="qualification", entry=player, cells=games, by=people["referee"],
        idempotency_key="k", now=start + dt.timedelta(hours=3),
    )  # fmt: skip
    result_confirm(result=result, by=people["head"], now=start + dt.timedelta(hours=3, minutes=5))
    org = people["organizer"]
    publication_set(
        event=event, stage="qualification", state="preliminary", by=org,
        now=start + dt.timedelta(hours=3, minutes=6),
    )  # fmt: skip
    with pytest.raises(Refused, match="The round has not ended yet") as refused:
        publication_set(
            event=event, stage="qualification", state="final", by=org,
            now=start + dt.timedelta(hours=3, minutes=7),
        )  # fmt: skip
    assert (refused.value.clause or "").startswith("§ 14.2")
    round_end(
        event=event, stage="qualification", by=people["head"],
        now=start + dt.timedelta(hours=3, minutes=10),
    )  # fmt: skip
    final = publication_set(
        event=event, stage="qualification", state="final", by=org,
        now=start + dt.timedelta(hours=3, minutes=11),
    )  # fmt: skip
    (table,) = final.table["tables"]
    assert (table["key"], table["rows"][0]["score"]) == ("master-men", "1169 (210 high)")


def test_bowling_final_waits_for_every_series(make_event: Any, staff: Any, add_entry: Any) -> None:
    """A player with only block 1 recorded (2 of 6 games) is still bowling: no final yet."""
    event = make_event("cba-qualifier")
    people = staff(event, organizer="jan", head="pavel", referee="jiri")
    player = add_entry(event, 1, "Karel Novák", division="master-men")
    start = dt.datetime(2012, 3, 24, 9, 0, tzinfo=dt.UTC)
    result = result_record(
        event=event, stage="qualification", entry=player, cells={"g1": "201", "g2": "188"},
        by=people["referee"], idempotency_key="k", now=start + dt.timedelta(hours=1),
    )  # fmt: skip
    result_confirm(result=result, by=people["head"], now=start + dt.timedelta(hours=1))
    org = people["organizer"]
    later = start + dt.timedelta(hours=2)
    publication_set(event=event, stage="qualification", state="preliminary", by=org, now=later)
    with pytest.raises(Refused, match="every series is complete; still bowling: #1"):
        publication_set(event=event, stage="qualification", state="final", by=org, now=later)
