"""Reading a stage's setting in the event: who takes part, its rounds, how teams are named.

Vocabulary:
- fed stage: a stage that others advance into — the ``advancement.to`` of a qualification (a
  final) or a superfinal between the winners of ``winners_of``.
- entry list: who takes part in a stage. For a fed stage, the entries whose advancement into it
  stands; for any other, the confirmed entries of the stage's category.
- rounds: the sittings of a stage. A ChGK tour stage has one per tour on the calendar
  (``Round`` rows); every other stage sits once, as round 1.
- team label: how a team is named in a table of battles or a superfinal: its name, or its name
  and number where two entries share a name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.db.models import QuerySet

from podium.rules.schema import Rulebook
from podium.rules.schema.stages import (
    ChgkTourStage,
    GamesStage,
    Stage,
    SuperfinalStage,
    TeamSolveStage,
    TimedSolveStage,
)
from podium.web.models import Entry, Event, Round


def feeders(rulebook: Rulebook, stage: Stage) -> list[Stage]:
    """The stages whose advancement or winners feed ``stage``."""
    if isinstance(stage, SuperfinalStage):
        return [rulebook.stage(key) for key in stage.winners_of]
    return [
        s for s in rulebook.stages if s.advancement is not None and s.advancement.to == stage.key
    ]


def is_fed(rulebook: Rulebook, stage: Stage) -> bool:
    return bool(feeders(rulebook, stage))


def stage_entries(event: Event, stage: Stage) -> QuerySet[Entry]:
    """The entry list of the stage (see the vocabulary), in number order."""
    if is_fed(event.rulebook, stage):
        return (
            Entry.objects.filter(
                event=event,
                advancements__to_stage=stage.key,
                advancements__withdrawn_at__isnull=True,
            )
            .distinct()
            .order_by("number")
        )
    entries = event.entries.filter(status=Entry.Status.CONFIRMED)
    if stage.category:
        entries = entries.filter(category=stage.category)
    return entries.order_by("number")


def in_stage(event: Event, stage: Stage, entry: Entry) -> bool:
    return stage_entries(event, stage).filter(pk=entry.pk).exists()


def has_calendar(stage: Stage) -> bool:
    """Whether the stage sits in several rounds set on the calendar (ChGK tours)."""
    return isinstance(stage, ChgkTourStage)


def rounds_of(event: Event, stage: Stage) -> list[Round]:
    """The calendar rounds of the stage, by number (none for a stage that sits once)."""
    return list(
        Round.objects.filter(event=event, stage=stage.key).select_related("host").order_by("number")
    )


def round_numbers(event: Event, stage: Stage) -> list[int]:
    if has_calendar(stage):
        return [r.number for r in rounds_of(event, stage)]
    return [1]


def team_labels(entries: Iterable[Entry]) -> dict[int, str]:
    """Entry id → the label a battle or superfinal table shows (see the vocabulary)."""
    entries = list(entries)
    names = Counter(e.name for e in entries)
    return {e.pk: e.name if names[e.name] == 1 else f"{e.name} (#{e.number})" for e in entries}


def games_stages(rulebook: Rulebook) -> list[GamesStage]:
    return [s for s in rulebook.stages if isinstance(s, GamesStage)]


def has_protest_desk(rulebook: Rulebook) -> bool:
    """A rulebook's protest desk exists when it has a protest rule (an appeal without kinds)
    and games to protest (the dashboard links only to desks the event has)."""
    return any(not a.kinds for a in rulebook.appeals) and bool(games_stages(rulebook))


def has_appeal_desk(rulebook: Rulebook) -> bool:
    """Appeals on questions need their rule (an appeal with kinds) and ChGK tours."""
    return any(a.kinds for a in rulebook.appeals) and any(
        s.format == "chgk-tour" for s in rulebook.stages
    )


def has_scorecards(stage: Stage) -> bool:
    return isinstance(stage, TimedSolveStage | TeamSolveStage | GamesStage | ChgkTourStage)
