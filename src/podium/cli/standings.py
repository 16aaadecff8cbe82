"""``podium standings RULEBOOK RESULTS --stage STAGE [--format table|json|csv]`` (DESIGN §3)."""

from __future__ import annotations

import enum
import sys
from pathlib import Path

import typer
from rich.console import Console

from podium.cli.csvfile import read_rows
from podium.cli.render import print_table, to_csv, write_json
from podium.cli.rulebook import load_checked
from podium.engine.compute import compute_standings
from podium.engine.errors import InputError


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
) -> None:
    """Compute a stage's standings from a results file and explain every row."""
    book = load_checked(rulebook, prefix="error: ")
    notes: list[str] = []
    try:
        standings = compute_standings(
            book, stage, read_rows(results, notes, read_as_disputed=read_as_disputed)
        )
    except InputError as exc:
        fail([str(p) for p in exc.problems])
    for note in notes:  # on stderr, so that --format json or csv stays one document
        print(f"note: {note}", file=sys.stderr)
    if output is Format.json:
        write_json(standings, sys.stdout)
    elif output is Format.csv:
        sys.stdout.write(to_csv(standings))
    else:
        print_table(standings, Console(width=max(Console().width, 140)))
