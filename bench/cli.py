"""Benchmark of ``podium standings … --format json`` as a whole process, against a plain-Python
floor (a report, not a test).

What is measured:

- The input: a results file of the ČBA qualifier (the ``cba-qualifier`` preset's
  ``qualification`` stage) with 100,000 bowlers, made from ``random.Random(SEED)``: gender (70 %
  men), a ladder average (mean 170 for men and 160 for women, sd 15; 10 % not on the ladder, so
  in the lowest division), a birth date from 1950 to 2001 (those born after 30 June 1999 bowl
  outside the competition), 3 % already qualified, and six games around the average (sd 25,
  clipped to 0–300), so totals tie often and the tie-breaks do real work.
- (a) ``podium standings cba-qualifier results.csv --stage qualification --format json``: the
  installed command, startup included, its JSON written to a file.
- (b) the floor: a script that does the least the same job needs — reads the same file with
  the ``csv`` module, puts each bowler in a division by gender and average, computes the ranking
  key (total pinfall, then the games from the outside in), sorts each division, gives shared
  places to equal keys and writes the JSON of each row's id, name, rank and score with the
  ``json`` module, indented as the command's (``indent=2``). Its places are checked against the
  command's, so both did the same ranking.

The two run in turn, (a) (b) (a) (b) …, after one warm-up run of each, so that a change in the
machine's speed touches both alike. For each pair the report shows both wall times, their ratio
and the peak resident memory of each process (the kernel's accounting of that child, from
``os.wait4``); then the median with the minimum and maximum of each, and the machine's load
average before and after. Target (issue 11): (a) within 5× (b). The script always exits 0: it
reports the target as PASS or MISS, it does not fail on it.

Run ``.venv/bin/python bench/cli.py`` (100,000 bowlers, 5 pairs) or add ``--quick`` for a smoke
run (10,000 bowlers, 2 pairs); ``--entrants`` and ``--pairs`` set them.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SEED = 20240607
TARGET_RATIO = 5.0
ENTRANTS, PAIRS = 100_000, 5
QUICK_ENTRANTS, QUICK_PAIRS = 10_000, 2
MIB = 1024 * 1024

FIRST = {
    "M": ("Jan", "Petr", "Karel", "Tomáš", "Miroslav", "Pavel", "Martin", "Jiří", "Zdeněk"),
    "F": ("Jana", "Eva", "Lucie", "Hana", "Petra", "Marie", "Alena", "Věra", "Kateřina"),
}
LAST = ("Novák", "Dvořák", "Svoboda", "Černý", "Procházka", "Kučera", "Veselý", "Horák", "Král")
COLUMNS = (
    "id",
    "name",
    "gender",
    "average",
    "birth_date",
    "qualified",
    *(f"g{i}" for i in range(1, 7)),
)

# The floor: standard library only, as a person would write it for this one file and preset.
FLOOR = """
import csv, json, sys
from decimal import Decimal

DIVISIONS = {  # gender -> (lowest average, division) from the top; None: the fallback
    "M": ((Decimal(190), "master-men"), (Decimal(165), "standard-men"), (None, "amateur-men")),
    "F": (
        (Decimal(175), "master-women"), (Decimal(160), "standard-women"), (None, "amateur-women")
    ),
}
ORDER = [d for g in "MF" for _, d in DIVISIONS[g]]


def division(gender, average):
    value = Decimal(average) if average else None
    for low, key in DIVISIONS[gender]:
        if low is None or (value is not None and value >= low):
            return key


tables = {key: [] for key in ORDER}
with open(sys.argv[1], newline="", encoding="utf-8") as results:
    for row in csv.DictReader(results):
        games = sorted((int(row[f"g{i}"]) for i in range(1, 7)), reverse=True)
        total = sum(games)
        # Higher is better on every part: total, then the games from the outside in.
        key = (-total, -games[0], -games[5], -games[1], -games[4], -games[2], -games[3])
        score = f"{total} ({games[0]} high)"
        tables[division(row["gender"], row["average"])].append((key, row["id"], row["name"], score))
document = {"tables": []}
for key in ORDER:
    rows, place, previous = [], 0, None
    for n, (sort_key, id_, name, score) in enumerate(sorted(tables[key]), start=1):
        if sort_key != previous:
            place, previous = n, sort_key
        rows.append({"id": id_, "name": name, "rank": place, "score": score})
    if rows:
        document["tables"].append({"key": key, "rows": rows})
json.dump(document, sys.stdout, ensure_ascii=False, indent=2)
sys.stdout.write("\\n")
"""


def write_results(path: Path, n: int) -> None:
    rng = random.Random(SEED)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for i in range(n):
            gender = "M" if rng.random() < 0.7 else "F"
            name = f"{rng.choice(FIRST[gender])} {rng.choice(LAST)}"
            mean = rng.gauss(170 if gender == "M" else 160, 15)
            average = "" if rng.random() < 0.1 else f"{mean:.2f}"
            born = f"{rng.randint(1950, 2001)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            qualified = "yes" if rng.random() < 0.03 else "no"
            games = [min(300, max(0, round(rng.gauss(mean, 25)))) for _ in range(6)]
            writer.writerow([f"B{i:06d}", name, gender, average, born, qualified, *games])


@dataclass(frozen=True)
class Run:
    seconds: float  # wall time
    cpu: float  # user and system time of the process: less touched by other processes
    peak_mib: float  # the largest resident set of the process
    status: int


def run(command: Sequence[str], output: Path) -> Run:
    """One run of ``command``, its standard output into ``output`` (its errors beside it)."""
    errors = output.with_suffix(".err")
    with output.open("wb") as out, errors.open("wb") as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own accounting
        seconds = time.perf_counter() - start
    child.returncode = code = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    if code:
        sys.stderr.write(errors.read_text(encoding="utf-8", errors="replace"))
    cpu = usage.ru_utime + usage.ru_stime
    return Run(seconds, cpu, usage.ru_maxrss * 1024 / MIB, code)  # ru_maxrss is in KiB


def places(path: Path) -> dict[str, dict[str, int]]:
    """Each table's place of each id, from a JSON document of either program."""
    with path.open(encoding="utf-8") as document:
        tables = json.load(document)["tables"]
    return {t["key"]: {row["id"]: row["rank"] for row in t["rows"]} for t in tables}


def spread(values: Sequence[float], unit: str, digits: int = 2) -> str:
    return (
        f"median {statistics.median(values):.{digits}f}{unit} "
        f"(min {min(values):.{digits}f}, max {max(values):.{digits}f})"
    )


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="podium standings against a plain-Python floor.")
    parser.add_argument("--quick", action="store_true", help="10,000 bowlers, 2 pairs")
    parser.add_argument("--entrants", type=int, help=f"bowlers in the file ({ENTRANTS:,})")
    parser.add_argument("--pairs", type=int, help=f"runs of each, in turn ({PAIRS})")
    parser.add_argument("--keep", action="store_true", help="keep the files (else removed)")
    args = parser.parse_args(argv)
    entrants = args.entrants or (QUICK_ENTRANTS if args.quick else ENTRANTS)
    pairs = args.pairs or (QUICK_PAIRS if args.quick else PAIRS)
    podium = Path(sys.executable).with_name("podium")
    work = Path(tempfile.mkdtemp(prefix="podium-bench-cli-"))
    results, floor = work / "results.csv", work / "floor.py"
    write_results(results, entrants)
    floor.write_text(FLOOR, encoding="utf-8")
    commands = {
        "podium": [
            *(str(podium), "standings", "cba-qualifier", str(results)),
            *("--stage", "qualification", "--format", "json"),
        ],
        "floor": [sys.executable, str(floor), str(results)],
    }
    outputs = {name: work / f"{name}.json" for name in commands}
    print(
        f"podium standings vs a plain-Python floor: seed {SEED}, Python {platform.python_version()}"
    )
    size = results.stat().st_size / MIB
    print(
        f"cba-qualifier qualification, {entrants:,} bowlers ({size:.1f} MiB of CSV); "
        f"{pairs} pairs after a warm-up of each"
    )
    print(f"load average before: {load()}")
    for name, command in commands.items():  # warm-up: the file and the programs in the cache
        run(command, outputs[name])
    runs: list[tuple[Run, Run]] = []
    print(
        f"{'pair':>4}  {'wall (a)':>9} {'(b)':>7} {'(a)/(b)':>7}  {'cpu (a)':>8} {'(b)':>7} "
        f"{'(a)/(b)':>7}  {'peak (a)':>9} {'(b)':>8}"
    )
    for n in range(1, pairs + 1):
        a = run(commands["podium"], outputs["podium"])
        b = run(commands["floor"], outputs["floor"])
        runs.append((a, b))
        print(
            f"{n:>4}  {a.seconds:>7.2f} s {b.seconds:>5.2f} s {a.seconds / b.seconds:>6.2f}×  "
            f"{a.cpu:>6.2f} s {b.cpu:>5.2f} s {a.cpu / b.cpu:>6.2f}×  "
            f"{a.peak_mib:>5.0f} MiB {b.peak_mib:>4.0f} MiB",
            flush=True,
        )
    for label, side in (("(a) podium", 0), ("(b) floor ", 1)):
        mine = [pair[side] for pair in runs]
        print(
            f"{label}  wall {spread([r.seconds for r in mine], ' s')}; "
            f"cpu {spread([r.cpu for r in mine], ' s')}; "
            f"peak memory {spread([r.peak_mib for r in mine], ' MiB', 0)}"
        )
    ratios = [a.seconds / b.seconds for a, b in runs]
    print(f"(a)/(b)     wall {spread(ratios, '×')}; "
          f"cpu {spread([a.cpu / b.cpu for a, b in runs], '×')}")  # fmt: skip
    # Read only now: a child's peak counts this process's own memory when it was started.
    checked = places(outputs["floor"]) == places(outputs["podium"])
    failed = [r.status for pair in runs for r in pair if r.status]
    verdict = "PASS" if statistics.median(ratios) <= TARGET_RATIO and not failed else "MISS"
    print(f"Target (a) ≤ {TARGET_RATIO:g}× (b), on the median ratio of the wall times: {verdict}")
    print(f"The floor's places are the command's in every table: {'yes' if checked else 'NO'}")
    if failed:
        print(f"Runs that failed (exit status): {failed}")
    print(f"load average after: {load()}")
    if args.keep:
        print(f"The files are kept in {work}")
    else:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
