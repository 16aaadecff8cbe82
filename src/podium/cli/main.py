"""The ``podium`` command: offline standings from files, rulebooks, bowling scores."""

from __future__ import annotations

import typer

from podium.cli import archive, bowling, publish, rulebook, server, standings

app = typer.Typer(
    name="podium",
    help="Podium runs competitions from their rulebooks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(rulebook.app, name="rulebook")
app.add_typer(bowling.app, name="bowling")
app.command("standings")(standings.command)
app.command("serve")(server.serve)
app.command("export-event")(archive.export_event)
app.command("import-event")(archive.import_event)
app.command("publish")(publish.publish)
app.command(
    "manage",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    add_help_option=False,
)(server.manage)
