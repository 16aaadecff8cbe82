"""League draws: the ChGK host team of each tour, and the Brainball battle schedule.

Vocabulary (see ``podium.engine.draws`` for seeds and the algorithm):
- host: the ChGK team that hands in the questions of a tour (``deti-kolomny`` п. 20).
- battle: one Brainball match of two teams; a league's teams meet once per round (the second
  round with sides swapped).
- matchday: the battles every team plays once (one team rests when their number is odd); its
  battles are played ``stages`` at a time, one per stage, in time slots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import permutations

from podium.engine.draws import ALGORITHM, DrawError, rng, sorted_unique
from podium.engine.messages import _

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
    order = sorted_unique(teams)
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


# --- Brainball battles: a double round-robin on two stages at once --------------------------


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
    order: list[int | None] = list(sorted_unique(teams))
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
