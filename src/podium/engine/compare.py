"""Whether two entries of one result say the same thing (a second scorer's check).

Vocabulary:
- entry of a result: the format's columns as text, as one referee or scorer wrote them.
- same meaning: two texts that read as the same value — ``1:02:03`` and ``01:02:03.0`` are one
  time, ``07`` and ``7`` one count, ``x`` and ``X`` one mark, an empty ``missing`` and ``0`` no
  missing piece; anything that does not read as a value is compared as written.
- difference: a column whose two texts differ in meaning; for a question mask, also the numbers
  of the questions whose marks differ.
"""

from __future__ import annotations

from collections.abc import Mapping

from podium.engine.timing import parse_clock

TIME_COLUMNS = frozenset({"time", "compensation"})
ZERO_WHEN_EMPTY = frozenset({"missing"})


def canonical(column: str, text: str) -> object:
    """The value a cell's text stands for, so that spellings of one value compare equal."""
    text = (text or "").strip()
    if column in ZERO_WHEN_EMPTY and not text:
        return 0
    if not text:
        return ""
    if column in TIME_COLUMNS:
        try:
            return ("time", parse_clock(text))
        except ValueError:
            return text
    if text.isascii() and text.isdigit():
        return int(text)
    return " ".join(text.upper().split())


def differences(first: Mapping[str, str], second: Mapping[str, str]) -> tuple[str, ...]:
    """The columns (in the first entry's order, then the second's) that differ in meaning."""
    columns = list(first) + [c for c in second if c not in first]
    return tuple(
        c for c in columns if canonical(c, first.get(c, "")) != canonical(c, second.get(c, ""))
    )


def mask_differences(first: str, second: str) -> tuple[int, ...]:
    """The question numbers (from 1) whose marks differ; a longer mask differs where it runs on."""
    a, b = first.strip().upper(), second.strip().upper()
    length = max(len(a), len(b))
    return tuple(
        i + 1 for i in range(length) if (a[i] if i < len(a) else "") != (b[i] if i < len(b) else "")
    )
