"""Podium's Django project: one app (label ``podium``) laid out by domain.

Each domain package holds its own ``views`` (thin: read through selectors, write through
services, render), ``forms``, ``services`` (writes: typed, keyword-only, one transaction, every
rule checked before anything changes, an audit entry; a refusal raises
``kernel.refusals.Refused``) and ``selectors`` (reads, no side effects). ``kernel``, ``live``,
``readers`` and ``models`` import no domain. The layers and every import that crosses them are
in ``pyproject.toml`` (import-linter); ``docs/architecture.md`` is the map.
"""
