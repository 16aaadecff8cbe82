"""Writers of export documents: CSV, XLSX and PDF, each from the same document.

Vocabulary:
- document, sheet, column, typed value: see ``podium.web.files.selectors.exports``.
- format: ``csv`` (UTF-8 with a byte-order mark, so Excel reads the accents right; ``,``),
  ``xlsx`` (one worksheet per sheet) or ``pdf`` (A4, rendered by WeasyPrint from the page's own
  template inside a print layout).
"""

from __future__ import annotations

FORMATS = ("csv", "xlsx", "pdf")
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}
