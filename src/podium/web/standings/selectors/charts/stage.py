"""A stage's charts: those that fit its format, as the visitor may see them, drawn once per
version of the stage.

Vocabulary:
- chart: see ``podium.web.standings.selectors.charts.common``.
- visible: a chart shows what the visitor may see of the round (``selectors.standings``):
  nothing of a draft round for the public; a season sums only the tours the visitor may see.
- drawn once: a round's charts are drawn once per version tag of its stage
  (``podium.web.live.versions``), kind of visitor and language, by one process (single flight), from
  the live round its tables are also made of.
- as of a moment: the charts of the round as it stood then (the staff's view of a past table),
  drawn from the results and rulings in force at that moment; never cached.
"""

from __future__ import annotations

import datetime as dt

from django.utils import translation

from podium.rules.schema.stages import (
    ChgkSeasonStage,
    ChgkTourStage,
    GamesStage,
    Stage,
    TeamSolveStage,
    TimedSolveStage,
)
from podium.web.live import flight
from podium.web.live.versions import stage_tag
from podium.web.models import Event
from podium.web.results.selectors.publication import publication_state
from podium.web.standings.selectors.charts.chgk import question_strip, season_chart
from podium.web.standings.selectors.charts.common import Chart
from podium.web.standings.selectors.charts.finish import finish_charts
from podium.web.standings.selectors.charts.squads import squads_charts
from podium.web.standings.selectors.live import who
from podium.web.standings.selectors.standings import visible


def stage_charts(
    event: Event, stage: Stage, round: int, staff: bool, at: dt.datetime | None = None
) -> list[Chart]:
    """The charts of one round of the stage that fit its format, as the visitor may see them
    (``staff``: the event's staff, who see drafts); ``at``: as the round stood then. Needs no
    request: PDFs use it too.

    Drawn once per version tag of the round and kept in the cache, as its tables are."""
    if not visible(publication_state(event, stage.key, round), staff):
        return []
    if at is not None:
        return _drawn(event, stage, round, staff, at)
    language = translation.get_language() or ""
    subject = f"podium:charts:{event.slug}:{stage.key}:{round}:{who(staff)}:{language}"
    tag = stage_tag(event.slug, stage)
    return flight.once(subject, tag, lambda: _drawn(event, stage, round, staff), exact=True)[1]


def _drawn(
    event: Event, stage: Stage, round: int, staff: bool, at: dt.datetime | None = None
) -> list[Chart]:
    charts: list[Chart | None]
    if isinstance(stage, ChgkSeasonStage):
        charts = [season_chart(event, stage, staff, at)]
    elif isinstance(stage, ChgkTourStage):
        charts = [question_strip(event, stage, round, at)]
    elif isinstance(stage, TimedSolveStage | TeamSolveStage):
        charts = list(finish_charts(event, stage, round, staff, at))
    elif isinstance(stage, GamesStage):
        charts = list(squads_charts(event, stage, at))
    else:
        charts = []
    return [c for c in charts if c is not None]
