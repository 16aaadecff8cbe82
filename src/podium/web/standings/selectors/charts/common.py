"""What every chart of a stage's page is made of: the chart with its numbers as a table, and
the numbers as they are written.

Vocabulary:
- chart: ``Chart`` — its key (unique on a page), title, the SVG (safe to show: the drawing
  escapes every text it holds, ``podium.web.standings.charts``), a caption, and its numbers as
  a table, the fallback for whoever does not see the drawing.
- leaders: the three first of a chart's lines, drawn in colour and labelled.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from decimal import Decimal

from django.template.defaultfilters import floatformat
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from podium.web.standings.charts.svg import ident

LEADERS = 3


@dataclass(frozen=True)
class ChartTable:
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    svg: SafeString
    caption: str
    table: ChartTable | None = field(default=None)

    @property
    def dom_id(self) -> str:
        return "figure-" + ident(self.key).removeprefix("chart-")


def points_text(value: Decimal | float | int) -> str:
    return _points_text(value, get_language() or "")


@functools.lru_cache(maxsize=4096)
def _points_text(value: Decimal | float | int, language: str) -> str:
    # A season's chart writes the same few sums thousands of times (teams × tours).
    return str(floatformat(value, "-3"))


def place_text(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def drawn_chart(key: str, title: str, svg: str, caption: str, table: ChartTable) -> Chart:
    # Safe: the drawing escapes every text it was given (see podium.web.standings.charts).
    return Chart(key, title, mark_safe(svg), caption, table)
