"""What the pages of the protest desk share: the event's protest rule and games stages (the
desk is 404 without them), the sanction rule with warnings and expulsion, a protest by its
number, a player's games as the pages show them, and the players of the desk.

Vocabulary: protest, deposit, decision, warning, expulsion: see
``podium.web.disputes.views.protests``.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404

from podium.rules.schema.discipline import Appeal as AppealRule
from podium.rules.schema.discipline import Sanction as SanctionRule
from podium.rules.schema.stages import GamesStage
from podium.web.kernel.stages import games_stages, stage_entries
from podium.web.models import Appeal, Entry, Event, Result


def protest_rule(event: Event) -> AppealRule:
    rule = next((a for a in event.rulebook.appeals if not a.kinds), None)
    if rule is None:
        raise Http404
    return rule


def expulsion_rule(event: Event) -> SanctionRule | None:
    for rule in event.rulebook.sanctions:
        if {"warning", "expulsion"} <= {e.kind for e in rule.effects}:
            return rule
    return None


def games_stages_of(event: Event) -> list[GamesStage]:
    stages = games_stages(event.rulebook)
    if not stages:
        raise Http404
    return stages


def game_columns(stage: GamesStage) -> tuple[str, ...]:
    return tuple(f"g{n}" for n in range(1, stage.games + 1))


def games_of(stage: GamesStage, result: Result | None) -> list[dict[str, Any]]:
    cells = result.cells if result else {}
    return [{"number": int(c[1:]), "value": cells.get(c, "")} for c in game_columns(stage)]


def players_of(event: Event, stages: list[GamesStage]) -> list[Entry]:
    seen: dict[int, Entry] = {}
    for stage in stages:
        for entry in stage_entries(event, stage):
            seen.setdefault(entry.pk, entry)
    return sorted(seen.values(), key=lambda e: e.number)


def protest_of(event: Event, number: int) -> Appeal:
    return get_object_or_404(
        Appeal.objects.select_related("entry", "fee", "fee__received_by", "result", "filed_by"),
        event=event,
        number=number,
        kind=Appeal.Kind.PROTEST,
    )
