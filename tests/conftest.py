"""Shared test set-up: Django's database on SQLite or, with DATABASE_URL, PostgreSQL."""
