"""``podium standings RULEBOOK RESULTS --stage STAGE [--format table|json|csv]`` (DESIGN §3)."""

from __future__ import annotations

import enum
import sys
from pathlib import Path

import typer
from rich.console import Console

from podium.cli import outlook as outlook_cli
from podium.cli.csvfile import read_rows
from podium.cli.render import print_table, to_csv, write_json
from podium.cli.rulebook import load_checked
from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.outlook import StageOutlook
from podium.engine.outlook import outlook as stage_outlook
from podium.engine.outlook.why import Separation, why_above


class Format(enum.StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


def fail(lines: list[str]) -> None:
    for line in lines:
        print(f"error: {line}", file=sys.stderr)
    raise typer.Exit(2)


def command(
    rulebook: str = typer.Argument(..., help="A preset name (cz-jigsaw, …) or a rulebook file."),
    results: Path = typer.Argument(
        ..., help="Results CSV (UTF-8, ',' or ';'), or the rating site's ChGK table (XLSX, CSV)."
    ),
    stage: str = typer.Option(..., "--stage", help="The stage id, e.g. individual-qualification."),
    output: Format = typer.Option(Format.table, "--format", help="table, json or csv."),
    read_as_disputed: bool = typer.Option(
        False,
        "--read-as-disputed",
        help="Read the rating site's cells that are neither marks nor answers as disputed (?).",
    ),
    outlook: bool = typer.Option(
        False, "--outlook", help="Treat the file as partial: what can still happen to each row."
    ),
    remaining: int | None = typer.Option(
        None,
        "--remaining",
        help="Rounds still to play where the file cannot tell (a season's "
        "tours, a tour's questions given by counts).",
        min=0,
        max=outlook_cli.MOST_REMAINING,
    ),
    why: str | None = typer.Option(
        None, "--why", help="Two entrant ids, A,B: the criterion that separates them."
    ),
) -> None:
    """Compute a stage's standings from a results file and explain every row."""
    book = load_checked(rulebook, prefix="error: ")
    notes: list[str] = []
    if remaining is not None and not outlook:
        fail(["--remaining: only with --outlook"])
    pair = _pair(why) if why is not None else None
    seen: StageOutlook | None = None
    separation: Separation | None = None
    try:
        rows = read_rows(results, notes, read_as_disputed=read_as_disputed)
        if outlook:
            seen = stage_outlook(book, stage, rows, remaining=remaining)
            standings = seen.standings
        else:
            standings = compute_standings(book, stage, rows)
        if pair is not None:
            separation = why_above(standings, book.stage(stage), *pair)
    except InputError as exc:
        fail([str(p) for p in exc.problems])
    for note in notes:  # on stderr, so that --format json or csv stays one document
        print(f"note: {note}", file=sys.stderr)
    if output is Format.json:
        if seen is None and separation is None:
            write_json(standings, sys.stdout)
        else:
            outlook_cli.write_json(standings, seen, separation, sys.stdout)
        return
    if output is Format.csv:
        sys.stdout.write(to_csv(standings))
    else:
        console = Console(width=max(Console().width, 140))
        print_table(standings, console)
        if seen is not None:
            outlook_cli.print_outlook(seen, console)
    if separation is not None and output is Format.table:
        outlook_cli.print_why(separation)


def _pair(text: str) -> tuple[str, str]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts) or parts[0] == parts[1] or len(text) > 400:
        fail([f"--why: give two different entrant ids as A,B (got '{text[:60]}')"])
    return parts[0], parts[1]
