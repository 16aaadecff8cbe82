"""``podium serve`` and ``podium manage …``: the web application from an installed package.

Vocabulary:
- development server: Django's own, one process, a thread per request — for a laptop.
- production server: gunicorn with worker processes of a few threads each (``--workers``,
  ``--threads``), behind a reverse proxy; debug off, static files collected (hashed names,
  compressed) and served by whitenoise; at most workers × threads database connections on this
  machine (each process pools its own). Before anything starts, the environment is checked
  (``podium.web.deployment``) and a setting it cannot run with is refused in one line.
- shared cache: without ``REDIS_URL`` the processes could not share version tags, rendered
  tables and rate limits, so production then runs one worker process.
"""

from __future__ import annotations

import os
from typing import Any

import typer

# Any number will do as long as it is Podium's alone: it keeps two machines starting at once
# from migrating the same PostgreSQL database together.
MIGRATION_LOCK = 0x50_6F_64_69_75_6D


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


def _refuse(line: str) -> None:
    typer.echo(f"podium: cannot serve in production: {line}", err=True)
    raise typer.Exit(2)


def _reach_the_database() -> None:
    """Refused in one line when the database does not answer, before anything else runs."""
    from django.db import DatabaseError, connection

    try:
        if connection.vendor == "postgresql":
            # One plain connection, not the pool: the pool retries for seconds and logs each try.
            import psycopg

            settings = connection.settings_dict
            known = {"dbname": settings["NAME"], "user": settings["USER"],
                     "password": settings["PASSWORD"], "host": settings["HOST"],
                     "port": settings["PORT"]}  # fmt: skip
            with psycopg.connect(
                **{k: v for k, v in known.items() if v}, connect_timeout=5
            ) as probe:
                probe.execute("SELECT 1")
        else:
            connection.ensure_connection()
    except (DatabaseError, OSError, ImportError) as exc:
        _refuse(f"cannot reach the database ({connection.vendor}): {_first_line(exc)}")
    except Exception as exc:  # psycopg's own errors: one line still
        if type(exc).__module__.startswith("psycopg"):
            _refuse(f"cannot reach the database ({connection.vendor}): {_first_line(exc)}")
        raise


def _first_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def _migrate() -> None:
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor != "postgresql":
        call_command("migrate", interactive=False, verbosity=0)
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATION_LOCK])
        try:
            call_command("migrate", interactive=False, verbosity=0)
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [MIGRATION_LOCK])


def _let_go_of_connections() -> None:
    """Closes this process's connections and pools: the workers are forked from it and must
    each open their own."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close()
        close_pool = getattr(connection, "close_pool", None)
        if close_pool is not None:
            close_pool()


def _import_the_application() -> None:
    """Imports the application with every view and URL now: the workers are forked from this
    process and have them from the start. Otherwise each worker imports them at its first
    request — about 1.5 s of CPU (PDF, spreadsheets, charts) — and again after every
    ``max_requests``, while its requests wait."""
    from django.urls import get_resolver

    from podium.web.wsgi import application  # noqa: F401 — imported for the workers

    get_resolver().reverse_dict  # noqa: B018 — the URL patterns, imported and indexed


def gunicorn_options(address: str, workers: int, threads: int) -> dict[str, Any]:
    """gunicorn's settings for ``podium serve --production`` (``bench/load.py`` prints them)."""
    return {
        "bind": address,
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "timeout": 60,
        "graceful_timeout": 30,
        "keepalive": 5,
        # A worker is renewed now and then (a slow leak never grows), not every few seconds of
        # a busy day: the spectators' polls are tens of thousands a minute.
        "max_requests": 50_000,
        "max_requests_jitter": 5_000,
        "accesslog": "-" if os.environ.get("PODIUM_ACCESS_LOG") == "1" else None,
        "errorlog": "-",
        "forwarded_allow_ips": os.environ.get("PODIUM_FORWARDED_ALLOW_IPS", "127.0.0.1,::1"),
        "proc_name": "podium",
        # gunicorn 27's runtime control socket, one path per user: two servers on a machine
        # would share it, and Podium needs none.
        "control_socket_disable": True,
    }


def _gunicorn(address: str, workers: int, threads: int) -> None:
    from gunicorn.app.base import BaseApplication

    options = gunicorn_options(address, workers, threads)

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in options.items():
                if key in self.cfg.settings:  # older gunicorn releases lack the newest ones
                    self.cfg.set(key, value)

        def load(self) -> Any:
            from podium.web.wsgi import application

            return application

    Server().run()


def serve(
    address: str = typer.Option("127.0.0.1:8000", help="Address and port to listen on."),
    demo: bool = typer.Option(False, "--demo", help="Load the demo events first."),
    reset: bool = typer.Option(
        False,
        "--reset",
        help="With --demo: wipe the demo events and load them again (never in production).",
    ),
    production: bool = typer.Option(
        False,
        "--production",
        help="Serve a real event: gunicorn, debug off, static files collected "
        "(see the README's 'Running a real event').",
    ),
    workers: int = typer.Option(
        0, "--workers", min=0, help="Worker processes (production; default 2 per CPU + 1)."
    ),
    threads: int = typer.Option(4, "--threads", min=1, help="Threads per worker (production)."),
    public_passwords: bool = typer.Option(
        False,
        "--demo-passwords-are-public",
        help="With --production --demo: serve the demo's accounts although their password "
        "is the one the README publishes.",
    ),
) -> None:
    """Migrate the database and serve Podium: the development server, or with --production
    gunicorn for a real event."""
    if reset and not demo:
        typer.echo("podium: --reset resets the demo: use it with --demo.", err=True)
        raise typer.Exit(2)
    if reset and production:
        _refuse("--reset wipes the demo events; a production server never resets them.")
    if production and demo and not public_passwords:
        _refuse(
            "--demo loads accounts whose password the README publishes (podium-demo); "
            "add --demo-passwords-are-public if anyone may log in as them."
        )
    if production:
        from podium.web.deployment import production_refusal

        os.environ["PODIUM_PRODUCTION"] = "1"
        os.environ["PODIUM_THREADS"] = str(threads)
        refusal = production_refusal(os.environ)
        if refusal:
            _refuse(refusal)
    else:
        from podium.web.deployment import development_site_url

        os.environ.setdefault("PODIUM_SITE_URL", development_site_url(address))
    django_ready()
    from django.core.management import call_command

    if production:
        _reach_the_database()
    _migrate()
    if demo:
        call_command("load_demo", reset=reset)
    if not production:
        call_command("runserver", address, use_reloader=False)
        return
    call_command("collectstatic", interactive=False, verbosity=0)
    workers = workers or 2 * (os.cpu_count() or 1) + 1
    if not os.environ.get("REDIS_URL") and workers > 1:
        typer.echo("podium: no REDIS_URL, so one worker process (processes share the cache).")
        workers = 1
    _import_the_application()
    _let_go_of_connections()
    typer.echo(f"podium: serving on http://{address} with {workers} × {threads} threads")
    _gunicorn(address, workers, threads)
