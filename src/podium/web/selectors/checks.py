"""What waits for the head referee: mismatches between two entries, and results to confirm.

Vocabulary:
- mismatch, second entry, confirmation: see ``podium.web.services.checks``. A mismatch waits
  while its result is still the current one and unverified; once resolved, or replaced by a
  correction, it is history.
- round of a stage: every round the stage has (ChGK tours), each listed on its own.
- difference: a column whose two values differ in meaning; for a question mask also the
  numbers of the questions that differ.
- waiting: the unverified current results of every round of every recorded stage, read once
  (``waiting``) for the lists of the page, whatever the number of rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import prefetch_related_objects

from podium.engine.compare import mask_differences
from podium.rules.schema import Stage
from podium.web.models import Event, Result, SecondEntry
from podium.web.selectors.results import RECORDED_FORMATS, of_rounds, unverified_by_round
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


Waiting = list[tuple[Stage, int, list[Result]]]


def waiting(event: Event) -> Waiting:
    """Every round of every recorded stage with its unverified current results (who recorded
    each one read with it), a few reads per stage whatever the number of rounds."""
    found = []
    for stage in event.rulebook.stages:
        if stage.format not in RECORDED_FORMATS:
            continue
        numbers = round_numbers(event, stage)
        by_round = unverified_by_round(event, stage.key, numbers)
        found += [(stage, number, by_round.get(number, [])) for number in numbers]
    prefetch_related_objects([r for _s, _n, results in found for r in results], "recorded_by")
    return found


def _read(event: Event, unverified: Waiting | None) -> Waiting:
    return waiting(event) if unverified is None else unverified


def _second_entries(event: Event, stage: Stage) -> dict[int, SecondEntry]:
    """Result id → its newest second entry, over every round of the stage."""
    seconds = SecondEntry.objects.filter(**of_rounds(event, stage.key, None))
    latest: dict[int, SecondEntry] = {}
    for second in seconds.select_related("entered_by").order_by("entered_at", "id"):
        latest[second.result_id] = second
    return latest


def mismatches(event: Event, unverified: Waiting | None = None) -> list[Mismatch]:
    """Every mismatch still waiting, stage by stage and round by round (``unverified``: what
    ``waiting`` read, if it did)."""
    found = []
    seconds: dict[str, dict[int, SecondEntry]] = {}
    for stage, number, results in _read(event, unverified):
        open_results = {r.pk: r for r in results}
        if not open_results:
            continue
        if stage.key not in seconds:
            seconds[stage.key] = _second_entries(event, stage)
        for result_id, second in seconds[stage.key].items():
            if second.matches or result_id not in open_results:
                continue
            result = open_results[result_id]
            questions = ()
            if "mask" in second.differences:
                questions = mask_differences(result.cells["mask"], second.cells["mask"])
            found.append(
                Mismatch(stage, number, result, second, tuple(second.differences), questions)
            )
    return found


def to_confirm(event: Event, unverified: Waiting | None = None) -> list[Pending]:
    """Unverified results of the stages a head referee confirms, per stage and round."""
    return [
        Pending(stage, number, results)
        for stage, number, results in _read(event, unverified)
        if stage.recording.verification == "head-referee" and results
    ]


def awaiting_second_entry(event: Event, unverified: Waiting | None = None) -> list[Pending]:
    """Unverified results of second-entry stages that no second entry has checked yet."""
    pending = []
    checked: dict[str, set[int]] = {}
    for stage, number, results in _read(event, unverified):
        if stage.recording.verification != "second-entry":
            continue
        if stage.key not in checked:
            checked[stage.key] = set(
                SecondEntry.objects.filter(**of_rounds(event, stage.key, None)).values_list(
                    "result_id", flat=True
                )
            )
        left = [r for r in results if r.pk not in checked[stage.key]]
        if left:
            pending.append(Pending(stage, number, left))
    return pending
