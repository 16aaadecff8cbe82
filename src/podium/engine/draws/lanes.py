"""Bowling lane draws (ČBA): the lane pair each player starts on, and the blocks after it.

Vocabulary (see ``podium.engine.draws`` for seeds and the algorithm):
- lane pair: two neighbouring bowling lanes ``(left, right)``; ``per_pair`` is how many players
  one pair takes.
- American system: the players of a pair alternate the two lanes frame by frame.
- block: consecutive games bowled on one lane pair (ČBA: 2 + 2 + 2, practice before each).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from podium.engine.draws import ALGORITHM, DrawError, rng, sorted_unique
from podium.engine.messages import _

Side = Literal["left", "right"]
FRAMES = 10


@dataclass(frozen=True, slots=True)
class LaneSeat:
    """Where one player starts: the pair (index into the lane pairs), the side and the order."""

    entrant: int
    pair: int
    side: Side
    order: int  # 1-based position among the players starting on the same lane


@dataclass(frozen=True, slots=True)
class LaneDraw:
    seed: str
    algorithm: str
    lane_pairs: tuple[tuple[int, int], ...]
    per_pair: int
    seats: tuple[LaneSeat, ...]  # by pair, side (left first), order

    def seat_of(self, entrant: int) -> LaneSeat:
        for seat in self.seats:
            if seat.entrant == entrant:
                return seat
        raise KeyError(entrant)


def _check_pairs(pairs: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    if not pairs:
        raise DrawError(_("a lane draw needs at least one lane pair"))
    lanes = [lane for pair in pairs for lane in pair]
    if len(set(lanes)) != len(lanes):
        raise DrawError(_("a lane appears in more than one pair"))
    return tuple((int(left), int(right)) for left, right in pairs)


def lane_pairs(
    squad_entrants: Iterable[int],
    lane_pairs: Sequence[tuple[int, int]],
    seed: str,
    per_pair: int = 6,
) -> LaneDraw:
    """The ČBA draw of the first block: which lane pair each player starts on.

    The players are shuffled and dealt to the pairs in turn, so the pairs' numbers of players
    differ by at most one (the first pairs in the list take the extra players). Within a pair
    the players are dealt alternately to the left and the right lane, so each lane of a pair
    starts about half of its players. Refused when the squad has more players than the pairs
    take (``len(lane_pairs) * per_pair``).
    """
    pairs = _check_pairs(lane_pairs)
    if per_pair < 1:
        raise DrawError(_("a lane pair takes at least one player"))
    order = sorted_unique(squad_entrants)
    if len(order) > len(pairs) * per_pair:
        raise DrawError(
            _(
                "%(players)s players do not fit on %(pairs)s lane pairs of %(per)s players",
                players=len(order),
                pairs=len(pairs),
                per=per_pair,
            )
        )
    rng(seed).shuffle(order)
    dealt: list[list[int]] = [[] for _pair in pairs]
    for n, entrant in enumerate(order):
        dealt[n % len(pairs)].append(entrant)
    seats: list[LaneSeat] = []
    for pair, players in enumerate(dealt):
        left = players[0::2]
        right = players[1::2]
        seats += [LaneSeat(e, pair, "left", n + 1) for n, e in enumerate(left)]
        seats += [LaneSeat(e, pair, "right", n + 1) for n, e in enumerate(right)]
    return LaneDraw(
        seed=seed, algorithm=ALGORITHM, lane_pairs=pairs, per_pair=per_pair, seats=tuple(seats)
    )


@dataclass(frozen=True, slots=True)
class PairInBlock:
    lanes: tuple[int, int]
    left: tuple[int, ...]  # players starting frame 1 of each game on the left lane, in order
    right: tuple[int, ...]  # … on the right lane

    @property
    def players(self) -> int:
        return len(self.left) + len(self.right)


@dataclass(frozen=True, slots=True)
class Block:
    number: int  # 1-based
    games: tuple[int, ...]  # 1-based game numbers of the series
    pairs: tuple[PairInBlock, ...]  # in the order of the lane pairs


@dataclass(frozen=True, slots=True)
class Schedule:
    per_pair: int
    blocks: tuple[Block, ...]

    def pair_of(self, entrant: int, block: int) -> tuple[int, int]:
        for pair in self.blocks[block - 1].pairs:
            if entrant in pair.left or entrant in pair.right:
                return pair.lanes
        raise KeyError(entrant)


def lane_for_frame(lanes: tuple[int, int], side: Side, frame: int) -> int:
    """American system: odd frames on the starting lane, even frames on the other one.

    Frame 10 of every game is on the other lane, so the alternation simply carries on into the
    next game, whose frame 1 is again on the starting lane.
    """
    if not 1 <= frame <= FRAMES:
        raise DrawError(_("a game has frames 1 to %(n)s, not %(frame)s", n=FRAMES, frame=frame))
    start, other = lanes if side == "left" else (lanes[1], lanes[0])
    return start if frame % 2 == 1 else other


def american_schedule(
    draw: LaneDraw,
    blocks: Sequence[int] = (2, 2, 2),
    lane_pairs: Sequence[tuple[int, int]] | None = None,
) -> Schedule:
    """Which lane pair each player bowls each block on, from the first-block draw.

    Block 1 is the drawn pair. Our rule for the later blocks (the rulebook leaves it to the
    referee, who may change it): in block ``b`` (counting from 0) the players who start on the
    left lane move ``b`` pairs on (to higher lane numbers) and those who start on the right lane
    move ``b`` pairs back, wrapping around at the ends. So players meet different lanes and
    different opponents each block, keep their side, and no pair ever takes more players than
    the largest pair of the draw — checked against ``per_pair`` all the same. ``lane_pairs``
    defaults to the draw's; another list of the same length renames the lanes (e.g. when the
    referee moves the squad to other pairs).
    """
    if not blocks or any(games < 1 for games in blocks):
        raise DrawError(_("every block has at least one game"))
    pairs = _check_pairs(lane_pairs) if lane_pairs is not None else draw.lane_pairs
    if len(pairs) != len(draw.lane_pairs):
        raise DrawError(
            _(
                "the draw used %(drawn)s lane pairs, the schedule has %(pairs)s",
                drawn=len(draw.lane_pairs),
                pairs=len(pairs),
            )
        )
    n = len(pairs)
    result: list[Block] = []
    first_game = 1
    for b, games in enumerate(blocks):
        left: list[list[int]] = [[] for _pair in pairs]
        right: list[list[int]] = [[] for _pair in pairs]
        for seat in draw.seats:  # by pair, side, order: keeps the bowling order stable
            if seat.side == "left":
                left[(seat.pair + b) % n].append(seat.entrant)
            else:
                right[(seat.pair - b) % n].append(seat.entrant)
        in_block = tuple(
            PairInBlock(lanes=pairs[p], left=tuple(left[p]), right=tuple(right[p]))
            for p in range(n)
        )
        for pair in in_block:
            if pair.players > draw.per_pair:
                raise DrawError(
                    _(
                        "block %(block)s: lanes %(first)s–%(last)s would take %(players)s "
                        "players, more than %(per)s",
                        block=b + 1,
                        first=pair.lanes[0],
                        last=pair.lanes[1],
                        players=pair.players,
                        per=draw.per_pair,
                    )
                )
        result.append(
            Block(
                number=b + 1,
                games=tuple(range(first_game, first_game + games)),
                pairs=in_block,
            )
        )
        first_game += games
    return Schedule(per_pair=draw.per_pair, blocks=tuple(result))
