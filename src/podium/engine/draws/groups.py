"""Group and table draws: qualification groups balanced by nationality or rating, and
numbered tables.

Vocabulary (see ``podium.engine.draws`` for seeds and the algorithm):
- entrant: ``domestic`` (it competes for the title; foreigners have their own quota per group in
  ``cz-jigsaw``) and an optional ``rating`` (e.g. a ladder average) to balance groups by.
- stratum: the entrants balanced separately (foreigners, then domestic entrants).
- pot: ``len(groups)`` consecutive entrants of a stratum after ordering; each group gets one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from podium.engine.draws import ALGORITHM, DrawError, rng, sorted_unique
from podium.engine.messages import _

Balance = Literal["domestic", "rating"]


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
    ids = sorted_unique(e.id for e in listed)
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
    order = sorted_unique(entrants)
    rng(seed).shuffle(order)
    return TableDraw(
        seed=seed,
        algorithm=ALGORITHM,
        tables=tuple((start + n, entrant) for n, entrant in enumerate(order)),
    )
