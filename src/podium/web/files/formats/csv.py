"""A document as one CSV file: UTF-8 with a byte-order mark (Excel then reads the accents
right), ``,`` between cells, one header row.

Vocabulary:
- sheet column: when a document has several sheets, a first column names the sheet each row
  belongs to, so the file stays one flat table; the other columns are the union of the
  sheets' columns, in the order they first appear.
- escaped cell: every text cell, the header and the sheet names too, goes through
  ``csv_safe`` (formula-like text, see ``podium.engine.formulas``); a number (``-3``) does not.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils.translation import gettext as _

from podium.engine.formulas import csv_safe
from podium.web.files.formats.cells import cell_text
from podium.web.files.selectors.exports import Column, Document

BOM = "\ufeff"


def union_columns(document: Document) -> list[Column]:
    seen: dict[str, Column] = {}
    for sheet in document.sheets:
        for column in sheet.columns:
            seen.setdefault(column.key, column)
    return list(seen.values())


def _cell(value: Any, column: Column, zone: Any) -> str:
    text = cell_text(value, column, zone)
    return csv_safe(text) if isinstance(value, str) else text  # a number is no formula


def write_csv(document: Document) -> bytes:
    columns = union_columns(document)
    several = len(document.sheets) > 1
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    header = ([_("Sheet")] if several else []) + [c.title for c in columns]
    writer.writerow(map(csv_safe, header))
    for sheet in document.sheets:
        keys = {c.key for c in sheet.columns}
        for row in sheet.rows:
            cells = [
                _cell(row.get(c.key), c, document.zone) if c.key in keys else "" for c in columns
            ]
            writer.writerow(([csv_safe(sheet.title)] if several else []) + cells)
    return (BOM + out.getvalue()).encode("utf-8")
