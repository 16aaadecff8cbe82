"""What the referee console shows: one card per entrant of a round, and the round's clocks.

Vocabulary:
- card: one entrant of the stage's entry list in the round, with its current result, the score
  it makes in the sport's own terms, whether the competitor agreed and whether it is verified,
  and — in a team stage — the team's table (what is finished, what is in progress).
- phase of a card: ``waiting`` (the clock has not started), ``running`` (a finish can be
  tapped), ``ended`` (the limit or an end signal ended the round: pieces are counted) for an
  entrant without a result; ``recorded`` once it has one. A stage without a clock (bowling) is
  always ``open``: results are typed in.
- my tables: the entry numbers or table numbers a referee watches (``1-10, 15``), kept in the
  session per event; the console shows just those when set.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from django.db.models import prefetch_related_objects
from django.utils import timezone

from podium.engine.clock import RoundClock
from podium.engine.errors import InputError
from podium.engine.teamflow import TeamTable
from podium.engine.timing import format_clock
from podium.rules.schema.stages import Stage, TeamSolveStage
from podium.web.kernel.stages import stage_entries
from podium.web.kernel.texts import shown_value
from podium.web.models import Agreement, Entry, Event, Result, SecondEntry, Verification
from podium.web.registration.selectors.desk import search
from podium.web.results.selectors.clock import clocks, group_of, limit_ms
from podium.web.results.selectors.rows import (
    ENTRY_FORMATS,
    current_results,
    of_round,
    standings_as_of,
)
from podium.web.results.selectors.tables import tables_of
from podium.web.results.selectors.verification import round_counts

_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


def parse_numbers(text: str) -> set[int] | None:
    """``"1-10, 15"`` → {1, …, 10, 15}; ``None`` when the text is not such a list."""
    numbers: set[int] = set()
    for chunk in re.split(r"[,;\s]+", re.sub(r"\s*[-–]\s*", "-", text.strip())):
        if not chunk:
            continue
        found = _RANGE.match(chunk)
        if not found:
            return None
        low = int(found.group(1))
        high = int(found.group(2) or low)
        if high < low or high - low > 1000:
            return None
        numbers.update(range(low, high + 1))
    return numbers


@dataclass
class Card:
    entry: Entry
    phase: str
    current: Result | None = None
    score: str = ""
    agreement: Agreement | None = None
    verification: Verification | None = None
    second_entry: SecondEntry | None = None
    team: TeamTable | None = None

    @property
    def table_label(self) -> str:
        if self.entry.table_number:
            return str(self.entry.table_number)
        return self.entry.group

    def _puzzle(self, index: int) -> dict[str, Any]:
        assert self.team is not None
        return {"index": index, "number": index + 1, "pieces": self.team.puzzles[index]}

    @property
    def finished_puzzles(self) -> list[dict[str, Any]]:
        if self.team is None:
            return []
        return [
            {**self._puzzle(f.puzzle), "time": format_clock(f.at_ms), "missing": f.missing}
            for f in self.team.finished
        ]

    @property
    def on_table(self) -> dict[str, Any] | None:
        if self.team is None or self.team.on_table is None:
            return None
        return self._puzzle(self.team.on_table)

    @property
    def waiting_puzzles(self) -> list[dict[str, Any]]:
        return [self._puzzle(p) for p in self.team.waiting] if self.team else []


def _scores(event: Event, stage: Stage, round: int) -> dict[str, str]:
    try:
        standings = standings_as_of(event, stage.key, round)
    except InputError:
        return {}
    return {
        row.entry.id: shown_value(row.entry.score)
        for table in standings.tables
        for row in table.rows
    }


def _phase(clock: RoundClock | None, now: dt.datetime) -> str:
    if clock is None:
        return "open"
    return clock.state(now)


def cards(
    event: Event,
    stage: Stage,
    round: int,
    *,
    query: str = "",
    mine: set[int] | None = None,
    now: dt.datetime | None = None,
) -> list[Card]:
    """The console's cards, in entry-number order (a handful of queries for any size)."""
    now = now or timezone.now()
    entries = search(event, query).filter(pk__in=stage_entries(event, stage).values("pk"))
    if mine:
        entries = [e for e in entries if e.number in mine or (e.table_number or 0) in mine]
    results = {r.entry_id: r for r in current_results(event, stage.key, round)}
    prefetch_related_objects(list(results.values()), "recorded_by")  # each card names its referee
    scope = of_round(event, stage.key, round)
    agreed = {a.result_id: a for a in Agreement.objects.filter(**scope)}
    verified = {
        v.result_id: v for v in Verification.objects.filter(**scope).select_related("verified_by")
    }
    seconds: dict[int, SecondEntry] = {}
    for second in SecondEntry.objects.filter(**scope).order_by("entered_at", "id"):
        seconds[second.result_id] = second
    scores = _scores(event, stage, round) if results else {}
    timed = limit_ms(stage) is not None
    round_clocks = clocks(event, stage, round, now) if timed else {}
    teams = tables_of(event, stage, round) if isinstance(stage, TeamSolveStage) else {}
    made = []
    for entry in entries:
        current = results.get(entry.pk)
        clock = round_clocks.get(group_of(entry, stage)) if timed else None
        made.append(
            Card(
                entry=entry,
                phase="recorded" if current else _phase(clock, now),
                current=current,
                score=scores.get(str(entry.number), "") if current else "",
                agreement=agreed.get(current.pk) if current else None,
                verification=verified.get(current.pk) if current else None,
                second_entry=seconds.get(current.pk) if current else None,
                team=teams.get(entry.pk)
                or (TeamTable(stage.puzzles) if isinstance(stage, TeamSolveStage) else None),
            )
        )
    return made


def counts(event: Event, stage: Stage, rounds: list[int]) -> dict[int, dict[str, Any]]:
    """How far each of the rounds has come: entrants, results, unverified results."""
    entries = stage_entries(event, stage).count() if stage.format in ENTRY_FORMATS else None
    return {
        number: {"entries": entries, "recorded": recorded, "unverified": waiting}
        for number, (recorded, waiting) in round_counts(event, stage.key, rounds).items()
    }
