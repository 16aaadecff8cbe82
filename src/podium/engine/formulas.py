"""Text a spreadsheet would run: the one rule every CSV Podium writes follows.

Vocabulary:
- formula-like text: text that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
  return, which a spreadsheet reads as a formula or a command (the OWASP rule for CSV
  injection). A team may call itself ``=HYPERLINK("http://x","y")``.
- escaped cell: formula-like text with a leading ``'``, which a spreadsheet shows as the text
  it is. Only text people typed is escaped: a number Podium computed (a negative score too) is
  written as it is.
"""

from __future__ import annotations

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def formula_like(text: str) -> bool:
    return text.startswith(FORMULA_START)


def csv_safe(text: str) -> str:
    """The text of a CSV cell, escaped where a spreadsheet would run it (see the vocabulary)."""
    return "'" + text if formula_like(text) else text
