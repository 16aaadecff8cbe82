"""Pausing Python's cyclic garbage collector while the engine builds large results.

Vocabulary: the engine's results (entries, placed rows, standings rows) are large graphs without
reference cycles; reference counting frees them. The cyclic collector would still walk them
again and again while they grow, costing as much as building them, so the engine's entry points
pause it and restore it afterwards.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


def paused_gc(build: Callable[P, T]) -> Callable[P, T]:
    """Run ``build`` with the cyclic collector paused (and leave it as it was)."""

    @functools.wraps(build)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        if not gc.isenabled():
            return build(*args, **kwargs)
        gc.disable()
        try:
            return build(*args, **kwargs)
        finally:
            gc.enable()

    return run
