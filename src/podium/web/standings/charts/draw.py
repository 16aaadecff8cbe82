"""Pure SVG drawing of the site's charts: lines over rounds, a strip of bars, a histogram.

Vocabulary:
- drawing: one ``<svg>`` document as a string, with a ``viewBox`` (it scales to any width, a
  phone's too) and ``width="100%"``, ``role="img"`` with an ``aria-label``, and a ``<title>``
  and a ``<desc>`` that say in words what it shows. Every text given is escaped, so a name such
  as ``<b>&"`` stays text.
- plot: the rectangle inside the margins where values are drawn; a scale maps a value onto it.
- nice scale: an axis from a round low to a round high in steps of 1, 2 or 5 × 10ⁿ, so the
  gridlines fall on numbers read at a glance.
- series: one line (a team, a player), one value per x position; ``None`` where it has none
  (a game not bowled yet). The points present are joined in order.
- leader: a series with a rank (1, 2, 3), drawn in colour, its rank written after its last
  point and a legend row under the axis naming it; the others are thin and grey, each named
  in its ``<title>``.
- bar: one count of a strip (the teams that took a question); a withdrawn bar is an empty
  dashed outline marked ✕.
- bin: a histogram's interval ``[low, high)`` of the value; ``extra`` is a separate bar beside
  the axis (those who did not finish); ``cut`` a vertical line at a value, with its label.
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
LEADER_COLOURS = (ACCENT, OK, WARN)  # 1st, 2nd, 3rd
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


LINES = Box(width=360, height=220, left=42, top=14, right=22, bottom=46)  # see lines_box
LINES_PLOT = 160  # the plot's height
LINES_AXIS = 40  # under the plot: the x labels and the x title
LEGEND_ROW = 17
LINES_INSET = 12  # the first and last x positions sit this far inside the plot
STRIP = Box(width=360, height=190, left=34, top=20, right=6, bottom=40)
HISTOGRAM = Box(width=360, height=230, left=38, top=34, right=6, bottom=46)
EXTRA_WIDTH = 76  # the separate bar of a histogram, right of the plot


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


def _ticks(low: float, high: float, step: float) -> list[float]:
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


def _document(key: str, box: Box, title: str, desc: str, body: Sequence[str]) -> str:
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


def _y_axis(box: Box, scale: Scale, ticks: Sequence[float], title: str) -> list[str]:
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


def _x_title(box: Box, title: str, middle: float | None = None) -> list[str]:
    if not title:
        return []
    x = number((box.plot_left + box.plot_right) / 2 if middle is None else middle)
    return [
        f'<text class="axis-title" x="{x}" y="{box.height - 6}" text-anchor="middle" '
        f'font-size="{SMALL}" fill="{MUTED}">{text(title)}</text>'
    ]


# --- Lines ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Series:
    name: str
    values: tuple[float | None, ...]
    rank: int = 0  # 1, 2, 3: a leader, drawn in colour and labelled; 0: the others
    label: str = ""  # a leader's name in the legend (cut to fit), ``name`` if empty
    value: str = ""  # after the label, never cut (its total)
    place: str = ""  # the place a leader is shown with (``1–2`` when shared); else its rank

    @property
    def shown_place(self) -> str:
        return self.place or str(self.rank)


def lines_box(leaders: int) -> Box:
    """A line chart's box: the plot, the x axis, then a legend row per leader."""
    bottom = LINES_AXIS + (leaders * LEGEND_ROW + 6 if leaders else 0)
    return Box(
        width=LINES.width, height=LINES.top + LINES_PLOT + bottom, left=LINES.left,
        top=LINES.top, right=LINES.right, bottom=bottom,
    )  # fmt: skip


def line_positions(count: int, box: Box, inset: int = LINES_INSET) -> list[float]:
    """The x coordinate of each of ``count`` positions, spread evenly over the plot."""
    if count == 1:
        return [(box.plot_left + box.plot_right) / 2]
    start, end = box.plot_left + inset, box.plot_right - inset
    return [start + i * (end - start) / (count - 1) for i in range(count)]


def line_scale(low: float, high: float, box: Box) -> tuple[Scale, list[float]]:
    """The y scale of a line chart of values ``low``…``high``, and its ticks."""
    lo, hi, step = nice_scale(low, high)
    return Scale(lo, hi, box.plot_bottom, box.plot_top), _ticks(lo, hi, step)


def line_chart(
    *,
    key: str,
    title: str,
    desc: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    x_title: str = "",
    y_title: str = "",
    y_low: float | None = None,
) -> str:
    """One line per series over the x positions; ``y_low`` fixes the axis' low end (0).
    Each leader's line ends in its rank, and the legend under the axis names it."""
    drawn = [s for s in series if any(v is not None for v in s.values)]
    leaders = sorted((s for s in drawn if 0 < s.rank <= len(LEADER_COLOURS)), key=lambda s: s.rank)
    box = lines_box(len(leaders))
    values = [v for s in drawn for v in s.values if v is not None]
    low = (min(values) if values else 0) if y_low is None else y_low
    scale, ticks = line_scale(low, max(values) if values else low + 1, box)
    xs = line_positions(len(x_labels), box)
    body = _y_axis(box, scale, ticks, y_title)
    body.append('<g class="x-axis">')
    for x, label in zip(xs, x_labels, strict=True):
        body.append(
            f'<text class="x-label" x="{number(x)}" y="{box.plot_bottom + 16}" '
            f'text-anchor="middle" font-size="{SMALL}" fill="{MUTED}">{text(label)}</text>'
        )
    body.append("</g>")
    if x_title:
        body.append(
            f'<text class="axis-title" x="{number((box.plot_left + box.plot_right) / 2)}" '
            f'y="{box.plot_bottom + 32}" text-anchor="middle" font-size="{SMALL}" '
            f'fill="{MUTED}">{text(x_title)}</text>'
        )
    # The others first, then the leaders from the 3rd to the 1st, so the 1st is drawn on top.
    ends: list[tuple[float, float, Series]] = []
    for one in sorted(drawn, key=lambda s: (s.rank != 0, -s.rank)):
        points = [(x, scale(v)) for x, v in zip(xs, one.values, strict=False) if v is not None]
        body += _series(one, points)
        if one in leaders:
            ends.append((points[-1][0], points[-1][1], one))
    body += _end_marks(ends)
    body += _legend(box, leaders)
    return _document(key, box, title, desc, body)


def _colour(rank: int) -> str:
    return LEADER_COLOURS[rank - 1] if 0 < rank <= len(LEADER_COLOURS) else MUTED


def _series(one: Series, points: Sequence[tuple[float, float]]) -> list[str]:
    leader = 0 < one.rank <= len(LEADER_COLOURS)
    colour = _colour(one.rank)
    width, opacity, radius = ("2.5", "1", "3") if leader else ("1.5", "0.45", "2")
    kind = "series leader" if leader else "series"
    parts = [
        f'<g class="{kind}" data-name="{text(one.name)}" data-rank="{one.rank}">',
        f"<title>{text(one.name)}</title>",
    ]
    if len(points) > 1:
        joined = " ".join(f"{number(x)},{number(y)}" for x, y in points)
        parts.append(
            f'<polyline points="{joined}" fill="none" stroke="{colour}" stroke-width="{width}" '
            f'stroke-opacity="{opacity}" stroke-linejoin="round" stroke-linecap="round"/>'
        )
    for x, y in points:
        parts.append(
            f'<circle cx="{number(x)}" cy="{number(y)}" r="{radius}" fill="{colour}" '
            f'fill-opacity="{opacity}"/>'
        )
    parts.append("</g>")
    return parts


def _end_marks(ends: Sequence[tuple[float, float, Series]], gap: float = 12) -> list[str]:
    """Each leader's rank just right of its last point; marks at one x moved apart."""
    parts = []
    for x in sorted({e[0] for e in ends}):
        ys: list[float] = []
        placed = sorted((e for e in ends if e[0] == x), key=lambda e: (e[1], e[2].rank))
        for _x, y, _one in placed:
            ys.append(max(y, ys[-1] + gap) if ys else y)
        for y, (_x, _y, one) in zip(ys, placed, strict=True):
            parts.append(
                f'<text class="end-mark" data-rank="{one.rank}" x="{number(x + 6)}" '
                f'y="{number(y + 4)}" fill="{_colour(one.rank)}" font-size="{SMALL}" '
                f'font-weight="700">{text(one.shown_place)}</text>'
            )
    return parts


def _legend(box: Box, leaders: Sequence[Series]) -> list[str]:
    """A row per leader under the x axis: its colour, rank, name (cut to fit) and value."""
    if not leaders:
        return []
    parts = ['<g class="legend">']
    top = box.plot_bottom + LINES_AXIS + 4
    room = box.width - box.plot_left - 30
    for i, one in enumerate(leaders):
        y = top + i * LEGEND_ROW + 10
        place = f"{one.shown_place}. "
        shown = place + fit(one.label or one.name, one.value, room - text_width(place))
        parts.append(
            f'<g class="legend-row" data-rank="{one.rank}">'
            f'<line x1="{box.plot_left}" x2="{box.plot_left + 18}" y1="{y - 4}" y2="{y - 4}" '
            f'stroke="{_colour(one.rank)}" stroke-width="3" stroke-linecap="round"/>'
            f'<text class="legend-label" x="{box.plot_left + 24}" y="{y}" '
            f'fill="{_colour(one.rank)}" font-size="{SMALL}" font-weight="600">'
            f"{text(shown)}</text></g>"
        )
    parts.append("</g>")
    return parts


# --- A strip of bars -----------------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    label: str  # under the bar (the question's number)
    value: int
    withdrawn: bool = False
    note: str = ""  # the bar's own title (what a pointer shows)


def strip_slots(count: int, box: Box = STRIP) -> tuple[float, float]:
    """(slot width, bar width) of a strip of ``count`` bars."""
    slot = (box.plot_right - box.plot_left) / max(count, 1)
    return slot, slot * 0.72


def bar_strip(
    *,
    key: str,
    title: str,
    desc: str,
    bars: Sequence[Bar],
    top: int,
    x_title: str = "",
    y_title: str = "",
) -> str:
    """One bar per value from 0 to ``top`` (the axis ends exactly at ``top``), count above."""
    box = STRIP
    top = max(top, 1)
    scale = Scale(0, top, box.plot_bottom, box.plot_top)
    step = max(nice_step(top), 1.0)
    ticks = [t for t in _ticks(0, math.floor(top / step) * step, step) if top - t >= step / 2]
    body = _y_axis(box, scale, [*ticks, top], y_title)
    slot, width = strip_slots(len(bars), box)
    for i, bar in enumerate(bars):
        x = box.plot_left + i * slot + (slot - width) / 2
        middle = number(x + width / 2)
        kind = "bar withdrawn" if bar.withdrawn else "bar"
        body.append(f'<g class="{kind}" data-label="{text(bar.label)}" data-count="{bar.value}">')
        if bar.note:
            body.append(f"<title>{text(bar.note)}</title>")
        if bar.withdrawn:
            body.append(
                f'<rect x="{number(x)}" y="{box.plot_top}" width="{number(width)}" '
                f'height="{box.plot_bottom - box.plot_top}" fill="none" stroke="{MUTED}" '
                f'stroke-dasharray="3 2"/>'
            )
            body.append(
                f'<text class="count" x="{middle}" y="{box.plot_top - 5}" text-anchor="middle" '
                f'fill="{BAD}" font-weight="700">✕</text>'
            )
        else:
            y = scale(bar.value)
            if bar.value > 0:
                body.append(
                    f'<rect x="{number(x)}" y="{number(y)}" width="{number(width)}" '
                    f'height="{number(box.plot_bottom - y)}" fill="{ACCENT}" rx="1.5"/>'
                )
            body.append(
                f'<text class="count" x="{middle}" y="{number(y - 4)}" text-anchor="middle" '
                f'font-size="{SMALL}" font-weight="600">{bar.value}</text>'
            )
        body.append(
            f'<text class="x-label" x="{middle}" y="{box.plot_bottom + 15}" text-anchor="middle" '
            f'font-size="{SMALL}" fill="{MUTED}">{text(bar.label)}</text>'
        )
        body.append("</g>")
    body += _x_title(box, x_title)
    return _document(key, box, title, desc, body)


# --- A histogram ---------------------------------------------------------------------------


def histogram_box(extra: bool) -> Box:
    if not extra:
        return HISTOGRAM
    return Box(
        HISTOGRAM.width, HISTOGRAM.height, HISTOGRAM.left, HISTOGRAM.top,
        HISTOGRAM.right + EXTRA_WIDTH, HISTOGRAM.bottom,
    )  # fmt: skip


def histogram(
    *,
    key: str,
    title: str,
    desc: str,
    start: float,
    size: float,
    counts: Sequence[int],
    ticks: Sequence[tuple[float, str]] = (),
    bin_names: Sequence[str] = (),
    extra: tuple[str, int] | None = None,
    cut: tuple[float, str] | None = None,
    x_title: str = "",
    y_title: str = "",
) -> str:
    """Bins of ``size`` from ``start`` holding ``counts``; ``ticks``: (value, label) on the x
    axis; ``bin_names``: each bin's title; ``extra``: (label, count) of a separate bar;
    ``cut``: (value, label) of a vertical line."""
    box = histogram_box(extra is not None)
    end = start + size * len(counts)
    x = Scale(start, end, box.plot_left, box.plot_right)
    highest = max([*counts, extra[1] if extra else 0, 1])
    low, high, step = nice_scale(0, highest)
    y = Scale(low, high, box.plot_bottom, box.plot_top)
    body = _y_axis(box, y, _ticks(low, high, step), y_title)
    width = x(start + size) - x(start)
    for i, count in enumerate(counts):
        left = x(start + i * size)
        name = bin_names[i] if i < len(bin_names) else ""
        body.append(
            f'<g class="bin" data-low="{number(start + i * size)}" '
            f'data-high="{number(start + (i + 1) * size)}" data-count="{count}">'
        )
        if name:
            body.append(f"<title>{text(name)}: {count}</title>")
        if count:
            top = y(count)
            body.append(
                f'<rect x="{number(left + 0.5)}" y="{number(top)}" width="{number(width - 1)}" '
                f'height="{number(box.plot_bottom - top)}" fill="{ACCENT}"/>'
            )
            body.append(
                f'<text class="count" x="{number(left + width / 2)}" y="{number(top - 3)}" '
                f'text-anchor="middle" font-size="{SMALL}">{count}</text>'
            )
        body.append("</g>")
    body.append('<g class="x-axis">')
    body.append(
        f'<line x1="{box.plot_left}" x2="{box.plot_right}" y1="{box.plot_bottom}" '
        f'y2="{box.plot_bottom}" stroke="{MUTED}"/>'
    )
    for value, label in ticks:
        at = number(x(value))
        body.append(
            f'<line x1="{at}" x2="{at}" y1="{box.plot_bottom}" y2="{box.plot_bottom + 4}" '
            f'stroke="{MUTED}"/>'
        )
        body.append(
            f'<text class="x-label" x="{at}" y="{box.plot_bottom + 16}" text-anchor="middle" '
            f'font-size="{SMALL}" fill="{MUTED}">{text(label)}</text>'
        )
    body.append("</g>")
    if extra is not None:
        body += _extra_bar(box, y, *extra)
    if cut is not None:
        body += _cut(box, x, *cut)
    body += _x_title(box, x_title)
    return _document(key, box, title, desc, body)


def wrap(label: str, width: float, size: float = SMALL, lines: int = 2) -> list[str]:
    """``label`` in at most ``lines`` lines of ``width`` units, broken between words (the
    last line cut with … if it is still too long)."""
    chars = max(int(width / (size * CHAR_WIDTH)), 3)
    made: list[str] = []
    for word in label.split():
        if made and len(made[-1]) + 1 + len(word) <= chars:
            made[-1] += " " + word
        else:
            made.append(word)
    if len(made) > lines:
        made = [*made[: lines - 1], " ".join(made[lines - 1 :])]
    return [short(line, chars) for line in made]


def _extra_bar(box: Box, y: Scale, label: str, count: int) -> list[str]:
    middle = box.plot_right + 16 + (EXTRA_WIDTH - 16) / 2  # clear of the axis' last tick
    width = 22
    parts = [f'<g class="extra" data-count="{count}">', f"<title>{text(label)}: {count}</title>"]
    if count:
        top = y(count)
        parts.append(
            f'<rect x="{number(middle - width / 2)}" y="{number(top)}" width="{width}" '
            f'height="{number(box.plot_bottom - top)}" fill="{MUTED}" fill-opacity="0.6"/>'
        )
    parts.append(
        f'<text class="count" x="{number(middle)}" y="{number(y(count) - 3)}" '
        f'text-anchor="middle" font-size="{SMALL}">{count}</text>'
    )
    parts.append(
        f'<line x1="{number(middle - 20)}" x2="{number(middle + 20)}" '
        f'y1="{box.plot_bottom}" y2="{box.plot_bottom}" stroke="{MUTED}"/>'
    )
    lines = "".join(
        f'<tspan x="{number(middle)}" dy="{0 if i == 0 else SMALL + 1}">{text(line)}</tspan>'
        for i, line in enumerate(wrap(label, EXTRA_WIDTH - 16))
    )
    parts.append(
        f'<text class="x-label" x="{number(middle)}" y="{box.plot_bottom + 16}" '
        f'text-anchor="middle" font-size="{SMALL}" fill="{MUTED}">{lines}</text>'
    )
    parts.append("</g>")
    return parts


def _cut(box: Box, x: Scale, value: float, label: str) -> list[str]:
    at = min(max(x(value), box.plot_left), box.plot_right)
    # The label is centred over the line, moved in where it would leave the drawing.
    width = text_width(label)
    start = min(max(at - width / 2, 2), box.width - 2 - width)
    return [
        f'<g class="cut" data-value="{number(value)}">',
        f"<title>{text(label)}</title>",
        f'<line x1="{number(at)}" x2="{number(at)}" y1="{box.plot_top - 16}" '
        f'y2="{box.plot_bottom}" stroke="{BAD}" stroke-width="2" stroke-dasharray="5 3"/>',
        f'<text class="cut-label" x="{number(max(start, 2))}" y="{box.plot_top - 20}" '
        f'text-anchor="start" font-size="{SMALL}" font-weight="600" fill="{BAD}">'
        f"{text(label)}</text>",
        "</g>",
    ]
