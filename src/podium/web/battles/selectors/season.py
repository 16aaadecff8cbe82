"""Reads for the ChGK season's organizer page: the Brainball schedule, the prize play-offs and
the superfinal between the two winners.

Vocabulary:
- schedule, bout, re-draw: see ``podium.web.battles.services.schedule``; the current schedule is the
  newest ``battles`` draw of the league.
- recorded bout: a bout whose battle ``battle_item(round, team1, team2)`` has a current result.
- balance: per team, how many of its battles the schedule puts on each stage.
- tied group: teams the season table holds together for a play-off (equal on points on a
  prize place, п. 12), found by ranking the season WITHOUT any play-off result.
- play-off result, still tied: see ``podium.engine.playoff``. A team's play-off is the current
  Result of the season stage (round 1) for its entry: ``cells["playoff"]`` what counts
  (``"4 1"``: 4 in the match, then extra question 1 taken) and ``cells["next"]`` its answer to
  the extra question being asked, not counted until every team still tied with it has answered
  (see ``podium.web.battles.services.extra_questions``).
- group state: ``match`` (a team of the group has no match result yet: play-off pending),
  ``extra`` (the match left teams still tied: single extra questions go on), ``settled``.
- winner: the team in sole first official place of a stage the superfinal is played between;
  the superfinal is not played when one team won both (п. 1).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.formats.chgk.season import PLAYOFF
from podium.engine.inputs import RawRow
from podium.engine.standings import Row, Standings
from podium.rules.schema.stages import ChgkSeasonStage, HeadToHeadStage, Stage, SuperfinalStage
from podium.web.disputes.selectors.rulings import Notes
from podium.web.draws.selectors import SCHEDULE_KIND
from podium.web.kernel.stages import stage_entries
from podium.web.kernel.texts import shown_value
from podium.web.models import Draw, Entry, Event, Publication, Result
from podium.web.results.selectors.publication import publication_state
from podium.web.results.selectors.rows import (
    battle_item,
    common_cells,
    current_results,
    labels_by_number,
    ruled_rows,
    standings_as_of,
)


def season_stage(event: Event) -> ChgkSeasonStage | None:
    return next((s for s in event.rulebook.stages if isinstance(s, ChgkSeasonStage)), None)


def league_stage(event: Event) -> HeadToHeadStage | None:
    return next((s for s in event.rulebook.stages if isinstance(s, HeadToHeadStage)), None)


def superfinal_stage(event: Event) -> SuperfinalStage | None:
    return next(
        (s for s in event.rulebook.stages if isinstance(s, SuperfinalStage) and s.winners_of),
        None,
    )


# --- the battle schedule ----------------------------------------------------------------------


def schedule_of(event: Event, stage: str) -> Draw | None:
    """The current battle schedule of the league (the newest), if one is drawn."""
    return (
        Draw.objects.filter(event=event, kind=SCHEDULE_KIND, stage=stage)
        .select_related("made_by")
        .first()
    )


def schedules_drawn(event: Event, stage: str) -> int:
    return Draw.objects.filter(event=event, kind=SCHEDULE_KIND, stage=stage).count()


@dataclass(frozen=True)
class BoutView:
    round: int
    day: int
    slot: int
    stage: int
    team1: int
    team2: int
    name1: str
    name2: str
    result: Result | None  # the battle's current result, if recorded
    score1: str = ""  # from team1's side of the bout
    score2: str = ""

    @property
    def recorded(self) -> bool:
        return self.result is not None


def _oriented(bout: Mapping[str, int], result: Result) -> tuple[str, str]:
    cells = result.cells
    one, two = cells.get("score1", ""), cells.get("score2", "")
    return (one, two) if cells.get("team1") == str(bout["team1"]) else (two, one)


def schedule_bouts(event: Event, stage: HeadToHeadStage, draw: Draw) -> list[BoutView]:
    """Every bout of the schedule, in its order, with team names and what is recorded."""
    labels = labels_by_number(event, stage)
    recorded = {r.item: r for r in current_results(event, stage.key)}
    bouts = []
    for b in draw.result["outcome"]["bouts"]:
        result = recorded.get(battle_item(b["round"], b["team1"], b["team2"]))
        scores = _oriented(b, result) if result is not None else ("", "")
        one, two = b["team1"], b["team2"]
        view = BoutView(
            b["round"], b["day"], b["slot"], b["stage"], one, two,
            labels.get(str(one), f"#{one}"), labels.get(str(two), f"#{two}"), result, *scores,
        )  # fmt: skip
        bouts.append(view)
    return bouts


def schedule_rounds(bouts: Sequence[BoutView], stages: int) -> list[dict[str, Any]]:
    """The bouts by round, matchday and time slot, each slot a list of one bout (or ``None``)
    per stage, so stage 1 and stage 2 stand side by side."""
    slots: dict[int, dict[int, dict[int, list[BoutView | None]]]] = {}
    for b in bouts:
        day = slots.setdefault(b.round, {}).setdefault(b.day, {})
        day.setdefault(b.slot, [None] * stages)[b.stage - 1] = b
    return [
        {
            "number": r,
            "played": sum(1 for b in bouts if b.round == r and b.recorded),
            "bouts": sum(1 for b in bouts if b.round == r),
            "days": [
                {
                    "number": d,
                    "slots": [{"number": s, "stages": at} for s, at in sorted(day.items())],
                }
                for d, day in sorted(days.items())
            ],
        }
        for r, days in sorted(slots.items())
    ]


def balance(bouts: Sequence[BoutView], stages: int) -> list[dict[str, Any]]:
    """Per team (by entry number): its battles on each stage, in all, and recorded so far."""
    per: dict[int, list[int]] = defaultdict(lambda: [0] * stages)
    names: dict[int, str] = {}
    played: dict[int, int] = defaultdict(int)
    for b in bouts:
        for team, name in ((b.team1, b.name1), (b.team2, b.name2)):
            per[team][b.stage - 1] += 1
            names[team] = name
            played[team] += b.recorded
    return [
        {
            "number": team,
            "name": names[team],
            "stages": counts,
            "total": sum(counts),
            "spread": max(counts) - min(counts),
            "played": played[team],
        }
        for team, counts in sorted(per.items())
    ]


# --- play-offs --------------------------------------------------------------------------------


def is_playoff_row(row: RawRow) -> bool:
    return (row.cells.get("tour") or "").strip().casefold() == PLAYOFF


def playoff_row(entry: Entry, playoff: str, line: int) -> RawRow:
    """The season's engine row of a team's play-off (as ``ruled_rows`` builds it)."""
    cells = common_cells(entry) | {"group": "", "tour": PLAYOFF, "playoff": playoff}
    return RawRow(line, cells)


def with_playoffs(rows: Sequence[RawRow], changes: Mapping[Entry, str]) -> list[RawRow]:
    """The season's rows with the play-off rows of ``changes`` replaced by (or added as) the
    given results; the changed rows come last, so the engine's problems name them by line."""
    numbers = {str(e.number) for e in changes}
    kept = [r for r in rows if not (is_playoff_row(r) and r.cells.get("id") in numbers)]
    kept = [RawRow(line, r.cells) for line, r in enumerate(kept, start=1)]
    added = [
        playoff_row(entry, text, len(kept) + n)
        for n, (entry, text) in enumerate(sorted(changes.items(), key=lambda c: c[0].number), 1)
    ]
    return kept + added


def named_problems(rows: Sequence[RawRow], problems: Sequence[str]) -> list[str]:
    """The engine's problems with each team's id (its entry number, quoted) replaced by
    "#number name", as staff know the teams."""
    names = {f"'{r.cells.get('id')}'": f"#{r.cells.get('id')} {r.cells.get('name')}" for r in rows}
    texts = []
    for problem in problems:
        text = problem
        for quoted, name in names.items():
            text = text.replace(quoted, name)
        texts.append(text)
    return texts


def parse_playoff(text: str) -> tuple[int, ...]:
    parts = (text or "").replace(",", " ").split()
    return tuple(int(p) for p in parts if p.isdigit())


@dataclass(frozen=True)
class PlayoffTeam:
    entry: Entry
    result: Result | None  # the team's current play-off result
    rank: int  # where the season table puts it now
    rank_to: int
    tied: bool  # still held for the play-off now
    settled: str  # the engine's play-off reason ("Play-off: 4 in the match — place 2")

    @property
    def playoff(self) -> tuple[int, ...]:
        return parse_playoff(self.result.cells.get("playoff", "")) if self.result else ()

    @property
    def match(self) -> int | None:
        return self.playoff[0] if self.playoff else None

    @property
    def extras(self) -> tuple[int, ...]:
        return self.playoff[1:]

    @property
    def answer(self) -> bool | None:
        """Its answer to the extra question being asked, not yet counted."""
        pending = self.result.cells.get("next", "") if self.result else ""
        return {"1": True, "0": False}.get(pending)


@dataclass(frozen=True)
class StillTied:
    """Teams of a group still level after the play-off so far: the next extra question."""

    first: int
    last: int
    question: int  # the number of the extra question asked next (1, 2, …)
    teams: list[PlayoffTeam]

    @property
    def waiting(self) -> list[PlayoffTeam]:
        return [t for t in self.teams if t.answer is None]


@dataclass(frozen=True)
class PlayoffGroup:
    first: int  # the places the tie is for
    last: int
    teams: list[PlayoffTeam]
    still: list[StillTied] = field(default_factory=list)

    @property
    def missing(self) -> list[PlayoffTeam]:
        return [t for t in self.teams if t.result is None]

    @property
    def state(self) -> str:
        if self.missing:
            return "match"
        return "extra" if self.still else "settled"


@dataclass(frozen=True)
class Playoffs:
    groups: list[PlayoffGroup]
    standings: Standings | None  # the season table now, play-offs applied
    problems: list[str]  # why the season cannot be ranked (staff put it right first)
    recorded: list[Result]  # every team's current play-off (not annulled), by team number

    @property
    def pending(self) -> bool:
        return any(g.state != "settled" for g in self.groups)


def season_rows(
    event: Event, stage: str, at: dt.datetime | None = None
) -> tuple[list[RawRow], Notes]:
    """The season's rows over every tour (as staff see it), play-off rows included."""
    return ruled_rows(event, stage, 1, at)


def _rows_by_id(standings: Standings) -> dict[str, Row]:
    return {row.entry.id: row for table in standings.tables for row in table.rows}


def _held(standings: Standings) -> list[list[Row]]:
    groups: dict[tuple[str, int], list[Row]] = {}
    for table in standings.tables:
        for row in table.rows:
            if row.playoff:
                groups.setdefault((table.key, row.rank), []).append(row)
    return [g for g in groups.values() if len(g) > 1]


def playoff_groups(
    event: Event,
    stage: ChgkSeasonStage,
    at: dt.datetime | None = None,
    rows: Sequence[RawRow] | None = None,
    notes: Notes | None = None,
) -> Playoffs:
    """The season's tied groups with each team's play-off so far (``rows``: the season's
    rows to judge instead of the recorded ones)."""
    if rows is None:
        rows, notes = season_rows(event, stage.key, at)
    recorded = sorted(
        (r for r in current_results(event, stage.key, 1, at) if r.cells.get("playoff")),
        key=lambda r: r.entry.number if r.entry else 0,
    )
    if not rows:
        return Playoffs([], None, [], recorded)
    book = event.rulebook
    try:
        unsettled = compute_standings(
            book, stage.key, [r for r in rows if not is_playoff_row(r)], notes
        )
        now = compute_standings(book, stage.key, rows, notes)
    except InputError as exc:
        problems = named_problems(rows, [shown_value(p.message) for p in exc.problems])
        return Playoffs([], None, problems, recorded)
    rows_now = _rows_by_id(now)
    held = _held(unsettled)
    numbers = [int(row.entry.id) for group in held for row in group]
    entries = {str(e.number): e for e in Entry.objects.filter(event=event, number__in=numbers)}
    results = {
        str(r.entry.number): r for r in recorded if r.entry and str(r.entry.number) in entries
    }
    groups = []
    for group in held:
        teams = []
        for row in group:
            current = rows_now[row.entry.id]
            settled = next((r.text for r in current.reasons if r.text.startswith("Play-off")), "")
            team = PlayoffTeam(
                entries[row.entry.id], results.get(row.entry.id), current.rank,
                current.rank_to, current.playoff, settled,
            )  # fmt: skip
            teams.append(team)
        teams.sort(key=lambda t: (t.rank, t.entry.number))
        still: list[StillTied] = []
        if all(t.result is not None for t in teams):
            tied: dict[int, list[PlayoffTeam]] = {}
            for t in teams:
                if t.tied:
                    tied.setdefault(t.rank, []).append(t)
            still = [
                StillTied(ts[0].rank, ts[0].rank_to, len(ts[0].playoff), ts)
                for ts in tied.values()
                if len(ts) > 1
            ]
        groups.append(PlayoffGroup(group[0].rank, group[0].rank_to, teams, still))
    return Playoffs(groups, now, [], recorded)


# --- the superfinal ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Winner:
    stage: Stage
    entry: Entry | None  # the sole winner so far, if any
    tied: list[str]  # the names sharing first place, if nobody is alone there
    final: bool  # the stage's table is published final


def _winner(event: Event, stage: Stage) -> Winner:
    final = publication_state(event, stage.key) == Publication.State.FINAL
    try:
        standings = standings_as_of(event, stage.key)
    except InputError:
        return Winner(stage, None, [], final)
    firsts = [row for table in standings.tables for row in table.rows if row.official_rank == 1]
    if len(firsts) == 1 and firsts[0].official_rank_to == 1:
        number = firsts[0].entry.id
        if stage.format != "chgk-season":  # battles name teams by label
            number = {label: n for n, label in labels_by_number(event, stage).items()}.get(
                number, number
            )
        entry = Entry.objects.filter(event=event, number=int(number)).first()
        return Winner(stage, entry, [], final)
    return Winner(stage, None, [r.entry.name for r in firsts], final)


@dataclass(frozen=True)
class SuperfinalState:
    stage: SuperfinalStage
    winners: list[Winner]
    entries: list[Entry]  # the superfinal's entry list (the winners once taken)

    @property
    def same(self) -> Entry | None:
        """The team that won every discipline: no superfinal (п. 1)."""
        found = {w.entry.pk for w in self.winners if w.entry is not None}
        known = all(w.entry is not None for w in self.winners)
        return self.winners[0].entry if known and len(found) == 1 else None


def superfinal_state(event: Event) -> SuperfinalState | None:
    stage = superfinal_stage(event)
    if stage is None:
        return None
    winners = [_winner(event, event.rulebook.stage(key)) for key in stage.winners_of]
    return SuperfinalState(stage, winners, list(stage_entries(event, stage)))
