"""Standings as plain data: the JSON document of DESIGN §3, for programs and for frozen tables.

Vocabulary:
- document: ``{"rulebook", "stage", "tables": [{"key", "title", "rows"}]}``; every row carries
  its places, points, marks, class, score, metrics and reasons (each with its clause), and the
  key of the advancement quota it went through (``pool``; ``null`` when it does not advance).
- numbers: points and non-integer metrics as JSON numbers (floats); places are integers.
- lazy rows: a table's rows as an iterator that writes each row when it is read (see
  ``standings_data``).
- absent: a table's absentees (``podium.engine.absence``), after its rows: each
  ``{"id", "name", "table", "status", "reasons"}``, ``status`` one of ``dns``, ``dnf``,
  ``absent``; an empty list where every entrant has a result.
- reason: ``{"clause", "text"}``; a program that shows reasons in other languages passes its
  own ``reason`` writer to ``row_data``, and its own row writer to ``standings_data``, which may
  add what it needs (the web adds the messages' data).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from podium.engine.absence import Absentee
from podium.engine.collector import paused_gc
from podium.engine.entries import Number, Reason
from podium.engine.standings import Row, Standings, Table


def _number(value: Number | None) -> int | float | None:
    if value is None or isinstance(value, int):
        return value
    return float(value)


ReasonWriter = Callable[[Reason], dict[str, Any]]


def reason_data(reason: Reason) -> dict[str, Any]:
    return {"clause": reason.clause, "text": reason.text}


def row_data(row: Row, table: str, reason: ReasonWriter = reason_data) -> dict[str, Any]:
    e = row.entry
    decision = row.decision
    pool = decision.pool.key if decision and decision.advances and decision.pool else None
    return {
        "id": e.id,
        "name": e.name,
        "table": table,
        "rank": row.rank,
        "rank_to": row.rank_to,
        "official_rank": row.official_rank,
        "official_rank_to": row.official_rank_to,
        "points": _number(row.points),
        "advances": row.advances,
        "pool": pool,
        "playoff": row.playoff,
        "prize": row.prize,
        "official": e.official,
        "class": e.klass,
        "score": e.score_text,
        "metrics": {k: _number(v) for k, v in e.metrics.items()},
        "reasons": [reason(r) for r in row.reasons],
    }


def absent_data(absentee: Absentee, reason: ReasonWriter = reason_data) -> dict[str, Any]:
    return {
        "id": absentee.id,
        "name": absentee.name,
        "table": absentee.table,
        "status": absentee.status,
        "reasons": [reason(absentee.reason)],
    }


RowWriter = Callable[[Row, str], dict[str, Any]]


def standings_data(
    standings: Standings,
    row: RowWriter = row_data,
    *,
    lazy: bool = False,
    reason: ReasonWriter = reason_data,
) -> dict[str, Any]:
    """The document; ``lazy``: each table's rows as an iterator whose rows are written as it is
    read, so that a writer streaming the document holds one row at a time (and pauses the
    cyclic collector while it reads them, as this does for the lists); ``reason``: how an
    absentee's reason is written (a row's is the row writer's)."""
    if lazy:
        return _document(standings, lambda t: (row(r, t.key) for r in t.rows), reason)
    return _listed(standings, row, reason)


@paused_gc  # every row's reasons are written: many small objects, no cycles among them
def _listed(standings: Standings, row: RowWriter, reason: ReasonWriter) -> dict[str, Any]:
    return _document(standings, lambda t: [row(r, t.key) for r in t.rows], reason)


def _document(
    standings: Standings,
    rows: Callable[[Table], Iterable[dict[str, Any]]],
    reason: ReasonWriter,
) -> dict[str, Any]:
    return {
        "rulebook": standings.rulebook,
        "stage": standings.stage,
        "tables": [
            {
                "key": t.key,
                "title": t.title,
                "rows": rows(t),
                "absent": [absent_data(a, reason) for a in t.absent],
            }
            for t in standings.tables
        ],
    }
