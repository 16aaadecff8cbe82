"""The benchmarks' clock: the median of several runs of one call."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median(fn: Callable[[], Any], runs: int) -> tuple[float, int]:
    """The median wall time of ``runs`` calls of ``fn`` in seconds, and the number of runs."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), runs
