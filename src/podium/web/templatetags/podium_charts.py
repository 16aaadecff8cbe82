"""Template tags for charts a page's view does not provide itself (the bowling lane sheet).

Vocabulary:
- chart: see ``podium.web.standings.selectors.charts.common``.
"""

from __future__ import annotations

from django import template

from podium.rules.schema.stages import GamesStage
from podium.web.models import Event, Squad
from podium.web.standings.selectors.charts.common import Chart
from podium.web.standings.selectors.charts.squads import squad_chart

register = template.Library()


@register.simple_tag
def squad_charts(event: Event, stage: GamesStage, squad: Squad) -> list[Chart]:
    """The squad's game-by-game lines, as a list for ``podium/charts/_charts.html``."""
    chart = squad_chart(event, stage, squad)
    return [chart] if chart is not None else []
