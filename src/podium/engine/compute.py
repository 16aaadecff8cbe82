"""The engine's front door: a rulebook, a stage key and raw rows in; standings out.

Vocabulary: see ``podium.engine.formats`` and ``podium.engine.standings``; a footnote is a
reason added to an entrant's row from outside its result (a jury's verdict, a sanction).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import import_module

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
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
    module = import_module(FORMAT_MODULES[stage.format])
    tables: TablesFn = module.tables
    built = tables(rulebook, stage, rows)
    if notes:
        built = [with_notes(table, notes) for table in built]
    return Standings(rulebook.key, stage.key, tuple(built))
