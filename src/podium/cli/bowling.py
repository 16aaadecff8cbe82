"""`podium bowling`: score ten-pin bowling games typed as rolls."""

from __future__ import annotations

from typing import Annotated

import typer

from podium.engine.errors import InputError
from podium.engine.tenpin import FRAMES, score_tokens

app = typer.Typer(help="Ten-pin bowling: score a game from its rolls.", no_args_is_help=True)

USAGE_ERROR = 2


@app.command(
    # A roll such as -1 or - looks like an option; pass it through so the scorer can judge it.
    context_settings={"ignore_unknown_options": True},
)
def score(
    rolls: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="ROLL",
            help="The rolls in order: pins 0-10, or X (strike), / (spare), - (no pins), F (foul).",
            show_default=False,
        ),
    ] = None,
    frames: Annotated[
        bool,
        typer.Option("--frames", help="Also show the running total after each frame."),
    ] = False,
) -> None:
    """Print the total score of one complete game, alone on one line.

    Example: podium bowling score X 7 / 9 - X - 8 8 / F 6 X X X 8 1 prints 167.

    With --frames, two lines come first: frame numbers 1-10, then the running total after each.

    An impossible or unfinished game exits with status 2 and one line on stderr naming the roll.
    """
    try:
        game = score_tokens(rolls or [])
    except InputError as error:
        for problem in error.problems:
            typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(USAGE_ERROR) from None
    if frames:
        typer.echo("frame" + "".join(f"{n:>4}" for n in range(1, FRAMES + 1)))
        typer.echo("score" + "".join(f"{total:>4}" for total in game.frames))
    typer.echo(game.total)
