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
- not playing: an entry that may have no result in a round at a moment — it withdrew, it is
  barred (an expulsion or a team's disqualification in force) or it was not admitted to that
  round (an unpaid fee); the same three refusals as ``services.discipline.admission_refusal``,
  read for a whole entry list at once so a sheet can show them as such.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q
from django.utils import formats
from django.utils.translation import gettext as _

from podium.rules.schema.registration import Fee
from podium.web.disputes.selectors.rulings import effects_of, middle_tour
from podium.web.kernel.text import name_key
from podium.web.models import Ban, Entry, EntryMember, Event, Person, Round, Sanction, Withdrawal


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
        key = name_key(team_name)
        bans += [b for b in standing.exclude(team_name="") if name_key(b.team_name) == key]
    return bans


def withdrawal_of(entry: Entry) -> Withdrawal | None:
    return Withdrawal.objects.filter(entry=entry).first()


def sanctions_of(event: Event, entry: Entry | None = None) -> list[Sanction]:
    sanctions = Sanction.objects.filter(event=event).select_related("entry", "person")
    if entry is not None:
        people = entry.members.values("person")
        sanctions = sanctions.filter(Q(entry=entry) | Q(person__in=people))
    return list(sanctions.order_by("recorded_at", "id"))


def sanctions_by_entry(event: Event, entries: Iterable[Entry]) -> dict[int, list[Sanction]]:
    """Entry id → ``sanctions_of(event, entry)``, for all of ``entries`` in two reads."""
    people: dict[int, set[int]] = defaultdict(set)
    members = EntryMember.objects.filter(entry__event=event).values_list("entry_id", "person_id")
    for entry_id, person_id in members:
        people[entry_id].add(person_id)
    every = sanctions_of(event)
    return {
        e.pk: [s for s in every if s.entry_id == e.pk or s.person_id in people[e.pk]]
        for e in entries
    }


def in_force(sanction: Sanction, at: dt.datetime) -> bool:
    return sanction.recorded_at <= at and (sanction.lifted_at is None or sanction.lifted_at > at)


def barred_by(
    event: Event, entry: Entry, at: dt.datetime, sanctions: list[Sanction] | None = None
) -> Sanction | None:
    """The sanction in force that bars the entry (or one of its players) from playing on:
    an expulsion or a team's disqualification (``sanctions``: the entry's, if already read)."""
    for sanction in sanctions_of(event, entry) if sanctions is None else sanctions:
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
    return _fee_at(fees, middle_tour(event, tour_stage), round)


def _fee_at(fees: list[Fee], middle: int | None, round: int) -> Fee:
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
    tour = Round.objects.filter(event=event, stage=tour_stage, number=round).first()
    starts = tour.starts_at if tour is not None else None
    return _unpaid(event, tour_stage, {round: starts})[round][1]


def unpaid_by_tour(
    event: Event, tour_stage: str, tours: Iterable[Round]
) -> dict[int, tuple[Fee | None, list[Unpaid]]]:
    """Tour number → the fee that admits to it and ``unpaid_for_tour``, for every tour of
    ``tours`` in a few reads."""
    return _unpaid(event, tour_stage, {t.number: t.starts_at for t in tours})


def _unpaid(
    event: Event, tour_stage: str, starts: dict[int, dt.datetime | None]
) -> dict[int, tuple[Fee | None, list[Unpaid]]]:
    """The fee and the unpaid teams of each tour (round → its start, ``None``: a round off
    the calendar, where no withdrawal counts)."""
    fees = admission_fees(event)
    if not fees:
        return {round: (None, []) for round in starts}
    middle = middle_tour(event, tour_stage)
    stage = event.rulebook.stage(tour_stage)
    entries = event.entries.filter(status=Entry.Status.CONFIRMED, scored=True)
    if stage.category:
        entries = entries.filter(category=stage.category)
    teams = list(entries.select_related("withdrawal").order_by("number"))
    payments = event.entries.filter(payments__fee_key__in=[f.key for f in fees])
    paid = set(payments.values_list("pk", "payments__fee_key"))
    made = {}
    for round, start in starts.items():
        fee = _fee_at(fees, middle, round)
        left = [
            Unpaid(e, fee)
            for e in teams
            if (e.pk, fee.key) not in paid and not _withdrew_by(e, start)
        ]
        made[round] = (fee, left)
    return made


def _withdrew_by(entry: Entry, moment: dt.datetime | None) -> bool:
    withdrawal = getattr(entry, "withdrawal", None)  # read with the entry, or none
    return moment is not None and withdrawal is not None and withdrawal.received_at <= moment


def not_playing(
    event: Event, stage: str, round: int, entries: Iterable[Entry], at: dt.datetime
) -> dict[int, str]:
    """Entry id → why it may have no result in the round at ``at`` (see the vocabulary), for
    every one of ``entries`` that may not, in three reads whatever their number."""
    entries = list(entries)
    withdrawn = {
        w.entry_id: w for w in Withdrawal.objects.filter(entry__event=event, received_at__lte=at)
    }
    sanctions = sanctions_by_entry(event, entries)
    why: dict[int, str] = {}
    for entry in entries:
        if entry.pk in withdrawn:
            day = withdrawn[entry.pk].received_at.astimezone(event.zone).date()
            why[entry.pk] = _("withdrew on %(day)s") % {
                "day": formats.date_format(day, "DATE_FORMAT")
            }
            continue
        barred = barred_by(event, entry, at, sanctions[entry.pk])
        if barred is not None:
            why[entry.pk] = _("may not play on: %(reason)s") % {"reason": barred.reason}
            continue
        unpaid = next(
            (
                s
                for s in sanctions[entry.pk]
                if s.entry_id == entry.pk and (s.stage, s.round) == (stage, round)
                and in_force(s, at) and "not-admitted" in effects_of(event.rulebook, s)
            ),
            None,
        )  # fmt: skip
        if unpaid is not None:
            why[entry.pk] = _("not admitted to this round: %(reason)s") % {"reason": unpaid.reason}
    return why
