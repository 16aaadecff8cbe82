"""What waits for the head referee: mismatches between two entries, and results to confirm.

Vocabulary:
- mismatch, second entry, confirmation: see ``podium.web.services.checks``. A mismatch waits
  while its result is still the current one and unverified; once resolved, or replaced by a
  correction, it is history.
- round of a stage: every round the stage has (ChGK tours), each listed on its own.
- difference: a column whose two values differ in meaning; for a question mask also the
  numbers of the questions that differ.
"""

from __future__ import annotations

from dataclasses import dataclass

from podium.engine.compare import mask_differences
from podium.rules.schema import Stage
from podium.web.models import Event, Result, SecondEntry
from podium.web.selectors.results import RECORDED_FORMATS, of_round, unverified
from podium.web.selectors.stages import round_numbers


@dataclass(frozen=True)
class Mismatch:
    stage: Stage
    round: int
    result: Result
    second: SecondEntry
    columns: tuple[str, ...]
    questions: tuple[int, ...]

    @property
    def subject(self) -> str:
        entry = self.result.entry
        return f"#{entry.number} {entry.name}" if entry else self.result.item


@dataclass(frozen=True)
class Pending:
    stage: Stage
    round: int
    results: list[Result]


def _stages(event: Event) -> list[tuple[Stage, int]]:
    return [
        (stage, number)
        for stage in event.rulebook.stages
        if stage.format in RECORDED_FORMATS
        for number in round_numbers(event, stage)
    ]


def mismatches(event: Event) -> list[Mismatch]:
    """Every mismatch still waiting, stage by stage and round by round."""
    found = []
    for stage, number in _stages(event):
        waiting = {r.pk: r for r in unverified(event, stage.key, number)}
        if not waiting:
            continue
        seconds = SecondEntry.objects.filter(**of_round(event, stage.key, number)).select_related(
            "entered_by"
        )
        latest: dict[int, SecondEntry] = {}
        for second in seconds.order_by("entered_at", "id"):
            latest[second.result_id] = second
        for result_id, second in latest.items():
            if second.matches or result_id not in waiting:
                continue
            result = waiting[result_id]
            questions = ()
            if "mask" in second.differences:
                questions = mask_differences(result.cells["mask"], second.cells["mask"])
            found.append(
                Mismatch(stage, number, result, second, tuple(second.differences), questions)
            )
    return found


def to_confirm(event: Event) -> list[Pending]:
    """Unverified results of the stages a head referee confirms, per stage and round."""
    pending = []
    for stage, number in _stages(event):
        if stage.recording.verification != "head-referee":
            continue
        results = unverified(event, stage.key, number)
        if results:
            pending.append(Pending(stage, number, results))
    return pending


def awaiting_second_entry(event: Event) -> list[Pending]:
    """Unverified results of second-entry stages that no second entry has checked yet."""
    pending = []
    for stage, number in _stages(event):
        if stage.recording.verification != "second-entry":
            continue
        results = unverified(event, stage.key, number)
        checked = set(
            SecondEntry.objects.filter(**of_round(event, stage.key, number)).values_list(
                "result_id", flat=True
            )
        )
        left = [r for r in results if r.pk not in checked]
        if left:
            pending.append(Pending(stage, number, left))
    return pending
