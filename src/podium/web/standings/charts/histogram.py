"""A histogram: counts in bins of a value (finishers by their time), with a separate bar beside
the axis and a cut line.

Vocabulary:
- drawing, plot, nice scale: see ``podium.web.standings.charts.svg``.
- bin: a histogram's interval ``[low, high)`` of the value; ``extra`` is a separate bar beside
  the axis (those who did not finish); ``cut`` a vertical line at a value, with its label.
"""

from __future__ import annotations

from collections.abc import Sequence

from podium.web.standings.charts.svg import (
    ACCENT,
    BAD,
    CHAR_WIDTH,
    MUTED,
    SMALL,
    Box,
    Scale,
    nice_scale,
    number,
    short,
    svg_document,
    text,
    text_width,
    tick_values,
    x_axis_title,
    y_axis,
)

HISTOGRAM = Box(width=360, height=230, left=38, top=34, right=6, bottom=46)
EXTRA_WIDTH = 76  # the separate bar of a histogram, right of the plot


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
    body = y_axis(box, y, tick_values(low, high, step), y_title)
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
    body += x_axis_title(box, x_title)
    return svg_document(key, box, title, desc, body)


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
