"""``podium publish``: the public results as static files in a folder any static host or object
store serves (see ``podium.web.files.publish`` and the README's "Results on a static host").

Each turn prints the files it wrote; a folder that cannot be written (its mount or line is
gone) is named on standard error and, with ``--watch``, tried again at the next turn.
"""

from __future__ import annotations

from pathlib import Path

import typer

from podium.cli.server import django_ready


def publish(
    folder: Path = typer.Argument(..., help="Where to write the copy (created when missing)."),
    event: list[str] = typer.Option(
        [], "--event", help="Only this event (by its address; repeat for more)."
    ),
    watch: bool = typer.Option(
        False, "--watch", help="Keep running: publish each new version as it is recorded."
    ),
    interval: float = typer.Option(
        3.0, "--interval", min=0.5, max=3600, help="Seconds between two looks (with --watch)."
    ),
) -> None:
    """Write the public standings (pages, polled tables and the API's JSON) as static files."""
    django_ready()
    from podium.web.files import publish as static_copy

    failed: list[str] = []

    def report(done: static_copy.Published) -> None:
        failed[:] = done.failed
        for path in done.written:
            typer.echo(f"written {path}")
        for failure in done.failed:
            typer.echo(f"podium: not published, tried again later: {failure}", err=True)

    if folder.exists() and not folder.is_dir():
        typer.echo(f"podium: {folder} is not a folder", err=True)
        raise typer.Exit(2)
    try:
        static_copy.watch(folder, event, interval, 0 if watch else 1, report)
    except KeyboardInterrupt:
        return
    if failed:
        raise typer.Exit(1)
