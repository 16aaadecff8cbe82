"""Draws: qualification groups, numbered tables, bowling lane pairs and ChGK host teams.

Vocabulary:
- seed: a string that fixes every random choice of a draw. It is recorded with the draw, so
  anyone can run the same function on the same entrants and seed and get the same answer.
- algorithm: the name and version of the procedure (``ALGORITHM``) plus the Python version that
  ran it. A draw is reproducible as long as both are equal; a change in either is visible in the
  stored result instead of silently giving a different answer.
- entrant: one entry taking part in a draw, known by its integer id; ``domestic`` (it competes
  for the title; foreigners have their own quota per group in ``cz-jigsaw``) and an optional
  ``rating`` (e.g. a ladder average) to balance groups by.
- stratum: the entrants balanced separately (foreigners, then domestic entrants).
- pot: ``len(groups)`` consecutive entrants of a stratum after ordering; each group gets one.
- lane pair: two neighbouring bowling lanes ``(left, right)``; ``per_pair`` is how many players
  one pair takes.
- American system: the players of a pair alternate the two lanes frame by frame.
- block: consecutive games bowled on one lane pair (ČBA: 2 + 2 + 2, practice before each).
- host: the ChGK team that hands in the questions of a tour (``deti-kolomny`` п. 20).

Randomness comes only from ``random.Random(seed)`` with a ``str`` seed. CPython hashes a str seed
with SHA-512 into the Mersenne Twister state (seeding version 2, the default since Python 3.2),
so the stream does not depend on the platform, on ``PYTHONHASHSEED`` or on the process; the
methods used here (``shuffle``, which draws through ``_randbelow``) have given the same results
for the same seed from Python 3.2 on, but Python does not promise it forever — hence the
recorded algorithm string. Inputs are sorted by id before anything random happens, so the
order in which a caller lists the entrants never changes the result.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise, permutations
from typing import Literal

from podium.engine.messages import MessageError, _

DRAW_VERSION = "podium-draws/1"
ALGORITHM = (
    f"{DRAW_VERSION}; python-{sys.version_info.major}.{sys.version_info.minor} "
    "random.Random(str seed) Mersenne Twister"
)

Balance = Literal["domestic", "rating"]
Side = Literal["left", "right"]
FRAMES = 10


class DrawError(MessageError):
    """The draw cannot be made as asked (duplicate ids, too many players for the lanes…)."""


def rng(seed: str) -> random.Random:
    """The only source of randomness: a Mersenne Twister seeded from the seed string."""
    if not isinstance(seed, str) or not seed:
        raise DrawError(_("a draw needs a non-empty seed string"))
    return random.Random(seed)


def _sorted_unique(ids: Iterable[int]) -> list[int]:
    ordered = sorted(ids)
    for before, after in pairwise(ordered):
        if before == after:
            raise DrawError(_("entrant %(entrant)s is listed twice", entrant=before))
    return ordered


# --- Groups ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entrant:
    id: int
    domestic: bool = True
    rating: Decimal | None = None


@dataclass(frozen=True, slots=True)
class GroupDraw:
    seed: str
    algorithm: str
    groups: tuple[str, ...]
    assignments: tuple[tuple[int, str], ...]  # (entrant id, group), by id

    def group_of(self, entrant: int) -> str:
        return dict(self.assignments)[entrant]

    def members(self, group: str) -> tuple[int, ...]:
        return tuple(i for i, g in self.assignments if g == group)


def split_groups(
    entrants: Iterable[Entrant],
    groups: Sequence[str],
    seed: str,
    balance_by: Sequence[Balance] = ("domestic",),
) -> GroupDraw:
    """Split entrants into groups whose sizes differ by at most one.

    With ``domestic`` the foreigners and the domestic entrants are each spread so that their
    counts per group also differ by at most one (foreigners have a quota per group). With
    ``rating`` each stratum is ordered best first (no rating last) and dealt in pots of one
    entrant per group, the pot's entrants going to the groups in a random order — so every group
    gets one of the best, one of the next, and so on. Without it each stratum is shuffled.
    The remainder of each stratum goes to the groups that are smallest so far (random among
    equals), which keeps the group sizes within one of each other.
    """
    if not groups:
        raise DrawError(_("a group draw needs at least one group"))
    if len(set(groups)) != len(groups):
        raise DrawError(_("group names repeat"))
    listed = list(entrants)
    ids = _sorted_unique(e.id for e in listed)
    people = {e.id: e for e in listed}
    random_ = rng(seed)
    keys = list(groups)
    k = len(keys)
    if "domestic" in balance_by:
        strata = [
            [i for i in ids if not people[i].domestic],
            [i for i in ids if people[i].domestic],
        ]
    else:
        strata = [ids]
    sizes = dict.fromkeys(keys, 0)
    placed: dict[int, str] = {}
    for stratum in strata:
        if "rating" in balance_by:
            # Best first; the id keeps equal ratings in a fixed order.
            order = sorted(
                stratum,
                key=lambda i: (people[i].rating is None, -(people[i].rating or 0), i),
            )
        else:
            order = list(stratum)
            random_.shuffle(order)
        full = len(order) - len(order) % k
        for start in range(0, full, k):
            targets = list(keys)
            random_.shuffle(targets)
            for entrant, group in zip(order[start : start + k], targets, strict=True):
                placed[entrant] = group
                sizes[group] += 1
        rest = order[full:]
        if rest:
            # Smallest groups first; shuffle first so equals are picked at random (sort is stable).
            candidates = list(keys)
            random_.shuffle(candidates)
            candidates.sort(key=lambda g: sizes[g])
            targets = candidates[: len(rest)]
            random_.shuffle(targets)
            for entrant, group in zip(rest, targets, strict=True):
                placed[entrant] = group
                sizes[group] += 1
    return GroupDraw(
        seed=seed,
        algorithm=ALGORITHM,
        groups=tuple(keys),
        assignments=tuple((i, placed[i]) for i in ids),
    )


# --- Tables ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableDraw:
    seed: str
    algorithm: str
    tables: tuple[tuple[int, int], ...]  # (table number, entrant id), by table

    def table_of(self, entrant: int) -> int:
        return {e: t for t, e in self.tables}[entrant]


def number_tables(entrants: Iterable[int], seed: str, start: int = 1) -> TableDraw:
    """Numbered tables ``start, start + 1, …`` in a seeded random order of the entrants."""
    order = _sorted_unique(entrants)
    rng(seed).shuffle(order)
    return TableDraw(
        seed=seed,
        algorithm=ALGORITHM,
        tables=tuple((start + n, entrant) for n, entrant in enumerate(order)),
    )


# --- Lanes (ČBA) ----------------------------------------------------------------------------


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
    order = _sorted_unique(squad_entrants)
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


# --- ChGK hosts -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HostDraw:
    seed: str
    algorithm: str
    hosts: tuple[tuple[str, int], ...]  # (tour, team), in the order of the tours

    def hosted_by(self, team: int) -> tuple[str, ...]:
        return tuple(tour for tour, host in self.hosts if host == team)


def tour_hosts(teams: Iterable[int], tours: Sequence[str], seed: str) -> HostDraw:
    """A host team for each tour: the teams in a seeded order, taken in turn.

    Taking them in turn means every team hosts ⌊tours/teams⌋ or ⌈tours/teams⌉ times, no team
    hosts twice before every team has hosted once, and (with two or more teams) no team hosts
    two tours in a row.
    """
    order = _sorted_unique(teams)
    if not order:
        raise DrawError(_("a host draw needs at least one team"))
    if len(set(tours)) != len(tours):
        raise DrawError(_("tour names repeat"))
    rng(seed).shuffle(order)
    return HostDraw(
        seed=seed,
        algorithm=ALGORITHM,
        hosts=tuple((tour, order[n % len(order)]) for n, tour in enumerate(tours)),
    )


# --- Brainball battles: a double round-robin on two stages at once -----------------------------


@dataclass(frozen=True, slots=True)
class Bout:
    """One battle of the schedule: in round ``round`` of the league, matchday ``day``, time slot
    ``slot`` of that day, on stage ``stage`` (1…), ``team1`` against ``team2``."""

    round: int
    day: int
    slot: int
    stage: int
    team1: int
    team2: int


@dataclass(frozen=True, slots=True)
class BattleSchedule:
    seed: str
    algorithm: str
    bouts: tuple[Bout, ...]

    def of(self, team: int) -> tuple[Bout, ...]:
        return tuple(b for b in self.bouts if team in (b.team1, b.team2))


def _circle(order: list[int | None]) -> list[list[tuple[int | None, int | None]]]:
    """Matchdays of one round-robin by the circle method (``None`` is the bye)."""
    n = len(order)
    days = []
    ring = list(order)
    for _day in range(n - 1):
        days.append([(ring[i], ring[n - 1 - i]) for i in range(n // 2)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return days


def _best_stages(
    battles: Sequence[tuple[int, int]], on_stage: dict[int, list[int]], stages: int
) -> tuple[int, ...]:
    """The stages for battles played at once that leave their teams most evenly spread: the
    least sum of squares of each team's battles per stage, then the stage used least so far
    (a lone battle of a matchday), then the first such, so the schedule is fixed."""
    used = [sum(counts[s] for counts in on_stage.values()) for s in range(stages)]

    def spread(placing: tuple[int, ...]) -> tuple[int, int]:
        total = 0
        for (team1, team2), stage in zip(battles, placing, strict=True):
            for team in (team1, team2):
                counts = list(on_stage[team])
                counts[stage] += 1
                total += sum(c * c for c in counts)
        return total, sum(used[s] for s in placing)

    return min(permutations(range(stages), len(battles)), key=spread)


def battle_schedule(
    teams: Iterable[int], seed: str, *, rounds: int = 2, stages: int = 2
) -> BattleSchedule:
    """Every pair of teams meets once per round (the second round with sides swapped).

    The battles of a matchday are played ``stages`` at a time, one per stage, so a team never
    plays twice at once (it plays once a matchday); each battle's stage is chosen so that every
    team plays on each stage as evenly as the draw allows (the team with more battles on a
    stage so far is sent to the other). With an odd number of teams one team rests each
    matchday.
    """
    order: list[int | None] = list(_sorted_unique(teams))
    if len(order) < 2:
        raise DrawError(_("a league needs at least two teams"))
    if rounds < 1 or stages < 1:
        raise DrawError(_("a league has at least one round and one stage"))
    rng(seed).shuffle(order)
    if len(order) % 2:
        order.append(None)
    on_stage: dict[int, list[int]] = {t: [0] * stages for t in order if t is not None}
    bouts: list[Bout] = []
    days = _circle(order)
    for round_ in range(1, rounds + 1):
        for day, pairs in enumerate(days, start=1):
            battles = [
                (a, b) if round_ % 2 else (b, a)
                for a, b in pairs
                if a is not None and b is not None
            ]
            for slot, start in enumerate(range(0, len(battles), stages), start=1):
                at_once = battles[start : start + stages]
                placing = _best_stages(at_once, on_stage, stages)
                for (team1, team2), stage in zip(at_once, placing, strict=True):
                    on_stage[team1][stage] += 1
                    on_stage[team2][stage] += 1
                    bouts.append(Bout(round_, day, slot, stage + 1, team1, team2))
    return BattleSchedule(seed=seed, algorithm=ALGORITHM, bouts=tuple(bouts))
