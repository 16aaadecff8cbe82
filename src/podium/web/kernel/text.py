"""Text a person types — names, team names, notes, reasons, search queries: what it may hold
and how long it may be, in one place, for the forms, the imports, the services and the archive.

Vocabulary:
- limit: the most characters a database column holds, read from the model field's
  ``max_length`` (``limit(Entry, "name")`` → 200), so no number is written twice; PostgreSQL
  refuses a longer value (SQLite would keep it), so a longer one is refused before it is saved.
- control character: C0 (U+0000–U+001F) but the tab and the line breaks in a multi-line text,
  DEL (U+007F), C1 (U+0080–U+009F) and a stray surrogate (U+D800–U+DFFF, which a JSON file
  can carry and no database encodes). NUL is among them (PostgreSQL refuses it).
- bidi control: the explicit embeddings, overrides and isolates (U+202A–U+202E,
  U+2066–U+2069). They are refused like control characters: a name never needs them, and an
  override typed into one reverses the rest of its line. The marks (LRM, RLM, ALM) and the
  zero-width joiners stay allowed (scripts need them); pages show every typed name isolated
  (``<bdi>``, see ``podium.web.templatetags.podium_rows``), so none of them can reorder a row.
- problem: one translated sentence saying what is wrong with a text, without saying where;
  the caller names where (a form's field, an import's row and column, an archive's row).
- name key: a name as two lists match it (a ChGK file's team and its entry, a ban and a team):
  case and spacing do not matter.
- search text: a query string as it is searched for: its control characters dropped (a
  search never needs them, and PostgreSQL refuses NUL in a query), cut to ``SEARCH_LIMIT``.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext as _

_BIDI = "\u202a-\u202e\u2066-\u2069"
_STRAY = "\x7f-\x9f\ud800-\udfff"
SINGLE_LINE = re.compile(f"[\x00-\x1f{_STRAY}{_BIDI}]")
MULTI_LINE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_STRAY}{_BIDI}]")
SEARCH_LIMIT = 200


def limit(model: type[models.Model], field: str) -> int:
    """The most characters the column holds (see the vocabulary)."""
    length = model._meta.get_field(field).max_length
    assert length is not None, f"{model.__name__}.{field} has no max_length"
    return int(length)


def _code(char: str) -> str:
    return f"U+{ord(char):04X}"


def text_problem(text: str, *, most: int | None = None, multiline: bool = False) -> str | None:
    """What is wrong with ``text`` (see the vocabulary), or ``None``; ``most``: its limit."""
    found = (MULTI_LINE if multiline else SINGLE_LINE).search(text)
    if found is not None:
        return _(
            "The character %(code)s (at position %(at)d) is not allowed: control and "
            "text-direction characters cannot be typed here."
        ) % {"code": _code(found.group()), "at": found.start() + 1}
    if most is not None and len(text) > most:
        return _("At most %(most)d characters are allowed here; this text has %(length)d.") % {
            "most": most,
            "length": len(text),
        }
    return None


def plain(text: str) -> str:
    """A free text a view reads without a form (a reason), its control and bidi characters
    dropped: nothing else reads it, and PostgreSQL refuses NUL."""
    return MULTI_LINE.sub("", text)


def name_key(name: str) -> str:
    """A name as matched (see the vocabulary)."""
    return " ".join(name.split()).casefold()


def search_text(text: str) -> str:
    """A query as it is searched for (see the vocabulary)."""
    spaced = re.sub(r"\s", " ", text[: SEARCH_LIMIT * 2])  # a tab or a line break parts words
    return SINGLE_LINE.sub("", spaced)[:SEARCH_LIMIT]


@deconstructible
class TypedText:
    """A form field's validator: no control or bidi characters (see the vocabulary)."""

    def __init__(self, multiline: bool = False) -> None:
        self.multiline = multiline

    def __call__(self, value: Any) -> None:
        problem = text_problem(str(value), multiline=self.multiline)
        if problem is not None:
            raise ValidationError(problem, code="control_character")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TypedText) and other.multiline == self.multiline

    def __hash__(self) -> int:
        return hash(self.multiline)


class TextForm(forms.Form):
    """A form whose text fields refuse control and bidi characters (a ``Textarea`` keeps its
    tabs and line breaks); fields a form adds in its ``__init__`` are checked too."""

    def full_clean(self) -> None:
        for field in self.fields.values():
            if isinstance(field, forms.CharField) and not isinstance(
                field.widget, forms.PasswordInput
            ):
                checker = TypedText(multiline=isinstance(field.widget, forms.Textarea))
                if checker not in field.validators:
                    field.validators.append(checker)
        super().full_clean()
