"""Refusals: an action the rules or the state do not allow, and how people read it.

Vocabulary:
- refusal: an action the rules or the state do not allow; it names the form field it concerns
  (or none) and says why, with the rulebook clause where one applies. A service raises it
  before changing anything, so nothing is half-written.
- shown on a form: next to the field it names, else above the form.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


class Refused(Exception):
    def __init__(self, message: str, *, field: str | None = None, clause: str | None = None):
        self.message = message
        self.field = field
        self.clause = clause
        super().__init__(message)


def refusal_text(refused: Refused) -> str:
    """A refusal as people read it: the message, and the rulebook clause behind it."""
    if refused.clause:
        return f"{refused.message} ({_('rulebook')}: {refused.clause})"
    return refused.message


def refuse_on(form: Any, refused: Refused) -> None:
    """Shows a refusal on the form: next to the field it names, else above the form."""
    field = refused.field if refused.field in form.fields else None
    form.add_error(field, refusal_text(refused))
