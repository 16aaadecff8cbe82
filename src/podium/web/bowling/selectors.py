"""Reading a bowling squad for its lane sheet: its players, where each bowls every block, and
the games recorded so far.

Vocabulary:
- squad: a bowling round (``Entry.squad``) with its own start; its players share the lanes.
- block: consecutive games on one lane pair (``stage.blocks``, ČBA 2 + 2 + 2); block ``b``
  holds the game columns ``g…`` of its games.
- lane place: where a player bowls one block — the lane pair and the lane of frame 1 (the
  starting lane, then the other one every second frame: the American system), from the
  squad's current lanes draw (``podium.web.draws.selectors.lanes_draw``).
- next block: the first block with a game still empty; the one the referee enters next.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from podium.engine.draws.lanes import lane_for_frame
from podium.rules.schema.stages import GamesStage
from podium.web.kernel.stages import games_stages
from podium.web.models import Draw, Entry, Event, Result, Verification
from podium.web.results.selectors.rows import current_results, of_round


@dataclass(frozen=True)
class Block:
    number: int
    columns: tuple[str, ...]  # g1, g2, …

    @property
    def games(self) -> tuple[int, ...]:
        return tuple(int(c[1:]) for c in self.columns)


@dataclass(frozen=True)
class LanePlace:
    block: int
    lanes: tuple[int, int]
    start: int  # frames 1, 3, 5, 7, 9 of every game
    other: int  # frames 2, 4, 6, 8, 10


def blocks_of(stage: GamesStage) -> list[Block]:
    sizes = stage.blocks or (stage.games,)
    blocks, first = [], 1
    for number, size in enumerate(sizes, start=1):
        blocks.append(Block(number, tuple(f"g{g}" for g in range(first, first + size))))
        first += size
    return blocks


def next_block(stage: GamesStage, cells: dict[str, str] | None) -> Block | None:
    """The first block with a game still empty (``None``: all games are recorded)."""
    for block in blocks_of(stage):
        if not cells or any(not cells.get(c) for c in block.columns):
            return block
    return None


def lane_places(draw: Draw | None) -> dict[int, list[LanePlace]]:
    """Entry id → where the player bowls each block, from the draw's stored schedule."""
    places: dict[int, list[LanePlace]] = {}
    if draw is None:
        return places
    for block in draw.result.get("outcome", {}).get("blocks", []):
        for pair in block["pairs"]:
            lanes = (int(pair["lanes"][0]), int(pair["lanes"][1]))
            for side in ("left", "right"):
                start = lane_for_frame(lanes, side, 1)
                other = lane_for_frame(lanes, side, 2)
                for entrant in pair[side]:
                    places.setdefault(entrant, []).append(
                        LanePlace(block["number"], lanes, start, other)
                    )
    return places


def stage_of_squad(event: Event, draw: Draw | None) -> GamesStage | None:
    """The games stage the squad bowls: the one its lanes were drawn for, else the first."""
    stages = games_stages(event.rulebook)
    if draw is not None:
        for stage in stages:
            if stage.key == draw.stage:
                return stage
    return stages[0] if stages else None


def squad_results(
    event: Event, stage: GamesStage, players: list[Entry]
) -> tuple[dict[int, Result], dict[int, Any]]:
    """Entry id → its current result, and result id → its verification (if any)."""
    ids = {p.pk for p in players}
    results = {r.entry_id: r for r in current_results(event, stage.key) if r.entry_id in ids}
    checks = {
        v.result_id: v
        for v in Verification.objects.filter(**of_round(event, stage.key, 1)).select_related(
            "verified_by"
        )
    }
    return results, checks
