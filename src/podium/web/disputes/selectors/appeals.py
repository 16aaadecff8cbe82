"""Reads of appeals: the rule, its windows, the jury, what is open, and what is published.

Vocabulary:
- appeal, verdict, disputed answer, filing window, verdict due: see
  ``podium.web.disputes.services.hearings``, ``podium.web.disputes.services.appeals`` and
  ``podium.web.models.appeals``.
- round end: when the round's clock ended, else its scheduled end (``round_ended_at``).
- open: an appeal without a verdict, or a disputed answer (``?`` in a current mask) nobody has
  decided yet. A round with open appeals does not become final.
- jury card: what a jury member sees of an appeal — its number, round, question, kind, the
  answer and text, the deadline — never the team that filed it (where the rule is anonymous).
- warned: an undecided appeal whose verdict is due within ``WARN_DAYS`` (or overdue): the
  organizer's appeals page lists it first, with the date.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from podium.rules.schema.discipline import Appeal as AppealRule
from podium.rules.schema.stages import Stage
from podium.web.disputes.selectors.anonymity import disputed_questions
from podium.web.models import Appeal, Entry, EntryMember, Event, EventRole, Verdict
from podium.web.results.selectors.clock import rounds_ended_at
from podium.web.results.selectors.rows import current_by_round

WARN_DAYS = 3


def appeal_rule(event: Event, key: str) -> AppealRule | None:
    return next((a for a in event.rulebook.appeals if a.key == key), None)


def question_rule(event: Event) -> AppealRule | None:
    """The rule of appeals on questions (the one with kinds), if the rulebook has one."""
    return next((a for a in event.rulebook.appeals if a.kinds), None)


def filing_closes(
    event: Event, stage: Stage, round: int, rule: AppealRule, now: dt.datetime | None = None
) -> dt.datetime | None:
    """When filing closes (``None``: the round has not ended, or the rule sets no window)."""
    return filings_close(event, stage, [round], rule, now)[round]


def filings_close(
    event: Event,
    stage: Stage,
    rounds: Collection[int],
    rule: AppealRule,
    now: dt.datetime | None = None,
) -> dict[int, dt.datetime | None]:
    """Round → ``filing_closes`` of it, for every one of ``rounds`` in two reads."""
    days = rule.file_within_days
    if days is None:
        return dict.fromkeys(rounds)
    ends = rounds_ended_at(event, stage, rounds, now)
    return {r: None if ends[r] is None else ends[r] + dt.timedelta(days=days) for r in rounds}


def verdict_due(event: Event, appeal: Appeal, now: dt.datetime | None = None) -> dt.datetime | None:
    return verdicts_due(event, [appeal], now)[appeal.pk]


def verdicts_due(
    event: Event, appeals: Sequence[Appeal], now: dt.datetime | None = None
) -> dict[int, dt.datetime | None]:
    """Appeal id → ``verdict_due``, reading the end of every round they are on at once."""
    timed = {}
    for appeal in appeals:
        rule = appeal_rule(event, appeal.rule)
        if rule is not None and rule.verdict_within_days is not None:
            timed[appeal.pk] = (appeal, rule.verdict_within_days)
    rounds: dict[str, set[int]] = defaultdict(set)
    for appeal, _days in timed.values():
        rounds[appeal.stage].add(appeal.round)
    ends = {
        (key, number): ended
        for key, numbers in rounds.items()
        for number, ended in rounds_ended_at(event, event.rulebook.stage(key), numbers, now).items()
    }
    due: dict[int, dt.datetime | None] = {appeal.pk: None for appeal in appeals}
    for pk, (appeal, days) in timed.items():
        ended = ends[appeal.stage, appeal.round]
        due[pk] = None if ended is None else ended + dt.timedelta(days=days)
    return due


def member_of(user: Any, entry: Entry) -> bool:
    """Whether the user is a player on the entry's roster (or registered it)."""
    if user is None or not user.is_authenticated:
        return False
    return entry.registered_by_id == user.pk or entry.members.filter(person__user=user).exists()


def plays_in(user: Any, event: Event) -> bool:
    """Whether the user plays for any active entry of the event."""
    if user is None or not getattr(user, "pk", None):
        return False
    return EntryMember.objects.filter(
        entry__event=event, entry__status__in=Entry.ACTIVE, person__user=user
    ).exists()


def jury_members(event: Event) -> list[Any]:
    users = EventRole.objects.filter(event=event, role=EventRole.Role.JURY).values("user")
    return list(get_user_model().objects.filter(pk__in=users).order_by("username"))


def appeals_of(event: Event, stage: str | None = None, round: int | None = None) -> list[Appeal]:
    appeals = Appeal.objects.filter(event=event).select_related(
        "entry", "fee", "result", "verdict", "further"
    )
    if stage is not None:
        appeals = appeals.filter(stage=stage)
    if round is not None:
        appeals = appeals.filter(round=round)
    return list(appeals.prefetch_related("verdict__credited").order_by("number"))


def decided(appeal: Appeal) -> Verdict | None:
    try:
        return appeal.verdict
    except Verdict.DoesNotExist:
        return None


@dataclass(frozen=True)
class Dispute:
    """A ``?`` in a team's current mask with no decision yet."""

    entry: Entry
    round: int
    question: int


def pending_disputes(
    event: Event, stage: Stage, round: int, at: dt.datetime | None = None
) -> list[Dispute]:
    return disputes_by_round(event, stage, [round], at)[round]


def disputes_by_round(
    event: Event, stage: Stage, rounds: Collection[int], at: dt.datetime | None = None
) -> dict[int, list[Dispute]]:
    """Round → ``pending_disputes`` of it, for every one of ``rounds`` in a few reads."""
    disputes: dict[int, list[Dispute]] = {round: [] for round in rounds}
    if stage.format != "chgk-tour":
        return disputes
    decided_ = set(
        Appeal.objects.filter(
            event=event, stage=stage.key, round__in=list(rounds), kind=Appeal.Kind.DISPUTED
        ).values_list("round", "entry_id", "question")
    )
    for round, results in current_by_round(event, stage.key, rounds, at).items():
        for result in results:
            for q in disputed_questions(result.cells.get("mask") or ""):
                if (round, result.entry_id, q) not in decided_:
                    disputes[round].append(Dispute(result.entry, round, q))
    return disputes


def open_on_round(event: Event, stage: Stage, round: int) -> list[Any]:
    """The undecided appeals and disputed answers of a round (see the vocabulary)."""
    undecided: list[Any] = list(
        Appeal.objects.filter(event=event, stage=stage.key, round=round, verdict__isnull=True)
        .select_related("entry")
        .order_by("number")
    )
    return undecided + pending_disputes(event, stage, round)


@dataclass(frozen=True)
class JuryCard:
    appeal: Appeal
    verdict: Verdict | None
    due: dt.datetime | None
    warned: bool
    team: Entry | None  # None where the rule keeps the team from the jury

    @property
    def number(self) -> int:
        return self.appeal.number


def jury_cards(event: Event, now: dt.datetime | None = None, staff: bool = False) -> list[JuryCard]:
    """The appeals on questions as the jury sees them, undecided first, by due date; the team
    only for ``staff`` (the organizer's view) or where the rule is not anonymous."""
    now = now or timezone.now()
    cards = []
    appeals = [a for a in appeals_of(event) if a.kind in Appeal.QUESTION_KINDS]
    dues = verdicts_due(event, appeals, now)
    for appeal in appeals:
        rule = appeal_rule(event, appeal.rule)
        due = dues[appeal.pk]
        verdict = decided(appeal)
        warned = verdict is None and due is not None and due - now <= dt.timedelta(days=WARN_DAYS)
        shown = staff or (rule is not None and not rule.anonymous)
        cards.append(JuryCard(appeal, verdict, due, warned, appeal.entry if shown else None))
    far = dt.datetime.max.replace(tzinfo=dt.UTC)
    return sorted(cards, key=lambda c: (c.verdict is not None, c.due or far, c.number))


@dataclass(frozen=True)
class Published:
    """A verdict as the public sees it with the tour's results."""

    number: int
    question: int | None
    kind: str
    answer: str
    upheld: bool
    reasons: str
    credited: int  # how many other teams the accepted answer was also credited to


def published_verdicts(event: Event, stage: str, round: int) -> list[Published]:
    items = []
    for appeal in appeals_of(event, stage, round):
        verdict = decided(appeal)
        if verdict is None or appeal.kind == Appeal.Kind.PROTEST:
            continue
        items.append(
            Published(
                appeal.number,
                appeal.question,
                str(Appeal.Kind(appeal.kind).label),
                appeal.answer,
                verdict.upheld,
                verdict.reasons,
                len(verdict.credited.all()),
            )
        )
    return items
