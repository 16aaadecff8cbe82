"""The bowling charts: each player's games, one chart per squad.

Vocabulary:
- chart, leaders: see ``podium.web.standings.selectors.charts.common``.
- squad lines: each player's games recorded so far, one line per player of a squad.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.rules.schema.stages import GamesStage
from podium.web.models import Entry, Event, Result, Squad
from podium.web.registration.selectors.entries import squad_players, squads_players
from podium.web.results.selectors.rows import current_results
from podium.web.standings.charts.lines import Series, line_chart
from podium.web.standings.selectors.charts.common import (
    LEADERS,
    Chart,
    ChartTable,
    drawn_chart,
    place_text,
)


def squads_charts(event: Event, stage: GamesStage, at: dt.datetime | None = None) -> list[Chart]:
    """One chart per squad with games recorded in the stage, squads in their order."""
    results = current_results(event, stage.key, at=at)
    by_squad: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        if result.entry_id and result.entry.squad_id:
            by_squad[result.entry.squad_id].append(result)
    players: dict[int, list[Entry]] = defaultdict(list)
    for player in squads_players(event, stage).filter(squad__in=list(by_squad)):
        players[player.squad_id].append(player)
    charts = []
    for squad in Squad.objects.filter(pk__in=by_squad).order_by("starts_at", "name"):
        chart = squad_chart(event, stage, squad, by_squad[squad.pk], players[squad.pk])
        if chart is not None:
            charts.append(chart)
    return charts


def _games(cells: dict[str, str], columns: Sequence[str]) -> tuple[int | None, ...]:
    """The game scores, ``None`` for a game not recorded yet (only the last ones can be)."""
    games: list[int | None] = []
    for column in columns:
        value = (cells.get(column) or "").strip()
        games.append(int(value) if value.isdigit() else None)
    return tuple(games)


def squad_chart(
    event: Event,
    stage: GamesStage,
    squad: Squad,
    results: Sequence[Result] | None = None,
    players: Sequence[Entry] | None = None,
) -> Chart | None:
    """The squad's lines (``results``: its players' current results, and ``players`` its
    players, if already read)."""
    if players is None:
        players = list(squad_players(event, squad, stage))
    if results is None:
        ids = {p.pk for p in players}
        results = [r for r in current_results(event, stage.key) if r.entry_id in ids]
    by_entry = {r.entry_id: r for r in results}
    columns = [f"g{i}" for i in range(1, stage.games + 1)]
    bowled = []
    for player in players:
        result = by_entry.get(player.pk)
        games = _games(result.cells, columns) if result else ()
        if any(g is not None for g in games):
            total = sum(g for g in games if g is not None)
            bowled.append((player, games, total))
    if not bowled:
        return None
    leaders = sorted(bowled, key=lambda b: (-b[2], b[0].number))[:LEADERS]
    ranks = {b[0].pk: i for i, b in enumerate(leaders, start=1)}
    totals = [b[2] for b in bowled]
    series, rows = [], []
    for player, games, total in bowled:
        rank = ranks.get(player.pk, 0)
        shown = [str(g) if g is not None else "" for g in games]
        name = f"#{player.number} {player.name}: {', '.join(s for s in shown if s)} ({total})"
        place = place_text(1 + sum(t > total for t in totals), sum(t >= total for t in totals))
        value = str(total) if rank else ""
        series.append(Series(name, games, rank, player.name, value, place))
        rows.append((f"#{player.number} {player.name}", *shown, str(total)))
    title = _("Games — %(squad)s") % {"squad": squad.name}
    best = "; ".join(f"{p.name} {t}" for p, _g, t in leaders)
    desc = ngettext(
        "Pinfall game by game of %(count)s player. Highest totals so far: %(best)s.",
        "Pinfall game by game of %(count)s players. Highest totals so far: %(best)s.",
        len(bowled),
    ) % {"count": len(bowled), "best": best}
    caption = _(
        "Each player's pinfall game by game, the games recorded so far; the three highest "
        "totals so far are labelled."
    )
    key = f"squad-{squad.pk}"
    svg = line_chart(
        key=key,
        title=title,
        desc=desc,
        x_labels=[str(i) for i in range(1, stage.games + 1)],
        series=series,
        x_title=_("Game"),
        y_title=_("Pins"),
    )
    head = (_("Player"), *(str(i) for i in range(1, stage.games + 1)), _("Total"))
    return drawn_chart(key, title, svg, caption, ChartTable(head, tuple(rows)))
