"""``podium export-event`` and ``podium import-event``: one file with everything about an
event (see ``podium.web.files.archive``), written to or read from the database in ``DATABASE_URL``
(SQLite in ``var/`` by default).

Problems exit with status 2 and one line on standard error; nothing is half-imported. The
archive is read within ``podium.web.kernel.limits`` (at most ``ARCHIVE_MAX_BYTES``, its nesting
measured before it is decoded) and its rows checked before anything is written.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

from podium.cli.server import django_ready


def export_event(
    slug: str = typer.Argument(..., help="The event's address, e.g. cz-jigsaw-2027."),
    output: Path = typer.Option(
        None, "--output", "-o", help="Where to write the archive (default: standard output)."
    ),
) -> None:
    """Write an event with everything it holds to one JSON file."""
    django_ready()
    from podium.web.files.archive import dumps, export_event
    from podium.web.models import Event

    event = Event.objects.filter(slug=slug).first()
    if event is None:
        typer.echo(f"podium: no event '{slug}' in this database", err=True)
        raise typer.Exit(2)
    text = dumps(export_event(event))
    if output is None:
        sys.stdout.write(text + "\n")
    else:
        output.write_text(text + "\n", encoding="utf-8")
        typer.echo(f"{slug}: written to {output}", err=True)


def import_event(
    archive: Path = typer.Argument(..., help="An archive written by podium export-event."),
    slug: str = typer.Option(None, "--slug", help="Import under another address."),
) -> None:
    """Create an event from an archive, with everything it holds (all or nothing)."""
    django_ready()
    from podium.web.files.archive import ArchiveError, import_event
    from podium.web.kernel import limits

    try:
        with archive.open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > limits.ARCHIVE_MAX_BYTES:  # refused unread
                cap = limits.megabytes(limits.ARCHIVE_MAX_BYTES)
                raise ValueError(f"larger than {cap} MB, the most Podium reads")
            data = file.read(size)
        document = limits.loads(data, limits.ARCHIVE_MAX_DEPTH)
    except (OSError, ValueError) as exc:  # JSON, UTF-8, too deep or too large: all ValueErrors
        typer.echo(f"podium: {archive}: cannot read the archive: {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        event = import_event(document, slug=slug)
    except ArchiveError as exc:
        typer.echo(f"podium: {archive}: {exc}", err=True)
        raise typer.Exit(2) from None
    draft = (
        " as a draft (publish it from its dashboard's status)" if event.status == "draft" else ""
    )
    typer.echo(f"{event.slug}: imported from {archive}{draft}")
