"""The counting at the heart of the outlook: places and quotas from each entrant's two extremes.

Vocabulary:
- key: an entrant's standing as the stage's criteria read it, encoded so that a smaller key is
  better (``podium.engine.ranking`` sorts the same way); only the criteria the outlook can read
  for every completion are in it (the *read prefix*).
- prospect: one entrant's two extreme keys: ``high``, its best completion, and ``low``, its worst
  (``high <= low``). When every entrant's unknowns are its own, any mix of extremes is itself a
  completion, so counting against the others' extremes gives the exact best and worst place.
- ambiguous ties: equal keys that something outside the read prefix may still split either way
  (a criterion the prefix leaves out, a play-off): such a tie counts against the entrant for its
  worst place and for it for its best, which keeps the interval sound.
- target: a quota (an advancement pool, or the prize places where the stage has no advancement):
  ``count`` entrants of some classes; ``certain`` when the entrant is inside it even in its worst
  completion, ``out`` when it is outside it even in its best.
- cap: a format's own upper bound on how many others can reach a level (a season's points per
  tour are limited: not everyone can win the remaining tours); it can only lower a worst place.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

Key = tuple[object, ...]
Verdict = Literal["certain", "open", "out"]


@dataclass(frozen=True, slots=True)
class Prospect:
    id: str
    klass: str
    high: Key
    low: Key


@dataclass(frozen=True, slots=True)
class Target:
    """A quota: the best ``count`` entrants of ``classes`` in a table; ``strict``: a tie at the
    cut sends nobody through for sure (the organizer decides, or a play-off settles it)."""

    key: str
    label: str
    classes: frozenset[str]
    count: int
    clause: str | None
    strict: bool


@dataclass(frozen=True, slots=True)
class Reach:
    """What counting says of one entrant: its best and worst place and, per target, its verdict."""

    best: int
    worst: int
    verdict: Verdict | None


# How many of ``others`` can reach (tie or beat) entrant ``i``'s worst; None: no cap known.
Cap = Callable[[Prospect, Sequence[Prospect]], int | None]


class Field:
    """The prospects of one table, sorted once so that each count is a bisection."""

    def __init__(self, prospects: Sequence[Prospect], ambiguous: bool) -> None:
        self.prospects = list(prospects)
        self.ambiguous = ambiguous
        self.lows = sorted(p.low for p in prospects)
        self.highs = sorted(p.high for p in prospects)

    def better_at_worst(self, p: Prospect, *, ties: bool) -> int:
        """Others whose best beats ``p``'s worst (or ties it, with ``ties``)."""
        if ties:
            return bisect_right(self.highs, p.low) - 1
        return bisect_left(self.highs, p.low) - (1 if p.high < p.low else 0)

    def better_at_best(self, p: Prospect, *, ties: bool) -> int:
        """Others whose worst beats ``p``'s best (or ties it, with ``ties``)."""
        if ties:
            return bisect_right(self.lows, p.high) - (1 if p.low == p.high else 0)
        return bisect_left(self.lows, p.high)

    def places(self, p: Prospect, cap: Cap | None = None) -> tuple[int, int]:
        best = 1 + self.better_at_best(p, ties=False)
        above = self.better_at_worst(p, ties=self.ambiguous)
        if cap is not None:
            limit = cap(p, [q for q in self.prospects if q.id != p.id])
            if limit is not None:
                above = min(above, limit)
        return best, 1 + above

    def verdict(self, p: Prospect, target: Target, cap: Cap | None = None) -> Verdict:
        """``p``'s verdict in ``target``; ``self`` holds only the target's candidates."""
        strict = target.strict or self.ambiguous
        above_worst = self.better_at_worst(p, ties=strict)
        if cap is not None:
            limit = cap(p, [q for q in self.prospects if q.id != p.id])
            if limit is not None:
                above_worst = min(above_worst, limit)
        if above_worst + 1 <= target.count:
            return "certain"
        # A tie at the cut may go the entrant's way (everyone tied advances, or an organizer or
        # a play-off may pick it): only the others strictly ahead shut it out.
        if self.better_at_best(p, ties=False) + 1 > target.count:
            return "out"
        return "open"

    def sure_key(self, p: Prospect, target: Target) -> tuple[Key | None, bool]:
        """The worst key that still makes ``p`` certain against everyone else's best, and
        whether the key itself is enough (``True``) or only anything better than it."""
        key = _nth_other(self.highs, p.high, target.count)
        return key, key is None or not (target.strict or self.ambiguous)

    def out_key(self, p: Prospect, target: Target) -> Key | None:
        """The key below which ``p`` is out even against everyone else's worst (``None``: never
        out); a key equal to it still leaves a chance."""
        return _nth_other(self.lows, p.low, target.count)


def _nth_other(ordered: list[Key], own: Key, n: int) -> Key | None:
    """The ``n``-th smallest of ``ordered`` once ``own`` (one of them) is left out."""
    if n < 1 or len(ordered) - 1 < n:
        return None
    index = n - 1
    return ordered[index + 1] if bisect_left(ordered, own) <= index else ordered[index]
