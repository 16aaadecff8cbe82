"""Imposing and lifting sanctions, withdrawals, bans, and who is admitted to play.

Vocabulary:
- sanction, ban, withdrawal: see ``podium.web.models.discipline``; season end, active ban,
  unpaid: see ``podium.web.disputes.selectors.discipline``.
- sanction rule: an entry of the rulebook's ``sanctions``, by key. Withdrawals fall under the
  rules keyed ``withdrawal-before-middle-tour`` and ``withdrawal-after-middle-tour`` (the
  rulebook's wording of п. 18); the middle tour is the calendar's (``middle_tour``).
- what a sanction writes besides itself: a ban of the player for ``player-disqualified``, of
  the team and of each player it had registered by then for ``team-disqualified``, until the
  date its ``until`` words (see ``ban_until``). Everything else is applied when standings are
  computed (``podium.web.disputes.selectors.rulings``).
- repeated breach: an ``expulsion`` needs an earlier warning of the same player or entrant
  under the same rule (bowling § 12 g).
- admission: an entrant may have a result recorded in a round unless it withdrew, is expelled
  or disqualified, or was not admitted to that round (an unpaid fee).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from podium.rules.schema.discipline import Sanction as SanctionRule
from podium.web.disputes.selectors.discipline import (
    active_bans,
    ban_until,
    barred_by,
    not_admitted,
    unpaid_for_tour,
)
from podium.web.disputes.selectors.rulings import middle_tour
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_head_referee
from podium.web.models import Ban, Entry, Event, Person, Result, Round, Sanction, Withdrawal

WITHDRAWAL_BEFORE = "withdrawal-before-middle-tour"
WITHDRAWAL_AFTER = "withdrawal-after-middle-tour"
NOT_ADMITTED = "not-admitted"


def _rule(event: Event, key: str) -> SanctionRule:
    rule = next((s for s in event.rulebook.sanctions if s.key == key), None)
    if rule is None:
        raise Refused(_("This rulebook has no sanction “%(key)s”.") % {"key": key}, field="key")
    return rule


def _day(event: Event, moment: dt.datetime) -> str:
    return formats.date_format(moment.astimezone(event.zone).date(), "DATE_FORMAT")


def _check_target(
    event: Event, rule: SanctionRule, kinds: set[str], entry: Entry | None, stage: str,
    round: int | None, items: list[str],
) -> None:  # fmt: skip
    """The round and battles a sanction acts on exist and concern its entrant."""
    if not stage:
        if kinds & {"tour-result-zero", NOT_ADMITTED} and entry is not None:
            raise Refused(_("Name the tour the sanction applies to."), field="stage")
        return
    try:
        the_stage = event.rulebook.stage(stage)
    except KeyError:
        raise Refused(_("This event has no such stage."), field="stage") from None
    if the_stage.format == "chgk-tour" and (
        round is None or not Round.objects.filter(event=event, stage=stage, number=round).exists()
    ):
        raise Refused(_("Name a tour on the calendar."), field="round")
    if the_stage.format == "head-to-head" and "battle-loss" in kinds:
        if entry is None or not items:
            raise Refused(
                _("Name the team and the battles it loses 0:6."), field="items",
                clause=rule.clause,
            )  # fmt: skip
        recorded = Result.objects.filter(event=event, stage=stage, item__in=items)
        played = set(recorded.values_list("item", flat=True))
        for item in items:
            numbers = item.lstrip("b").split("-")[1:]
            if str(entry.number) not in numbers or item not in played:
                raise Refused(
                    _("#%(number)d did not play battle %(item)s.")
                    % {"number": entry.number, "item": item},
                    field="items",
                )


def _bans(
    event: Event, sanction: Sanction, rule: SanctionRule, kinds: Iterable[str], by: Any,
    now: dt.datetime, before: dt.datetime | None = None,
) -> list[Ban]:  # fmt: skip
    """The bans a sanction's effects write (see the vocabulary)."""
    bans: list[Ban] = []
    for effect in rule.effects:
        if effect.kind not in kinds:
            continue
        until = ban_until(event, effect.until)
        clause = effect.clause or rule.clause or ""
        made: list[Ban] = []
        if effect.kind == "player-disqualified" and sanction.person is not None:
            made.append(Ban(person=sanction.person))
        if effect.kind == "team-disqualified" and sanction.entry is not None:
            entry = sanction.entry
            members = entry.members.select_related("person")
            if before is not None:
                members = members.filter(added_at__lt=before)
            made += [Ban(team_name=entry.name), *(Ban(person=m.person) for m in members)]
        for ban in made:
            ban.until, ban.reason, ban.clause = until, sanction.reason, clause
            ban.event, ban.sanction, ban.created_by, ban.created_at = event, sanction, by, now
        bans += made
    return Ban.objects.bulk_create(bans)


def sanction_impose(
    *,
    event: Event,
    key: str,
    by: Any,
    reason: str,
    entry: Entry | None = None,
    person: Person | None = None,
    effect: str = "",
    stage: str = "",
    round: int | None = None,
    items: Iterable[str] = (),
    now: dt.datetime | None = None,
) -> Sanction:
    """Imposes sanction rule ``key`` on an entrant or person (head referee or organizer)."""
    now = now or timezone.now()
    reason = reason.strip()
    battles = [str(i).strip() for i in items if str(i).strip()]
    with transaction.atomic():
        event = locked_event(event.pk)
        rule = _rule(event, key)
        if not is_head_referee(by, event):
            raise Refused(_("Sanctions are imposed by the head referee or an organizer."))
        if entry is None and person is None:
            raise Refused(_("Name the team or player sanctioned."), field="entry")
        if entry is not None and entry.event_id != event.pk:
            raise Refused(_("This entry is not part of this event."), field="entry")
        kinds = {e.kind for e in rule.effects}
        if effect:
            if effect not in kinds:
                raise Refused(
                    _("The rule “%(rule)s” has no effect “%(effect)s”.")
                    % {"rule": key, "effect": effect},
                    field="effect",
                )
            kinds = {effect}
        if not reason:
            raise Refused(_("Say what happened: a sanction gives its reason."), field="reason")
        if "expulsion" in kinds:
            warned = Sanction.objects.filter(event=event, key=key, effect="warning")
            warned = warned.filter(Q(person=person) if person else Q(entry=entry))
            if not warned.filter(lifted_at__isnull=True).exists():
                raise Refused(
                    _("Expulsion is for a repeated breach: a warning comes first."),
                    field="effect",
                    clause=rule.clause,
                )
        _check_target(event, rule, kinds, entry, stage, round, battles)
        sanction = Sanction.objects.create(
            event=event, key=key, effect=effect, entry=entry, person=person, stage=stage,
            round=round, items=battles, reason=reason, clause=rule.clause or "",
            recorded_by=by, recorded_at=now,
        )  # fmt: skip
        before = None
        if round is not None and stage:
            tour = Round.objects.filter(event=event, stage=stage, number=round).first()
            before = tour.starts_at if tour else None
        bans = _bans(event, sanction, rule, kinds, by, now, before)
        audit(
            event=event, actor=by, action="sanction.impose", target=entry or person, key=key,
            effect=effect, stage=stage, round=round, items=battles, bans=len(bans),
        )  # fmt: skip
    return sanction


def sanction_lift(
    *, sanction: Sanction, by: Any, reason: str, now: dt.datetime | None = None
) -> Sanction:
    """Lifts a sanction from ``now`` on (its bans end too); the record stays."""
    now = now or timezone.now()
    reason = reason.strip()
    with transaction.atomic():
        sanction = Sanction.objects.select_for_update().get(pk=sanction.pk)
        event = sanction.event
        if not is_head_referee(by, event):
            raise Refused(_("Sanctions are lifted by the head referee or an organizer."))
        if sanction.lifted_at is not None:
            raise Refused(_("This sanction is already lifted."))
        if not reason:
            raise Refused(_("Say why the sanction is lifted."), field="reason")
        sanction.lifted_at, sanction.lifted_by, sanction.lifted_reason = now, by, reason
        sanction.save(update_fields=["lifted_at", "lifted_by", "lifted_reason"])
        yesterday = now.astimezone(event.zone).date() - dt.timedelta(days=1)
        sanction.bans.filter(until__gt=yesterday).update(until=yesterday)
        audit(event=event, actor=by, action="sanction.lift", target=sanction, reason=reason)
    return sanction


def withdrawal_record(
    *,
    entry: Entry,
    statement: str,
    received_at: dt.datetime,
    by: Any,
    now: dt.datetime | None = None,
) -> Withdrawal:
    """Records a team's written withdrawal, as received; the rule before or after the middle
    tour decides what happens to its results (applied in the standings) and who is banned."""
    now = now or timezone.now()
    statement = statement.strip()
    with transaction.atomic():
        entry = Entry.objects.select_for_update().select_related("event").get(pk=entry.pk)
        event = entry.event
        if not is_head_referee(by, event):
            raise Refused(_("Withdrawals are recorded by the head referee or an organizer."))
        if not statement:
            raise Refused(_("A team withdraws in writing: enter its statement."), field="statement")
        if received_at > now:
            raise Refused(_("A statement cannot be received in the future."), field="received_at")
        if Withdrawal.objects.filter(entry=entry).exists():
            raise Refused(_("This team has already withdrawn; there is no return."))
        if not entry.is_active:
            raise Refused(_("This entry is not taking part."))
        tour = next((s for s in event.rulebook.stages if s.format == "chgk-tour"), None)
        middle = middle_tour(event, tour.key) if tour else None
        middle_round = (
            Round.objects.filter(event=event, stage=tour.key, number=middle).first()
            if tour and middle
            else None
        )
        before = middle_round is None or received_at < middle_round.starts_at
        rule = _rule(event, WITHDRAWAL_BEFORE if before else WITHDRAWAL_AFTER)
        withdrawal = Withdrawal.objects.create(
            entry=entry, received_at=received_at, statement=statement, rule=rule.key,
            before_middle=before, middle=middle, recorded_by=by, recorded_at=now,
        )  # fmt: skip
        kinds = {e.kind for e in rule.effects}
        bans: list[Ban] = []
        if "team-disqualified" in kinds:
            sanction = Sanction.objects.create(
                event=event, key=rule.key, entry=entry, reason=_("Withdrew: %(text)s")
                % {"text": statement[:300]}, clause=rule.clause or "", recorded_by=by,
                recorded_at=now,
            )  # fmt: skip
            bans = _bans(event, sanction, rule, {"team-disqualified"}, by, now)
        audit(
            event=event, actor=by, action="entry.withdraw", target=entry, rule=rule.key,
            before_middle=before, middle=middle, bans=len(bans),
        )  # fmt: skip
    return withdrawal


def not_admitted_apply(
    *, event: Event, stage: str, round: int, by: Any, now: dt.datetime | None = None
) -> list[Sanction]:
    """Applies the unpaid-fee rule to the tour: each scored team that has not paid the fee
    that admits it is not admitted and counts as absent (ChGK п. 9)."""
    now = now or timezone.now()
    rule = next(
        (s for s in event.rulebook.sanctions if any(e.kind == NOT_ADMITTED for e in s.effects)),
        None,
    )
    if rule is None:
        raise Refused(_("This rulebook does not bar unpaid teams."))
    made = []
    with transaction.atomic():
        for unpaid in unpaid_for_tour(event, stage, round):
            if not_admitted(event, stage, round, unpaid.entry, now) is not None:
                continue
            made.append(
                sanction_impose(
                    event=event,
                    key=rule.key,
                    by=by,
                    entry=unpaid.entry,
                    stage=stage,
                    round=round,
                    effect=NOT_ADMITTED,
                    now=now,
                    reason=_("the fee “%(fee)s” is unpaid") % {"fee": unpaid.fee.title},
                )
            )
    return made


def admission_refusal(
    event: Event, stage: str, round: int, entry: Entry, now: dt.datetime
) -> Refused | None:
    """Why no result of the entry may be recorded in the round now (``None``: it may)."""
    withdrawal = Withdrawal.objects.filter(entry=entry, received_at__lte=now).first()
    if withdrawal is not None:
        return Refused(
            _("#%(number)d withdrew on %(day)s; there is no return.")
            % {"number": entry.number, "day": _day(event, withdrawal.received_at)},
            field="entry",
            clause=_rule(event, withdrawal.rule).clause,
        )
    barred = barred_by(event, entry, now)
    if barred is not None:
        return Refused(
            _("#%(number)d may not play on: %(reason)s.")
            % {"number": entry.number, "reason": barred.reason},
            field="entry",
            clause=barred.clause,
        )
    unpaid = not_admitted(event, stage, round, entry, now)
    if unpaid is not None:
        return Refused(
            _("#%(number)d was not admitted to this round: %(reason)s.")
            % {"number": entry.number, "reason": unpaid.reason},
            field="entry",
            clause=unpaid.clause,
        )
    return None


def ban_refusal(
    event: Event, person: Person | None, team_name: str | None, field: str
) -> Refused | None:
    """Why a person or team may not register in the event (``None``: they may)."""
    day = event.local_start.date()
    bans = [
        b
        for b in active_bans(day, person, team_name)
        # A ban is the championship's own (ChGK п. 18: "в чемпионате ДК"): it bars from events
        # under the same rulebook, not from every competition Podium runs.
        if b.event_id is None or b.event.rulebook_key == event.rulebook_key
    ]
    if not bans:
        return None
    ban = bans[0]
    who = str(ban.person) if ban.person_id else ban.team_name
    return Refused(
        _("%(who)s is barred until %(until)s: %(reason)s.")
        % {
            "who": who,
            "until": formats.date_format(ban.until, "DATE_FORMAT"),
            "reason": ban.reason,
        },
        field=field,
        clause=ban.clause,
    )
