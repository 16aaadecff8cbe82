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

from django.db.models import F, Q, prefetch_related_objects
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
    current_among,
    current_of_entries,
    scores_of,
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


def _scores(event: Event, stage: Stage, round: int, results: list[Result]) -> dict[str, str]:
    try:
        standings = scores_of(event, stage.key, round, results)
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


# The most cards a page shows: a referee works on a group, their tables or a search, and the
# page (and what it reads) stays this size however large the stage is.
PAGE = 40


@dataclass(frozen=True)
class Choice:
    """What a console page shows: a search, the referee's tables, a group, only the entrants
    with no result yet, and the order (``number`` or ``table``: table, then number)."""

    query: str = ""
    mine: frozenset[int] = frozenset()
    group: str = ""
    open_only: bool = False
    order: str = "number"


def shown_entries(event: Event, stage: Stage, round: int, choice: Choice) -> list[Entry]:
    """The entries a console page shows: at most ``PAGE + 1`` (one more than shown, so the
    page knows there are more)."""
    entries = search(event, choice.query).filter(pk__in=stage_entries(event, stage).values("pk"))
    if choice.mine:
        entries = entries.filter(Q(number__in=choice.mine) | Q(table_number__in=choice.mine))
    if choice.group:
        entries = entries.filter(group=choice.group)
    if choice.open_only:
        done = Result.objects.filter(event=event, stage=stage.key, round=round)
        entries = entries.exclude(pk__in=done.values("entry_id"))
    if choice.order == "table":
        entries = entries.order_by(F("table_number").asc(nulls_last=True), "group", "number")
    return list(entries[: PAGE + 1])


def cards(
    event: Event,
    stage: Stage,
    round: int,
    choice: Choice = Choice(),
    *,
    now: dt.datetime | None = None,
) -> list[Card]:
    """The console's cards, in entry-number order: at most ``PAGE + 1`` of them, each with what
    only its own entrant's results say (a constant number of queries for any stage's size)."""
    now = now or timezone.now()
    entries = shown_entries(event, stage, round, choice)
    by_pk = {e.pk: e for e in entries}
    found = current_of_entries(event, stage.key, round, by_pk)
    for result in found:
        result.entry = by_pk[result.entry_id]  # its members are already read
    results = {r.entry_id: r for r in found}
    prefetch_related_objects(found, "recorded_by")  # each card names its referee
    ids = [r.pk for r in found]
    agreed = {a.result_id: a for a in Agreement.objects.filter(result__in=ids)}
    verified = {
        v.result_id: v
        for v in Verification.objects.filter(result__in=ids).select_related("verified_by")
    }
    seconds: dict[int, SecondEntry] = {}
    for second in SecondEntry.objects.filter(result__in=ids).order_by("entered_at", "id"):
        seconds[second.result_id] = second
    scores = _scores(event, stage, round, found) if found else {}
    timed = limit_ms(stage) is not None
    round_clocks = clocks(event, stage, round, now) if timed else {}
    teams = tables_of(event, stage, round, by_pk) if isinstance(stage, TeamSolveStage) else {}
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


def _ms(moment: dt.datetime | None) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


def card_list(event: Event, stage: Stage, round: int) -> dict[str, Any]:
    """The round's cards for a phone to keep and search (fetched once per version): each
    entrant's number, name, group and table, and its current value with who recorded it and
    when; and each clock group's start, limit and end, so the phone runs the clock offline.
    Four queries, whatever the stage's size."""
    entries = (
        stage_entries(event, stage)
        .order_by("number")
        .values_list("pk", "number", "name", "group", "table_number")
    )
    recorded = (
        Result.objects.filter(event=event, stage=stage.key, round=round)
        .order_by("recorded_at", "id")
        .select_related("recorded_by")
        .only(
            "id", "entry_id", "item", "corrects_id", "cells", "recorded_at",
            "recorded_by__username", "recorded_by__first_name", "recorded_by__last_name",
        )
    )  # fmt: skip
    current = {r.entry_id: r for r in current_among(list(recorded))}
    rows = []
    for pk, number, name, group, table in entries:
        row: dict[str, Any] = {"id": pk, "n": number, "name": name, "g": group, "t": table}
        result = current.get(pk)
        if result is not None:
            who = result.recorded_by
            row |= {
                "cells": {k: v for k, v in result.cells.items() if v},
                "by": (who.get_full_name() or who.get_username()) if who else "",
                "at": _ms(result.recorded_at),
                "r": result.pk,
            }
        rows.append(row)
    timed = limit_ms(stage) is not None
    return {
        "clocks": {
            group: {"start": _ms(c.started_at), "limit": c.limit_ms, "end": _ms(c.ended_at)}
            for group, c in (clocks(event, stage, round).items() if timed else ())
        },
        "cards": rows,
    }
