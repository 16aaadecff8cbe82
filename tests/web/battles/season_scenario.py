"""The ChGK season the season tests share (deti-kolomny): five teams, three tours
(hand-worked in ``test_season.py``), the season's table and its play-offs.

The ``people`` and ``season`` fixtures themselves are in this folder's ``conftest.py``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from podium.web.battles.services.playoffs import playoff_record
from podium.web.models import Result
from podium.web.results.selectors.rows import standings_as_of
from podium.web.results.services.results import result_correct

MSK = dt.timezone(dt.timedelta(hours=3))
NAMES = ["Alfa", "Beta", "Gamma", "Delta", "Epsilon"]
TOURS = {
    1: {"Alfa": 12, "Beta": 10, "Gamma": 9, "Delta": 7, "Epsilon": 5},
    2: {"Beta": 12, "Gamma": 11, "Alfa": 9, "Epsilon": 7, "Delta": 6},
    3: {"Gamma": 13, "Alfa": 11, "Beta": 10, "Delta": 8, "Epsilon": 4},
}


def tour_start(n: int) -> dt.datetime:
    return dt.datetime(2026, 1, 10, 19, 0, tzinfo=MSK) + dt.timedelta(days=14 * (n - 1))


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
