"""The rows of every export: a standings table, the entry lists, the start list, a squad's lane
schedule and the check-in list, as documents the CSV, XLSX and PDF writers all read.

Vocabulary:
- document: one export — its title, file name, sheets, the as-of moment and (standings only)
  the state line; ``context`` carries what the page's own template needs, so the PDF renders
  from the same template as the page.
- sheet: one table of a document (a standings table, a group, division or squad, a block of
  lanes): one worksheet in XLSX (named by its short ``name`` where the title is long), one run
  of rows in CSV.
- column: a key, a header in the event's language and a kind that says how it is laid out —
  ``text``, ``long`` (wrapped text), ``number`` (right-aligned; ``decimals`` for points); how a
  cell is written follows its typed value.
- typed value: what a cell holds — ``int``, ``float``, ``datetime.timedelta`` (a time such as
  a finish time), an aware ``datetime.datetime``, ``str`` or ``None`` (empty). A place shared
  by a tie is the text ``2–3``; a single place is a number.
- state line: ``draft``, ``preliminary`` or ``final (version N)`` of a standings round.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from podium.engine.standings import points_decimals
from podium.rules.schema.stages import Stage
from podium.web.files.selectors.printout import marks_text, printout
from podium.web.kernel.stages import has_calendar
from podium.web.kernel.texts import (
    points_shown,
    reason_text,
    rt,
    score_text,
    status_text,
    table_title,
)
from podium.web.models import Event, Publication
from podium.web.standings.selectors.charts.stage import stage_charts
from podium.web.standings.selectors.standings import RoundTables, round_tables

CLOCK = re.compile(r"^(\d+):([0-5]\d):([0-5]\d)(?:\.(\d{1,3}))?$")
WHOLE = re.compile(r"-?\d{1,15}")  # longer digit runs stay text (Excel keeps 15 digits)


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    kind: str = "text"
    decimals: int = 0


@dataclass
class Sheet:
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]] = field(default_factory=list)
    name: str = ""  # a short name for a worksheet tab (Excel allows 31 characters)


@dataclass
class Document:
    title: str
    filename: str  # without the extension
    sheets: list[Sheet]
    as_of: dt.datetime
    zone: Any  # the event's time zone: times are shown in it
    state: str = ""
    template: str = "podium/exports/sheets.html"
    context: dict[str, Any] = field(default_factory=dict)


# --- Typed values ----------------------------------------------------------------------------


def clock_value(text: str) -> dt.timedelta | None:
    """``1:02:03`` → a duration; anything else (``415 pcs``, ``1:02:03 (+10 s)``) → ``None``."""
    found = CLOCK.match(text.strip())
    if not found:
        return None
    hours, minutes, seconds, fraction = found.groups()
    millis = int(fraction.ljust(3, "0")) if fraction else 0
    return dt.timedelta(
        hours=int(hours), minutes=int(minutes), seconds=int(seconds), milliseconds=millis
    )


def score_value(text: str) -> Any:
    """The score as the page shows it, typed where it is a plain time or a plain number."""
    clock = clock_value(text)
    if clock is not None:
        return clock
    return whole_value(text)


def whole_value(text: str) -> int | str:
    """A whole number (a negative one too) as a number, so it is no formula-like text."""
    return int(text) if WHOLE.fullmatch(text) else text


def place_value(first: int | None, last: int | None) -> int | str | None:
    if first is None:
        return None
    return first if last in (None, first) else f"{first}–{last}"


def number_value(number: Any) -> int | str:
    return whole_value(str(number))


# --- Standings -------------------------------------------------------------------------------


def state_line(view: RoundTables) -> str:
    if view.state == Publication.State.FINAL and view.frozen is not None:
        return _("final (version %(version)s)") % {"version": view.frozen.version}
    return str(Publication.State(view.state).label)


def reasons_text(row: dict[str, Any]) -> str:
    """The "why" of a row, one reason a line, each with the clause it quotes."""
    lines = []
    for reason in row.get("reasons", []):
        clause, text = reason.get("clause"), reason_text(reason)
        lines.append(f"{text} — “{clause}”" if clause else text)
    return "\n".join(lines)


def standings_columns(stage: Stage, decimals: int | None) -> list[Column]:
    """``decimals``: of the rows' points (``points_decimals``), ``None`` where they have none."""
    columns = [
        Column("place", _("Place"), "number"),
        Column("position", _("Position"), "number"),
        Column("number", _("No."), "number"),
        Column("name", _("Name")),
        Column("score", _("Score")),
    ]
    if decimals is not None:
        columns.append(Column("points", _("Points"), "number", decimals))
    columns += [Column("marks", _("Marks")), Column("why", _("Why"), "long")]
    return columns


def points_value(points: float | int | None) -> float | int | None:
    """Whole points as a whole number; others keep the stage's decimals (as the page shows)."""
    if points is None:
        return None
    return int(points) if float(points).is_integer() else float(points)


def standings_row(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "place": place_value(row["official_rank"], row["official_rank_to"]),
        "position": place_value(row["rank"], row["rank_to"]),
        "number": number_value(row.get("number") or row["id"]),
        "name": row["name"],
        "score": score_value(score_text(row)),
        "points": points_value(row.get("points")),
        "marks": marks_text(row),
        "why": reasons_text(row),
    }


def absent_row(absent: dict[str, Any]) -> dict[str, Any]:
    """An entrant without a result, after the ranked rows: no place; the status for a score."""
    return {
        "place": None,
        "position": None,
        "number": number_value(absent["id"]),
        "name": absent["name"],
        "score": status_text(absent["status"]),
        "points": None,
        "marks": "",
        "why": reasons_text(absent),
    }


def sheet_name(table: dict[str, Any], stage: Stage) -> str:
    """A group's table is "Group A"; the stage's only table or a division's is its title."""
    if table["key"] in stage.groups:
        return _("Group %(group)s") % {"group": table["key"]}
    return table_title(table, stage)


def standings_document(
    event: Event, stage: Stage, round: int, staff: bool, now: dt.datetime
) -> Document | None:
    """The round's tables as the standings page shows them; ``None`` when the visitor may not
    see them (a draft for anyone but staff). A final round is its newest frozen version."""
    view = round_tables(event, stage, round, staff)
    if not view.visible:
        return None
    decimals = points_decimals(event.rulebook, stage)
    columns = standings_columns(stage, decimals)
    sheets = [
        Sheet(
            table_title(t, stage),
            columns,
            [standings_row(r) for r in t["rows"]] + [absent_row(a) for a in t.get("absent", [])],
            name=sheet_name(t, stage),
        )
        for t in view.tables
    ]
    title = f"{event.title} — {rt(stage.title)}"
    if has_calendar(stage):
        title += " — " + _("round %(n)s") % {"n": round}
    return Document(
        title=title,
        filename=f"{event.slug}-{stage.key}-{round}",
        sheets=sheets,
        as_of=view.as_of or now,
        zone=event.zone,
        state=state_line(view),
        template="podium/exports/standings.html",
        context={
            "stage": stage,
            "round": round,
            "view": view,
            **points_shown(event.rulebook, stage),
            # Drawn only when a template reads them (the PDF): a callable in a context is called.
            "charts": lambda: stage_charts(event, stage, round, staff),
            "printout": lambda: printout(event, stage, view.tables),  # the PDF's layout
        },
    )
