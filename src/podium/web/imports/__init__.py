"""Readers for what organizers upload: spreadsheets of entrants, results files, ChGK sheets.

Vocabulary:
- sheet: an uploaded table read into text cells — a header and numbered rows
  (``podium.web.readers.tables``).
- entrant fields: the Podium fields a column of an entrants sheet can be mapped to, and the
  guess from its header (``podium.web.imports.fields``).
- rating results: the ChGK rating site's JSON shape of a tournament's results, and the
  normalized venue sheets (``podium.web.readers.rating``).
- rating table: the rating site's tournament table (XLSX or CSV, tour blocks or a worksheet
  per tour) read into one mask per team (``podium.web.readers.ratingsheet``), for the results
  import and ``podium standings``.

Nothing here writes; the services in ``podium.web.services.imports`` do.
"""
