"""``podium serve`` and ``podium manage …``: the web application from an installed package."""

from __future__ import annotations

import os

import typer


def django_ready() -> None:
    """Sets Django up for a command that reads or writes the database."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "podium.web.settings")
    import django

    django.setup()


def manage(ctx: typer.Context) -> None:
    """Run a Django management command (``podium manage migrate``, ``createsuperuser``…)."""
    django_ready()
    from django.core.management import execute_from_command_line

    execute_from_command_line(["podium manage", *ctx.args])


def serve(
    address: str = typer.Option("127.0.0.1:8000", help="Address and port to listen on."),
    demo: bool = typer.Option(False, "--demo", help="Load the demo events first."),
) -> None:
    """Migrate the database and serve Podium (the development server, for a laptop)."""
    django_ready()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    if demo:
        call_command("load_demo")
    call_command("runserver", address, use_reloader=False)
