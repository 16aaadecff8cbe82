"""JSON text as the command line prints it, written piece by piece as it is made.

Vocabulary:
- JSON text: exactly what ``json.dumps(value, ensure_ascii=False, indent=2)`` returns for the
  same value, byte for byte; the standard library writes indented JSON in pure Python, one
  small piece at a time, and only as one whole string or through a file.
- lazy list: an iterator standing where a list would; its items are made one at a time and
  written a few dozen at a time (``BATCH``), so a long list (a table's rows) is never held
  whole, neither as values nor as text.
- level: how deep a value stands; each level indents its members by two more spaces.

Strings go through the standard library's own string encoder (in C), numbers through their
``repr`` as ``json`` writes them, and each key is encoded once (rows repeat the same keys); any
value this module does not know (a key that is not a string, a subclass of a container) is
written by ``json`` itself and indented to its level, so the text never differs from the
standard library's.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from json.encoder import encode_basestring
from typing import Any

INDENT = "  "
BATCH = 64  # items of a lazy list written at once: fewer writes, and still a small text


def _float(value: float) -> str:
    if math.isfinite(value):
        return float.__repr__(value)
    return "NaN" if value != value else "Infinity" if value > 0 else "-Infinity"


# How each plain value is written, by its exact type (so a bool is not written as an int).
_SCALARS: dict[type, Callable[[Any], str]] = {
    str: encode_basestring,
    int: int.__repr__,
    float: _float,
    bool: lambda value: "true" if value else "false",
    type(None): lambda value: "null",
}


# Each key as it is written before its value: the rows of a table repeat the same few keys.
_KEYS: dict[str, str] = {}
_KEPT_KEYS = 4096  # more keys than any document has: a program's odd data cannot fill memory


class _NotAString(Exception):
    """A key that is not a string: ``json`` turns it into one."""


def _key(key: object) -> str:
    if type(key) is not str:
        raise _NotAString
    if len(_KEYS) >= _KEPT_KEYS:
        _KEYS.clear()
    written = _KEYS[key] = f"{encode_basestring(key)}: "
    return written


def _by_json(value: Any, level: int) -> str:
    """The standard library's text of ``value``, indented to stand at ``level``."""
    text = json.dumps(value, ensure_ascii=False, indent=len(INDENT))
    # Newlines inside JSON strings are escaped, so every newline starts a line of the layout.
    return text.replace("\n", "\n" + INDENT * level) if level else text


def dumps(value: Any, level: int = 0) -> str:
    """The JSON text of ``value`` standing at ``level``; a lazy list is written as a list."""
    scalar = _SCALARS.get(type(value))
    if scalar is not None:
        return scalar(value)
    kind = type(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = "\n" + INDENT * (level + 1)
        try:
            parts = [
                (_KEYS.get(key) or _key(key))
                + (scalar(item) if (scalar := _SCALARS.get(type(item))) else dumps(item, level + 1))
                for key, item in value.items()
            ]
        except _NotAString:
            return _by_json(value, level)
        return f"{{{inner}{(',' + inner).join(parts)}\n{INDENT * level}}}"
    if kind is list or isinstance(value, Iterator):
        items = [dumps(item, level + 1) for item in value]
        if not items:
            return "[]"
        inner = "\n" + INDENT * (level + 1)
        return f"[{inner}{(',' + inner).join(items)}\n{INDENT * level}]"
    return _by_json(value, level)


def write(value: Any, out: Callable[[str], object], level: int = 0) -> None:
    """Write the JSON text of ``value`` to ``out``: the dicts and lists around a lazy list member
    by member, and the lazy list in batches of whole items."""
    kind = type(value)
    if kind is dict and value and all(type(key) is str for key in value):
        inner = "\n" + INDENT * (level + 1)
        opening = "{"
        for key, item in value.items():
            out(f"{opening}{inner}{encode_basestring(key)}: ")
            write(item, out, level + 1)
            opening = ","
        out(f"\n{INDENT * level}}}")
    elif kind is list:
        inner = "\n" + INDENT * (level + 1)
        opening = "["
        for item in value:
            out(opening + inner)
            write(item, out, level + 1)
            opening = ","
        out("[]" if opening == "[" else f"\n{INDENT * level}]")
    elif isinstance(value, Iterator):
        inner = "\n" + INDENT * (level + 1)
        opening, batch = "[", []
        for item in value:
            batch.append(f"{opening}{inner}{dumps(item, level + 1)}")
            opening = ","
            if len(batch) == BATCH:
                out("".join(batch))
                batch.clear()
        out("".join(batch) + ("[]" if opening == "[" else f"\n{INDENT * level}]"))
    else:
        out(dumps(value, level))
