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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import chain
from operator import itemgetter
from typing import ClassVar, NamedTuple, TypeVar

from podium.engine.entries import Entry, Number
from podium.engine.errors import InputError, Problem
from podium.engine.messages import Message, Value, _


class Direction(enum.Enum):
    HIGHER = "higher is better"
    LOWER = "lower is better"


_THOUSANDTHS = Decimal("0.001")


class Criterion(ABC):
    key: ClassVar[str]
    direction: ClassVar[Direction]
    label: ClassVar[Message]

    def describe(self, value: Number | None) -> Value:
        if value is None:
            return _("none")
        if isinstance(value, Decimal):
            return value.quantize(_THOUSANDTHS)
        return str(value)

    def phrase(self, value: Number | None) -> Message:
        """The value with what it measures, for a sentence: ``time 1:02:03``."""
        return _("%(label)s %(value)s", label=self.label, value=self.describe(value))

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


class Split(NamedTuple):
    """Named tuples, this and ``Placed``: a ranking makes one per row, and a tuple is made
    fastest."""

    criterion: Criterion
    value: Number | None
    above_value: Number | None
    above: Entry


class Placed(NamedTuple):
    entry: Entry
    place: int
    place_to: int
    split: Split | None
    playoff: bool
    settled: Message | None = None  # how a play-off placed it (``podium.engine.playoff``)

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
    # The entries are kept in one list, refined in place; a tie group is the slice from its
    # start to the next group's start.
    ordered = list(entries)
    n = len(ordered)
    starts = [0] if ordered else []
    splits: dict[int, Split] = {}  # group start -> what set the group below the one above it
    held: set[int] = set()  # starts of the groups held together for a play-off
    for run in _runs(criteria, playoff.after if playoff else None):
        refine = _refine_by_group if isinstance(run[0], GroupCriterion) else _refine_by_rows
        refined: list[int] = []
        for g, a in enumerate(starts):
            b = starts[g + 1] if g + 1 < len(starts) else n
            refined.append(a)
            if b - a > 1 and a not in held:
                refined.extend(refine(ordered, a, b, run, splits))
        starts = refined
        if playoff and run[-1].key == playoff.after:
            held.update(_in_zone(starts, n, playoff))
    placed: list[Placed] = []
    for g, a in enumerate(starts):
        b = starts[g + 1] if g + 1 < len(starts) else n
        hold = a in held
        split = splits.get(a)
        if split is not None and split.above is not ordered[a - 1]:
            # Name the row now directly above: it was tied with the one compared when the group
            # split off, on that criterion, so the values still hold.
            split = Split(split.criterion, split.value, split.above_value, placed[-1].entry)
        if b - a == 1:
            placed.append(Placed(ordered[a], a + 1, b, split, hold))
            continue
        # Tied entries are listed by name, then id: never by input order.
        members = sorted(ordered[a:b], key=_tie_order)
        ordered[a:b] = members
        placed.append(Placed(members[0], a + 1, b, split, hold))
        placed.extend([Placed(e, a + 1, b, None, hold) for e in members[1:]])
    return placed


def _tie_order(entry: Entry) -> tuple[str, str, str]:
    return (entry.name.casefold(), entry.name, entry.id)


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


def _in_zone(starts: list[int], n: int, zone: PlayoffZone) -> Iterator[int]:
    for g, a in enumerate(starts):
        b = starts[g + 1] if g + 1 < len(starts) else n
        if b - a > 1 and a + 1 <= zone.last and b >= zone.first:
            yield a


def _encode(criterion: Criterion, values: list[Number | None]) -> list[object]:
    """Sort keys for one column: ascending is best-first; ``None`` sorts as its own value."""
    negate = criterion.direction is Direction.HIGHER
    if None in values:
        return [(0,) if v is None else (1, -v if negate else v) for v in values]
    return [-v for v in values] if negate else list(values)  # type: ignore[operator]


def _plain_metrics(run: list[Criterion]) -> list[str] | None:
    """The metrics of a run that reads plain metrics in one direction (the fast path), else None."""
    direction = run[0].direction
    metrics = []
    for criterion in run:
        plain = type(criterion).column is RowCriterion.column
        if not plain or criterion.direction is not direction:
            return None
        metrics.append(criterion.metric)  # type: ignore[attr-defined]
    return metrics


def _refine_by_rows(
    ordered: list[Entry], a: int, b: int, run: list[Criterion], splits: dict[int, Split]
) -> list[int]:
    members = ordered[a:b]
    metrics = _plain_metrics(run)
    if metrics is not None:
        # One direction and no gaps: sort the metric tuples themselves, reversed when higher is
        # better (Python's sort stays stable when reversed), with no per-value encoding.
        get = itemgetter(*metrics)
        raw_keys = [get(e.metrics) for e in members]
        if len(metrics) == 1:
            raw_keys = [(k,) for k in raw_keys]
        if None not in chain.from_iterable(raw_keys):
            reverse = run[0].direction is Direction.HIGHER
            order = sorted(range(len(members)), key=raw_keys.__getitem__, reverse=reverse)
            return _split(ordered, a, members, order, raw_keys, run, raw_keys, splits)
    raw = [c.column(members) for c in run]
    encoded = [_encode(c, col) for c, col in zip(run, raw, strict=True)]
    keys = list(zip(*encoded, strict=True))
    order = sorted(range(len(members)), key=keys.__getitem__)
    return _split(ordered, a, members, order, keys, run, list(zip(*raw, strict=True)), splits)


def _refine_by_group(
    ordered: list[Entry], a: int, b: int, run: list[Criterion], splits: dict[int, Split]
) -> list[int]:
    (criterion,) = run
    members = ordered[a:b]
    raw = criterion.column(members)
    keys = [(k,) for k in _encode(criterion, raw)]
    order = sorted(range(len(members)), key=keys.__getitem__)
    return _split(ordered, a, members, order, keys, run, [(v,) for v in raw], splits)


def _split(
    ordered: list[Entry],
    a: int,
    members: list[Entry],
    order: list[int],
    keys: Sequence[Sequence[object]],
    run: list[Criterion],
    values: Sequence[Sequence[Number | None]],
    splits: dict[int, Split],
) -> list[int]:
    """Put the group's slice in sorted order and return where new tie groups start in it."""
    ordered[a : a + len(members)] = [members[i] for i in order]
    starts: list[int] = []
    previous = order[0]
    previous_key = keys[previous]
    for position, local in enumerate(order[1:], start=a + 1):
        key = keys[local]
        if key != previous_key:
            j = 0
            while key[j] == previous_key[j]:
                j += 1
            value, above_value = values[local][j], values[previous][j]
            if value is None or above_value is None:
                _missing(run[j], members[local], members[previous], value)
            splits[position] = Split(run[j], value, above_value, members[previous])
            starts.append(position)
        previous, previous_key = local, key
    return starts


def _missing(criterion: Criterion, entry: Entry, other: Entry, value: Number | None) -> None:
    lacking, having = (entry, other) if value is None else (other, entry)
    raise InputError(
        [
            Problem(
                f"entry {lacking.id}",
                _(
                    "has no %(criterion)s to compare with %(other)s's (criterion '%(key)s')",
                    criterion=criterion.label,
                    other=having.id,
                    key=criterion.key,
                ),
            )
        ]
    )


def official_places(placed: Sequence[Placed]) -> dict[str, tuple[int, int]]:
    """Places among official entries only: the same order and ties, outsiders left out."""
    places: dict[str, tuple[int, int]] = {}
    count = 0
    group: list[str] = []
    group_place = 0
    for p in placed:
        if p.place != group_place:
            count = _close(places, group, count)
            group_place = p.place
        if p.entry.klass == "official":
            group.append(p.entry.id)
    _close(places, group, count)
    return places


def _close(places: dict[str, tuple[int, int]], group: list[str], count: int) -> int:
    """Give the official members of a finished tie group their shared official places."""
    if group:
        shared = (count + 1, count + len(group))
        places.update(dict.fromkeys(group, shared))
        count += len(group)
        group.clear()
    return count
