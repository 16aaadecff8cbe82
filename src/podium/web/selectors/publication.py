"""What the organizer's publication page shows: per stage and round, where its results stand
and what may happen next; and who has advanced.

Vocabulary:
- publication, version: see ``podium.web.models.results``; moves: the states the organizer may
  go to from the current one (after final every move needs a reason and starts a new version).
- published stage: a stage whose results are recorded in Podium, or summed from them (a ChGK
  season); every round of it is published on its own.
- day of the round: the local date of its first start signal, else of its calendar entry,
  else of the event; preliminary results may be public from ``publication.preliminary_after_days``
  after it (ChGK: the day after the tour).
- appeal window: for each appeal the rulebook lists in ``publication.final_after``, filing
  closes ``file_within_days`` after the end of the round (an appeal decided on site closes with
  the round).
- open appeal: an appeal filed and not yet decided, or a disputed answer (``?``) nobody has
  decided (``podium.web.selectors.appeals``); final waits for every verdict.
- advancement: see ``podium.web.models.advancement``; standing ones, grouped by table.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from podium.rules.schema import Appeal, ChgkSeasonStage, Stage, SuperfinalStage
from podium.web.models import Advancement, Event, Publication, Round, Signal
from podium.web.selectors.appeals import open_on_round
from podium.web.selectors.clock import round_ended_at
from podium.web.selectors.results import (
    RECORDED_FORMATS,
    current_results,
    final_versions,
    publication_current,
    unverified,
)
from podium.web.selectors.stages import round_numbers


def round_day(event: Event, stage: Stage, round: int) -> dt.date:
    """The local date of the round (see the vocabulary)."""
    signal = (
        Signal.objects.filter(event=event, stage=stage.key, round=round, kind=Signal.Kind.START)
        .order_by("at")
        .first()
    )
    calendar = Round.objects.filter(event=event, stage=stage.key, number=round).first()
    moment = signal.at if signal else calendar.starts_at if calendar else event.starts_at
    return moment.astimezone(event.zone).date()


def preliminary_from(event: Event, stage: Stage, round: int) -> dt.date | None:
    days = stage.publication.preliminary_after_days
    return None if days is None else round_day(event, stage, round) + dt.timedelta(days=days)


def _appeal(event: Event, key: str) -> Appeal:
    return next(a for a in event.rulebook.appeals if a.key == key)


def appeal_window_closes(
    event: Event, stage: Stage, round: int, now: dt.datetime | None = None
) -> dt.datetime | None:
    """When the last appeal window of the round closes; ``None`` while the round has not ended
    (or when no appeal delays final)."""
    keys = stage.publication.final_after
    if not keys:
        return None
    ended = round_ended_at(event, stage, round, now)
    if ended is None:
        return None
    days = [_appeal(event, k).file_within_days or 0 for k in keys]
    return ended + dt.timedelta(days=max(days))


def open_appeals(event: Event, stage: Stage, round: int) -> list[Any]:
    """Appeals filed on the round and not yet decided, and disputed answers undecided."""
    return open_on_round(event, stage, round)


MOVES = {
    Publication.State.DRAFT: (Publication.State.PRELIMINARY,),
    Publication.State.PRELIMINARY: (Publication.State.DRAFT, Publication.State.FINAL),
    Publication.State.FINAL: (
        Publication.State.DRAFT,
        Publication.State.PRELIMINARY,
        Publication.State.FINAL,
    ),
}


@dataclass(frozen=True)
class RoundControls:
    stage: Stage
    round: int
    state: Publication.State
    version: int
    recorded: int
    unverified: int
    moves: tuple[Publication.State, ...]
    versions: list[Publication]
    preliminary_from: dt.date | None
    appeals_close: dt.datetime | None

    @property
    def reason_required(self) -> bool:
        return self.state == Publication.State.FINAL


@dataclass
class StageControls:
    stage: Stage
    rounds: list[RoundControls]
    advances: bool = False
    to_title: str = ""
    winners_of: tuple[Stage, ...] = ()
    advanced: dict[str, list[Advancement]] = field(default_factory=dict)
    entered: list[Advancement] = field(default_factory=list)


def published_stages(event: Event) -> list[Stage]:
    return [
        s
        for s in event.rulebook.stages
        if s.format in RECORDED_FORMATS or isinstance(s, ChgkSeasonStage)
    ]


def round_controls(event: Event, stage: Stage, round: int) -> RoundControls:
    current = publication_current(event, stage.key, round)
    state = Publication.State(current.state) if current else Publication.State.DRAFT
    recorded = stage.format in RECORDED_FORMATS
    return RoundControls(
        stage=stage,
        round=round,
        state=state,
        version=current.version if current else 1,
        recorded=len(current_results(event, stage.key, round)) if recorded else 0,
        unverified=len(unverified(event, stage.key, round)) if recorded else 0,
        moves=MOVES[state],
        versions=final_versions(event, stage.key, round),
        preliminary_from=preliminary_from(event, stage, round),
        appeals_close=appeal_window_closes(event, stage, round),
    )


def _standing(event: Event, **where: str) -> list[Advancement]:
    return list(
        Advancement.objects.filter(event=event, withdrawn_at__isnull=True, **where)
        .select_related("entry")
        .order_by("table", "made_at", "id")
    )


def controls(event: Event) -> list[StageControls]:
    made = []
    for stage in published_stages(event):
        numbers = [1] if isinstance(stage, ChgkSeasonStage) else round_numbers(event, stage)
        item = StageControls(stage, [round_controls(event, stage, n) for n in numbers])
        if stage.advancement is not None:
            item.advances = True
            if stage.advancement.to:
                item.to_title = event.rulebook.stage(stage.advancement.to).title
            for advancement in _standing(event, from_stage=stage.key):
                item.advanced.setdefault(advancement.table or "all", []).append(advancement)
        if isinstance(stage, SuperfinalStage) and stage.winners_of:
            item.winners_of = tuple(event.rulebook.stage(k) for k in stage.winners_of)
            item.entered = _standing(event, to_stage=stage.key)
        made.append(item)
    return made
