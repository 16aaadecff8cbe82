"""Standings as people and programs read them: a table, JSON (DESIGN §3) or CSV."""

from __future__ import annotations

import csv
import io
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table as RichTable

from podium.cli import jsontext
from podium.engine.absence import status_label
from podium.engine.collector import paused_gc
from podium.engine.document import row_data, standings_data
from podium.engine.formulas import csv_safe
from podium.engine.standings import Row, Standings


def _places(first: int | None, last: int | None) -> str:
    if first is None or last is None:
        return "—"
    return str(first) if first == last else f"{first}–{last}"


@paused_gc  # the rows are written as they are read: many small objects, no cycles among them
def write_json(standings: Standings, out: TextIO) -> None:
    """The JSON document (DESIGN §3) as ``json.dumps(…, indent=2)`` writes it, row by row."""
    jsontext.write(standings_data(standings, lazy=True), out.write)
    out.write("\n")


CSV_COLUMNS = (
    "table", "rank", "rank_to", "official_rank", "official_rank_to", "id", "name", "score",
    "points", "advances", "playoff", "prize", "class", "reasons",
)  # fmt: skip


# Podium's own figures: written as they are, a negative one too.
_COMPUTED = frozenset({"rank", "rank_to", "official_rank", "official_rank_to", "score", "points"})


def _cell(column: str, value: Any) -> Any:
    """A cell of the CSV: text people typed (names, ids, a rulebook's clauses) escaped where a
    spreadsheet would run it (``podium.engine.formulas``)."""
    if value is None:
        return ""
    return csv_safe(value) if isinstance(value, str) and column not in _COMPUTED else value


@paused_gc
def to_csv(standings: Standings) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for table in standings.tables:
        for row in table.rows:
            d = row_data(row, table.key)
            d["points"] = "" if row.points is None else str(row.points)
            d["reasons"] = " | ".join(r["text"] for r in d["reasons"])
            for flag in ("advances", "playoff", "prize"):
                d[flag] = "yes" if d[flag] else "no"
            writer.writerow([_cell(c, d[c]) for c in CSV_COLUMNS])
        for absentee in table.absent:  # no place; the score column says why (DESIGN §3)
            a = {"table": table.key, "id": absentee.id, "name": absentee.name}
            a |= {"score": absentee.status, "reasons": absentee.reason.text}
            a |= {"advances": "no", "playoff": "no", "prize": "no"}
            writer.writerow([_cell(c, a.get(c)) for c in CSV_COLUMNS])
    return out.getvalue()


def _why(row: Row) -> str:
    """The one or two reasons a reader wants first: what placed it, and what follows."""
    texts = [r.text for r in row.reasons]
    rank = next(
        (t for t in texts if t.startswith(("Below", "First", "Shares", "Tied"))),
        texts[0] if texts else "",
    )
    tail = next((t for t in texts if t.startswith(("Advances", "Does not", "Tied at"))), "")
    return "; ".join(t for t in (rank, tail) if t)


def _mark(row: Row) -> str:
    marks = []
    if row.advances:
        marks.append("✓ advances")
    if row.playoff:
        marks.append("play-off")
    if row.prize:
        marks.append("prize")
    if not row.entry.official:
        marks.append("outside")
    return ", ".join(marks)


@paused_gc
def print_table(standings: Standings, console: Console) -> None:
    for table in standings.tables:
        grid = RichTable(title=table.title, title_justify="left", expand=False)
        for header, justify in (
            ("Place", "right"),
            ("Pos.", "right"),
            ("Entrant", "left"),
            ("Score", "right"),
            ("", "left"),
            ("Why", "left"),
        ):
            grid.add_column(header, justify=justify)  # type: ignore[arg-type]
        for row in table.rows:
            score = row.entry.score_text
            # A season's or a league's score already says its points; place points are added.
            if row.points is not None and row.entry.points is None:
                score = f"{score} / {row.points} pts"
            name = row.entry.name
            if name != row.entry.id:
                name = f"{name} ({row.entry.id})"
            grid.add_row(
                _places(row.official_rank, row.official_rank_to),
                _places(row.rank, row.rank_to),
                name,
                score,
                _mark(row),
                _why(row),
            )
        for absentee in table.absent:  # at the foot, without a place
            name = absentee.name
            if name != absentee.id:
                name = f"{name} ({absentee.id})"
            why = absentee.reason.text
            if absentee.reason.clause:
                why = f"{why} [{absentee.reason.clause}]"
            grid.add_row("—", "—", name, str(status_label(absentee.status)), "", why)
        console.print(grid)
