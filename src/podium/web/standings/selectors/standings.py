"""What a standings page shows of a round: who may see it, its rows (live or frozen) in one
shape, and the tag that tells whether anything changed.

Vocabulary:
- visible: the event's staff see every round; anyone else only a round published preliminary
  or final, never a draft.
- shown round: the round a stage page opens on — round 1, or for a stage on the calendar (ChGK
  tours) the newest round the visitor may see.
- season tours: the tours a season table sums for the visitor — the public ones for the public,
  every tour for staff (the draft ones among them are named, so staff know).
- page row: one row as the shared table template shows it — the engine's row document
  (``podium.engine.document``) plus ``number`` (the entry number; battles and superfinals name
  teams by label), ``next`` (the quota it is next for, or "") and ``unverified``.
- next by quota: the entrants in the first place below the cut of an advancement pool. Live,
  the engine's decision says so; for a frozen table the pool is replayed over the row data.
- absent: a table's entrants without a result, at its foot (``results.selectors.absent``),
  each as the engine's document writes it (``podium.engine.document.absent_data``).
- version tag: whether anything a table shows changed; see ``podium.web.live.versions``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from django.utils.dateparse import parse_datetime

from podium.engine.advancement import Decision
from podium.engine.collector import paused_gc
from podium.engine.errors import InputError
from podium.engine.standings import Table
from podium.rules.schema.ranking import Pool
from podium.rules.schema.stages import ChgkSeasonStage, Stage
from podium.web.kernel.memo import shared_reads
from podium.web.kernel.stages import has_calendar, rounds_of
from podium.web.kernel.texts import page_absent, page_row, problem_text
from podium.web.models import (
    Event,
    Publication,
    Result,
)
from podium.web.results.selectors.publication import (
    final_versions,
    publication_state,
    publications_current,
)
from podium.web.results.selectors.rows import (
    ITEM_FORMATS,
    labels_by_number,
    ruled_rows,
    standings_as_of,
)
from podium.web.results.selectors.verification import unverified, unverified_by_round
from podium.web.standings.selectors.outlook import with_outlook

PUBLIC_STATES = (Publication.State.PRELIMINARY, Publication.State.FINAL)


def visible(state: str, staff: bool) -> bool:
    return staff or state in PUBLIC_STATES


@dataclass(frozen=True)
class RoundView:
    number: int
    title: str
    state: str
    visible: bool
    version: int | None = None  # the newest final version, once final

    @property
    def state_label(self) -> str:
        return str(Publication.State(self.state).label)


def stage_rounds(event: Event, stage: Stage, staff: bool) -> list[RoundView]:
    """The rounds of the stage with their states (a stage off the calendar: round 1)."""
    if has_calendar(stage):
        made = [(r.number, r.title) for r in rounds_of(event, stage)]
    else:
        made = [(1, "")]
    current = publications_current(event, stage.key)
    views = []
    for number, title in made:
        latest = current.get(number)
        state = _state(latest)
        final = latest.version if latest and state == Publication.State.FINAL else None
        views.append(RoundView(number, title, state, visible(state, staff), final))
    return views


def _state(latest: Publication | None) -> str:
    """The state a round's latest publication change left it in (none yet: a draft)."""
    return latest.state if latest else Publication.State.DRAFT


def shown_round(stage: Stage, rounds: list[RoundView]) -> int | None:
    """The round a stage page opens on (``None``: a calendar stage with no round yet)."""
    if not has_calendar(stage):
        return 1
    seen = [r.number for r in rounds if r.visible]
    return seen[-1] if seen else (rounds[-1].number if rounds else None)


def season_tours(event: Event, stage: ChgkSeasonStage, staff: bool) -> tuple[list[int], list[int]]:
    """The tours the season sums for the visitor, and the draft ones among them."""
    played = set(
        Result.objects.filter(event=event, stage=stage.tour).values_list("round", flat=True)
    )
    current = publications_current(event, stage.tour)
    states = {n: _state(current.get(n)) for n in sorted(played)}
    tours = [n for n, state in states.items() if visible(state, staff)]
    return tours, [n for n in tours if states[n] not in PUBLIC_STATES]


@dataclass(frozen=True)
class RoundTables:
    """What a visitor sees of a round: its state, and its tables if visible."""

    state: str
    visible: bool
    tables: list[dict[str, Any]] = field(default_factory=list)
    frozen: Publication | None = None  # the final version shown
    versions: list[Publication] = field(default_factory=list)
    draft_tours: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # why recorded results do not rank

    @property
    def state_label(self) -> str:
        return str(Publication.State(self.state).label)

    @property
    def as_of(self) -> dt.datetime | None:
        frozen = self.frozen.table if self.frozen else None
        return parse_datetime(frozen["as_of"]) if frozen and frozen.get("as_of") else None


def round_tables(
    event: Event, stage: Stage, round: int, staff: bool, at: dt.datetime | None = None
) -> RoundTables:
    """The round as the visitor sees it: the newest final version when final, else live;
    ``at``: the live table as it stood then, whatever was published since (for staff)."""
    if at is not None:
        tours = season_tours(event, stage, staff)[0] if isinstance(stage, ChgkSeasonStage) else None
        tables, problems = live_tables(event, stage, round, tours, at)
        return RoundTables(publication_state(event, stage.key, round), True, tables,
                           problems=problems if staff else [])  # fmt: skip
    state = publication_state(event, stage.key, round)
    versions = final_versions(event, stage.key, round)
    if not visible(state, staff):
        return RoundTables(state, False, versions=versions)
    if state == Publication.State.FINAL and versions:
        tables = frozen_tables(stage, versions[-1])
        return RoundTables(state, True, tables, versions[-1], versions)
    tours, drafts = None, []
    if isinstance(stage, ChgkSeasonStage):
        tours, drafts = season_tours(event, stage, staff)
    tables, problems = live_tables(event, stage, round, tours, outlook=True)
    # The public sees no table until the staff have put the problems right.
    shown = problems if staff else []
    return RoundTables(state, True, tables, None, versions, drafts, shown)


@paused_gc  # the engine ranks and every row's reasons are written out
def live_tables(
    event: Event,
    stage: Stage,
    round: int,
    tours: list[int] | None = None,
    at: dt.datetime | None = None,
    *,
    outlook: bool = False,
) -> tuple[list[dict[str, Any]], list[str]]:
    """The round's tables from the current results (a season: of ``tours``), or the problems
    that keep them from ranking; no result yet: no table and no problem. ``outlook``: each row
    also says what can still happen to it (``selectors.outlook``)."""
    with shared_reads():  # the unverified results are of the same read
        ranked = ruled_rows(event, stage.key, round, at, rounds=tours)[0]
        if not ranked:
            return [], []
        try:
            standings = standings_as_of(event, stage.key, round, at, rounds=tours)
        except InputError as exc:
            return [], [problem_text(p) for p in exc.problems]
        unchecked = _unverified_ids(event, stage, round, tours, at)
    numbers = _numbers_by_label(event, stage)
    tables = []
    for table in standings.tables:
        following = _next_live(table)
        rows = [
            page_row(row, table.key)
            | {
                "number": numbers.get(row.entry.id, row.entry.id),
                "next": following.get(row.entry.id, ""),
                "unverified": row.entry.id in unchecked,
            }
            for row in table.rows
        ]
        absent = [page_absent(a) for a in table.absent]
        tables.append({"key": table.key, "title": table.title, "rows": rows, "absent": absent})
    if outlook:
        tables = with_outlook(event, stage, round, tables, tours, ranked)
    return tables, []


def frozen_tables(stage: Stage, publication: Publication) -> list[dict[str, Any]]:
    """A frozen final version's tables as page rows."""
    frozen = publication.table or {}
    numbers = frozen.get("numbers", {})
    tables = []
    for table in frozen.get("tables", []):
        pools = stage.advancement.pools_for(table["key"]) if stage.advancement else ()
        following = _next_frozen(table["rows"], pools)
        rows = [
            row
            | {
                "number": numbers.get(row["id"], row["id"]),
                "next": following.get(row["id"], ""),
                "unverified": False,  # final only once every result was verified
            }
            for row in table["rows"]
        ]
        absent = table.get("absent", [])  # none in a version frozen before absentees were
        tables.append(
            {"key": table["key"], "title": table["title"], "rows": rows, "absent": absent}
        )
    return tables


def _numbers_by_label(event: Event, stage: Stage) -> dict[str, str]:
    if stage.format not in ITEM_FORMATS:
        return {}
    return {label: number for number, label in labels_by_number(event, stage).items()}


def _unverified_ids(
    event: Event,
    stage: Stage,
    round: int,
    tours: list[int] | None,
    at: dt.datetime | None = None,
) -> set[str]:
    """The row ids with an unverified current result (teams in an unverified battle or
    question; a season: in an unverified tour result)."""
    if isinstance(stage, ChgkSeasonStage):
        rounds = tours if tours is not None else season_tours(event, stage, True)[0]
        by_tour = unverified_by_round(event, stage.tour, rounds, at)
        waiting = [r for n in rounds for r in by_tour.get(n, [])]
    else:
        waiting = unverified(event, stage.key, round, at)
    ids = {str(r.entry.number) for r in waiting if r.entry_id}
    items = [r for r in waiting if not r.entry_id]
    if items:
        labels = labels_by_number(event, stage)
        for result in items:
            if stage.format == "head-to-head":
                teams = [result.cells.get("team1", ""), result.cells.get("team2", "")]
            else:
                teams = [c for c in result.cells if c != "discipline"]
            ids.update(labels.get(n, f"#{n}") for n in teams)
    return ids


def _next_live(table: Table) -> dict[str, str]:
    """Row id → the pool it is next for, from the engine's decisions (first beyond per pool)."""
    first_beyond: dict[str, Decision] = {}
    for row in table.rows:
        decision = row.decision
        if decision is not None and decision.outcome == "beyond" and decision.pool is not None:
            first_beyond.setdefault(decision.pool.key, decision)
    return {
        row.entry.id: row.decision.pool.label
        for row in table.rows
        if row.decision is not None
        and row.decision.pool is not None
        and first_beyond.get(row.decision.pool.key) == row.decision
    }


def _next_frozen(rows: list[dict[str, Any]], pools: tuple[Pool, ...]) -> dict[str, str]:
    """Row id → the pool it is next for, replaying each pool over the rows (in place order,
    tied rows sharing a place), as ``podium.engine.advancement`` fills it."""
    following: dict[str, str] = {}
    for pool in pools:
        taken = 0
        candidates = [r for r in rows if r["class"] in pool.classes]
        for _place, tied in groupby(candidates, key=lambda r: r["rank"]):
            tied_rows = list(tied)
            if taken >= pool.count:
                following.update({r["id"]: pool.label for r in tied_rows})
                break
            taken += len(tied_rows)
    return following
