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
from typing import Literal, NamedTuple

from podium.engine.entries import Reason
from podium.engine.messages import Span, Value, _, term
from podium.engine.ranking import Placed
from podium.rules.schema.ranking import Advancement, Pool

Outcome = Literal["within", "tie-advances", "tie-organizer", "beyond", "no-pool", "outside"]


class Decision(NamedTuple):
    """Whether an entry advances, and why: its place ``first``–``last`` within ``pool``.

    The reason's text is written only when it is read, so deciding a large table stays cheap;
    a named tuple, as it is made for nearly every place (see ``podium.engine.entries.Entry``).
    """

    advances: bool
    outcome: Outcome
    rule: Advancement
    pool: Pool | None = None
    first: int = 0
    last: int = 0
    group: str = ""

    @property
    def reason(self) -> Reason:
        pool, rule = self.pool, self.rule
        if pool is None:
            if self.outcome == "outside":
                text = _("Does not advance: outside the competition, takes no advancement spot")
            else:
                text = _("Does not advance: no quota takes this entrant's class")
            return Reason(rule.clause, text)
        clause = pool.clause or rule.clause
        where = (
            _("%(pool)s in group %(group)s", pool=term(pool.label), group=self.group)
            if self.group
            else term(pool.label)
        )
        known: dict[str, Value] = {
            "places": Span(self.first, self.last),
            "where": where,
            "count": pool.count,
        }
        if self.outcome == "within":
            return Reason(clause, _("Advances: %(places)s of the %(count)s places for %(where)s",
                                    **known))  # fmt: skip
        if self.outcome == "beyond":
            text = _("Does not advance: %(places)s for %(where)s, which takes %(count)s", **known)
            return Reason(clause, text)
        if self.outcome == "tie-advances":
            text = _(
                "Advances on a tie at the cut: shares %(places)s for %(where)s, "
                "which takes %(count)s; everyone tied goes through",
                **known,
            )
        else:
            text = _(
                "Tied at the cut: shares %(places)s for %(where)s, which takes "
                "%(count)s; the organizer decides",
                **known,
            )
        return Reason(rule.ties_clause or clause, text)


def advance(
    placed: Sequence[Placed], rule: Advancement, table: str, group: str = ""
) -> dict[str, Decision]:
    """Decisions for one table; ``group`` names it in reasons ("… in group A")."""
    decisions: dict[str, Decision] = {}
    for pool in rule.pools_for(table):
        _fill(decisions, placed, pool, rule, group)
    no_pool = Decision(False, "no-pool", rule)
    outside = Decision(False, "outside", rule)
    for p in placed:
        if p.entry.id not in decisions:
            decisions[p.entry.id] = outside if p.entry.outside is not None else no_pool
    return decisions


def _fill(
    decisions: dict[str, Decision],
    placed: Sequence[Placed],
    pool: Pool,
    rule: Advancement,
    group: str,
) -> None:
    classes = pool.classes
    tie_outcome: Outcome = "tie-advances" if rule.ties_at_cut == "all-advance" else "tie-organizer"
    taken = 0
    tied: list[str] = []  # ids of the pool's candidates sharing the current place
    place = 0
    for p in placed:
        if p.entry.klass not in classes:
            continue
        if p.place != place and tied:
            taken = _decide(decisions, tied, taken, pool, rule, group, tie_outcome)
        place = p.place
        tied.append(p.entry.id)
    if tied:
        _decide(decisions, tied, taken, pool, rule, group, tie_outcome)


def _decide(
    decisions: dict[str, Decision],
    tied: list[str],
    taken: int,
    pool: Pool,
    rule: Advancement,
    group: str,
    tie_outcome: Outcome,
) -> int:
    """Decide one place's candidates (all alike: everyone tied shares the outcome)."""
    first, last = taken + 1, taken + len(tied)
    outcome: Outcome = (
        "within" if last <= pool.count else tie_outcome if first <= pool.count else "beyond"
    )
    advances = outcome == "within" or outcome == "tie-advances"
    decision = Decision(advances, outcome, rule, pool, first, last, group)
    for entry_id in tied:
        decisions[entry_id] = decision
    tied.clear()
    return last
