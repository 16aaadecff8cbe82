"""What a server needs from its environment: the development defaults, and what production mode
refuses to start with.

Vocabulary:
- production mode: ``PODIUM_PRODUCTION=1``, which ``podium serve --production`` sets before
  Django starts (and a hand-made gunicorn command may set itself); debug is off, static files
  are collected and hashed, connections to PostgreSQL are pooled per process.
- refusal: a setting production mode cannot run with — no secret key or the development one, a
  weak key, debug asked for, the test client's host allowed. The server does not start and says
  which, in one line naming the variable to set.
- flag: an environment variable read as on (``1``, ``true``, ``yes``, ``on``) or off.

Plain Python on purpose: the command line reads it before Django is set up.
"""

from __future__ import annotations

from collections.abc import Mapping

DEVELOPMENT_KEY = "podium-development-key-not-for-production"
DEVELOPMENT_HOSTS = "127.0.0.1,localhost,testserver"
PRODUCTION_HOSTS = "127.0.0.1,localhost"
# Django's deployment check calls a key weak below these (security.W009).
KEY_LENGTH = 50
KEY_DISTINCT = 5
MAKE_KEY = 'python3 -c "import secrets; print(secrets.token_urlsafe(64))"'


def flag(env: Mapping[str, str], name: str, default: bool = False) -> bool:
    value = env.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def words(env: Mapping[str, str], name: str, default: str = "") -> list[str]:
    """A comma-separated list (hosts, origins), without blanks."""
    return [w.strip() for w in env.get(name, default).split(",") if w.strip()]


def allowed_hosts(env: Mapping[str, str]) -> list[str]:
    default = PRODUCTION_HOSTS if flag(env, "PODIUM_PRODUCTION") else DEVELOPMENT_HOSTS
    return words(env, "PODIUM_ALLOWED_HOSTS", default)


def production_refusal(env: Mapping[str, str]) -> str | None:
    """The first reason production mode cannot start with this environment, or ``None``."""
    key = env.get("PODIUM_SECRET_KEY", "")
    if not key.strip():
        return f"PODIUM_SECRET_KEY is not set: make one with {MAKE_KEY}"
    if key == DEVELOPMENT_KEY:
        return f"PODIUM_SECRET_KEY is the development key: make one with {MAKE_KEY}"
    if len(key) < KEY_LENGTH or len(set(key)) < KEY_DISTINCT:
        return (
            f"PODIUM_SECRET_KEY is too weak (at least {KEY_LENGTH} characters, "
            f"{KEY_DISTINCT} different): make one with {MAKE_KEY}"
        )
    if flag(env, "PODIUM_DEBUG"):
        return "PODIUM_DEBUG is on: debug pages show tracebacks and settings; unset it"
    if "testserver" in words(env, "PODIUM_ALLOWED_HOSTS", PRODUCTION_HOSTS):
        return "PODIUM_ALLOWED_HOSTS includes testserver (the test client's host): remove it"
    return None
