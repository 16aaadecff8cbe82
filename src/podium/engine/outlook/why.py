"""Why one row stands above another: the first of the stage's criteria that separates them.

Vocabulary:
- separation: the criterion, both values (each as the criterion describes it) and its clause;
  a group criterion (head-to-head) is read over the entrants still tied with both on every
  criterion before it, as the ranking reads it. Rows equal on every criterion share their place
  or wait for a play-off, and the separation says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from podium.engine.entries import Entry, Reason
from podium.engine.errors import InputError, Problem
from podium.engine.messages import Value, _
from podium.engine.ranking import criteria_for
from podium.engine.standings import Standings
from podium.rules.schema.stages import Stage


@dataclass(frozen=True, slots=True)
class Separation:
    above: str
    below: str
    criterion: str | None  # None: not separated by any criterion
    values: tuple[Value, Value]
    reason: Reason


def why_above(standings: Standings, stage: Stage, first: str, second: str) -> Separation:
    """Why ``first`` and ``second`` (entrant ids of one table) stand as they do."""
    for table in standings.tables:
        rows = {r.entry.id: r for r in table.rows}
        if first in rows and second in rows:
            break
    else:
        raise InputError([Problem("--why", _("%(a)s and %(b)s are not in one table of this "
                                             "stage", a=first, b=second))])  # fmt: skip
    a, b = rows[first], rows[second]
    if (b.rank, b.entry.name) < (a.rank, a.entry.name):
        a, b = b, a
    ranking = stage.ranking
    clauses = {c.key: c.clause or ranking.clause for c in ranking.criteria}
    group: list[Entry] = [r.entry for r in table.rows]
    for criterion in criteria_for([c.key for c in ranking.criteria]):
        column = criterion.column(group)
        values = dict(zip((e.id for e in group), column, strict=True))
        va, vb = values[a.entry.id], values[b.entry.id]
        if va != vb:
            shown = (criterion.describe(va), criterion.describe(vb))
            text = _("%(above)s is ahead of %(below)s on %(criterion)s, %(value)s to %(other)s",
                     above=a.entry.name, below=b.entry.name, criterion=criterion.label,
                     value=shown[0], other=shown[1])  # fmt: skip
            return Separation(a.entry.id, b.entry.id, criterion.key, shown,
                              Reason(clauses[criterion.key], text))  # fmt: skip
        # Only the entrants still tied with both are compared by the next criterion.
        group = [e for e in group if values[e.id] == va]
        if ranking.playoff is not None and criterion.key == ranking.playoff.after:
            if a.rank != b.rank:  # a play-off settled it
                text = _("%(above)s is ahead of %(below)s by the play-off", above=a.entry.name,
                         below=b.entry.name)  # fmt: skip
                return Separation(a.entry.id, b.entry.id, None, ("", ""),
                                  Reason(ranking.playoff.clause, text))  # fmt: skip
            break
    text = _("%(above)s and %(below)s are equal on every criterion: they share a place or wait "
             "for a play-off", above=a.entry.name, below=b.entry.name)  # fmt: skip
    return Separation(a.entry.id, b.entry.id, None, ("", ""), Reason(ranking.clause, text))
