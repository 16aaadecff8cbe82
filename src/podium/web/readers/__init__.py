"""Reading uploaded files with budgets: CSV and XLSX tables into text cells, and the ChGK rating
site's JSON and workbooks. Nothing here writes."""
