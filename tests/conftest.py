"""Shared test set-up: Django's database on SQLite or, with DATABASE_URL, PostgreSQL."""

from typing import Any


def pytest_configure(config: Any) -> None:
    from django.conf import settings

    # Test users log in with known passwords; the production hasher's million rounds only
    # cost time here (about half a second per user).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
