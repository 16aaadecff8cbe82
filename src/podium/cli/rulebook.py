"""`podium rulebook`: check a rulebook, show a preset, print the JSON Schema for editors, and
simulate a stage on made-up entrants (the workshop, ``podium.engine.workshop``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from podium.engine import workshop
from podium.engine.defaults import described, relied_on
from podium.engine.document import standings_data
from podium.engine.errors import InputError
from podium.engine.validate import check_rulebook
from podium.rules import loader
from podium.rules.schema import Rulebook

app = typer.Typer(
    help="Rulebooks: check one, show a shipped preset, or print the schema for editors.",
    no_args_is_help=True,
)

USAGE_ERROR = 2
Source = Annotated[
    str,
    typer.Argument(
        metavar="FILE_OR_PRESET",
        help=f"A rulebook file, or a preset name ({', '.join(loader.PRESETS)}).",
        show_default=False,
    ),
]


def load_checked(source: str, prefix: str = "") -> Rulebook:
    """The rulebook from a preset name or file, valid for the engine too; else every problem
    on stderr (one per line, each after ``prefix``) and exit status 2."""
    try:
        rulebook = loader.load(source)
    except loader.RulebookError as error:
        for problem in error.problems:
            typer.echo(f"{prefix}{problem}", err=True)
        raise typer.Exit(USAGE_ERROR) from None
    problems = check_rulebook(rulebook)
    if problems:
        # Named as the loader names its source, so both kinds of problem read alike.
        name = f"preset:{source}" if source in loader.PRESETS else str(Path(source))
        text = (
            loader.preset_text(source)
            if source in loader.PRESETS
            else Path(source).read_text(encoding="utf-8")
        )  # it loaded, so it reads
        lines = loader.lines_of(text, [p.where for p in problems])
        for engine_problem, line in zip(problems, lines, strict=True):
            where = f"{name}:{line}" if line else name
            typer.echo(f"{prefix}{where}: {engine_problem}", err=True)
        raise typer.Exit(USAGE_ERROR)
    return rulebook


@app.command()
def check(
    source: Source,
) -> None:
    """Check that a rulebook is valid: its settings, and that its criteria fit each stage.

    Prints one line, ok: KEY — TITLE (N stages), when it is, then one line per default the
    rulebook relies on (default: setting.path: …). Otherwise exits with status 2 and
    prints every problem on stderr, one per line, as file:line: setting.path: message.
    """
    rulebook = load_checked(source)
    typer.echo(f"ok: {rulebook.key} — {rulebook.title} ({len(rulebook.stages)} stages)")
    for default in relied_on(rulebook):  # what the rulebook leaves to Podium
        typer.echo(f"default: {default.where}: {described(default)}")


@app.command()
def show(
    preset: Annotated[
        str,
        typer.Argument(
            metavar="PRESET",
            help=f"A preset name: {', '.join(loader.PRESETS)}.",
            show_default=False,
        ),
    ],
) -> None:
    """Print a preset's YAML as shipped: a starting point for a rulebook of your own."""
    try:
        text = loader.preset_text(preset)
    except KeyError:
        known = ", ".join(loader.PRESETS)
        typer.echo(f"error: unknown preset '{preset}'; the presets are: {known}", err=True)
        raise typer.Exit(USAGE_ERROR) from None
    typer.echo(text, nl=False)


@app.command()
def schema() -> None:
    """Print the JSON Schema of a rulebook, for editors that check YAML as it is typed."""
    typer.echo(loader.json_schema())


@app.command()
def simulate(
    source: Source,
    stage: Annotated[str, typer.Option("--stage", help="The stage to simulate.")],
    entrants: Annotated[
        int | None,
        typer.Option(
            "--entrants",
            min=2,
            max=workshop.MAX_ENTRANTS,
            help="Entrants per run (default: the category's cap, else 60; 16 for teams).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="The same seed gives the same report.")] = 0,
    runs: Annotated[
        int, typer.Option("--runs", min=1, max=workshop.MAX_RUNS, help="Fields to simulate.")
    ] = workshop.DEFAULT_RUNS,
    output: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
) -> None:
    """A dry run of one stage: plausible entrants and results, ranked by the rulebook, and what
    its rules had to decide (ties at a cut, unfilled quotas, play-offs, refusals), each with its
    clause. JSON adds the first run's standings as a preview."""
    if output not in ("text", "json"):
        typer.echo(f"error: --format is text or json, not '{output}'", err=True)
        raise typer.Exit(USAGE_ERROR)
    rulebook = load_checked(source, prefix="error: ")
    try:
        report = workshop.simulate(rulebook, stage, entrants=entrants, seed=seed, runs=runs)
    except InputError as exc:
        for problem in exc.problems:
            typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(USAGE_ERROR) from None
    if output == "json":
        data = workshop.as_data(report)
        data["preview"] = standings_data(report.preview)
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return
    for line in workshop.describe(report):
        typer.echo(line)
