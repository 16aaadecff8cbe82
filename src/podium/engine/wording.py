"""Small pieces of English used in reasons: ordinals and place spans."""

from __future__ import annotations


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def span(first: int, last: int) -> str:
    """``3rd`` or ``3rd–5th``."""
    return ordinal(first) if first == last else f"{ordinal(first)}–{ordinal(last)}"
