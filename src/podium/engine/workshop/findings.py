"""The workshop's findings: what the rules had to decide in one run, read from its tables.

Vocabulary:
- finding: something the rules had to decide in a run — a tie across an advancement cut, a quota
  that could not be filled, a tie for a prize held for a play-off, a shared prize place, an
  entrant refused at registration or outside the competition, a full registration, an absence —
  with the clause of the rulebook that decides it.
- tally: the findings gathered over the runs, one per kind and subject, counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from podium.engine.entries import Entry
from podium.engine.messages import Message, Span, Value, _, term
from podium.engine.ranking import Criterion, RowCriterion, criteria_for
from podium.engine.standings import Table
from podium.rules.schema.ranking import Advancement, Pool
from podium.rules.schema.stages import Stage

Kind = Literal[
    "tie-at-cut", "quota-unfilled", "playoff", "shared-prize", "refused", "waiting-list",
    "outside", "absent", "tie-break", "extra-questions",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Finding:
    kind: Kind
    clause: str | None
    message: Message
    runs: int  # the runs it happened in
    times: int  # how often in all runs


class Tally:
    """Findings gathered over the runs, by what they are about (first message kept)."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, ...], tuple[Kind, str | None, Message, set[int], int]] = {}

    def add(
        self, run: int, key: tuple[str, ...], kind: Kind, clause: str | None, message: Message
    ) -> None:
        known = self.found.get((kind, *key))
        if known is None:
            self.found[(kind, *key)] = (kind, clause, message, {run}, 1)
        else:
            known[3].add(run)
            self.found[(kind, *key)] = (*known[:4], known[4] + 1)

    def findings(self) -> tuple[Finding, ...]:
        return tuple(
            Finding(kind, clause, message, len(runs), times)
            for kind, clause, message, runs, times in self.found.values()
        )


def read_table(stage: Stage, table: Table, tally: Tally, run: int) -> None:
    """What the rules decided in one table of one run."""
    rule = stage.advancement
    for row in table.rows:
        outside = row.entry.outside
        if outside is not None:
            key = ("outside", row.entry.klass)
            message = outside.message
            said = message if isinstance(message, Message) else Message(message)
            tally.add(run, key, "outside", outside.clause, said)
    _read_ties(stage, table, tally, run)
    if rule is not None:
        for pool in rule.pools_for(table.key):
            _read_pool(rule, pool, table, tally, run)
    _read_prizes(stage, table, tally, run)


FLAGS = frozenset({"finished", "puzzles-done"})  # criteria that only sort finishers first


def _read_pool(rule: Advancement, pool: Pool, table: Table, tally: Tally, run: int) -> None:
    """A tie across the pool's cut (the last of its places and the first after it shared), or
    fewer candidates than its places."""
    where = table.title
    candidates = [row for row in table.rows if row.entry.klass in pool.classes]
    count = pool.count
    if len(candidates) < count:
        text = _("The quota of %(count)s %(pool)s (%(table)s) could not be filled",
                 count=count, pool=term(pool.label), table=where)  # fmt: skip
        tally.add(run, (table.key, pool.key), "quota-unfilled", pool.clause or rule.clause, text)
    elif 0 < count < len(candidates) and candidates[count - 1].rank == candidates[count].rank:
        known: dict[str, Value] = {"pool": term(pool.label), "table": where}
        text = (
            _("A tie crossed the cut of %(pool)s (%(table)s): everyone tied goes through", **known)
            if rule.ties_at_cut == "all-advance"
            else _("A tie crossed the cut of %(pool)s (%(table)s): the organizer decides", **known)
        )
        clause = rule.ties_clause or pool.clause or rule.clause
        tally.add(run, (table.key, pool.key), "tie-at-cut", clause, text)


def _read_ties(stage: Stage, table: Table, tally: Tally, run: int) -> None:
    """Ties that a later criterion broke, and places left shared after every criterion."""
    ranking = stage.ranking
    clauses = {c.key: c.clause or ranking.clause for c in ranking.criteria}
    criteria = criteria_for([c.key for c in ranking.criteria])
    shared = False
    for row in table.rows:
        placed = row.placed
        if placed is None:
            continue
        split = placed.split
        if split is not None and _was_tied(criteria, split.criterion, row.entry):
            key = split.criterion.key
            text = _("A tie was broken by %(criterion)s (%(table)s)",
                     criterion=split.criterion.label, table=table.title)  # fmt: skip
            tally.add(run, (table.key, key), "tie-break", clauses.get(key), text)
        if placed.tied and not placed.playoff and not shared:
            shared = True
            text = _("Entrants equal on every criterion share a place (%(table)s)",
                     table=table.title)  # fmt: skip
            tally.add(run, (table.key, "shared"), "tie-break", ranking.clause, text)


def _was_tied(criteria: Sequence[Criterion], by: Criterion, entry: Entry) -> bool:
    """Whether the split on ``by`` broke a tie: the entrant was equal with the one above on a
    criterion before it that measures a result (not a finisher's flag, nor one that did not
    apply, like the time of a non-finisher)."""
    keys = [c.key for c in criteria]
    for criterion in criteria[: keys.index(by.key)] if by.key in keys else ():
        if criterion.key in FLAGS:
            continue
        if not isinstance(criterion, RowCriterion) or criterion.column([entry])[0] is not None:
            return True
    return False


def _read_prizes(stage: Stage, table: Table, tally: Tally, run: int) -> None:
    playoff = stage.ranking.playoff
    held = [row for row in table.rows if row.playoff]
    if held and playoff is not None:
        places = Span(held[0].rank, held[0].rank_to)
        text = _("A tie for places %(places)s was held for a play-off: %(method)s",
                 places=places, method=term(playoff.method))  # fmt: skip
        tally.add(run, (table.key,), "playoff", playoff.clause, text)
    prizes = stage.prizes
    if prizes is None:
        return
    for row in table.rows:
        first = row.official_rank if prizes.official_only else row.rank
        last = row.official_rank_to if prizes.official_only else row.rank_to
        if first is None or last is None or row.playoff:
            continue
        if first <= prizes.places < last:
            text = _("A tie across the last prize place (%(places)s, %(table)s): the prize is "
                     "shared", places=Span(first, last), table=table.title)  # fmt: skip
            tally.add(run, (table.key,), "shared-prize", prizes.clause, text)
            return
