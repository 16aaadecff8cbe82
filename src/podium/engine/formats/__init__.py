"""Scoring formats: from a stage's raw result rows to its standings tables.

Vocabulary:
- format: how one kind of stage is scored (``timed-solve``, ``team-solve``, ``games``,
  ``chgk-tour``, ``chgk-season``, ``head-to-head``, ``superfinal``). Each format module has
  ``tables(rulebook, stage, rows) -> list[Table]``: it checks every raw row (raising one
  ``InputError`` with all problems), turns rows into entries with metrics, score text and notes,
  and builds each table with ``podium.engine.standings.build_table``.
"""
