"""The charts a stage's page shows, with their numbers: the ChGK season's progression and a
tour's question strip, finish times per group with the quota cut, bowling lines per squad.

Vocabulary:
- chart: ``Chart`` — its key (unique on a page), title, the SVG (safe to show: the drawing
  escapes every text it holds, ``podium.web.standings.charts``), a caption, and its numbers as
  a table, the fallback for whoever does not see the drawing.
- visible: a chart shows what the visitor may see of the round (``selectors.standings``):
  nothing of a draft round for the public; a season sums only the tours the visitor may see.
- season progression: each team's season points after each tour, added up; a tour the team
  missed adds 0. The leaders are the first three rows of the season table.
- question strip: per question of a tour, how many of the teams entered question by question
  (with a mask) took it, from the tour's current results (once final they are frozen too) with
  the verdicts applied; a question with an open dispute is "under appeal", its disputed answers
  counted as not taken and never told apart (``podium.web.disputes.selectors.anonymity``).
- finish times: a histogram of a timed table's finishers by their ranked time (penalties
  added, compensation taken off) in bins of 5 minutes (10 for limits over two hours), the
  non-finishers in one bar beside it; the cut: the time of the last entrant through the
  domestic pool (the table's first pool of official entrants, e.g. the 50th Czech).
- squad lines: each player's games recorded so far, one line per player of a squad.
- drawn once: a round's charts are drawn once per version tag of its stage
  (``podium.web.live.versions``), kind of visitor and language, by one process (single flight), from
  the live round its tables are also made of.
- as of a moment: the charts of the round as it stood then (the staff's view of a past table),
  drawn from the results and rulings in force at that moment; never cached.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.template.defaultfilters import floatformat
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.formats.chgk.season import PLAYOFF
from podium.engine.inputs import RawRow
from podium.engine.timing import format_clock
from podium.rules.schema import Rulebook
from podium.rules.schema.ranking import Pool
from podium.rules.schema.stages import (
    ChgkSeasonStage,
    ChgkTourStage,
    GamesStage,
    Stage,
    TeamSolveStage,
    TimedSolveStage,
)
from podium.web.kernel.stages import rounds_of
from podium.web.kernel.texts import rt
from podium.web.live import flight
from podium.web.live.versions import stage_tag
from podium.web.models import Entry, Event, Result, Squad
from podium.web.registration.selectors.entries import squad_players, squads_players
from podium.web.results.selectors.publication import publication_state
from podium.web.results.selectors.rows import current_results, rounds_rows, stage_rows
from podium.web.results.selectors.tours import tour_questions
from podium.web.standings.charts.bars import Bar, bar_strip
from podium.web.standings.charts.histogram import histogram
from podium.web.standings.charts.lines import Series, line_chart
from podium.web.standings.charts.svg import ident
from podium.web.standings.selectors.live import live_round, who
from podium.web.standings.selectors.standings import round_tables, season_tours, visible

LEADERS = 3


@dataclass(frozen=True)
class ChartTable:
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    svg: SafeString
    caption: str
    table: ChartTable | None = field(default=None)

    @property
    def dom_id(self) -> str:
        return "figure-" + ident(self.key).removeprefix("chart-")


def stage_charts(
    event: Event, stage: Stage, round: int, staff: bool, at: dt.datetime | None = None
) -> list[Chart]:
    """The charts of one round of the stage that fit its format, as the visitor may see them
    (``staff``: the event's staff, who see drafts); ``at``: as the round stood then. Needs no
    request: PDFs use it too.

    Drawn once per version tag of the round and kept in the cache, as its tables are."""
    if not visible(publication_state(event, stage.key, round), staff):
        return []
    if at is not None:
        return _drawn(event, stage, round, staff, at)
    language = translation.get_language() or ""
    subject = f"podium:charts:{event.slug}:{stage.key}:{round}:{who(staff)}:{language}"
    tag = stage_tag(event.slug, stage)
    return flight.once(subject, tag, lambda: _drawn(event, stage, round, staff), exact=True)[1]


def _drawn(
    event: Event, stage: Stage, round: int, staff: bool, at: dt.datetime | None = None
) -> list[Chart]:
    charts: list[Chart | None]
    if isinstance(stage, ChgkSeasonStage):
        charts = [season_chart(event, stage, staff, at)]
    elif isinstance(stage, ChgkTourStage):
        charts = [question_strip(event, stage, round, at)]
    elif isinstance(stage, TimedSolveStage | TeamSolveStage):
        charts = list(finish_charts(event, stage, round, staff, at))
    elif isinstance(stage, GamesStage):
        charts = list(squads_charts(event, stage, at))
    else:
        charts = []
    return [c for c in charts if c is not None]


def _points(value: Decimal | float | int) -> str:
    return str(floatformat(value, "-3"))


def _place(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def _chart(key: str, title: str, svg: str, caption: str, table: ChartTable) -> Chart:
    # Safe: the drawing escapes every text it was given (see podium.web.standings.charts).
    return Chart(key, title, mark_safe(svg), caption, table)


# --- ChGK: the season's progression --------------------------------------------------------


def tour_points(
    rulebook: Rulebook, tour: str, rows: Sequence[RawRow]
) -> dict[str, dict[str, Decimal]]:
    """Tour number → team id → the points of its official place in that tour (the season's
    rows of every tour, as ``stage_rows`` reads them)."""
    by_tour: dict[str, list[RawRow]] = defaultdict(list)
    for row in rows:
        if row.cells.get("tour") != PLAYOFF:
            by_tour[row.cells.get("tour", "")].append(row)
    points: dict[str, dict[str, Decimal]] = {}
    for number, tour_rows in by_tour.items():
        table = compute_standings(rulebook, tour, tour_rows).tables[0]
        points[number] = {
            r.entry.id: r.points or Decimal(0) for r in table.rows if r.entry.official
        }
    return points


def season_chart(
    event: Event, stage: ChgkSeasonStage, staff: bool, at: dt.datetime | None = None
) -> Chart | None:
    tours, drafts = season_tours(event, stage, staff)
    rows = stage_rows(event, stage.key, at=at, rounds=tours)
    if not rows:
        return None
    played = {row.cells.get("tour") for row in rows}
    tours = [t for t in tours if str(t) in played]  # as of a past moment, those played by then
    drafts = [t for t in drafts if t in tours]
    try:
        season = compute_standings(event.rulebook, stage.key, rows).tables[0]
        by_tour = tour_points(event.rulebook, stage.tour, rows)
    except InputError:
        return None  # the season's own table says what is wrong (to staff)
    series, table_rows, standing = [], [], []
    for place, row in enumerate(season.rows, start=1):
        running, values = Decimal(0), []
        for tour in tours:
            running += by_tour.get(str(tour), {}).get(row.entry.id, Decimal(0))
            values.append(running)
        total = _points(running)
        rank = place if place <= LEADERS else 0
        name = f"{row.entry.name}: {total}"
        points = tuple(float(v) for v in values)
        shown = _place(row.official_rank or row.rank, row.official_rank_to or row.rank_to)
        series.append(Series(name, points, rank, row.entry.name, total if rank else "", shown))
        table_rows.append((row.entry.name, *(_points(v) for v in values)))
        standing.append(f"{shown}. {row.entry.name} {total}")
    last = tours[-1]
    title = _("Season points after each tour")
    desc = _(
        "Season points added up tour by tour, after tours %(tours)s. "
        "After tour %(last)s: %(standing)s."
    ) % {
        "tours": ", ".join(str(t) for t in tours),
        "last": last,
        "standing": "; ".join(standing),
    }
    caption = _(
        "Each team's points added up after every tour; a tour a team missed adds 0 points. "
        "The three leaders are labelled."
    )
    if drafts:
        caption += " " + _("Includes tours still in draft (only staff sees them): %(tours)s.") % {
            "tours": ", ".join(str(t) for t in drafts)
        }
    svg = line_chart(
        key="season",
        title=title,
        desc=desc,
        x_labels=[str(t) for t in tours],
        series=series,
        x_title=_("Tour"),
        y_title=_("Points"),
        y_low=0,
    )
    head = (_("Team"), *(_("After tour %(n)s") % {"n": t} for t in tours))
    return _chart("season", title, svg, caption, ChartTable(head, tuple(table_rows)))


# --- ChGK: how many teams took each question -------------------------------------------------


def _round_name(event: Event, stage: Stage, round: int) -> str:
    titles = {r.number: r.title for r in rounds_of(event, stage)}
    return titles.get(round) or _("tour %(n)s") % {"n": round}


def question_strip(
    event: Event, stage: ChgkTourStage, round: int, at: dt.datetime | None = None
) -> Chart | None:
    # The jury's verdicts applied, open disputes blind: a question says it is under appeal,
    # never how many of its answers are disputed (podium.web.disputes.selectors.anonymity).
    read = rounds_rows(event, stage.key, {round: at})[round]
    results = read.rows
    masks = [(r.cells.get("mask") or "").strip() for r in results]
    length = tour_questions(event, stage, round)
    masks = [m for m in masks if len(m) == length]
    if not masks:
        return None
    teams = len(masks)
    bars, rows, said = [], [], []
    withdrawn_any = False
    for number in range(1, length + 1):
        marks = [m[number - 1] for m in masks]
        withdrawn = "X" in marks
        taken = marks.count("1")
        withdrawn_any |= withdrawn
        if withdrawn:
            note = _("Question %(n)s: withdrawn") % {"n": number}
            shown = _("withdrawn")
        else:
            note = _("Question %(n)s: taken by %(taken)s of %(teams)s") % {
                "n": number, "taken": taken, "teams": teams,
            }  # fmt: skip
            shown = str(taken)
            if number in read.under_appeal:
                note += " " + _("(under appeal)")
                shown += " " + _("(under appeal)")
        bars.append(Bar(str(number), 0 if withdrawn else taken, withdrawn, note))
        rows.append((str(number), shown))
        said.append(note)
    name = _round_name(event, stage, round)
    title = _("Questions taken — %(round)s") % {"round": name}
    desc = (
        ngettext("%(teams)s team entered question by question.",
                 "%(teams)s teams entered question by question.", teams)
        % {"teams": teams}
        + " " + "; ".join(said) + "."
    )  # fmt: skip
    caption = ngettext(
        "How many of the %(teams)s team entered question by question took each question.",
        "How many of the %(teams)s teams entered question by question took each question.",
        teams,
    ) % {"teams": teams}
    without = len(results) - teams
    if without:
        caption += " " + ngettext(
            "%(count)s team entered only its total and is not counted here.",
            "%(count)s teams entered only their totals and are not counted here.",
            without,
        ) % {"count": without}
    if withdrawn_any:
        caption += " " + _("✕: withdrawn for every team.")
    if read.under_appeal:
        caption += " " + _("Under appeal: a disputed answer counts as not taken until the verdict.")
    svg = bar_strip(
        key=f"questions-{round}",
        title=title,
        desc=desc,
        bars=bars,
        top=teams,
        x_title=_("Question"),
        y_title=_("Teams"),
    )
    head = (_("Question"), _("Teams that took it"))
    return _chart(f"questions-{round}", title, svg, caption, ChartTable(head, tuple(rows)))


# --- Timed puzzles: finish times per group, with the cut -----------------------------------


def _clock_minutes(minutes: float) -> str:
    whole = int(minutes)
    return f"{whole // 60}:{whole % 60:02d}"


def domestic_pool(stage: Stage, table: str) -> Pool | None:
    """The first advancement pool of the table that takes official (domestic) entrants."""
    pools = stage.advancement.pools_for(table) if stage.advancement else ()
    return next((p for p in pools if "official" in p.classes), None)


def finish_charts(
    event: Event,
    stage: TimedSolveStage | TeamSolveStage,
    round: int,
    staff: bool,
    at: dt.datetime | None = None,
) -> list[Chart]:
    if at is None:
        view = live_round(event, stage, round, staff, stage_tag(event.slug, stage))
    else:
        view = round_tables(event, stage, round, staff, at)
    if not view.visible:
        return []
    charts = [finish_chart(stage, table) for table in view.tables]
    return [c for c in charts if c is not None]


def _table_name(stage: Stage, table: dict[str, Any]) -> str:
    if table["key"] in stage.groups:
        return _("group %(group)s") % {"group": table["key"]}
    return rt(stage.title) if table["key"] == "all" else rt(table["title"])


def finish_chart(stage: TimedSolveStage | TeamSolveStage, table: dict[str, Any]) -> Chart | None:
    """The histogram of one table's page rows (live or frozen: both carry ``metrics``)."""
    rows = table["rows"]
    times = [r["metrics"].get("time_ms") for r in rows]
    finished = sorted(int(t) for t in times if t is not None)
    if not finished:
        return None
    not_finished = len(rows) - len(finished)
    size = 5 if stage.time_limit_min <= 120 else 10
    every = 15 if size == 5 else 30
    start = finished[0] // (every * 60_000) * every  # minutes, a whole tick

    # Whole milliseconds, so that a time on a bin's edge (50:00) falls in the bin it starts.
    def bin_of(millis: int) -> int:
        return (millis - start * 60_000) // (size * 60_000)

    bins = max(math.ceil((stage.time_limit_min - start) / size), bin_of(finished[-1]) + 1)
    counts = [0] * bins
    for millis in finished:
        counts[bin_of(millis)] += 1
    names = [
        f"{_clock_minutes(start + i * size)}–{_clock_minutes(start + (i + 1) * size)}"
        for i in range(bins)
    ]
    end = start + bins * size
    ticks = [(m, _clock_minutes(m)) for m in range(start, end + 1, every)]
    cut, cut_text = None, ""
    pool = domestic_pool(stage, table["key"])
    through = [r for r in rows if pool is not None and r.get("pool") == pool.key]
    if pool is not None and through:
        last = [r["metrics"].get("time_ms") for r in through]
        label = rt(pool.label)
        if all(t is not None for t in last):
            last_ms = max(int(t) for t in last if t is not None)
            at = format_clock(last_ms)
            cut = (last_ms / 60_000, _("%(pool)s: cut at %(time)s") % {"pool": label, "time": at})
            cut_text = ngettext(
                "%(pool)s: %(count)s advances, the last at %(time)s (the dashed line).",
                "%(pool)s: %(count)s advance, the last at %(time)s (the dashed line).",
                len(through),
            ) % {"count": len(through), "pool": label, "time": at}
        else:
            cut_text = _("Every finisher of %(pool)s advances.") % {"pool": label}
    name = _table_name(stage, table)
    title = _("Finish times — %(table)s") % {"table": name}
    summary = _("%(entrants)s entrants: %(finished)s finished, %(not)s did not.") % {
        "entrants": len(rows), "finished": len(finished), "not": not_finished,
    }  # fmt: skip
    binned = "; ".join(f"{n}: {c}" for n, c in zip(names, counts, strict=True) if c)
    desc = f"{summary} {binned}. {cut_text}".strip()
    caption = ngettext(
        "Finish times (penalties included) in bins of %(size)s minute; %(not)s did not finish.",
        "Finish times (penalties included) in bins of %(size)s minutes; %(not)s did not finish.",
        size,
    ) % {"size": size, "not": not_finished}
    if cut_text:
        caption += " " + cut_text
    key = f"finish-{table['key']}"
    svg = histogram(
        key=key,
        title=title,
        desc=desc,
        start=start,
        size=size,
        counts=counts,
        ticks=ticks,
        bin_names=names,
        extra=(_("not finished"), not_finished),
        cut=cut,
        x_title=_("Finish time (h:mm)"),
        y_title=_("Entrants"),
    )
    rows_shown = [(n, str(c)) for n, c in zip(names, counts, strict=True)]
    rows_shown.append((_("not finished"), str(not_finished)))
    head = (_("Finish time"), _("Entrants"))
    return _chart(key, title, svg, caption, ChartTable(head, tuple(rows_shown)))


# --- Bowling: each player's games, per squad ------------------------------------------------


def squads_charts(event: Event, stage: GamesStage, at: dt.datetime | None = None) -> list[Chart]:
    """One chart per squad with games recorded in the stage, squads in their order."""
    results = current_results(event, stage.key, at=at)
    by_squad: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        if result.entry_id and result.entry.squad_id:
            by_squad[result.entry.squad_id].append(result)
    players: dict[int, list[Entry]] = defaultdict(list)
    for player in squads_players(event, stage).filter(squad__in=list(by_squad)):
        players[player.squad_id].append(player)
    charts = []
    for squad in Squad.objects.filter(pk__in=by_squad).order_by("starts_at", "name"):
        chart = squad_chart(event, stage, squad, by_squad[squad.pk], players[squad.pk])
        if chart is not None:
            charts.append(chart)
    return charts


def _games(cells: dict[str, str], columns: Sequence[str]) -> tuple[int | None, ...]:
    """The game scores, ``None`` for a game not recorded yet (only the last ones can be)."""
    games: list[int | None] = []
    for column in columns:
        value = (cells.get(column) or "").strip()
        games.append(int(value) if value.isdigit() else None)
    return tuple(games)


def squad_chart(
    event: Event,
    stage: GamesStage,
    squad: Squad,
    results: Sequence[Result] | None = None,
    players: Sequence[Entry] | None = None,
) -> Chart | None:
    """The squad's lines (``results``: its players' current results, and ``players`` its
    players, if already read)."""
    if players is None:
        players = list(squad_players(event, squad, stage))
    if results is None:
        ids = {p.pk for p in players}
        results = [r for r in current_results(event, stage.key) if r.entry_id in ids]
    by_entry = {r.entry_id: r for r in results}
    columns = [f"g{i}" for i in range(1, stage.games + 1)]
    bowled = []
    for player in players:
        result = by_entry.get(player.pk)
        games = _games(result.cells, columns) if result else ()
        if any(g is not None for g in games):
            total = sum(g for g in games if g is not None)
            bowled.append((player, games, total))
    if not bowled:
        return None
    leaders = sorted(bowled, key=lambda b: (-b[2], b[0].number))[:LEADERS]
    ranks = {b[0].pk: i for i, b in enumerate(leaders, start=1)}
    totals = [b[2] for b in bowled]
    series, rows = [], []
    for player, games, total in bowled:
        rank = ranks.get(player.pk, 0)
        shown = [str(g) if g is not None else "" for g in games]
        name = f"#{player.number} {player.name}: {', '.join(s for s in shown if s)} ({total})"
        place = _place(1 + sum(t > total for t in totals), sum(t >= total for t in totals))
        value = str(total) if rank else ""
        series.append(Series(name, games, rank, player.name, value, place))
        rows.append((f"#{player.number} {player.name}", *shown, str(total)))
    title = _("Games — %(squad)s") % {"squad": squad.name}
    best = "; ".join(f"{p.name} {t}" for p, _g, t in leaders)
    desc = ngettext(
        "Pinfall game by game of %(count)s player. Highest totals so far: %(best)s.",
        "Pinfall game by game of %(count)s players. Highest totals so far: %(best)s.",
        len(bowled),
    ) % {"count": len(bowled), "best": best}
    caption = _(
        "Each player's pinfall game by game, the games recorded so far; the three highest "
        "totals so far are labelled."
    )
    key = f"squad-{squad.pk}"
    svg = line_chart(
        key=key,
        title=title,
        desc=desc,
        x_labels=[str(i) for i in range(1, stage.games + 1)],
        series=series,
        x_title=_("Game"),
        y_title=_("Pins"),
    )
    head = (_("Player"), *(str(i) for i in range(1, stage.games + 1)), _("Total"))
    return _chart(key, title, svg, caption, ChartTable(head, tuple(rows)))
