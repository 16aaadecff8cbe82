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
  decided (``podium.web.disputes.selectors.appeals``); final waits for every verdict.
- advancement: see ``podium.web.models.advancement``; standing ones, grouped by table.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from podium.rules.schema.discipline import Appeal
from podium.rules.schema.stages import ChgkSeasonStage, Stage, SuperfinalStage
from podium.web.disputes.selectors.appeals import open_on_round
from podium.web.kernel.stages import round_numbers
from podium.web.kernel.texts import reason_text
from podium.web.models import Advancement, Event, Publication, Round, Signal
from podium.web.results.selectors.clock import rounds_ended_at
from podium.web.results.selectors.rows import RECORDED_FORMATS
from podium.web.results.selectors.verification import round_counts


def round_day(event: Event, stage: Stage, round: int) -> dt.date:
    """The local date of the round (see the vocabulary)."""
    return round_days(event, stage, [round])[round]


def round_days(event: Event, stage: Stage, rounds: Collection[int]) -> dict[int, dt.date]:
    """Round → ``round_day`` of it, for every one of ``rounds`` in two reads."""
    starts = Signal.objects.filter(
        event=event, stage=stage.key, round__in=list(rounds), kind=Signal.Kind.START
    )
    first: dict[int, dt.datetime] = {}
    for signal in starts.order_by("at"):
        first.setdefault(signal.round, signal.at)
    calendar = Round.objects.filter(event=event, stage=stage.key, number__in=list(rounds))
    first = {r.number: r.starts_at for r in calendar} | first  # a start signal wins
    return {r: first.get(r, event.starts_at).astimezone(event.zone).date() for r in rounds}


def preliminary_from(event: Event, stage: Stage, round: int) -> dt.date | None:
    return preliminaries_from(event, stage, [round])[round]


def preliminaries_from(
    event: Event, stage: Stage, rounds: Collection[int]
) -> dict[int, dt.date | None]:
    days = stage.publication.preliminary_after_days
    if days is None:
        return dict.fromkeys(rounds)
    return {r: day + dt.timedelta(days=days) for r, day in round_days(event, stage, rounds).items()}


def _appeal(event: Event, key: str) -> Appeal:
    return next(a for a in event.rulebook.appeals if a.key == key)


def appeal_window_closes(
    event: Event, stage: Stage, round: int, now: dt.datetime | None = None
) -> dt.datetime | None:
    """When the last appeal window of the round closes; ``None`` while the round has not ended
    (or when no appeal delays final)."""
    return appeal_windows_close(event, stage, [round], now)[round]


def appeal_windows_close(
    event: Event, stage: Stage, rounds: Collection[int], now: dt.datetime | None = None
) -> dict[int, dt.datetime | None]:
    """Round → ``appeal_window_closes`` of it, for every one of ``rounds`` in two reads."""
    keys = stage.publication.final_after
    if not keys:
        return dict.fromkeys(rounds)
    days = dt.timedelta(days=max(_appeal(event, k).file_within_days or 0 for k in keys))
    ends = rounds_ended_at(event, stage, rounds, now)
    return {r: None if ends[r] is None else ends[r] + days for r in rounds}


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


def rounds_controls(event: Event, stage: Stage, rounds: list[int]) -> list[RoundControls]:
    """The controls of each of the stage's ``rounds``, in a few reads for any number of them."""
    current: dict[int, Publication] = {}
    versions: dict[int, list[Publication]] = defaultdict(list)
    changes = Publication.objects.filter(event=event, stage=stage.key).defer("table")
    for change in changes.order_by("changed_at", "id"):
        current[change.round] = change
        if change.state == Publication.State.FINAL:
            versions[change.round].append(change)
    recorded = stage.format in RECORDED_FORMATS
    counts = round_counts(event, stage.key, rounds) if recorded else {}
    opens = preliminaries_from(event, stage, rounds)
    closes = appeal_windows_close(event, stage, rounds)
    made = []
    for round in rounds:
        latest = current.get(round)
        state = Publication.State(latest.state) if latest else Publication.State.DRAFT
        results, waiting = counts.get(round, (0, 0))
        controls = RoundControls(
            stage=stage,
            round=round,
            state=state,
            version=latest.version if latest else 1,
            recorded=results,
            unverified=waiting,
            moves=MOVES[state],
            versions=sorted(versions[round], key=lambda v: v.version),
            preliminary_from=opens[round],
            appeals_close=closes[round],
        )
        made.append(controls)
    return made


def _standing(event: Event, **where: str) -> list[Advancement]:
    made = list(
        Advancement.objects.filter(event=event, withdrawn_at__isnull=True, **where)
        .select_related("entry")
        .order_by("table", "made_at", "id")
    )
    _shown_reasons(made)
    return made


def _shown_reasons(advancements: list[Advancement]) -> None:
    """Sets each advancement's ``shown_reason``: it keeps the engine's English text, and the
    frozen table it came from keeps the message, so the page reads it in the reader's
    language (the text as kept where no message is found)."""
    ids = {a.publication_id for a in advancements if a.publication_id}
    messages: dict[str, dict[str, Any]] = {}
    for table in Publication.objects.filter(pk__in=ids).values_list("table", flat=True):
        for part in (table or {}).get("tables", []):
            for row in part.get("rows", []):
                for reason in row.get("reasons", []):
                    if "message" in reason:
                        messages.setdefault(reason["text"], reason)
    for advancement in advancements:
        data = messages.get(advancement.reason)
        shown = reason_text(data) if data is not None else advancement.reason
        advancement.shown_reason = shown  # type: ignore[attr-defined]


def controls(event: Event) -> list[StageControls]:
    made = []
    for stage in published_stages(event):
        numbers = [1] if isinstance(stage, ChgkSeasonStage) else round_numbers(event, stage)
        item = StageControls(stage, rounds_controls(event, stage, numbers))
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
