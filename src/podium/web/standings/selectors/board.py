"""The round board: per stage and round, what is left before the next step of the day.

Vocabulary:
- line of the board: one round of one recorded stage (every ChGK tour on its own) with its
  counts — results in and expected, unconfirmed (by who recorded them), mismatches, open
  appeals and protests — its publication state and the next step.
- expected: the entrants of the stage's entry list for an entrant's result; the regular
  questions of a superfinal; unknown (``None``) for battles, whose schedule grows with the season.
- next step: the first of — record what is missing, resolve the mismatches, confirm what waits,
  hear the open appeals, publish (preliminary, then final) — that is still to do; ``done`` when
  the round is final.
- reads: a few per stage (entries, results, verifications, second entries, publications) and two
  for the event (appeals, who recorded what), whatever the number of entrants and rounds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import Count

from podium.engine.formats.superfinal import regular_count
from podium.rules.schema.stages import Stage, SuperfinalStage
from podium.web.kernel.stages import round_numbers, stage_entries
from podium.web.models import Appeal, Event, Publication, Result
from podium.web.results.selectors.checks import Waiting, mismatches, round_name
from podium.web.results.selectors.publication import publications_current
from podium.web.results.selectors.rows import ENTRY_FORMATS, RECORDED_FORMATS, current_by_round
from podium.web.results.selectors.verification import unverified_by_round

RECORD, RESOLVE, CONFIRM, HEAR, PRELIMINARY, FINAL, DONE = (
    "record", "resolve", "confirm", "hear", "preliminary", "final", "done",
)  # fmt: skip


@dataclass
class Line:
    stage: Stage
    round: int
    results: int
    expected: int | None
    unconfirmed: int
    mismatches: int
    appeals: int
    protests: int
    state: str
    # (name of whoever recorded them, how many) of the unconfirmed results.
    by_recorder: list[tuple[str, int]] = field(default_factory=list)

    @property
    def round_name(self) -> str:
        return round_name(self.stage, self.round)

    @property
    def missing(self) -> int:
        return max(0, self.expected - self.results) if self.expected is not None else 0

    @property
    def next_step(self) -> str:
        if self.missing:
            return RECORD
        if self.mismatches:
            return RESOLVE
        if self.unconfirmed:
            return CONFIRM
        if self.appeals or self.protests:
            return HEAR
        if self.state == Publication.State.DRAFT:
            return PRELIMINARY if self.results else RECORD
        if self.state == Publication.State.PRELIMINARY:
            return FINAL
        return DONE


def _expected(event: Event, stage: Stage) -> int | None:
    if stage.format in ENTRY_FORMATS:
        return stage_entries(event, stage).count()
    if isinstance(stage, SuperfinalStage):
        return regular_count(stage)
    return None


def _disputes(event: Event) -> Counter[tuple[str, int, bool]]:
    """(stage, round, is a protest) → the appeals still without a verdict, in one read."""
    open_ones = (
        Appeal.objects.filter(event=event, verdict__isnull=True)
        .values("stage", "round", "kind")
        .annotate(n=Count("id"))
        .order_by()
    )
    found: Counter[tuple[str, int, bool]] = Counter()
    for row in open_ones:
        found[(row["stage"], row["round"], row["kind"] == Appeal.Kind.PROTEST)] += row["n"]
    return found


def _names(ids: set[int]) -> dict[int, str]:
    users = get_user_model().objects.filter(pk__in=ids)
    return {u.pk: u.get_full_name() or u.get_username() for u in users}


def _by_recorder(results: list[Result], names: dict[int, str]) -> list[tuple[str, int]]:
    counts = Counter(r.recorded_by_id for r in results)
    return [(names.get(pk, "—") if pk else "—", n) for pk, n in counts.most_common()]


def board(event: Event) -> list[Line]:
    """Every round of every recorded stage as a line of the board (see the vocabulary)."""
    disputes = _disputes(event)
    lines: list[Line] = []
    waiting: Waiting = []
    for stage in event.rulebook.stages:
        if stage.format not in RECORDED_FORMATS:
            continue
        numbers = round_numbers(event, stage)
        current = current_by_round(event, stage.key, numbers, members=False)
        unverified = unverified_by_round(event, stage.key, numbers)
        states = publications_current(event, stage.key)
        expected = _expected(event, stage)
        for number in numbers:
            waiting.append((stage, number, unverified.get(number, [])))
            state = states[number].state if number in states else Publication.State.DRAFT
            line = Line(
                stage, number, len(current.get(number, [])), expected,
                len(unverified.get(number, [])), 0, disputes[(stage.key, number, False)],
                disputes[(stage.key, number, True)], state,
            )  # fmt: skip
            lines.append(line)
    names = _names({r.recorded_by_id for _s, _n, rs in waiting for r in rs if r.recorded_by_id})
    found = Counter((m.stage.key, m.round) for m in mismatches(event, waiting))
    for line, (_stage, _number, results) in zip(lines, waiting, strict=True):
        line.mismatches = found[(line.stage.key, line.round)]
        line.by_recorder = _by_recorder(results, names)
    return lines
