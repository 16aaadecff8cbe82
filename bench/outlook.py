"""Benchmark of the standings outlook (``podium.engine.outlook``) on synthetic data (a report,
not a test).

What is measured, each against plain ranking of the same file (``compute_standings``):

1. A ChGK season of 40 tours × 200 teams (the ``deti-kolomny`` preset's ``chgk-season``; masks
   of 15 questions, each team absent from about 10 % of the tours) with 3 tours left
   (``remaining=3``): places bounded with the points each tour hands out, and what each team
   needs is not asked (three tours left).
2. A timed round of 2,000 entrants in progress (``cz-jigsaw`` ``individual-qualification``, groups
   A and B, quotas 50 Czechs + 5 foreigners per group, about 15 % foreigners): 60 % finished, the
   others still solving at the clock's 1:05:00; each still solving gets its "what it takes".
3. A bowling qualification of 200 bowlers (``cba-qualifier``, six divisions) with two games left
   for everyone (four of six bowled) and one game left for a third of them, so that their
   "what it takes" is worked out too.

Target: each outlook within ``TARGET_S`` (1 s). Every time is the median of ``RUNS`` runs
(``time.perf_counter``, a full garbage collection before each), shown with the fastest and the
slowest; the ratio is outlook median / plain ranking median. The data come from
``random.Random(SEED)``. The script always exits 0: it reports PASS or MISS.

Run ``.venv/bin/python bench/outlook.py`` (``--runs N`` to change the number of runs).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import time
from collections.abc import Callable

from podium.engine.compute import compute_standings
from podium.engine.inputs import RawRow
from podium.engine.outlook import outlook
from podium.engine.timing import format_clock
from podium.rules.loader import load

SEED = 20261208
TARGET_S = 1.0
RUNS = 7


def season_rows(rng: random.Random, tours: int = 40, teams: int = 200) -> list[RawRow]:
    strength = [rng.random() for _ in range(teams)]
    cells: list[dict[str, str]] = []
    for tour in range(1, tours + 1):
        for t in range(teams):
            if rng.random() < 0.1:
                continue
            mask = "".join("1" if rng.random() < strength[t] * 0.8 else "0" for _ in range(15))
            cells.append({"id": f"t{t}", "name": f"Team {t}", "tour": str(tour), "mask": mask})
    return [RawRow(i + 2, c) for i, c in enumerate(cells)]


def round_rows(rng: random.Random, entrants: int = 2_000) -> list[RawRow]:
    cells = []
    for i in range(entrants):
        finished = rng.random() < 0.6
        cells.append(
            {
                "id": str(i),
                "name": f"Solver {i}",
                "country": "DE" if rng.random() < 0.15 else "CZ",
                "group": "A" if i % 2 else "B",
                "time": format_clock(rng.randint(30 * 60, 65 * 60) * 1000) if finished else "",
                "pieces": "" if finished else str(rng.randint(0, 499)),
            }
        )
    return [RawRow(i + 2, c) for i, c in enumerate(cells)]


def bowling_rows(rng: random.Random, bowlers: int = 200) -> list[RawRow]:
    cells = []
    for i in range(bowlers):
        bowled = 5 if i % 3 == 0 else 4
        games = [str(max(0, min(300, int(rng.gauss(180, 25))))) for _ in range(bowled)]
        row = {
            "id": str(i),
            "name": f"Bowler {i}",
            "gender": "M" if i % 2 else "F",
            "average": f"{rng.uniform(140, 210):.2f}",
            "qualified": "yes" if rng.random() < 0.05 else "no",
        }
        row.update({f"g{n + 1}": games[n] if n < bowled else "" for n in range(6)})
        cells.append(row)
    return [RawRow(i + 2, c) for i, c in enumerate(cells)]


def timed(run: Callable[[], object], runs: int) -> tuple[float, float, float]:
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--runs", type=int, default=RUNS)
    runs = parser.parse_args().runs
    rng = random.Random(SEED)
    cases = [
        ("season 40 tours × 200 teams, 3 tours left", "deti-kolomny", "chgk-season",
         season_rows(rng), {"remaining": 3}),
        ("timed round of 2,000, 40 % still solving", "cz-jigsaw", "individual-qualification",
         round_rows(rng), {"now_ms": 65 * 60_000}),
        ("bowling 200 bowlers, two games left", "cba-qualifier", "qualification",
         bowling_rows(rng), {}),
    ]  # fmt: skip
    print(f"python {platform.python_version()}, load average {os.getloadavg()[0]:.2f}, "
          f"{runs} runs each (median, fastest–slowest)")  # fmt: skip
    for label, name, stage, rows, options in cases:
        book = load(name)
        plain = timed(lambda b=book, s=stage, r=rows: compute_standings(b, s, r), runs)
        seen = timed(lambda b=book, s=stage, r=rows, o=options: outlook(b, s, r, **o), runs)
        verdict = "PASS" if seen[0] <= TARGET_S else "MISS"
        print(f"{label}:")
        print(f"  plain ranking {_spread(plain)}")
        print(f"  outlook       {_spread(seen)}  ×{seen[0] / plain[0]:.1f} of plain ranking  "
              f"[{verdict} ≤ {TARGET_S:.0f} s]")  # fmt: skip


def _spread(times: tuple[float, float, float]) -> str:
    median, fastest, slowest = (t * 1000 for t in times)
    return f"{median:7.1f} ms ({fastest:.1f}–{slowest:.1f})"


if __name__ == "__main__":
    main()
