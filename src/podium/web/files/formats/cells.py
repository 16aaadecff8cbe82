"""How a typed value reads as text (CSV cells, PDF cells, XLSX column widths).

Vocabulary:
- typed value: see ``podium.web.files.selectors.exports``; a duration reads ``H:MM:SS``, a moment
  reads ``YYYY-MM-DD HH:MM CET`` in the event's time zone with its label, a number with the
  column's decimals.
- formula-like text: see ``podium.engine.formulas``: in a CSV cell such text is escaped with a
  leading ``'`` (``csv_safe``), in an XLSX cell it is written as a text cell, never a formula.
  Only text is concerned: numbers Podium computed (a negative score too) are typed values.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext as _

from podium.engine.timing import format_clock
from podium.web.files.selectors.exports import Column, Document
from podium.web.kernel.moments import moment_text


def local(moment: dt.datetime, zone: Any) -> dt.datetime:
    return moment.astimezone(zone) if moment.tzinfo else moment


def cell_text(value: Any, column: Column, zone: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.timedelta):
        return format_clock(round(value.total_seconds() * 1000))
    if isinstance(value, dt.datetime):
        return moment_text(value, zone, "Y-m-d H:i")
    if isinstance(value, float):
        return f"{value:.{column.decimals}f}"
    return str(value)


def as_of_text(document: Document) -> str:
    """``as of 20 June 2026 10:30 CEST`` in the active language and the event's time zone."""
    when = moment_text(document.as_of, document.zone)
    return _("as of %(when)s") % {"when": when}
