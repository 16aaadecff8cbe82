"""Scorecards: the sheets a referee fills in by hand at the venue, one per group or squad of a
stage, as an export document (printed as PDF; CSV and XLSX hold the same blank grid).

Vocabulary:
- document, sheet, column: see ``podium.web.files.selectors.exports``.
- box: an empty column the referee fills in with a pen (kind ``box``: printed as a framed
  cell tall enough to write in).
- scorecard by format: a jigsaw stage (``timed-solve``, ``team-solve``) lists each entrant of
  a group with the table the draw gave it and boxes for checked in, time, missing pieces,
  pieces placed (if not finished) and the competitor's initials (the agreement the rulebook
  asks for); a bowling stage (``games``) lists each player of a squad with the lane pair and
  lane of the first block and a box per game and for the total; a ChGK tour
  (``chgk-tour``) lists each team with a box per question of one tour (as many as the tour
  has, ``podium.web.results.selectors.tours``) and for the total — the scorer's paper grid, for when
  the keyboard is not at hand. Other formats have none.
- group: a squad (bowling), else the entry's qualification group; a stage fed by another has
  the entrants who advanced into it, in one sheet per group they are in.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext as _

from podium.rules.schema.stages import (
    ChgkTourStage,
    GamesStage,
    Stage,
)
from podium.web.files.selectors.exports import Column, Document, Sheet
from podium.web.files.selectors.lists import starting_lanes
from podium.web.kernel.stages import has_scorecards, round_numbers, stage_entries
from podium.web.kernel.texts import rt
from podium.web.models import Entry, Event
from podium.web.registration.selectors.entries import roster
from podium.web.results.selectors.tours import tour_questions, varies

NO_SQUAD = dt.datetime.min.replace(tzinfo=dt.UTC)


def _boxes(stage: Stage, questions: int | None) -> list[Column]:
    if isinstance(stage, GamesStage):
        games = [
            Column(f"g{n}", _("Game %(n)s") % {"n": n}, "box") for n in range(1, stage.games + 1)
        ]
        return [*games, Column("total", _("Total"), "box")]
    if isinstance(stage, ChgkTourStage):
        boxes = [Column(f"q{n}", str(n), "box") for n in range(1, (questions or 0) + 1)]
        return [*boxes, Column("total", _("Total"), "box")]
    return [
        Column("here", _("Here"), "box"),
        Column("time", _("Time"), "box"),
        Column("missing", _("Missing pieces"), "box"),
        Column("pieces", _("Pieces placed"), "box"),
        Column("agreed", _("Competitor's initials"), "box"),
    ]


def _group(entry: Entry) -> str:
    if entry.squad_id:
        return str(entry.squad)
    return _("Group %(group)s") % {"group": entry.group} if entry.group else ""


def _tour(event: Event, stage: Stage, tour: int | None) -> tuple[int | None, int | None]:
    """A ChGK stage's tour and its length (``results.selectors.tours``): the tour asked for, else
    the newest on the calendar; ``(None, questions)`` where the rulebook fixes the length."""
    if not isinstance(stage, ChgkTourStage):
        return None, None
    if tour is None and varies(stage):
        tour = max(round_numbers(event, stage), default=None)
    if tour is None:
        return None, stage.questions
    return tour, tour_questions(event, stage, tour)


def scorecards_document(
    event: Event, stage: Stage, now: dt.datetime, tour: int | None = None
) -> Document | None:
    """The stage's scorecards, a sheet per group or squad; ``None`` for a format without. A ChGK
    tour's cards have a box per question of ``tour`` (see ``_tour``)."""
    if not has_scorecards(stage):
        return None
    tour, questions = _tour(event, stage, tour)
    entries = list(stage_entries(event, stage).select_related("squad").prefetch_related(roster()))
    squads = list({e.squad_id: e.squad for e in entries if e.squad}.values())
    lanes = starting_lanes(event, squads) if isinstance(stage, GamesStage) else {}
    entries.sort(
        key=lambda e: (
            e.squad.starts_at if e.squad else NO_SQUAD,
            e.group,
            lanes.get(e.id, ("", 0))[1],
            e.table_number or 0,
            e.number,
        )
    )
    columns = []
    if lanes:
        columns += [Column("lanes", _("Lanes")), Column("lane", _("Lane"), "number")]
    if any(e.table_number for e in entries):
        columns.append(Column("table", _("Table"), "number"))
    columns += [
        Column("number", _("No."), "number"),
        Column("name", _("Name")),
        *_boxes(stage, questions),
    ]
    sheets: dict[str, Sheet] = {}
    stage_title = rt(stage.title)
    if tour is not None:
        stage_title = _("%(stage)s, tour %(n)d") % {"stage": stage_title, "n": tour}
    for entry in entries:
        group = _group(entry)
        title = f"{stage_title} — {group}" if group else stage_title
        sheet = sheets.setdefault(title, Sheet(title, columns, name=group or stage_title))
        lane = lanes.get(entry.id)
        row: dict[str, Any] = {
            "lanes": lane[0] if lane else "",
            "lane": lane[1] if lane else None,
            "table": entry.table_number,
            "number": entry.number,
            "name": entry.name,
        }
        sheet.rows.append(row)
    return Document(
        title=f"{event.title} — {stage_title} — {_('Scorecards')}",
        filename=f"{event.slug}-{stage.key}{f'-{tour}' if tour else ''}-scorecards",
        sheets=list(sheets.values()),
        as_of=now,
        zone=event.zone,
        template="podium/exports/scorecards.html",
    )
