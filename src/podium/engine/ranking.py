"""Ranking: ordering entries by a list of criteria into tie groups and places.

Vocabulary:
- criterion: one way to compare entries (a key, a direction, a docstring). A *row criterion*
  gives each entry a value of its own; a *group criterion* gives values that depend on which
  entries are still tied (head-to-head), so it is evaluated inside each tie group.
- tie group: entries equal on every criterion applied so far. Refining a tie group by the next
  criterion splits it; entries still together at the end share their places.
- place: standard competition places (1, 2, 2, 4): a tie group of n starting at p spans p…p+n-1.
- split: what put an entry below the one above it: the criterion and both values.
- play-off: a tie the rulebook settles by an extra match rather than by further criteria; such a
  group is held together and flagged.

A criterion with no value (``None``) for some entries is allowed only where every entry it must
compare at that point lacks it too (finishers are split from non-finishers before times are
compared); anything else is an error, never a silent default. Nothing depends on input order:
entries start in (name, id) order and every sort is stable.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import ClassVar, TypeVar

from podium.engine.entries import Entry, Number
from podium.engine.errors import InputError, Problem


class Direction(enum.Enum):
    HIGHER = "higher is better"
    LOWER = "lower is better"


class Criterion(ABC):
    key: ClassVar[str]
    direction: ClassVar[Direction]
    label: ClassVar[str]

    def describe(self, value: Number | None) -> str:
        if value is None:
            return "none"
        if isinstance(value, Decimal):
            return f"{value:.3f}"
        return str(value)

    def phrase(self, value: Number | None) -> str:
        """The value with what it measures, for a sentence: ``time 1:02:03``."""
        return f"{self.label} {self.describe(value)}"

    @abstractmethod
    def column(self, entries: Sequence[Entry]) -> list[Number | None]:
        """The criterion's value for each entry, in the given order."""


class RowCriterion(Criterion):
    """Reads one metric of each entry; the value does not depend on the other entries."""

    metric: ClassVar[str]

    def column(self, entries: Sequence[Entry]) -> list[Number | None]:
        metric = self.metric
        return [e.metrics[metric] for e in entries]


class GroupCriterion(Criterion):
    """Values that depend on which entries are compared (evaluated per tie group)."""


REGISTRY: dict[str, type[Criterion]] = {}


C = TypeVar("C", bound=type[Criterion])


def register(cls: C) -> C:
    if cls.key in REGISTRY:
        raise ValueError(f"criterion '{cls.key}' registered twice")
    REGISTRY[cls.key] = cls
    return cls


def criteria_for(keys: Sequence[str]) -> list[Criterion]:
    unknown = [k for k in keys if k not in REGISTRY]
    if unknown:
        known = ", ".join(sorted(REGISTRY))
        raise KeyError(f"unknown ranking criteria {unknown}; known: {known}")
    return [REGISTRY[k]() for k in keys]


@dataclass(frozen=True, slots=True)
class Split:
    criterion: Criterion
    value: Number | None
    above_value: Number | None
    above: Entry


@dataclass(frozen=True, slots=True)
class Placed:
    entry: Entry
    place: int
    place_to: int
    split: Split | None
    playoff: bool

    @property
    def tied(self) -> bool:
        return self.place_to > self.place


@dataclass(frozen=True, slots=True)
class PlayoffZone:
    """Ties still standing after criterion ``after`` for any of places ``first``…``last``."""

    after: str
    first: int
    last: int


def rank(
    entries: Sequence[Entry],
    criteria: Sequence[Criterion],
    *,
    playoff: PlayoffZone | None = None,
) -> list[Placed]:
    base = sorted(entries, key=lambda e: (e.name.casefold(), e.name, e.id))
    groups: list[list[int]] = [list(range(len(base)))] if base else []
    held: set[int] = set()  # ids of groups frozen for a play-off
    splits: dict[int, Split] = {}
    for run in _runs(criteria, playoff.after if playoff else None):
        refine = _refine_by_group if isinstance(run[0], GroupCriterion) else _refine_by_rows
        next_groups: list[list[int]] = []
        for group in groups:
            if len(group) == 1 or id(group) in held:
                next_groups.append(group)
            else:
                next_groups.extend(refine(base, group, run, splits))
        groups = next_groups
        if playoff and run[-1].key == playoff.after:
            held |= _in_zone(groups, playoff)
    placed: list[Placed] = []
    position = 0
    for group in groups:
        place, place_to = position + 1, position + len(group)
        split = splits.get(group[0])
        if split is not None and placed:
            # Later criteria may have reordered the rows above; name the row now directly above
            # (it was tied with the recorded one on the splitting criterion, so the values hold).
            split = replace(split, above=placed[-1].entry)
        for i in group:
            first = split if i == group[0] else None
            placed.append(Placed(base[i], place, place_to, first, id(group) in held))
        position = place_to
    return placed


def _runs(criteria: Sequence[Criterion], stop_after: str | None) -> Iterator[list[Criterion]]:
    """Consecutive row criteria go together (one sort); group criteria and play-off stops cut."""
    run: list[Criterion] = []
    for criterion in criteria:
        if isinstance(criterion, GroupCriterion):
            if run:
                yield run
            yield [criterion]
            run = []
            continue
        run.append(criterion)
        if criterion.key == stop_after:
            yield run
            run = []
    if run:
        yield run


def _in_zone(groups: list[list[int]], zone: PlayoffZone) -> set[int]:
    held: set[int] = set()
    position = 0
    for group in groups:
        first, last = position + 1, position + len(group)
        if len(group) > 1 and first <= zone.last and last >= zone.first:
            held.add(id(group))
        position = last
    return held


def _encode(criterion: Criterion, values: list[Number | None]) -> list[object]:
    """Sort keys for one column: ascending is best-first; ``None`` sorts as its own value."""
    negate = criterion.direction is Direction.HIGHER
    if any(v is None for v in values):
        return [(0,) if v is None else (1, -v if negate else v) for v in values]
    return [-v for v in values] if negate else list(values)  # type: ignore[operator]


def _refine_by_rows(
    base: list[Entry], group: list[int], run: list[Criterion], splits: dict[int, Split]
) -> list[list[int]]:
    members = [base[i] for i in group]
    raw = [c.column(members) for c in run]
    encoded = [_encode(c, col) for c, col in zip(run, raw, strict=True)]
    keys = list(zip(*encoded, strict=True)) if len(run) > 1 else [(k,) for k in encoded[0]]
    order = sorted(range(len(group)), key=keys.__getitem__)
    return _split(base, group, order, keys, run, raw, splits)


def _refine_by_group(
    base: list[Entry], group: list[int], run: list[Criterion], splits: dict[int, Split]
) -> list[list[int]]:
    (criterion,) = run
    members = [base[i] for i in group]
    raw = [criterion.column(members)]
    keys = [(k,) for k in _encode(criterion, raw[0])]
    order = sorted(range(len(group)), key=keys.__getitem__)
    return _split(base, group, order, keys, run, raw, splits)


def _split(
    base: list[Entry],
    group: list[int],
    order: list[int],
    keys: Sequence[tuple[object, ...]],
    run: list[Criterion],
    raw: list[list[Number | None]],
    splits: dict[int, Split],
) -> list[list[int]]:
    out: list[list[int]] = [[group[order[0]]]]
    head, first = group[0], group[order[0]]
    if first != head and head in splits:
        # The group's split from the rows above passes to whoever now leads the group.
        splits[first] = splits.pop(head)
    previous = order[0]
    for local in order[1:]:
        if keys[local] == keys[previous]:
            out[-1].append(group[local])
        else:
            j = _first_difference(keys[local], keys[previous])
            value, above_value = raw[j][local], raw[j][previous]
            if value is None or above_value is None:
                _missing(run[j], base[group[local]], base[group[previous]], value)
            splits[group[local]] = Split(run[j], value, above_value, base[group[previous]])
            out.append([group[local]])
        previous = local
    return out


def _first_difference(a: tuple[object, ...], b: tuple[object, ...]) -> int:
    return next(j for j, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)


def _missing(criterion: Criterion, entry: Entry, other: Entry, value: Number | None) -> None:
    lacking, having = (entry, other) if value is None else (other, entry)
    raise InputError(
        [
            Problem(
                f"entry {lacking.id}",
                f"has no {criterion.label} to compare with {having.id}'s "
                f"(criterion '{criterion.key}')",
            )
        ]
    )


def official_places(placed: Sequence[Placed]) -> dict[str, tuple[int, int]]:
    """Places among official entries only: the same order and ties, outsiders left out."""
    places: dict[str, tuple[int, int]] = {}
    count = 0
    i = 0
    while i < len(placed):
        j = i
        while j < len(placed) and placed[j].place == placed[i].place:
            j += 1
        official = [p.entry.id for p in placed[i:j] if p.entry.official]
        for entry_id in official:
            places[entry_id] = (count + 1, count + len(official))
        count += len(official)
        i = j
    return places


def shared_points(
    place: int, place_to: int, per_place: Sequence[Decimal], quantize: Callable[[Decimal], Decimal]
) -> Decimal:
    """Entrants sharing places split the points of those places equally."""
    spanned = [
        per_place[p - 1] if p <= len(per_place) else Decimal(0) for p in range(place, place_to + 1)
    ]
    return quantize(sum(spanned, Decimal(0)) / len(spanned))
