"""What waits for the head referee: mismatches between two entries, and results to confirm.

Vocabulary:
- mismatch, second entry, confirmation: see ``podium.web.results.services.checks``. A mismatch waits
  while its result is still the current one and unverified; once resolved, or replaced by a
  correction, it is history.
- round of a stage: every round the stage has (ChGK tours), each listed on its own.
- difference: a column whose two values differ in meaning; for a question mask also the
  numbers of the questions that differ.
- waiting: the unverified current results of every round of every recorded stage, read once
  (``waiting``) for the lists of the page, whatever the number of rounds.
- row to confirm: one waiting result as the head referee reads it — who recorded it, whether
  the competitor agreed (where the stage asks for it), and, when this viewer may not confirm it
  (they recorded it: a second person checks it), why and who can.
- round name: in the sport's words — a ChGK stage's rounds are tours ("tour 3").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _

from podium.engine.compare import mask_differences
from podium.rules.schema.stages import Stage
from podium.web.kernel.roles import confirmer_roles, confirmers_text
from podium.web.kernel.stages import round_numbers
from podium.web.models import Agreement, Event, EventRole, Result, SecondEntry
from podium.web.results.selectors.rows import (
    ITEM_FORMATS,
    RECORDED_FORMATS,
    labels_by_number,
    of_rounds,
)
from podium.web.results.selectors.verification import unverified_by_round
from podium.web.results.selectors.words import result_words, subject_of

# The roles a rulebook may name to confirm results (``recording.confirmed_by``).
CONFIRMERS = (EventRole.Role.ORGANIZER, EventRole.Role.HEAD_REFEREE, EventRole.Role.JURY)


def round_name(stage: Stage, number: int) -> str:
    """The round in the sport's words ("tour 3" for ChGK); "" for a stage of one round."""
    if stage.format == "chgk-tour":
        return _("tour %(n)d") % {"n": number}
    return _("round %(n)d") % {"n": number} if number != 1 else ""


def questions_text(numbers: tuple[int, ...]) -> str:
    """The questions that differ, read as numbers ("Question 7 differs", never a count)."""
    if len(numbers) == 1:
        return _("Question %(n)d differs.") % {"n": numbers[0]}
    return _("Questions %(numbers)s differ.") % {"numbers": ", ".join(str(n) for n in numbers)}


@dataclass(frozen=True)
class _InRound:
    stage: Stage
    round: int

    @property
    def round_name(self) -> str:
        return round_name(self.stage, self.round)


@dataclass(frozen=True)
class Mismatch(_InRound):
    result: Result
    second: SecondEntry
    columns: tuple[str, ...]
    questions: tuple[int, ...]

    @property
    def subject(self) -> str:
        entry = self.result.entry
        return f"#{entry.number} {entry.name}" if entry else self.result.item

    @property
    def questions_text(self) -> str:
        return questions_text(self.questions) if self.questions else ""


@dataclass(frozen=True)
class Pending(_InRound):
    results: list[Result]


@dataclass(frozen=True)
class Row:
    """A result waiting for confirmation, as ``viewer`` reads it."""

    result: Result
    subject: str
    words: str
    recorded_by: str
    asks_agreement: bool
    agreed: Agreement | None
    # Why the viewer may not confirm it ("" when they may), and who may.
    blocked: str
    who_can: str


@dataclass(frozen=True)
class Recorder:
    """Whoever recorded some of a round's waiting results, for "confirm all they recorded"."""

    pk: int | None
    name: str
    count: int
    mine: bool


@dataclass(frozen=True)
class PendingRows(_InRound):
    rows: list[Row]
    recorders: list[Recorder]
    # Who confirms this stage's results, in words, and whether the viewer is one of them.
    confirmed_by: str
    may_confirm: bool

    @property
    def groups(self) -> list[tuple[str, int]]:
        """(group, how many of its rows the viewer may confirm), where the round has several."""
        counts: dict[str, int] = {}
        for row in self.rows:
            group = row.result.entry.group if row.result.entry_id else ""
            if group and not row.blocked:
                counts[group] = counts.get(group, 0) + 1
        return sorted(counts.items()) if len(counts) > 1 else []

    @property
    def confirmable(self) -> int:
        """How many of the rows the viewer may confirm."""
        return sum(1 for row in self.rows if not row.blocked)


def confirmers(event: Event) -> list[tuple[Any, str, str]]:
    """Who may confirm results somewhere in the event: (user, role, role shown) of its head
    referees, organizers and jury members (each stage's rulebook says which of them)."""
    roles = EventRole.objects.filter(event=event, role__in=CONFIRMERS).select_related("user")
    return [
        (r.user, r.role, str(EventRole.Role(r.role).label))
        for r in roles.order_by("role", "user__username")
    ]


def _named(user: Any) -> str:
    return (user.get_full_name() or user.get_username()) if user is not None else _("someone")


def who_can_text(stage: Stage, people: list[tuple[Any, str, str]], viewer: Any) -> str:
    """Who besides ``viewer`` may confirm a result of ``stage``, by name (of ``confirmers``)."""
    allowed = confirmer_roles(stage.recording)
    others = [
        f"{_named(u)} ({label})"
        for u, role, label in people
        if role in allowed and u.pk != viewer.pk
    ]
    if others:
        return _("Who can confirm it: %(people)s.") % {"people": ", ".join(others)}
    return _(
        "Nobody else may confirm it yet (%(who)s): an organizer appoints one under Staff on "
        "the event’s organizer page."
    ) % {"who": confirmers_text(stage.recording)}


def _recorders(results: list[Result], viewer: Any) -> list[Recorder]:
    counts: dict[int | None, list[Result]] = {}
    for r in results:
        counts.setdefault(r.recorded_by_id, []).append(r)
    return [
        Recorder(pk, _named(found[0].recorded_by), len(found), pk is not None and pk == viewer.pk)
        for pk, found in counts.items()
    ]


def confirm_rows(event: Event, pending: list[Pending], viewer: Any) -> list[PendingRows]:
    """The waiting results in words with who recorded each, the competitor's agreement and,
    where ``viewer`` recorded it themselves or may not confirm the stage, why and who may — a
    few reads whatever the number of results and rounds."""
    results = [r for group in pending for r in group.results]
    agreed = {a.result_id: a for a in Agreement.objects.filter(result__in=results)}
    people = confirmers(event) if results else []
    held = {role for u, role, _l in people if u.pk == viewer.pk}
    labels: dict[str, dict[str, str]] = {}
    found = []
    for group in pending:
        stage = group.stage
        if stage.format in ITEM_FORMATS and stage.key not in labels:
            labels[stage.key] = labels_by_number(event, stage)
        allowed = bool(held & set(confirmer_roles(stage.recording)))
        asks = stage.recording.competitor_confirms
        rows = []
        for r in group.results:
            blocked = who_can = ""
            if r.recorded_by_id == viewer.pk:
                blocked = _(
                    "You recorded this result, so you cannot confirm it: a second person checks it."
                )
                who_can = who_can_text(stage, people, viewer)
            elif not allowed:
                blocked = _("The results of this stage are confirmed by: %(who)s.") % {
                    "who": confirmers_text(stage.recording)
                }
                who_can = who_can_text(stage, people, viewer)
            words = result_words(stage, r, labels.get(stage.key, {}))
            row = Row(r, subject_of(r), words, _named(r.recorded_by), asks, agreed.get(r.pk),
                      blocked, who_can)  # fmt: skip
            rows.append(row)
        recorders = _recorders(group.results, viewer)
        who = confirmers_text(stage.recording)
        found.append(PendingRows(stage, group.round, rows, recorders, who, allowed))
    return found


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
