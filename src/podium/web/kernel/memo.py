"""Reads shared within one rendering: a page that shows a round's table and its chart (a season
sums every tour for both) reads and ranks the round once, not once per part.

Vocabulary:
- shared block: ``with shared_reads():`` around work that only reads (rendering a page, a
  fragment, a printout). Inside it, ``shared(key, make)`` makes each key's value once and
  hands the same value to every later caller; outside one, ``make`` runs every time. Blocks
  nest (an inner one joins the outer), and nothing outlives the outermost block, so a value
  is never older than the rendering that reads it.
- key: a tuple naming the read and everything it depends on (the event's id, stage, rounds,
  the moment it is "as of"), so two reads share a value only if they would read the same.
  Callers must treat a shared value as read-only (they get copies of its lists where that
  matters).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

_values: ContextVar[dict[Hashable, Any] | None] = ContextVar("podium_shared_reads", default=None)


@contextlib.contextmanager
def shared_reads() -> Iterator[None]:
    """A shared block (see the vocabulary)."""
    if _values.get() is not None:
        yield
        return
    token = _values.set({})
    try:
        yield
    finally:
        _values.reset(token)


def shared(key: Hashable, make: Callable[[], T]) -> T:
    """The value of ``key`` made once in the current shared block (``make()`` outside one)."""
    values = _values.get()
    if values is None:
        return make()
    if key not in values:
        values[key] = make()
    found: T = values[key]
    return found


def shared_value(key: Hashable) -> Any | None:
    """The value already made for ``key`` in the current block, else ``None``."""
    values = _values.get()
    return None if values is None else values.get(key)
