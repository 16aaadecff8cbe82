"""``podium serve --production`` refuses, in one line and before anything starts, an environment
it cannot run a real event with; with the documented settings Django's deployment check is
clean. Run as the command a newcomer types, in a process of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from podium.web.deployment import DEVELOPMENT_KEY

PODIUM = str(Path(sys.executable).with_name("podium"))
GOOD_KEY = "k3Jq-9vXz_" * 7


def run(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PODIUM_")}
    clean.pop("REDIS_URL", None)
    clean.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the browser tests' own, never a server's
    clean |= {"PODIUM_DATA_DIR": str(tmp_path)} | env
    return subprocess.run(
        [PODIUM, *args], env=clean, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({}, "PODIUM_SECRET_KEY is not set"),
        ({"PODIUM_SECRET_KEY": DEVELOPMENT_KEY}, "PODIUM_SECRET_KEY is the development key"),
        ({"PODIUM_SECRET_KEY": "secret"}, "PODIUM_SECRET_KEY is too weak (at least 50"),
        ({"PODIUM_SECRET_KEY": "a" * 60}, "PODIUM_SECRET_KEY is too weak"),
        ({"PODIUM_SECRET_KEY": GOOD_KEY, "PODIUM_DEBUG": "1"}, "PODIUM_DEBUG is on"),
        (
            {
                "PODIUM_SECRET_KEY": GOOD_KEY,
                "PODIUM_ALLOWED_HOSTS": "results.example.org,testserver",
            },
            "PODIUM_ALLOWED_HOSTS includes testserver",
        ),
        (
            {"PODIUM_SECRET_KEY": GOOD_KEY, "PODIUM_ALLOWED_HOSTS": "*"},
            "PODIUM_ALLOWED_HOSTS has a wildcard (*)",
        ),
    ],
)
def test_production_refuses_to_start_without_what_it_needs(
    tmp_path: Path, env: dict[str, str], says: str
) -> None:
    done = run(["serve", "--production", "--address", "127.0.0.1:1"], tmp_path, **env)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("podium: cannot serve in production: ")
    assert says in lines[0]
    assert done.stdout == ""
    assert not (tmp_path / "podium.sqlite3").exists()  # nothing started, nothing migrated


@pytest.mark.slow
def test_the_documented_settings_pass_the_deployment_check(tmp_path: Path) -> None:
    documented = {
        "PODIUM_PRODUCTION": "1",
        "PODIUM_SECRET_KEY": GOOD_KEY,
        "PODIUM_ALLOWED_HOSTS": "results.example.org",
        "PODIUM_HTTPS": "1",
        "PODIUM_HSTS_PRELOAD": "1",
    }
    done = run(["manage", "check", "--deploy"], tmp_path, **documented)
    assert done.returncode == 0, done.stderr
    assert "System check identified no issues (0 silenced)." in done.stdout
    # Without HTTPS behind the proxy, the check says what is missing.
    plain = run(["manage", "check", "--deploy"], tmp_path, **(documented | {"PODIUM_HTTPS": "0"}))
    assert "SECURE_HSTS_SECONDS" in plain.stderr + plain.stdout
    assert "SESSION_COOKIE_SECURE" in plain.stderr + plain.stdout


def test_debug_stays_off_unless_asked_for(tmp_path: Path) -> None:
    code = "from django.conf import settings; print(settings.DEBUG)"
    assert run(["manage", "shell", "-c", code], tmp_path).stdout.splitlines()[-1] == "False"
    asked = run(["manage", "shell", "-c", code], tmp_path, PODIUM_DEBUG="1")
    assert asked.stdout.splitlines()[-1] == "True"


def test_the_workers_are_forked_with_every_view_imported(tmp_path: Path) -> None:
    """gunicorn forks its workers from the process that prepared the server: the application
    and its URLs are imported there, so no worker imports them at its first request (nor
    again after each ``max_requests``)."""
    code = (
        "import sys; from podium.cli.server import _import_the_application as prepare; "
        "before = 'podium.web.urls' in sys.modules; prepare(); "
        "print(before, 'podium.web.urls' in sys.modules, 'podium.web.wsgi' in sys.modules)"
    )
    done = run(["manage", "shell", "-c", code], tmp_path)
    assert done.stdout.splitlines()[-1] == "False True True", done.stderr


def test_a_demo_reset_is_refused_in_production_and_without_the_demo(tmp_path: Path) -> None:
    """``--reset`` wipes the demo events: never on a production server (one line, before
    anything starts), and only with ``--demo``."""
    done = run(
        ["serve", "--production", "--demo", "--reset", "--address", "127.0.0.1:1"],
        tmp_path,
        PODIUM_SECRET_KEY=GOOD_KEY,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "podium: cannot serve in production: --reset wipes the demo events; "
        "a production server never resets them."
    ]
    alone = run(["serve", "--reset", "--address", "127.0.0.1:1"], tmp_path)
    assert alone.returncode == 2
    assert alone.stderr.strip() == "podium: --reset resets the demo: use it with --demo."
    assert not (tmp_path / "podium.sqlite3").exists()  # nothing started, nothing migrated


def test_production_refuses_to_start_in_one_line_when_its_database_does_not_answer(
    tmp_path: Path,
) -> None:
    """PostgreSQL on a port where nothing listens: one line naming the database, no traceback."""
    env = {
        "PODIUM_SECRET_KEY": GOOD_KEY,
        "PODIUM_ALLOWED_HOSTS": "results.example.org",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:1/podium",
    }
    done = run(["serve", "--production", "--address", "127.0.0.1:1"], tmp_path, **env)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(
        "podium: cannot serve in production: cannot reach the database (postgresql): "
    )
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_the_demo_is_served_in_production_only_when_its_passwords_may_be_public(
    tmp_path: Path,
) -> None:
    done = run(
        ["serve", "--production", "--demo", "--address", "127.0.0.1:1"],
        tmp_path,
        PODIUM_SECRET_KEY=GOOD_KEY,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "podium: cannot serve in production: --demo loads accounts whose password the README "
        "publishes (podium-demo); add --demo-passwords-are-public if anyone may log in as them."
    ]
    assert not (tmp_path / "podium.sqlite3").exists()  # nothing started, nothing migrated


def test_the_development_server_sets_the_site_address_to_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``make run PORT=8301``: the e-mails link to port 8301 (a set PODIUM_SITE_URL wins)."""
    import django.core.management

    from podium.cli import server

    served = []
    monkeypatch.setattr(server, "django_ready", lambda: None)
    monkeypatch.setattr(server, "_migrate", lambda: None)
    monkeypatch.setattr(django.core.management, "call_command", lambda *a, **k: served.append(a))
    monkeypatch.delenv("PODIUM_SITE_URL", raising=False)
    server.serve(address="127.0.0.1:8301", demo=False, reset=False, production=False,
                 workers=0, threads=4, public_passwords=False)  # fmt: skip
    assert os.environ["PODIUM_SITE_URL"] == "http://127.0.0.1:8301"
    assert served == [("runserver", "127.0.0.1:8301")]
    monkeypatch.setenv("PODIUM_SITE_URL", "https://results.example.org")
    server.serve(address="127.0.0.1:8302", demo=False, reset=False, production=False,
                 workers=0, threads=4, public_passwords=False)  # fmt: skip
    assert os.environ["PODIUM_SITE_URL"] == "https://results.example.org"
