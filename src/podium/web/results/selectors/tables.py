"""Reading a team's table in a stage of several puzzles (see ``podium.engine.teamflow``).

Vocabulary:
- table step, puzzle, on the table: see ``podium.web.models.rounds`` and the engine module.
- table: the team's steps replayed in order — which puzzles are finished (with their times and
  missing pieces) and which one is in progress.
"""

from __future__ import annotations

from collections.abc import Collection

from podium.engine.teamflow import Step, TeamTable, replay
from podium.rules.schema.stages import TeamSolveStage
from podium.web.models import Entry, Event, TableStep


def steps_of(event: Event, stage: TeamSolveStage, round: int, entry: Entry) -> list[TableStep]:
    return list(
        TableStep.objects.filter(event=event, stage=stage.key, round=round, entry=entry).order_by(
            "recorded_at", "id"
        )
    )


def as_step(step: TableStep) -> Step:
    return Step(
        step.kind,  # type: ignore[arg-type]
        puzzle=step.puzzle,
        at_ms=step.at_ms,
        missing=step.missing,
        taken_apart=step.taken_apart,
    )


def table_of(event: Event, stage: TeamSolveStage, round: int, entry: Entry) -> TeamTable:
    return replay(stage.puzzles, [as_step(s) for s in steps_of(event, stage, round, entry)])


def tables_of(
    event: Event, stage: TeamSolveStage, round: int, entries: Collection[int] | None = None
) -> dict[int, TeamTable]:
    """Every team's table in the round (or of just the ``entries``, ids), by entry id (one
    query)."""
    steps: dict[int, list[Step]] = {}
    found = TableStep.objects.filter(event=event, stage=stage.key, round=round)
    if entries is not None:
        found = found.filter(entry__in=list(entries))
    for step in found.order_by("recorded_at", "id"):
        steps.setdefault(step.entry_id, []).append(as_step(step))
    return {entry: replay(stage.puzzles, s) for entry, s in steps.items()}
