"""Template tags of the PDF exports.

Vocabulary:
- cell: one typed value of an export row, as text (see ``podium.web.files.formats.cells``); a moment
  reads in the active language's short date-and-time format, in the event's time zone.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template

from podium.web.files.formats.cells import cell_text
from podium.web.files.selectors.exports import Column, Document
from podium.web.kernel.moments import moment_text

register = template.Library()


@register.simple_tag
def cell(row: dict[str, Any], column: Column, document: Document) -> str:
    value = row.get(column.key)
    if isinstance(value, dt.datetime):
        return moment_text(value, document.zone, "SHORT_DATETIME_FORMAT")
    return cell_text(value, column, document.zone)
