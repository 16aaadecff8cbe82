"""Times as the sports write them, and as the engine keeps them.

Vocabulary:
- time: a duration in whole milliseconds (an ``int``); never a float.
- clock text: ``H:MM:SS`` or ``M:SS`` (minutes may pass 59 without hours: ``89:59``),
  optionally with a decimal fraction of a second (``1:02:03.5``), as referees write it.
"""

from __future__ import annotations

import re

from podium.engine.messages import MessageError, _

_CLOCK = re.compile(r"^(?:(\d+):)?(\d{1,3}):([0-5]\d)(?:[.,](\d{1,3}))?$")


def parse_clock(text: str) -> int:
    """Milliseconds from clock text; ``ValueError`` with a readable message otherwise."""
    match = _CLOCK.match(text.strip())
    if not match:
        raise MessageError(_("'%(text)s' is not a time: write H:MM:SS or M:SS", text=text))
    hours, minutes, seconds, fraction = match.groups()
    if hours is not None and (len(minutes) > 2 or int(minutes) > 59):
        raise MessageError(_("'%(text)s' is not a time: minutes go up to 59 in H:MM:SS", text=text))
    millis = int((fraction or "").ljust(3, "0")) if fraction else 0
    return ((int(hours or 0) * 60 + int(minutes)) * 60 + int(seconds)) * 1000 + millis


def format_clock(millis: int) -> str:
    """``H:MM:SS`` (with tenths/hundredths/thousandths only when the time has them)."""
    sign = "-" if millis < 0 else ""
    seconds, ms = divmod(abs(millis), 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    text = f"{sign}{hours}:{minutes:02d}:{seconds:02d}"
    if ms:
        text += "." + f"{ms:03d}".rstrip("0")
    return text
