"""Shared test set-up: Django's database on SQLite or, with DATABASE_URL, PostgreSQL."""

from typing import Any

import pytest


def pytest_configure(config: Any) -> None:
    from django.conf import settings

    # Test users log in with known passwords; the production hasher's million rounds only
    # cost time here (about half a second per user).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def bounded(request: Any) -> Any:
    """Runs a hostile input's call twice: timed (under ``SECONDS``), then under tracemalloc
    (its peak under ``MEGABYTES``), as the issue asks: refused in under 2 s with bounded
    memory. Returns what the call returned, or the exception it raised."""
    import time
    import tracemalloc

    def run(call: Any, seconds: float = 2.0, megabytes: float = 100.0) -> Any:
        def once() -> Any:
            try:
                return call()
            except Exception as exc:  # the refusal is what the test looks at
                return exc

        start = time.perf_counter()
        outcome = once()
        took = time.perf_counter() - start
        tracemalloc.start()
        try:
            once()
            peak = tracemalloc.get_traced_memory()[1] / 1024 / 1024
        finally:
            tracemalloc.stop()
        # Printed for the record (pytest -s): which case, how long, how much memory.
        print(f"\nbounded: {request.node.name}: {took * 1000:.0f} ms, peak {peak:.1f} MB")
        assert took < seconds, f"took {took:.2f} s"
        assert peak < megabytes, f"peak {peak:.0f} MB"
        return outcome

    return run
