"""Files in and out: the imports (entrants, results, ChGK tours) with their preview, the
exports (CSV, XLSX, PDF), printouts, scorecards, diplomas and the event archive."""
