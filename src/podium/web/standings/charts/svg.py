"""What every drawing of the site's charts shares: the SVG document, escaped texts, numbers,
nice scales and the axes (the charts themselves: ``lines``, ``bars``, ``histogram``).

Vocabulary:
- drawing: one ``<svg>`` document as a string, with a ``viewBox`` (it scales to any width, a
  phone's too) and ``width="100%"``, ``role="img"`` with an ``aria-label``, and a ``<title>``
  and a ``<desc>`` that say in words what it shows. Every text given is escaped, so a name such
  as ``<b>&"`` stays text.
- plot: the rectangle inside the margins where values are drawn; a scale maps a value onto it.
- nice scale: an axis from a round low to a round high in steps of 1, 2 or 5 × 10ⁿ, so the
  gridlines fall on numbers read at a glance.
- colours: those of ``static/podium/podium.css`` (an SVG in a PDF cannot read its variables).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

INK = "#1d2430"
MUTED = "#5b6575"
ACCENT = "#0b6bcb"
OK = "#1a7f37"
WARN = "#9a6700"
BAD = "#cf222e"
LINE = "#d8dee4"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
FONT_SIZE = 12.5
SMALL = 11.5
LABEL_CHARS = 20  # a longer name is cut with … (the whole of it is in the title and the table)
CHAR_WIDTH = 0.64  # a bold character's width, as a share of the font size (wide fonts too)


@dataclass(frozen=True)
class Box:
    """A drawing's size and its margins around the plot (viewBox units)."""

    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int

    @property
    def plot_left(self) -> int:
        return self.left

    @property
    def plot_right(self) -> int:
        return self.width - self.right

    @property
    def plot_top(self) -> int:
        return self.top

    @property
    def plot_bottom(self) -> int:
        return self.height - self.bottom


# --- Texts and numbers ---------------------------------------------------------------------


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")  # not allowed in XML at all


def text(value: object) -> str:
    """``value`` as SVG text or attribute content: ``&``, ``<``, ``>`` and quotes escaped
    (control characters, which XML cannot hold, dropped)."""
    return (
        _CONTROL.sub("", str(value))
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def short(name: str, chars: int = LABEL_CHARS) -> str:
    return name if len(name) <= chars else name[: max(chars - 1, 1)].rstrip() + "…"


def text_width(label: str, size: float = SMALL) -> float:
    """About how wide ``label`` is drawn (bold, at ``size``), in viewBox units."""
    return len(label) * size * CHAR_WIDTH


def fit(name: str, value: str, width: float, size: float = SMALL) -> str:
    """``name value`` in at most ``width`` units: the name is cut, the value kept."""
    room = int(width / (size * CHAR_WIDTH)) - (len(value) + 1 if value else 0)
    shown = short(name, max(room, 3))
    return f"{shown} {value}" if value else shown


def number(value: float) -> str:
    """A coordinate or a tick: at most one decimal, none when whole (``12``, ``137.6``)."""
    rounded = round(value, 1) + 0.0  # + 0.0 turns -0.0 into 0.0
    return str(int(rounded)) if rounded.is_integer() else f"{rounded:.1f}"


def ident(key: str) -> str:
    """The id of a drawing's elements, from its key (letters, digits and dashes)."""
    return "chart-" + (re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-") or "x")


# --- Scales --------------------------------------------------------------------------------


def nice_step(span: float, ticks: int = 4) -> float:
    """The smallest of 1, 2, 5 × 10ⁿ that divides ``span`` into at most ``ticks`` steps."""
    raw = span / ticks
    if raw <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw * (1 - 1e-9):
            return float(factor * power)
    return float(10 * power)  # pragma: no cover (10 always fits)


def nice_scale(low: float, high: float, ticks: int = 5) -> tuple[float, float, float]:
    """(low, high, step) of an axis of whole steps that holds ``low``…``high``."""
    if high <= low:
        high = low + 1
    step = max(nice_step(high - low, ticks), 1.0)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def tick_values(low: float, high: float, step: float) -> list[float]:
    count = round((high - low) / step)
    return [low + i * step for i in range(count + 1)]


@dataclass(frozen=True)
class Scale:
    """Maps values ``low``…``high`` onto the coordinates ``start``…``end``."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        span = self.high - self.low or 1
        return self.start + (value - self.low) / span * (self.end - self.start)


# --- The document --------------------------------------------------------------------------


def svg_document(key: str, box: Box, title: str, desc: str, body: Sequence[str]) -> str:
    name = ident(key)
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg" '
            f'viewBox="0 0 {box.width} {box.height}" width="100%" '
            f'preserveAspectRatio="xMidYMid meet" role="img" aria-label="{text(title)}" '
            f'aria-describedby="{name}-desc" font-family="{text(FONT)}" '
            f'font-size="{FONT_SIZE}" fill="{INK}">',
            f'<title id="{name}-title">{text(title)}</title>',
            f'<desc id="{name}-desc">{text(desc)}</desc>',
            *body,
            "</svg>",
        ]
    )


def y_axis(box: Box, scale: Scale, ticks: Sequence[float], title: str) -> list[str]:
    parts = ['<g class="y-axis">']
    for tick in ticks:
        y = number(scale(tick))
        parts.append(
            f'<line class="grid" x1="{box.plot_left}" x2="{box.plot_right}" y1="{y}" y2="{y}" '
            f'stroke="{LINE}" stroke-width="1"/>'
        )
        parts.append(
            f'<text class="tick" x="{box.plot_left - 5}" y="{number(scale(tick) + 4)}" '
            f'text-anchor="end" font-size="{SMALL}" fill="{MUTED}">{number(tick)}</text>'
        )
    if title:
        middle = number((box.plot_top + box.plot_bottom) / 2)
        parts.append(
            f'<text class="axis-title" transform="rotate(-90)" x="-{middle}" y="10" '
            f'text-anchor="middle" font-size="{SMALL}" fill="{MUTED}">{text(title)}</text>'
        )
    parts.append("</g>")
    return parts


def x_axis_title(box: Box, title: str, middle: float | None = None) -> list[str]:
    if not title:
        return []
    x = number((box.plot_left + box.plot_right) / 2 if middle is None else middle)
    return [
        f'<text class="axis-title" x="{x}" y="{box.height - 6}" text-anchor="middle" '
        f'font-size="{SMALL}" fill="{MUTED}">{text(title)}</text>'
    ]
