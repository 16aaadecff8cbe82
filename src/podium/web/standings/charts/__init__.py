"""Charts for the public pages and the PDFs, drawn on the server as SVG (no script, no CDN).

Vocabulary:
- drawing: ``podium.web.standings.charts`` turns plain numbers and texts into one SVG document:
  lines over rounds (``lines``), a strip of bars (``bars``), a histogram (``histogram``), on
  what they share (``svg``); it knows nothing of events or Django.
- chart: a drawing with its title, caption and numbers as a table; chosen per stage by
  ``podium.web.standings.selectors.charts``.
"""
