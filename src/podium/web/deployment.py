"""What a server needs from its environment: the development defaults, and what production mode
refuses to start with.

Vocabulary:
- production mode: ``PODIUM_PRODUCTION=1``, which ``podium serve --production`` sets before
  Django starts (and a hand-made gunicorn command may set itself); debug is off, static files
  are collected and hashed, connections to PostgreSQL are pooled per process.
- refusal: a setting production mode cannot run with — no secret key or the development one, a
  weak key, debug asked for, the test client's host or a wildcard host allowed. The server does
  not start and says which, in one line naming the variable to set.
- site address: ``PODIUM_SITE_URL``, where every link in an e-mail points; the development
  server sets it to the address it serves unless it is set already.
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
    hosts = words(env, "PODIUM_ALLOWED_HOSTS", PRODUCTION_HOSTS)
    if "testserver" in hosts:
        return "PODIUM_ALLOWED_HOSTS includes testserver (the test client's host): remove it"
    if any("*" in host for host in hosts):
        return (
            "PODIUM_ALLOWED_HOSTS has a wildcard (*): any Host header would be served; "
            "name the site's hosts"
        )
    return None


def development_site_url(address: str) -> str:
    """The address the development server answers on (``podium serve --address``), for the
    links in e-mail: every message links to the server that sent it."""
    host, _, port = address.rpartition(":")
    if not host:  # a bare port
        host, port = "127.0.0.1", address
    if host in {"0.0.0.0", "::", "[::]"}:  # listening everywhere: this machine's own name
        host = "127.0.0.1"
    return f"http://{host}:{port}"
