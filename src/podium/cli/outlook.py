"""``podium standings … --outlook [--remaining N] [--why A,B]``: what can still happen (DESIGN §3).

Vocabulary: see ``podium.engine.outlook`` (best, worst, certain/open/out, needs) and
``podium.engine.outlook.why`` (the criterion that separates two rows).
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table as RichTable

from podium.cli import jsontext
from podium.engine.document import reason_data, row_data, standings_data
from podium.engine.messages import render
from podium.engine.outlook import Outlook, StageOutlook
from podium.engine.outlook.why import Separation
from podium.engine.standings import Row, Standings

MOST_REMAINING = 1000  # rounds still to play: more than any season has


def outlook_data(o: Outlook) -> dict[str, Any]:
    data: dict[str, Any] = {
        "best": o.best,
        "worst": o.worst,
        "advances": o.advances,
        "exact": o.exact,
        "reasons": [reason_data(r) for r in o.reasons],
    }
    if o.needs is not None:
        data["needs"] = {
            "sure": None if o.needs.sure is None else render(o.needs.sure),
            "out": None if o.needs.out is None else render(o.needs.out),
            "text": o.needs.reason.text,
        }
    return data


def separation_data(s: Separation) -> dict[str, Any]:
    return {
        "above": s.above,
        "below": s.below,
        "criterion": s.criterion,
        "values": [render(v) for v in s.values] if s.criterion else None,
        "clause": s.reason.clause,
        "text": s.reason.text,
    }


def write_json(
    standings: Standings, seen: StageOutlook | None, why: Separation | None, out: TextIO
) -> None:
    def row(r: Row, table: str) -> dict[str, Any]:
        data = row_data(r, table)
        if seen is not None:
            data["outlook"] = outlook_data(seen.rows[(table, r.entry.id)])
        return data

    document = standings_data(standings, row)
    if why is not None:
        document["why"] = separation_data(why)
    jsontext.write(document, out.write)
    out.write("\n")


def print_outlook(seen: StageOutlook, console: Console) -> None:
    for table in seen.standings.tables:
        grid = RichTable(title=f"{table.title}: outlook", title_justify="left", expand=False)
        for header in ("Pos.", "Entrant", "Can finish", "Advances", "What it takes"):
            grid.add_column(header)
        for r in table.rows:
            o = seen.rows[(table.key, r.entry.id)]
            places = str(o.best) if o.best == o.worst else f"{o.best}–{o.worst}"
            if not o.exact:
                places += " (bound)"
            needs = o.needs.reason.text if o.needs else ""
            grid.add_row(str(r.rank), r.entry.name, places, o.advances or "", needs)
        console.print(grid)


def print_why(why: Separation, out: TextIO = sys.stdout) -> None:
    clause = f" ({why.reason.clause})" if why.reason.clause else ""
    out.write(f"{why.reason.text}{clause}\n")
