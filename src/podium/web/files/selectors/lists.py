"""The lists an event prints and hands out: entry lists, the start list, a squad's lane
schedule and the check-in list, as export documents.

Vocabulary:
- document, sheet, column, typed value: see ``podium.web.files.selectors.exports``.
- entry list: the confirmed entries per category and group, division or squad, and the waiting
  list, as the public entry list page shows them (``podium.web.registration.selectors.public``).
- start list: who starts where — per category and squad or group, each entry with the group
  and table number the draws gave it, or for bowling its squad, start and the lane pair and
  lane it starts the first block on (the squad's current lane draw).
- lane schedule: the American-system schedule of one squad's lane draw, block by block
  (``podium.web.draws.selectors.lane_sheet``).
- check-in list: every entry that is not cancelled, when it checked in and the seat it got
  (staff only).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.utils.translation import gettext as _

from podium.web.draws.selectors import entry_names, lane_sheet, lanes_draws
from podium.web.files.selectors.exports import Column, Document, Sheet
from podium.web.kernel.texts import rt
from podium.web.models import Draw, Entry, Event, Squad
from podium.web.registration.selectors.entries import roster
from podium.web.registration.selectors.public import ListedEntry, entry_lists

NO_SQUAD = dt.datetime.min.replace(tzinfo=dt.UTC)


def _kind(event: Event, category: str) -> str:
    return event.rulebook.category(category).entrants.kind


def _members(listed: ListedEntry) -> str:
    return ", ".join(listed.members) if len(listed.members) > 1 else ""


# --- Entry lists -----------------------------------------------------------------------------


def entries_document(event: Event, now: dt.datetime) -> Document:
    """The entry lists: a sheet per category and table, and one per waiting list."""
    categories = entry_lists(event)
    sheets = []
    for category in categories:
        team = _kind(event, category.key) != "individual"
        columns = [Column("number", _("No."), "number"), Column("name", _("Name"))]
        if team:
            columns.append(Column("members", _("Members")))
        columns.append(Column("country", _("Country")))
        listed_columns = list(columns)
        if category.division_column:
            listed_columns.append(Column("division", _("Division")))
        listed_columns += [Column("table", _("Table"), "number"), Column("standing", _("Standing"))]
        for table in category.tables:
            title = f"{category.title} — {table.title}" if table.title else category.title
            sheets.append(Sheet(title, listed_columns, [_entry_row(row) for row in table.rows]))
        if category.waiting:
            waiting_columns = [Column("position", _("Position"), "number"), *columns]
            waiting_columns.append(Column("standing", _("Standing")))
            rows = [
                {"position": row.entry.waiting_position} | _entry_row(row)
                for row in category.waiting
            ]
            sheets.append(Sheet(f"{category.title} — {_('Waiting list')}", waiting_columns, rows))
    return Document(
        title=f"{event.title} — {_('Entry lists')}",
        filename=f"{event.slug}-entries",
        sheets=sheets,
        as_of=now,
        zone=event.zone,
        template="podium/exports/entries.html",
        context={"categories": categories},
    )


def _entry_row(listed: ListedEntry) -> dict[str, Any]:
    return {
        "number": listed.entry.number,
        "name": listed.entry.name,
        "members": _members(listed),
        "country": ", ".join(listed.countries),
        "division": listed.division,
        "table": listed.entry.table_number,
        "standing": listed.outside or _("official"),
    }


# --- Start list ------------------------------------------------------------------------------


def starting_lanes(event: Event, squads: list[Squad]) -> dict[int, tuple[str, int]]:
    """Entry id → (lane pair "1–2", the lane it starts on) in the first block of its squad."""
    lanes: dict[int, tuple[str, int]] = {}
    draws = lanes_draws(event)
    for squad in squads:
        draw = draws.get(squad.pk)
        if draw is None:
            continue
        blocks = draw.result.get("outcome", {}).get("blocks", [])
        for pair in blocks[0]["pairs"] if blocks else []:
            left, right = pair["lanes"]
            for side, lane in (("left", left), ("right", right)):
                for entry_id in pair[side]:
                    lanes[entry_id] = (f"{left}–{right}", lane)
    return lanes


def start_list_document(event: Event, now: dt.datetime) -> Document:
    """Confirmed entries where they start: per category and squad or group."""
    entries = list(
        event.entries.filter(status=Entry.Status.CONFIRMED)
        .select_related("squad")
        .prefetch_related(roster())
    )
    squads = list({e.squad_id: e.squad for e in entries if e.squad}.values())
    lanes = starting_lanes(event, squads)
    by_category: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_category[entry.category].append(entry)
    sheets = []
    for category in event.rulebook.categories:
        found = by_category.get(category.key, [])
        if not found:
            continue
        found.sort(
            key=lambda e: (
                e.squad.starts_at if e.squad else NO_SQUAD,
                e.group,
                e.table_number or 0,
                lanes.get(e.id, ("", 0))[1],
                e.number,
            )
        )
        columns = _start_columns(found, lanes, category.entrants.kind != "individual")
        parts: dict[str, Sheet] = {}
        for entry in found:
            label = " · ".join(
                p
                for p in (
                    str(entry.squad) if entry.squad else "",
                    _("Group %(group)s") % {"group": entry.group} if entry.group else "",
                )
                if p
            )
            title = f"{rt(category.title)} — {label}" if label else rt(category.title)
            sheet = parts.setdefault(title, Sheet(title, columns))
            sheet.rows.append(_start_row(entry, lanes.get(entry.id)))
        sheets += parts.values()
    return Document(
        title=f"{event.title} — {_('Start list')}",
        filename=f"{event.slug}-start-list",
        sheets=sheets,
        as_of=now,
        zone=event.zone,
    )


def _start_columns(
    entries: list[Entry], lanes: dict[int, tuple[str, int]], team: bool
) -> list[Column]:
    columns = []
    if any(e.squad_id for e in entries):
        columns += [Column("squad", _("Squad")), Column("start", _("Start"))]
    if any(e.id in lanes for e in entries):
        columns += [Column("lanes", _("Lanes")), Column("lane", _("Lane"), "number")]
    if any(e.group for e in entries):
        columns.append(Column("group", _("Group")))
    if any(e.table_number for e in entries):
        columns.append(Column("table", _("Table"), "number"))
    columns += [Column("number", _("No."), "number"), Column("name", _("Name"))]
    if team:
        columns.append(Column("members", _("Members")))
    columns.append(Column("country", _("Country")))
    return columns


def _start_row(entry: Entry, lane: tuple[str, int] | None) -> dict[str, Any]:
    people = [m.person for m in entry.members.all()]
    return {
        "squad": str(entry.squad) if entry.squad else "",
        "start": entry.squad.starts_at if entry.squad else None,
        "lanes": lane[0] if lane else "",
        "lane": lane[1] if lane else None,
        "group": entry.group,
        "table": entry.table_number,
        "number": entry.number,
        "name": entry.name,
        "members": ", ".join(str(p) for p in people) if len(people) > 1 else "",
        "country": ", ".join(p.country for p in people if p.country),
    }


# --- Lane schedule ---------------------------------------------------------------------------


def lanes_document(event: Event, squad: Squad, draw: Draw, now: dt.datetime) -> Document:
    """The squad's lane schedule: a sheet per block, a row per lane pair."""
    blocks = lane_sheet(draw, entry_names(event))
    columns = [
        Column("lanes", _("Lanes")),
        Column("left", _("Starting on the left lane"), "long"),
        Column("right", _("Starting on the right lane"), "long"),
    ]
    sheets = []
    for block in blocks:
        title = _("Block %(number)s (games %(games)s)") % {
            "number": block["number"],
            "games": ", ".join(str(g) for g in block["games"]),
        }
        rows = [
            {
                "lanes": f"{p['left_lane']}–{p['right_lane']}",
                "left": ", ".join(p["left"]),
                "right": ", ".join(p["right"]),
            }
            for p in block["pairs"]
        ]
        sheets.append(Sheet(title, columns, rows))
    return Document(
        title=f"{_('Lane schedule')}: {event.title}, {squad.name}",
        filename=f"{event.slug}-lanes-{squad.pk}",
        sheets=sheets,
        as_of=now,
        zone=event.zone,
        template="podium/exports/lanes.html",
        context={"squad": squad, "draw": draw, "blocks": blocks},
    )


# --- Check-in list ---------------------------------------------------------------------------


def check_in_document(event: Event, now: dt.datetime) -> Document:
    """Who is checked in, when and on which seat: a sheet per category (staff only)."""
    entries = (
        event.entries.exclude(status=Entry.Status.CANCELLED)
        .select_related("squad", "check_in", "check_in__checked_in_by")
        .order_by("number")
    )
    bowling = event.squads.exists()
    columns = [
        Column("number", _("No."), "number"),
        Column("name", _("Name")),
        Column("status", _("Status")),
    ]
    if bowling:
        columns.append(Column("squad", _("Squad")))
    columns += [
        Column("checked_in", _("Checked in")),
        Column("seat", _("Seat")),
        Column("by", _("Checked in by")),
    ]
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for entry in entries:
        done = getattr(entry, "check_in", None)
        by_category[entry.category].append(
            {
                "number": entry.number,
                "name": entry.name,
                "status": entry.get_status_display(),
                "squad": str(entry.squad) if entry.squad else "",
                "checked_in": done.checked_in_at if done else None,
                "seat": done.seat if done else "",
                "by": str(done.checked_in_by) if done and done.checked_in_by else "",
            }
        )
    sheets = [
        Sheet(rt(c.title), columns, by_category[c.key])
        for c in event.rulebook.categories
        if by_category.get(c.key)
    ]
    return Document(
        title=f"{event.title} — {_('Check-in list')}",
        filename=f"{event.slug}-check-in",
        sheets=sheets,
        as_of=now,
        zone=event.zone,
    )
