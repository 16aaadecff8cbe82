"""A document as one CSV file: UTF-8 with a byte-order mark (Excel then reads the accents
right), ``,`` between cells, one header row.

Vocabulary:
- sheet column: when a document has several sheets, a first column names the sheet each row
  belongs to, so the file stays one flat table; the other columns are the union of the
  sheets' columns, in the order they first appear.
"""

from __future__ import annotations

import csv
import io

from django.utils.translation import gettext as _

from podium.web.exports.cells import cell_text
from podium.web.selectors.exports import Column, Document

BOM = "\ufeff"


def union_columns(document: Document) -> list[Column]:
    seen: dict[str, Column] = {}
    for sheet in document.sheets:
        for column in sheet.columns:
            seen.setdefault(column.key, column)
    return list(seen.values())


def write_csv(document: Document) -> bytes:
    columns = union_columns(document)
    several = len(document.sheets) > 1
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(([_("Sheet")] if several else []) + [c.title for c in columns])
    for sheet in document.sheets:
        keys = {c.key for c in sheet.columns}
        for row in sheet.rows:
            cells = [
                cell_text(row.get(c.key), c, document.zone) if c.key in keys else ""
                for c in columns
            ]
            writer.writerow(([sheet.title] if several else []) + cells)
    return (BOM + out.getvalue()).encode("utf-8")
