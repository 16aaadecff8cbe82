"""Advancement: who goes on to the next stage, by quotas per table.

Vocabulary:
- pool: one quota, e.g. "the 50 fastest Czechs of each group"; it names the classes it takes
  from (``official``, ``foreign``…) and a count. Pools are independent: a foreigner taking a
  foreign spot never reduces the Czech count.
- cut: the last spot of a pool. A tie across the cut either sends everyone tied through
  (``all-advance``: "placed 1st to 6th" includes everyone placed 6th) or leaves it to the
  organizer (``organizer-decides``), and the table says which.
- decision: whether a row advances, and the reason (with its clause).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from podium.engine.entries import Reason
from podium.engine.ranking import Placed
from podium.engine.wording import span
from podium.rules.schema import Advancement, Pool


@dataclass(frozen=True, slots=True)
class Decision:
    advances: bool
    reason: Reason | None


def advance(
    placed: Sequence[Placed], rule: Advancement, table: str, scope: str = ""
) -> dict[str, Decision]:
    """Decisions for one table; ``scope`` names it in reasons (" in group A")."""
    decisions: dict[str, Decision] = {}
    pools = rule.pools_for(table)
    for pool in pools:
        decisions.update(_fill(placed, pool, rule, scope))
    for p in placed:
        if p.entry.id not in decisions:
            text = "Does not advance: no quota takes this entrant's class"
            if p.entry.outside is not None:
                text = "Does not advance: outside the competition, takes no advancement spot"
            decisions[p.entry.id] = Decision(False, Reason(rule.clause, text))
    return decisions


def _fill(
    placed: Sequence[Placed], pool: Pool, rule: Advancement, scope: str
) -> dict[str, Decision]:
    decisions: dict[str, Decision] = {}
    candidates = [p for p in placed if p.entry.klass in pool.classes]
    taken = 0
    clause = pool.clause or rule.clause
    for _, tied_iter in groupby(candidates, key=lambda p: p.place):
        tied = list(tied_iter)
        first, last = taken + 1, taken + len(tied)
        places = span(first, last)
        if last <= pool.count:
            text = f"Advances: {places} of the {pool.count} places for {pool.label}{scope}"
            for p in tied:
                decisions[p.entry.id] = Decision(True, Reason(clause, text))
        elif first <= pool.count:
            # A tie across the cut line.
            ties_clause = rule.ties_clause or clause
            if rule.ties_at_cut == "all-advance":
                text = (
                    f"Advances on a tie at the cut: shares {places} for {pool.label}{scope}, "
                    f"which takes {pool.count}; everyone tied goes through"
                )
            else:
                text = (
                    f"Tied at the cut: shares {places} for {pool.label}{scope}, which takes "
                    f"{pool.count}; the organizer decides"
                )
            advances = rule.ties_at_cut == "all-advance"
            for p in tied:
                decisions[p.entry.id] = Decision(advances, Reason(ties_clause, text))
        else:
            text = f"Does not advance: {places} for {pool.label}{scope}, which takes {pool.count}"
            for p in tied:
                decisions[p.entry.id] = Decision(False, Reason(clause, text))
        taken = last
    return decisions
