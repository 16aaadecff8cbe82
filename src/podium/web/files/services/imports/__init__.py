"""Imports: entrants from a spreadsheet, results from the command line's CSV, ChGK tours from
the rating site's JSON — each previewed with every problem first, then saved all or nothing.

Vocabulary:
- sheet, mapping, field key, rating file: see ``podium.web.files.fields`` and
  ``podium.web.readers``.
- issue: one problem of an import, with the row of the file and the header of the column it is
  in (either may be missing: a problem of the whole file, or of a whole row).
- preview: the import run through the very services that save it (registration, results, tour
  sheets) inside a transaction that is then rolled back, so it meets every refusal the real
  import would meet and shows what would be made; nothing is kept.
- import: the same in one transaction, committed only when no row has a problem, with one
  audit entry for the whole import (besides those the services write for each entry or result).
- token: the random key of one upload. The results it records carry it in their idempotency
  keys, and its audit entry names it, so one upload is never imported twice.
- correction: a result in the file for a subject that already has a different one. It is
  refused unless the form gives a reason; with one, the current result is corrected
  (``result_correct``), so nothing recorded is ever overwritten without a trace. A row equal
  to the current result is left alone.
"""

from podium.web.files.services.imports.chgk import chgk_import, chgk_preview
from podium.web.files.services.imports.common import ImportRefused, Issue
from podium.web.files.services.imports.entrant_rows import member_slots
from podium.web.files.services.imports.entrants import entrants_import, entrants_preview
from podium.web.files.services.imports.results import results_import, results_preview

__all__ = [
    "ImportRefused",
    "Issue",
    "chgk_import",
    "chgk_preview",
    "entrants_import",
    "entrants_preview",
    "member_slots",
    "results_import",
    "results_preview",
]
