"""A strip of bars: one count per label from 0 to a top (the teams that took each question).

Vocabulary:
- drawing, plot: see ``podium.web.standings.charts.svg``.
- bar: one count of a strip (the teams that took a question); a withdrawn bar is an empty
  dashed outline marked ✕.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from podium.web.standings.charts.svg import (
    ACCENT,
    BAD,
    MUTED,
    SMALL,
    Box,
    Scale,
    nice_step,
    number,
    svg_document,
    text,
    tick_values,
    x_axis_title,
    y_axis,
)

STRIP = Box(width=360, height=190, left=34, top=20, right=6, bottom=40)


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
    ticks = [t for t in tick_values(0, math.floor(top / step) * step, step) if top - t >= step / 2]
    body = y_axis(box, scale, [*ticks, top], y_title)
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
    body += x_axis_title(box, x_title)
    return svg_document(key, box, title, desc, body)
