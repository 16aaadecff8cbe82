"""Who wins the prizes of each stage that awards them, as far as the visitor may see.

Vocabulary:
- prize stage: a stage with ``prizes`` in its rulebook section: places 1 to N, and with
  ``official_only`` only for entrants in the official order (cz-jigsaw: Czech entrants only).
- prize table: the top of a table down to its last row that wins a prize or plays off for one.
  Entrants outside the competition among them are shown, with why they get no prize.
- award: ``prize`` (the engine gave the row a prize and no play-off is pending), ``playoff``
  (tied for a prize place that the rulebook settles by a play-off: no prize until it is
  played) or ``none``.
- pending play-off: the places a tie spans and the entrants who play for them.
- source: the newest final version when the stage is final, else the live table (labelled
  preliminary, or for staff a draft); see ``podium.web.standings.selectors.standings.round_tables``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from podium.rules.schema.stages import Stage
from podium.web.models import Event
from podium.web.standings.selectors.standings import RoundTables, round_tables

ROUND = 1  # every stage that awards prizes sits once (a season is summed from its tours)


@dataclass(frozen=True)
class PrizeRow:
    row: dict[str, Any]
    award: str
    place: str  # the place the prize is for, "2." or "2–3."


@dataclass(frozen=True)
class Playoff:
    places: str  # "3–4"
    names: list[str]


@dataclass(frozen=True)
class PrizeTable:
    key: str
    title: str
    rows: list[PrizeRow]
    playoffs: list[Playoff]


@dataclass(frozen=True)
class PrizeStage:
    stage: Stage
    view: RoundTables
    tables: list[PrizeTable]


def _places(row: dict[str, Any], official_only: bool) -> tuple[int, int] | None:
    if official_only:
        first, last = row["official_rank"], row["official_rank_to"]
        return None if first is None else (first, last)
    return row["rank"], row["rank_to"]


def _span(places: tuple[int, int] | None) -> str:
    if places is None:
        return "—"
    first, last = places
    return f"{first}–{last}" if last != first else str(first)


def prize_table(table: dict[str, Any], official_only: bool) -> PrizeTable:
    rows = table["rows"]
    in_prizes = [i for i, r in enumerate(rows) if r["prize"] or r["playoff"]]
    shown = rows[: in_prizes[-1] + 1] if in_prizes else []
    awarded: list[PrizeRow] = []
    playoffs: dict[str, list[str]] = {}
    for row in shown:
        places = _places(row, official_only)
        if row["playoff"]:  # the engine marks official rows only
            award = "playoff"
            playoffs.setdefault(_span(places), []).append(row["name"])
        else:
            award = "prize" if row["prize"] else "none"
        awarded.append(PrizeRow(row, award, _span(places)))
    return PrizeTable(
        table["key"],
        table["title"],
        awarded,
        [Playoff(places, names) for places, names in playoffs.items()],
    )


def prize_stages(event: Event, staff: bool) -> list[PrizeStage]:
    found = []
    for stage in event.rulebook.stages:
        if stage.prizes is None:
            continue
        view = round_tables(event, stage, ROUND, staff)
        tables = [prize_table(t, stage.prizes.official_only) for t in view.tables]
        found.append(PrizeStage(stage, view, tables))
    return found
