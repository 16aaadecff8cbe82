"""Lines over rounds: one line per series (a team over the tours, a player over the games), the
leaders in colour with their place after the last point and a legend row each.

Vocabulary:
- drawing, plot, nice scale: see ``podium.web.standings.charts.svg``.
- series: one line (a team, a player), one value per x position; ``None`` where it has none
  (a game not bowled yet). The points present are joined in order.
- leader: a series with a rank (1, 2, 3), drawn in colour, its rank written after its last
  point and a legend row under the axis naming it; the others are thin and grey, each named
  in its ``<title>``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from podium.web.standings.charts.svg import (
    ACCENT,
    MUTED,
    OK,
    SMALL,
    WARN,
    Box,
    Scale,
    fit,
    nice_scale,
    number,
    svg_document,
    text,
    text_width,
    tick_values,
    y_axis,
)

LEADER_COLOURS = (ACCENT, OK, WARN)  # 1st, 2nd, 3rd
LINES = Box(width=360, height=220, left=42, top=14, right=22, bottom=46)  # see lines_box
LINES_PLOT = 160  # the plot's height
LINES_AXIS = 40  # under the plot: the x labels and the x title
LEGEND_ROW = 17
LINES_INSET = 12  # the first and last x positions sit this far inside the plot


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
    return Scale(lo, hi, box.plot_bottom, box.plot_top), tick_values(lo, hi, step)


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
    body = y_axis(box, scale, ticks, y_title)
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
    return svg_document(key, box, title, desc, body)


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
