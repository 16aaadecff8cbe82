"""The engine's front door: a rulebook, a stage key and raw rows in; standings out.

Vocabulary: see ``podium.engine.formats`` and ``podium.engine.standings``; a footnote is a
reason added to an entrant's row from outside its result (a jury's verdict, a sanction).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from importlib import import_module

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.absence import Absentee, absentees, split_absent
from podium.engine.collector import paused_gc
from podium.engine.entries import Reason
from podium.engine.errors import InputError, Problem
from podium.engine.inputs import RawRow
from podium.engine.messages import _
from podium.engine.standings import Standings, Table, with_notes
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import Stage

FORMAT_MODULES = {
    "timed-solve": "podium.engine.formats.timed",
    "team-solve": "podium.engine.formats.timed",
    "games": "podium.engine.formats.games",
    "chgk-tour": "podium.engine.formats.chgk",
    "chgk-season": "podium.engine.formats.chgk",
    "head-to-head": "podium.engine.formats.headtohead",
    "superfinal": "podium.engine.formats.superfinal",
}

# Rows that are not an entrant's (a battle, a superfinal's question) or a season's tours (a
# season ranks its absent teams by its own rule): no status column is read, no foot listed.
NO_FOOT = ("head-to-head", "superfinal", "chgk-season")

TablesFn = Callable[[Rulebook, Stage, Sequence[RawRow]], list[Table]]


@paused_gc
def compute_standings(
    rulebook: Rulebook,
    stage_key: str,
    rows: Sequence[RawRow],
    notes: Mapping[str, Sequence[Reason]] | None = None,
) -> Standings:
    """The standings of one stage from its rows; ``notes``: footnotes by entrant id, each with
    its clause, added to that entrant's reasons (a ruling that changed its result)."""
    try:
        stage = rulebook.stage(stage_key)
    except KeyError:
        known = ", ".join(s.key for s in rulebook.stages)
        raise InputError(
            [
                Problem(
                    "--stage",
                    _(
                        "unknown stage '%(stage)s' in %(rulebook)s (%(known)s)",
                        stage=stage_key,
                        rulebook=rulebook.key,
                        known=known,
                    ),
                )
            ]
        ) from None
    if not rows:
        raise InputError([Problem("", _("the results file has no rows"))])
    # A row of a battle, a superfinal's question or a season's tour is not an entrant's: there
    # the status column is not read (a season ranks its absent teams by its own rule).
    ranked, absent = (rows, []) if stage.format in NO_FOOT else split_absent(rows)
    built = _ranked(rulebook, stage, ranked) if ranked else [Table("all", stage.title, ())]
    if notes:
        built = [with_notes(table, notes) for table in built]
    if absent:
        built = _with_absent(built, absentees(rulebook, stage, absent, [t.key for t in built]))
    return Standings(rulebook.key, stage.key, tuple(built))


def _ranked(rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow]) -> list[Table]:
    module = import_module(FORMAT_MODULES[stage.format])
    tables: TablesFn = module.tables
    return tables(rulebook, stage, rows)


def _with_absent(tables: list[Table], absent: list[Absentee]) -> list[Table]:
    """Each table with its absentees at its foot (see ``podium.engine.absence``)."""
    return [
        replace(table, absent=(*table.absent, *(a for a in absent if a.table == table.key)))
        for table in tables
    ]
