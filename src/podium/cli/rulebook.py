"""`podium rulebook`: check a rulebook, show a preset, print the JSON Schema for editors."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from podium.engine.validate import check_rulebook
from podium.rules import loader
from podium.rules.schema import Rulebook

app = typer.Typer(
    help="Rulebooks: check one, show a shipped preset, or print the schema for editors.",
    no_args_is_help=True,
)

USAGE_ERROR = 2


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
        for engine_problem in problems:
            typer.echo(f"{prefix}{name}: {engine_problem}", err=True)
        raise typer.Exit(USAGE_ERROR)
    return rulebook


@app.command()
def check(
    source: Annotated[
        str,
        typer.Argument(
            metavar="FILE_OR_PRESET",
            help=f"A rulebook file, or a preset name ({', '.join(loader.PRESETS)}).",
            show_default=False,
        ),
    ],
) -> None:
    """Check that a rulebook is valid: its settings, and that its criteria fit each stage.

    Prints one line, ok: KEY — TITLE (N stages), when it is. Otherwise exits with status 2 and
    prints every problem on stderr, one per line, as file:line: setting.path: message.
    """
    rulebook = load_checked(source)
    typer.echo(f"ok: {rulebook.key} — {rulebook.title} ({len(rulebook.stages)} stages)")


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
