"""Reads of sanctions, bans and withdrawals, and who may not play.

Vocabulary:
- sanction, ban, withdrawal: see ``podium.web.models.discipline``.
- season end: the last day of the season the event opens. The rulebook gives its season as
  months (``2010-11`` to ``2011-06``): an event's season runs as many months from the event's
  own start (Nov–Jun: to the end of the 8th month). Without a season, the event's last day (its
  start, or the last round on the calendar). "The end of the next season" is a year later.
- active ban: one whose ``until`` is on or after the day in question (an event's first day),
  unless its sanction was lifted.
- team ban: matched by the team's name, compared without case and spacing, since a team that
  returns in a later season is a new entry.
- unpaid: a scored team that has not paid a fee the rulebook makes a condition of admission
  (``unpaid: not-admitted``) for a tour; such fees apply in the order listed, the first from
  the first tour, the next from the middle tour (ChGK п. 9: before the first tour and before
  the tour that opens the second half).
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass

from django.db.models import Q

from podium.rules.schema import Fee
from podium.web.models import Ban, Entry, Event, Person, Round, Sanction, Withdrawal
from podium.web.selectors.rulings import effects_of, middle_tour


def _month(text: str) -> tuple[int, int]:
    year, month = text.split("-")[:2]
    return int(year), int(month)


def _end_of_month(year: int, month: int) -> dt.date:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def season_end(event: Event, seasons_later: int = 0) -> dt.date:
    """The last day of the event's season, or of a season ``seasons_later`` after it."""
    start = event.local_start.date()
    season = event.rulebook.season
    if season is None:
        last = Round.objects.filter(event=event).order_by("-starts_at").first()
        day = last.starts_at.astimezone(event.zone).date() if last else start
        return day.replace(year=day.year + seasons_later)
    (y0, m0), (y1, m1) = _month(season.starts), _month(season.ends)
    months = (y1 - y0) * 12 + (m1 - m0)
    return _end_of_month(start.year + seasons_later, start.month + months)


def ban_until(event: Event, until: str | None) -> dt.date:
    """The last day of a ban the rulebook words as ``until`` ("the end of the next season")."""
    later = 1 if until and "next" in until.casefold() else 0
    return season_end(event, later)


def _team_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def active_bans(
    day: dt.date, person: Person | None = None, team_name: str | None = None
) -> list[Ban]:
    """The bans in force on ``day`` of the person or of the team name."""
    where = Q(pk__in=[])
    if person is not None and person.pk:
        where |= Q(person=person)
    # A lifted sanction's bans end: ``until`` keeps the day they ended, but an event that
    # started before it must not keep refusing the person for the rest of its run.
    standing = Ban.objects.filter(until__gte=day).exclude(sanction__lifted_at__isnull=False)
    bans = list(standing.filter(where).select_related("event"))
    if team_name:
        key = _team_key(team_name)
        bans += [b for b in standing.exclude(team_name="") if _team_key(b.team_name) == key]
    return bans


def withdrawal_of(entry: Entry) -> Withdrawal | None:
    return Withdrawal.objects.filter(entry=entry).first()


def sanctions_of(event: Event, entry: Entry | None = None) -> list[Sanction]:
    sanctions = Sanction.objects.filter(event=event).select_related("entry", "person")
    if entry is not None:
        people = entry.members.values("person")
        sanctions = sanctions.filter(Q(entry=entry) | Q(person__in=people))
    return list(sanctions.order_by("recorded_at", "id"))


def in_force(sanction: Sanction, at: dt.datetime) -> bool:
    return sanction.recorded_at <= at and (sanction.lifted_at is None or sanction.lifted_at > at)


def barred_by(event: Event, entry: Entry, at: dt.datetime) -> Sanction | None:
    """The sanction in force that bars the entry (or one of its players) from playing on:
    an expulsion or a team's disqualification."""
    for sanction in sanctions_of(event, entry):
        effects = effects_of(event.rulebook, sanction)
        if in_force(sanction, at) and ("expulsion" in effects or "team-disqualified" in effects):
            return sanction
    return None


def not_admitted(
    event: Event, stage: str, round: int, entry: Entry, at: dt.datetime
) -> Sanction | None:
    for sanction in Sanction.objects.filter(event=event, entry=entry, stage=stage, round=round):
        if in_force(sanction, at) and "not-admitted" in effects_of(event.rulebook, sanction):
            return sanction
    return None


def admission_fees(event: Event) -> list[Fee]:
    return [f for f in event.rulebook.fees if f.unpaid == "not-admitted"]


def fee_for_tour(event: Event, tour_stage: str, round: int) -> Fee | None:
    """The fee that admits a team to tour ``round`` (see the vocabulary)."""
    fees = admission_fees(event)
    if not fees:
        return None
    middle = middle_tour(event, tour_stage)
    if len(fees) > 1 and middle is not None and round >= middle:
        return fees[1]
    return fees[0]


@dataclass(frozen=True)
class Unpaid:
    entry: Entry
    fee: Fee


def unpaid_for_tour(event: Event, tour_stage: str, round: int) -> list[Unpaid]:
    """The scored, confirmed teams without the fee that admits them to the tour (a team that
    withdrew before the tour owes nothing for it)."""
    fee = fee_for_tour(event, tour_stage, round)
    if fee is None:
        return []
    stage = event.rulebook.stage(tour_stage)
    entries = event.entries.filter(status=Entry.Status.CONFIRMED, scored=True)
    if stage.category:
        entries = entries.filter(category=stage.category)
    tour = Round.objects.filter(event=event, stage=tour_stage, number=round).first()
    if tour is not None:
        entries = entries.exclude(withdrawal__received_at__lte=tour.starts_at)
    paid = set(event.entries.filter(payments__fee_key=fee.key).values_list("pk", flat=True))
    return [Unpaid(e, fee) for e in entries.order_by("number") if e.pk not in paid]
