"""The ChGK charts: the season's progression, and a tour's question strip.

Vocabulary:
- chart, leaders: see ``podium.web.standings.selectors.charts.common``.
- season progression: each team's season points after each tour, added up; a tour the team
  missed adds 0. The leaders are the first three rows of the season table.
- question strip: per question of a tour, how many of the teams entered question by question
  (with a mask) took it, from the tour's current results (once final they are frozen too) with
  the verdicts applied; a question with an open dispute is "under appeal", its disputed answers
  counted as not taken and never told apart (``podium.web.disputes.selectors.anonymity``).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.formats.chgk.season import PLAYOFF
from podium.engine.inputs import RawRow
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import ChgkSeasonStage, ChgkTourStage, Stage
from podium.web.kernel.memo import shared_reads
from podium.web.kernel.stages import rounds_of
from podium.web.models import Event
from podium.web.results.selectors.rows import rounds_rows, stage_rows, standings_as_of
from podium.web.results.selectors.tours import tour_questions
from podium.web.standings.charts.bars import Bar, bar_strip
from podium.web.standings.charts.lines import Series, line_chart
from podium.web.standings.selectors.charts.common import (
    LEADERS,
    Chart,
    ChartTable,
    drawn_chart,
    place_text,
    points_text,
)
from podium.web.standings.selectors.standings import season_tours


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
    summed, drafts = season_tours(event, stage, staff)
    with shared_reads():  # the rows read once, and with the table when drawn with it
        rows = stage_rows(event, stage.key, at=at, rounds=summed)
        if not rows:
            return None
        try:
            # The table's own standings: footnotes aside, the same.
            season = standings_as_of(event, stage.key, at=at, rounds=summed).tables[0]
            by_tour = tour_points(event.rulebook, stage.tour, rows)
        except InputError:
            return None  # the season's own table says what is wrong (to staff)
    played = {row.cells.get("tour") for row in rows}
    tours = [t for t in summed if str(t) in played]  # as of a past moment, those played by then
    drafts = [t for t in drafts if t in tours]
    series, table_rows, standing = [], [], []
    for place, row in enumerate(season.rows, start=1):
        running, values = Decimal(0), []
        for tour in tours:
            running += by_tour.get(str(tour), {}).get(row.entry.id, Decimal(0))
            values.append(running)
        total = points_text(running)
        rank = place if place <= LEADERS else 0
        name = f"{row.entry.name}: {total}"
        points = tuple(float(v) for v in values)
        shown = place_text(row.official_rank or row.rank, row.official_rank_to or row.rank_to)
        series.append(Series(name, points, rank, row.entry.name, total if rank else "", shown))
        table_rows.append((row.entry.name, *(points_text(v) for v in values)))
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
    return drawn_chart("season", title, svg, caption, ChartTable(head, tuple(table_rows)))


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
    return drawn_chart(f"questions-{round}", title, svg, caption, ChartTable(head, tuple(rows)))
