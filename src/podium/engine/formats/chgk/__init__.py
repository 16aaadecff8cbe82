"""ChGK ("Что? Где? Когда?"): question tours, and the season summed over them.

Vocabulary:
- tour: one sitting of a rulebook's questions, ranked by the questions each team took
  (``podium.engine.formats.chgk.tour``).
- mask: a team's tour question by question (``podium.engine.formats.chgk.masks``).
- season: the tours summed team by team, with a play-off for a tied prize place
  (``podium.engine.formats.chgk.season``).

Both formats, ``chgk-tour`` and ``chgk-season``, enter here: ``tables`` sends each stage to its
module.
"""

from __future__ import annotations

from collections.abc import Sequence

from podium.engine.formats.chgk.season import season_table
from podium.engine.formats.chgk.tour import tour_table
from podium.engine.inputs import RawRow
from podium.engine.standings import Table
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import ChgkSeasonStage, ChgkTourStage, Stage


def tables(rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow]) -> list[Table]:
    if isinstance(stage, ChgkTourStage):
        return [tour_table(rulebook, stage, rows)]
    if isinstance(stage, ChgkSeasonStage):
        return [season_table(rulebook, stage, rows)]
    raise TypeError(f"stage '{stage.key}' is a {stage.format} stage, not a ChGK one")
