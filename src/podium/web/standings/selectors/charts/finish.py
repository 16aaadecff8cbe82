"""The timed puzzles' charts: finish times per group, with the quota cut.

Vocabulary:
- chart: see ``podium.web.standings.selectors.charts.common``.
- finish times: a histogram of a timed table's finishers by their ranked time (penalties
  added, compensation taken off) in bins of 5 minutes (10 for limits over two hours), the
  non-finishers in one bar beside it; the cut: the time of the last entrant through the
  domestic pool (the table's first pool of official entrants, e.g. the 50th Czech).
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.engine.timing import format_clock
from podium.rules.schema.ranking import Pool
from podium.rules.schema.stages import Stage, TeamSolveStage, TimedSolveStage
from podium.web.kernel.texts import rt
from podium.web.live.versions import stage_tag
from podium.web.models import Event
from podium.web.standings.charts.histogram import histogram
from podium.web.standings.selectors.charts.common import Chart, ChartTable, drawn_chart
from podium.web.standings.selectors.live import live_round
from podium.web.standings.selectors.standings import round_tables


def _clock_minutes(minutes: float) -> str:
    whole = int(minutes)
    return f"{whole // 60}:{whole % 60:02d}"


def domestic_pool(stage: Stage, table: str) -> Pool | None:
    """The first advancement pool of the table that takes official (domestic) entrants."""
    pools = stage.advancement.pools_for(table) if stage.advancement else ()
    return next((p for p in pools if "official" in p.classes), None)


def finish_charts(
    event: Event,
    stage: TimedSolveStage | TeamSolveStage,
    round: int,
    staff: bool,
    at: dt.datetime | None = None,
) -> list[Chart]:
    if at is None:
        view = live_round(event, stage, round, staff, stage_tag(event.slug, stage))
    else:
        view = round_tables(event, stage, round, staff, at)
    if not view.visible:
        return []
    charts = [finish_chart(stage, table) for table in view.tables]
    return [c for c in charts if c is not None]


def _table_name(stage: Stage, table: dict[str, Any]) -> str:
    if table["key"] in stage.groups:
        return _("group %(group)s") % {"group": table["key"]}
    return rt(stage.title) if table["key"] == "all" else rt(table["title"])


def finish_chart(stage: TimedSolveStage | TeamSolveStage, table: dict[str, Any]) -> Chart | None:
    """The histogram of one table's page rows (live or frozen: both carry ``metrics``)."""
    rows = table["rows"]
    times = [r["metrics"].get("time_ms") for r in rows]
    finished = sorted(int(t) for t in times if t is not None)
    if not finished:
        return None
    not_finished = len(rows) - len(finished)
    size = 5 if stage.time_limit_min <= 120 else 10
    every = 15 if size == 5 else 30
    start = finished[0] // (every * 60_000) * every  # minutes, a whole tick

    # Whole milliseconds, so that a time on a bin's edge (50:00) falls in the bin it starts.
    def bin_of(millis: int) -> int:
        return (millis - start * 60_000) // (size * 60_000)

    bins = max(math.ceil((stage.time_limit_min - start) / size), bin_of(finished[-1]) + 1)
    counts = [0] * bins
    for millis in finished:
        counts[bin_of(millis)] += 1
    names = [
        f"{_clock_minutes(start + i * size)}–{_clock_minutes(start + (i + 1) * size)}"
        for i in range(bins)
    ]
    end = start + bins * size
    ticks = [(m, _clock_minutes(m)) for m in range(start, end + 1, every)]
    cut, cut_text = None, ""
    pool = domestic_pool(stage, table["key"])
    through = [r for r in rows if pool is not None and r.get("pool") == pool.key]
    if pool is not None and through:
        last = [r["metrics"].get("time_ms") for r in through]
        label = rt(pool.label)
        if all(t is not None for t in last):
            last_ms = max(int(t) for t in last if t is not None)
            at = format_clock(last_ms)
            cut = (last_ms / 60_000, _("%(pool)s: cut at %(time)s") % {"pool": label, "time": at})
            cut_text = ngettext(
                "%(pool)s: %(count)s advances, the last at %(time)s (the dashed line).",
                "%(pool)s: %(count)s advance, the last at %(time)s (the dashed line).",
                len(through),
            ) % {"count": len(through), "pool": label, "time": at}
        else:
            cut_text = _("Every finisher of %(pool)s advances.") % {"pool": label}
    name = _table_name(stage, table)
    title = _("Finish times — %(table)s") % {"table": name}
    summary = _("%(entrants)s entrants: %(finished)s finished, %(not)s did not.") % {
        "entrants": len(rows), "finished": len(finished), "not": not_finished,
    }  # fmt: skip
    binned = "; ".join(f"{n}: {c}" for n, c in zip(names, counts, strict=True) if c)
    desc = f"{summary} {binned}. {cut_text}".strip()
    caption = ngettext(
        "Finish times (penalties included) in bins of %(size)s minute; %(not)s did not finish.",
        "Finish times (penalties included) in bins of %(size)s minutes; %(not)s did not finish.",
        size,
    ) % {"size": size, "not": not_finished}
    if cut_text:
        caption += " " + cut_text
    key = f"finish-{table['key']}"
    svg = histogram(
        key=key,
        title=title,
        desc=desc,
        start=start,
        size=size,
        counts=counts,
        ticks=ticks,
        bin_names=names,
        extra=(_("not finished"), not_finished),
        cut=cut,
        x_title=_("Finish time (h:mm)"),
        y_title=_("Entrants"),
    )
    rows_shown = [(n, str(c)) for n, c in zip(names, counts, strict=True)]
    rows_shown.append((_("not finished"), str(not_finished)))
    head = (_("Finish time"), _("Entrants"))
    return drawn_chart(key, title, svg, caption, ChartTable(head, tuple(rows_shown)))
