"""Benchmark of the standings engine on synthetic data (a report, not a test).

What is measured:

1. A bowling qualification (``games`` format, 6 games, groups A and B) of 1,000, 10,000 and
   100,000 entrants, ranked by total pinfall and six tie-breaks (high-game, low-game, high-game-2,
   low-game-2, high-game-3, low-game-3), with a domestic classification (about 15 % foreign
   entrants), points for the first 15 official places, prizes, and the pools "50 official + 5
   foreign per group". Games are drawn from a normal distribution (mean 180, sd 25, clipped to
   0–300), so totals tie often and single games break most of those ties.

   (a) ``compute_standings`` from raw rows: end to end, including reading every cell as text,
       classification, ranking, advancement, points and every row's decisions.
   (b) ``build_table`` alone, for both groups, from the entries (a) builds before ranking, given
       in shuffled order: ranking, official places, advancement, points and reasons.
   (c) the floor: a bare ``sorted()`` of each group's precomputed key tuples (the 7 criterion
       values, negated since higher is better for all of them), the least any ranking of the
       same data can cost.

   The ratios (a)/(c) and (b)/(c) say how many times the floor the engine costs. The targets
   (100,000 entrants in ≤ 1 s and ≤ 5× the floor) are judged on (b), the ranking and standings
   computation; (a) is reported against the same targets beside it, since it also pays for
   reading 1,000,000 text cells. (b) makes every decision (places, splits, quotas, points) but
   writes a row's reasons as sentences only when they are read; a last line, (d), times writing
   out the reasons of every row, as printing the whole table does.

2. A ChGK season of 40 tours × 2,000 teams (15 questions a tour, one mask per team and tour, each
   team absent from about 10 % of the tours): ``compute_standings`` of the ``deti-kolomny``
   preset's ``chgk-season`` stage, which ranks every tour (its points per place) and then the
   season (points, questions, sum of places; ties for a prize place held for a play-off). Target:
   ≤ 1 s; the median of 9 runs is shown with the fastest and the slowest.

3. The peak memory of (a) for 100,000 entrants, traced with ``tracemalloc``, above the raw rows
   it reads (their own size is shown too), and what its result keeps.

Every time is the median of several runs (``time.perf_counter``, a full garbage collection before
each run; fewer runs once a case has taken ``BUDGET_S``; the runs are shown). The data come from
``random.Random(SEED)``, so every run of the script sees the same input. The script always exits
0: it reports each target as PASS or MISS, it does not fail on them.

Run ``.venv/bin/python bench/engine.py`` for everything, or add ``--quick`` for a smoke run on the
smallest sizes only (1,000 entrants; a season of 10 tours × 200 teams), or ``--season`` for the
season alone.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from podium.engine.collector import paused_gc
from podium.engine.compute import compute_standings
from podium.engine.entries import Entry
from podium.engine.inputs import RawRow
from podium.engine.standings import Table, build_table
from podium.rules.loader import load, parse
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import Stage

SEED = 20240607
BUDGET_S = 60.0
TARGET_S = 1.0
TARGET_RATIO = 5.0
MIB = 1024 * 1024

SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (1_000,)
SEASON = (40, 2_000)  # tours, teams
QUICK_SEASON = (10, 200)

GAMES = 6
GROUPS = ("A", "B")
CRITERIA = (
    "total",
    "high-game",
    "low-game",
    "high-game-2",
    "low-game-2",
    "high-game-3",
    "low-game-3",
)
FOREIGN = ("SK", "DE", "PL", "AT", "HU")
FOREIGN_SHARE = 0.15
FIRST = ("Adam", "Eva", "Filip", "Hana", "Jakub", "Jan", "Jana", "Karel", "Lucie", "Petra")
LAST = ("Benes", "Cerny", "Dvorak", "Horak", "Kral", "Novak", "Svoboda", "Vesely", "Zeman")

QUESTIONS = 15  # as the preset's tours have
ATTENDANCE = 0.9
SEASON_RUNS = 9

BOWLING_YAML = f"""
key: bench-bowling
title: Benchmark bowling qualification
language: en
source: synthetic (bench/engine.py)
categories:
  - key: players
    title: Players
    entrants: {{kind: individual}}
classification:
  domestic: {{country: CZ, clause: "§1 only Czech entrants compete for the title"}}
stages:
  - key: qualification
    title: Qualification
    format: games
    category: players
    games: {GAMES}
    tables_by: group
    groups: [{", ".join(GROUPS)}]
    ranking:
      clause: "§2 total pinfall, then the games from the outside in"
      criteria: [{", ".join(CRITERIA)}]
    points: {{per_place: [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1], decimals: 2}}
    prizes: {{places: 3}}
    advancement:
      clause: "§3 the best 50 Czechs and the best 5 foreigners of each group go on"
      pools:
        - {{key: official, label: Czech players, classes: [official], count: 50}}
        - {{key: foreign, label: foreign players, classes: [foreign], count: 5}}
"""

# --- Measuring ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    seconds: float  # the median of the runs
    runs: int
    fastest: float = 0.0
    slowest: float = 0.0


def median_time(run: Callable[[], object], repeats: int) -> Timing:
    """The median wall time of up to ``repeats`` calls, each after a full garbage collection."""
    times: list[float] = []
    while len(times) < repeats and sum(times) < BUDGET_S:
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return Timing(statistics.median(times), len(times), min(times), max(times))


def repeats_for(n: int) -> int:
    return 11 if n <= 1_000 else 7 if n <= 10_000 else 5


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def shown(t: Timing) -> str:
    return f"{t.seconds * 1000:,.2f} ms ({t.runs:>2})"


# --- 1. Bowling standings -------------------------------------------------------------------


def bowling_rows(n: int, rng: random.Random) -> list[RawRow]:
    """Raw rows as a results file gives them: every cell is text."""
    rows = []
    for i in range(n):
        games = [min(300, max(0, round(rng.gauss(180, 25)))) for _ in range(GAMES)]
        cells = {
            "id": f"P{i:06d}",
            "name": f"{rng.choice(FIRST)} {rng.choice(LAST)}",
            "country": rng.choice(FOREIGN) if rng.random() < FOREIGN_SHARE else "CZ",
            "group": rng.choice(GROUPS),
        }
        cells.update({f"g{g}": str(score) for g, score in enumerate(games, start=1)})
        rows.append(RawRow(line=i + 2, cells=cells))
    return rows


def prepared_entries(
    rulebook: Rulebook, rows: Sequence[RawRow], rng: random.Random
) -> dict[str, list[Entry]]:
    """Each group's entries as ``compute_standings`` builds them, in shuffled order."""
    standings = compute_standings(rulebook, "qualification", rows)
    tables = {}
    for table in standings.tables:
        entries = [row.entry for row in table.rows]
        rng.shuffle(entries)
        tables[table.key] = entries
    return tables


def sort_keys(entries: Sequence[Entry]) -> list[tuple[int, ...]]:
    """Each entry's criterion values, negated (higher is better for all of them)."""
    return [tuple(-int(e.metrics[c] or 0) for c in CRITERIA) for e in entries]


def build_tables(tables: dict[str, list[Entry]], stage: Stage) -> list[Table]:
    return [build_table(key, key, entries, stage) for key, entries in tables.items()]


def sort_floor(keys: dict[str, list[tuple[int, ...]]]) -> list[list[tuple[int, ...]]]:
    return [sorted(group) for group in keys.values()]


@dataclass(frozen=True)
class BowlingTimes:
    n: int
    end_to_end: Timing  # (a)
    tables: Timing  # (b)
    floor: Timing  # (c)


def bench_bowling(rulebook: Rulebook, n: int) -> BowlingTimes:
    rng = random.Random(SEED)
    rows = bowling_rows(n, rng)
    stage = rulebook.stage("qualification")
    tables = prepared_entries(rulebook, rows, rng)
    keys = {key: sort_keys(entries) for key, entries in tables.items()}
    repeats = repeats_for(n)
    return BowlingTimes(
        n=n,
        end_to_end=median_time(lambda: compute_standings(rulebook, "qualification", rows), repeats),
        tables=median_time(lambda: build_tables(tables, stage), repeats),
        floor=median_time(lambda: sort_floor(keys), repeats),
    )


def reasons_time(rulebook: Rulebook, n: int) -> Timing:
    """(d) Writing out every row's reasons, which (b) decides but leaves to be read; with the
    cyclic collector paused, as the writers of a whole table (the JSON document, the CLI, the
    live tables) run."""
    rng = random.Random(SEED)
    tables = prepared_entries(rulebook, bowling_rows(n, rng), rng)
    built = build_tables(tables, rulebook.stage("qualification"))
    write = paused_gc(lambda: [row.reasons for t in built for row in t.rows])
    return median_time(write, repeats_for(n))


def print_bowling_header() -> None:
    print(
        "1. Bowling qualification: 6 games, groups A and B, total + 6 tie-breaks, "
        "pools 50 official + 5 foreign per group"
    )
    print("   (each time is the median of the runs in brackets)")
    print(
        f"{'entrants':>9}  {'(a) compute_standings':>22}  {'(b) build_table':>22}  "
        f"{'(c) sorted() floor':>22}  {'(a)/(c)':>8}  {'(b)/(c)':>8}"
    )


def print_bowling(r: BowlingTimes) -> None:
    print(
        f"{r.n:>9,}  {shown(r.end_to_end):>22}  {shown(r.tables):>22}  "
        f"{shown(r.floor):>22}  {r.end_to_end.seconds / r.floor.seconds:>7.1f}×  "
        f"{r.tables.seconds / r.floor.seconds:>7.1f}×",
        flush=True,
    )


def print_targets(r: BowlingTimes, reasons: Timing) -> None:
    print(f"   Targets for {r.n:,} entrants, judged on (b); (a) beside it for reference:")
    cases = [
        ("(b) ranking and standings", r.tables),
        ("(a) end to end, with parsing", r.end_to_end),
    ]
    for label, t in cases:
        ratio = t.seconds / r.floor.seconds
        print(
            f"   {label:<29} {t.seconds:8.3f} s ≤ {TARGET_S:g} s: {verdict(t.seconds <= TARGET_S)}"
            f"   {ratio:6.1f}× ≤ {TARGET_RATIO:g}× floor: {verdict(ratio <= TARGET_RATIO)}"
        )
    print(
        f"   (d) writing out the reasons of all {r.n:,} rows (when a table is printed): "
        f"{shown(reasons)}"
    )


# --- 2. ChGK season -------------------------------------------------------------------------


def season_rows(tours: int, teams: int, rng: random.Random) -> list[RawRow]:
    """One row per team and tour it played, with its mask (``1`` taken, ``0`` not taken)."""
    strength = [rng.uniform(0.15, 0.85) for _ in range(teams)]
    rows: list[RawRow] = []
    for tour in range(1, tours + 1):
        ease = [rng.uniform(0.3, 1.5) for _ in range(QUESTIONS)]
        for team in range(teams):
            if rng.random() >= ATTENDANCE:
                continue
            mask = "".join("1" if rng.random() < strength[team] * e else "0" for e in ease)
            cells = {"id": f"T{team:05d}", "name": f"Team {team:05d}", "tour": str(tour)}
            cells["mask"] = mask
            rows.append(RawRow(line=len(rows) + 2, cells=cells))
    return rows


def bench_season(tours: int, teams: int) -> Timing:
    rulebook = load("deti-kolomny")
    rows = season_rows(tours, teams, random.Random(SEED))
    return median_time(lambda: compute_standings(rulebook, "chgk-season", rows), SEASON_RUNS)


def print_season(tours: int, teams: int, t: Timing) -> None:
    print(
        f"2. ChGK season (deti-kolomny, chgk-season): {tours} tours × {teams:,} teams, "
        f"{QUESTIONS} questions a tour"
    )
    print(
        f"   compute_standings of the season: {shown(t)}, "
        f"min {t.fastest * 1000:,.0f} ms, max {t.slowest * 1000:,.0f} ms   "
        f"≤ {TARGET_S:g} s: {verdict(t.seconds <= TARGET_S)}"
    )


# --- 3. Memory ------------------------------------------------------------------------------


def bench_memory(rulebook: Rulebook, n: int) -> tuple[float, float, float]:
    """The raw rows, the peak of ``compute_standings`` above them and its result, in MiB."""
    gc.collect()
    tracemalloc.start()
    rows = bowling_rows(n, random.Random(SEED))
    rows_size = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    standings = compute_standings(rulebook, "qualification", rows)
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del standings
    return rows_size / MIB, (peak - rows_size) / MIB, (kept - rows_size) / MIB


def print_memory(n: int, sizes: tuple[float, float, float]) -> None:
    rows, peak, kept = sizes
    print(f"3. Memory of (a) for {n:,} entrants (tracemalloc)")
    print(
        f"   peak {peak:.1f} MiB above the raw rows ({rows:.1f} MiB); "
        f"the standings it returns keep {kept:.1f} MiB"
    )


# --- Main -----------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark of the standings engine.")
    parser.add_argument("--quick", action="store_true", help="only the smallest sizes")
    parser.add_argument("--season", action="store_true", help="only the ChGK season (2.)")
    args = parser.parse_args(argv)
    sizes, (tours, teams) = (QUICK_SIZES, QUICK_SEASON) if args.quick else (SIZES, SEASON)
    print(f"Podium engine benchmark: seed {SEED}, Python {platform.python_version()}")
    if args.quick:
        print("Quick run: the targets are set for 100,000 entrants and 40 tours × 2,000 teams;")
        print("here they are only applied to the smallest sizes.")
    if args.season:
        print_season(tours, teams, bench_season(tours, teams))
        return 0
    bowling = parse(BOWLING_YAML, "bench:bowling")
    print_bowling_header()
    for n in sizes:
        result = bench_bowling(bowling, n)
        print_bowling(result)
    print_targets(result, reasons_time(bowling, result.n))
    print_season(tours, teams, bench_season(tours, teams))
    print_memory(result.n, bench_memory(bowling, result.n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
