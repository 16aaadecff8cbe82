"""Registration: entering a category, the waiting list, approval, cancellation and ChGK rosters.

Vocabulary:
- person data: what a form says about one member; it becomes a ``Person`` once and is reused
  (the signed-in user's own person, or an earlier person with the same name and birth date).
- cap: the category's ``cap``, else the registration's; only active entries (pending and
  confirmed) count against it. A squad (ČBA) has its own capacity on top.
- waiting list: entries that came when the category was full, at a visible position; the first
  is promoted automatically when a place frees.
- window: ``opens``–``closes`` as dates in the event's timezone; after ``closes`` only while there
  is room, where the rulebook allows late entries.
- roster: the members of a team; a ChGK roster only grows, up to ``roster_max``.

Every service locks the event row before it counts, so two registrations at once can never both
take the last place.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.engine import eligibility, money
from podium.engine.entries import Reason
from podium.engine.formats.games import assign_division
from podium.rules.schema.registration import Category, Fee
from podium.web.disputes.services.discipline import ban_refusal
from podium.web.kernel.audit import Actor, audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.people import find_person, other_team
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer, is_staff
from podium.web.kernel.text import limit as column_limit
from podium.web.kernel.text import text_problem
from podium.web.kernel.texts import reason_data, shown
from podium.web.models import (
    Cancellation,
    Entry,
    EntryMember,
    Event,
    Person,
    Squad,
)
from podium.web.models.money import APPEAL_FEE_PREFIX
from podium.web.registration import mail
from podium.web.registration.selectors.entries import category_cap, category_of, waiting_list

__all__ = [
    "PersonData",
    "entry_approve",
    "entry_cancel",
    "entry_promote",
    "entry_register",
    "roster_add_player",
    "settlement_preview",
    "waiting_list",
    "waiting_reorder",
]


@dataclass(frozen=True, slots=True)
class PersonData:
    first_name: str
    last_name: str
    birth_date: dt.date | None = None
    country: str = ""
    gender: str = ""
    ladder_average: Decimal | None = None
    email: str = ""

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


# --- helpers ---------------------------------------------------------------------------------


def _is_owner(user: Actor, entry: Entry) -> bool:
    return bool(user is not None and user.is_authenticated and entry.registered_by_id == user.pk)


def _event_day(event: Event) -> dt.date:
    return event.local_start.date()


def _active(event: Event, category: str) -> int:
    return Entry.objects.filter(event=event, category=category, status__in=Entry.ACTIVE).count()


def _has_room(event: Event, category: str) -> bool:
    cap = category_cap(event, category)
    return cap is None or _active(event, category) < cap


def _squad_has_room(squad: Squad) -> bool:
    taken = Entry.objects.filter(squad=squad, status__in=Entry.ACTIVE).count()
    return taken < squad.capacity


def _next_waiting_position(event: Event, category: str) -> int:
    last = Entry.objects.filter(
        event=event, category=category, status=Entry.Status.WAITING
    ).aggregate(m=Max("waiting_position"))["m"]
    return (last or 0) + 1


def _renumber_waiting(event: Event, category: str) -> None:
    for position, entry in enumerate(waiting_list(event, category), start=1):
        if entry.waiting_position != position:
            entry.waiting_position = position
            entry.save(update_fields=["waiting_position"])


def _find_person(data: PersonData, own: Person | None) -> Person | None:
    return find_person(data.first_name, data.last_name, data.birth_date, own=own)


def _save_person(data: PersonData, found: Person | None, user: Actor | None) -> Person:
    """Creates the person or fills in what was missing; data entered once is kept."""
    fields = {
        "first_name": data.first_name.strip(),
        "last_name": data.last_name.strip(),
        "birth_date": data.birth_date,
        "country": data.country.upper(),
        "gender": data.gender,
        "ladder_average": data.ladder_average,
        "email": data.email,
    }
    if found is None:
        return Person.objects.create(user=user, **fields)
    changed = []
    for name, value in fields.items():
        if value not in (None, "") and getattr(found, name) in (None, ""):
            setattr(found, name, value)
            changed.append(name)
    if changed:
        found.save(update_fields=changed)
    return found


def _member_field(index: int, name: str) -> str:
    return f"m{index}_{name}"


def _entry_name(category: Category, members: Sequence[PersonData], name: str | None) -> str:
    if name and name.strip():
        return name.strip()
    return " / ".join(m.full_name for m in members)


def _person_refusal(data: PersonData, index: int | None) -> Refused | None:
    """A member's name or e-mail that the database cannot hold or that no one should type
    (``podium.web.kernel.text``); ``index``: the member's slot in a registration form."""
    for name in ("first_name", "last_name", "email"):
        problem = text_problem(getattr(data, name).strip(), most=column_limit(Person, name))
        if problem is not None:
            field = name if index is None else _member_field(index, name)
            return Refused(problem, field=field)
    return None


def _text_refusal(
    category: Category, members: Sequence[PersonData], name: str | None, adult: str
) -> Refused | None:
    """The first text of a registration that cannot be saved as typed; a pair's name made of
    its members' names (``Jana Nová / Petr Malý``) must fit the entry's name too."""
    for index, data in enumerate(members):
        refused = _person_refusal(data, index)
        if refused is not None:
            return refused
    for field, text in (("name", name or ""), ("accompanying_adult", adult)):
        problem = text_problem(text.strip(), most=column_limit(Entry, field))
        if problem is not None:
            return Refused(problem, field=field)
    made, most = _entry_name(category, members, name), column_limit(Entry, "name")
    if len(made) > most:
        return Refused(
            _(
                "The entry's name, made of its members' names, would have %(length)d "
                "characters; at most %(most)d fit. Shorten the members' names."
            )
            % {"length": len(made), "most": most},
            field=_member_field(len(members) - 1, "last_name"),
        )
    return None


# --- register --------------------------------------------------------------------------------


def entry_register(
    *,
    event: Event,
    category: str,
    by: Actor,
    members: Sequence[PersonData],
    name: str | None = None,
    accompanying_adult: str = "",
    squad: Squad | None = None,
    scored: bool = True,
    waiting: bool = True,
    now: dt.datetime | None = None,
) -> Entry:
    """Registers an entry: confirmed, pending approval, or on the waiting list when full.

    ``waiting=False`` refuses a full category instead (saying a waiting list is there), so a
    form can offer the waiting list before putting anyone on it.
    """
    now = now or timezone.now()
    with transaction.atomic():
        event = locked_event(event.pk)
        rulebook = event.rulebook
        rules = rulebook.registration
        cat = category_of(event, category)
        if cat is None:
            raise Refused(_("This event has no category “%s”.") % category, field="category")
        if event.status != Event.Status.OPEN:
            raise Refused(_("Registration for this event is not open."), clause=rules.clause)
        kind = cat.entrants

        # The window, in the event's own timezone.
        today = now.astimezone(event.zone).date()
        late = False
        if rules.opens and today < rules.opens:
            raise Refused(
                _("Registration opens on %(date)s.") % {"date": rules.opens.isoformat()},
                clause=rules.clause,
            )
        if rules.closes and today > rules.closes:
            if rules.late_entries != "while-room":
                raise Refused(
                    _("Registration closed on %(date)s.") % {"date": rules.closes.isoformat()},
                    clause=rules.clause,
                )
            late = True

        # Who enters, and how many.
        if not scored and rulebook.classification.unscored is None:
            raise Refused(_("This event has no teams outside the competition."), field="scored")
        size = len(members)
        if scored:
            if kind.roster_max is not None and size > kind.roster_max:
                raise Refused(
                    _("A roster has at most %(n)d players; this one has %(size)d.")
                    % {"n": kind.roster_max, "size": size},
                    field="members",
                    clause=kind.clause,
                )
            if not kind.min_size <= size <= kind.max_size:
                if kind.min_size == kind.max_size:
                    text = _("An entry here has exactly %(n)d members; this one has %(size)d.") % {
                        "n": kind.min_size,
                        "size": size,
                    }
                else:
                    text = _(
                        "A team size outside %(low)d–%(high)d is not allowed; this one has "
                        "%(size)d."
                    ) % {"low": kind.min_size, "high": kind.max_size, "size": size}
                raise Refused(text, field="members", clause=kind.clause or cat.clause)
        elif size < 1:
            raise Refused(_("A team needs at least one player."), field="members")
        if kind.kind == "team" and not (name or "").strip():
            raise Refused(_("Give the team a name."), field="name")
        refused = _text_refusal(cat, members, name, accompanying_adult)
        if refused is not None:
            raise refused
        if kind.kind == "team":
            banned = ban_refusal(event, None, name, "name")
            if banned is not None:
                raise banned

        own = Person.objects.filter(user=by).first() if by and by.is_authenticated else None
        # The registrant's own person is created once, from the first member they enter,
        # unless they register others (an organizer taking entries by phone).
        link_user = own is None and by is not None and by.is_authenticated
        link_user = link_user and not is_organizer(by, event)

        found: list[Person | None] = []
        seen: set[tuple[str, str, dt.date | None]] = set()
        event_day = _event_day(event)
        needs_adult: list[str] = []
        for i, data in enumerate(members):
            if not data.first_name.strip() or not data.last_name.strip():
                raise Refused(
                    _("Enter the first and last name."), field=_member_field(i, "last_name")
                )
            key = (data.first_name.casefold(), data.last_name.casefold(), data.birth_date)
            if key in seen:
                raise Refused(
                    _("%(name)s is entered twice.") % {"name": data.full_name},
                    field=_member_field(i, "last_name"),
                )
            seen.add(key)
            verdict = eligibility.check(
                rules.eligibility,
                birth_date=data.birth_date,
                event_date=event_day,
                accompanied=bool(accompanying_adult.strip()),
            )
            if "birth_date" in verdict.unknown:
                raise Refused(
                    _("Enter the birth date of %(name)s: the rules depend on it.")
                    % {"name": data.full_name},
                    field=_member_field(i, "birth_date"),
                )
            if verdict.needs_adult:
                needs_adult.append(data.full_name)
            if not verdict.eligible:
                failure = verdict.failures[0]
                field = "accompanying_adult" if verdict.needs_adult else "birth_date"
                raise Refused(
                    _("%(name)s may not enter: %(reason)s.")
                    % {"name": data.full_name, "reason": shown(failure)},
                    field=field if field == "accompanying_adult" else _member_field(i, field),
                    clause=failure.clause,
                )
            person = _find_person(data, own)
            found.append(person)
            banned = ban_refusal(event, person, None, _member_field(i, "last_name"))
            if banned is not None:
                raise banned
            if person is not None:
                if (
                    Entry.objects.filter(event=event, category=category, members__person=person)
                    .exclude(status=Entry.Status.CANCELLED)
                    .exists()
                ):
                    raise Refused(
                        _("%(name)s is already registered in this category.")
                        % {"name": data.full_name},
                        field=_member_field(i, "last_name"),
                    )
                if scored and kind.one_team_per_person:
                    other = other_team(event, person, scored_only=True)
                    if other is not None:
                        raise Refused(
                            _("%(name)s already plays for %(team)s; a player plays for one team.")
                            % {"name": data.full_name, "team": other.name},
                            field=_member_field(i, "last_name"),
                            clause=kind.clause,
                        )

        # ČBA: the division from gender and ladder average, with its reason.
        division, why = "", division_fields(None)
        if rulebook.divisions is not None and kind.kind == "individual":
            data = members[0]
            if data.gender not in ("M", "F"):
                raise Refused(
                    _("Choose man or woman: the divisions depend on it."),
                    field=_member_field(0, "gender"),
                    clause=rulebook.divisions.clause,
                )
            chosen, reason = assign_division(rulebook.divisions, data.gender, data.ladder_average)
            division, why = chosen.key, division_fields(reason)

        # Squads with their own capacity.
        squads = Squad.objects.filter(event=event)
        if squad is not None and squad.event_id != event.pk:
            raise Refused(_("Choose one of this event's squads."), field="squad")
        if squad is None and squads.exists():
            raise Refused(_("Choose a squad."), field="squad")
        if squad is not None and not _squad_has_room(squad):
            raise Refused(
                _("Squad %(squad)s is full; choose another squad.") % {"squad": squad.name},
                field="squad",
                clause=rules.clause,
            )

        # The cap.
        cap = category_cap(event, category)
        full = cap is not None and _active(event, category) >= cap
        if full and late:
            raise Refused(
                _("Registration closed on %(date)s and the category is full.")
                % {"date": (rules.closes or today).isoformat()},
                clause=rules.clause,
            )
        if full and not rules.waiting_list:
            raise Refused(
                ngettext(
                    "The category is full (%(cap)d place).",
                    "The category is full (%(cap)d places).",
                    cap,
                )
                % {"cap": cap},
                field="waiting",
                clause=cat.clause,
            )
        position = _next_waiting_position(event, category) if full else None
        if full and not waiting:
            raise Refused(
                ngettext(
                    "The category is full (%(cap)d place). You may join the waiting list: "
                    "you would be number %(position)d.",
                    "The category is full (%(cap)d places). You may join the waiting list: "
                    "you would be number %(position)d.",
                    cap,
                )
                % {"cap": cap, "position": position},
                field="waiting",
                clause=cat.clause,
            )
        # Every rule passed: write.
        if full:
            status = Entry.Status.WAITING
        elif rules.approval_required:
            status = Entry.Status.PENDING
        else:
            status = Entry.Status.CONFIRMED
        number = (Entry.objects.filter(event=event).aggregate(m=Max("number"))["m"] or 0) + 1
        entry = Entry.objects.create(
            event=event,
            category=category,
            name=_entry_name(cat, members, name),
            number=number,
            status=status,
            waiting_position=position,
            division=division,
            **why,
            squad=squad,
            scored=scored,
            accompanying_adult=accompanying_adult.strip() if needs_adult else "",
            registered_by=by if by is not None and by.is_authenticated else None,
        )
        for i, (data, person) in enumerate(zip(members, found, strict=True)):
            user = by if link_user and i == 0 and person is None else None
            person = _save_person(data, person, user)
            EntryMember.objects.create(entry=entry, person=person, captain=i == 0)
        audit(
            event=event,
            actor=by,
            action="entry.register",
            target=entry,
            category=category,
            status=status,
            waiting_position=position,
            division=division,
            members=[m.full_name for m in members],
        )
        mail.registered(entry)
        return entry


def division_fields(reason: Reason | None) -> dict[str, Any]:
    """An entry's division reason as it keeps it: the English text with the clause on a line of
    its own, and the reason's data to show it in any language (none without a division)."""
    if reason is None:
        return {"division_reason": "", "division_message": None}
    text = reason.text + (f"\n{reason.clause}" if reason.clause else "")
    return {"division_reason": text, "division_message": reason_data(reason)}


# --- waiting list ----------------------------------------------------------------------------


def _promote(
    entry: Entry,
    *,
    by: Actor,
    reason: str,
    action: str,
    now: dt.datetime | None = None,
    told: Callable[[], str] | None = None,
) -> Entry:
    """``told``: the reason as the e-mail says it, made in the recipient's language (default:
    the reason as given, typed by staff)."""
    rules = entry.event.rulebook.registration
    old_position = entry.waiting_position
    entry.status = Entry.Status.PENDING if rules.approval_required else Entry.Status.CONFIRMED
    entry.waiting_position = None
    entry.save(update_fields=["status", "waiting_position"])
    _renumber_waiting(entry.event, entry.category)
    audit(
        event=entry.event,
        actor=by,
        action=action,
        target=entry,
        status=entry.status,
        was_position=old_position,
        reason=reason,
    )
    free_until = _free_until(entry, now or timezone.now())
    mail.promoted(
        entry, reason=told or (lambda: reason), free_until=free_until, starts=_start_of(entry)
    )
    return entry


def _free_until(entry: Entry, now: dt.datetime) -> dt.date | None:
    """The last day a cancellation of ``entry`` is refunded in full, if one is left; ``None``
    also when the rulebook has no terms (then it is free until the start)."""
    rule = entry.event.rulebook.cancellation
    if rule is None:
        return None
    free = [t.days_before for t in rule.tiers if t.refund == 1 and t.owed == 0]
    if not free:
        return None
    zone = entry.event.zone
    day = _start_of(entry).astimezone(zone).date() - dt.timedelta(days=min(free))
    return day if day >= now.astimezone(zone).date() else None


def entry_promote(*, entry: Entry, by: Actor, reason: str) -> Entry:
    """Moves a waiting entry to a place (confirmed, or pending where approval is required).

    The organizer or a referee of the event decides; the cap is not checked, because the desk
    gives a no-show's seat to the waiting list while the absent entry still holds it.
    """
    with transaction.atomic():
        event = locked_event(entry.event_id)
        entry = Entry.objects.select_related("event").get(pk=entry.pk)
        entry.event = event
        if not is_staff(by, event):
            raise Refused(_("Only the event's organizers and referees may promote an entry."))
        if entry.status != Entry.Status.WAITING:
            raise Refused(_("Only an entry on the waiting list can be promoted."))
        if not reason.strip():
            raise Refused(_("Give the reason for the promotion."), field="reason")
        return _promote(entry, by=by, reason=reason.strip(), action="entry.promote")


def waiting_reorder(*, entry: Entry, position: int, by: Actor, reason: str) -> Entry:
    """Moves a waiting entry to another position; the organizer must say why."""
    with transaction.atomic():
        event = locked_event(entry.event_id)
        entry = Entry.objects.get(pk=entry.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only the event's organizers may reorder the waiting list."))
        if entry.status != Entry.Status.WAITING:
            raise Refused(_("This entry is not on the waiting list."))
        if not reason.strip():
            raise Refused(_("A reason is required to reorder the waiting list."), field="reason")
        line = waiting_list(event, entry.category)
        if not 1 <= position <= len(line):
            raise Refused(
                _("Choose a position from 1 to %(n)d.") % {"n": len(line)}, field="position"
            )
        was = entry.waiting_position
        line = [e for e in line if e.pk != entry.pk]
        line.insert(position - 1, entry)
        for i, item in enumerate(line, start=1):
            if item.waiting_position != i or item.pk == entry.pk:
                Entry.objects.filter(pk=item.pk).update(waiting_position=i)
        entry.refresh_from_db()
        audit(
            event=event,
            actor=by,
            action="waiting.reorder",
            target=entry,
            was_position=was,
            position=position,
            reason=reason.strip(),
        )
        return entry


# --- approval --------------------------------------------------------------------------------


def entry_approve(*, entry: Entry, by: Actor) -> Entry:
    """Confirms a pending entry; where approval assigns the table, the lowest free one."""
    with transaction.atomic():
        event = locked_event(entry.event_id)
        entry = Entry.objects.get(pk=entry.pk)
        rules = event.rulebook.registration
        if not is_organizer(by, event):
            raise Refused(_("Only the event's organizers may approve entries."))
        if entry.status != Entry.Status.PENDING:
            raise Refused(_("Only an entry awaiting approval can be approved."))
        table = None
        if rules.approval_assigns_table:
            taken = set(
                Entry.objects.filter(
                    event=event, category=entry.category, table_number__isnull=False
                ).values_list("table_number", flat=True)
            )
            table = next(n for n in range(1, len(taken) + 2) if n not in taken)
            entry.table_number = table
        entry.status = Entry.Status.CONFIRMED
        entry.save(update_fields=["status", "table_number"])
        audit(
            event=event,
            actor=by,
            action="entry.approve",
            target=entry,
            table_number=table,
            clause=rules.clause,
        )
        mail.approved(entry)
        return entry


# --- cancellation ----------------------------------------------------------------------------


def _fee_for(entry: Entry) -> Fee | None:
    fees = entry.event.rulebook.fees
    if not entry.scored:
        unscored = [f for f in fees if f.per == "player"]
        return unscored[0] if unscored else None
    scored = [f for f in fees if not (f.per == "player" and "unscored" in f.key)]
    return scored[0] if scored else None


def _start_of(entry: Entry) -> dt.datetime:
    rule = entry.event.rulebook.cancellation
    if rule is not None and rule.reference == "squad" and entry.squad is not None:
        return entry.squad.starts_at
    return entry.event.starts_at


@dataclass(frozen=True, slots=True)
class Terms:
    """What a cancellation would settle: refund and owed amounts, the reason and clause."""

    refund: Decimal
    owed: Decimal
    currency: str
    reason: str
    clause: str


def settlement_preview(*, entry: Entry, now: dt.datetime | None = None) -> Terms:
    """The terms of cancelling this entry at ``now``, per the rulebook; nothing is written."""
    now = now or timezone.now()
    event = entry.event
    fee_rule = _fee_for(entry)
    own = entry.payments.exclude(fee_key__startswith=APPEAL_FEE_PREFIX)
    paid_total = own.aggregate(s=Sum("amount"))["s"] or Decimal(0)
    currency = fee_rule.price.currency if fee_rule else ""
    if fee_rule is None:
        paid_total = Decimal(0)
    start = _start_of(entry)
    zone = event.zone
    cancelled_on, starts_on = now.astimezone(zone).date(), start.astimezone(zone).date()
    if cancelled_on > starts_on or now >= start:
        raise Refused(
            _("The competition has started; a cancellation now is a no-show."),
        )
    if entry.status == Entry.Status.WAITING:
        # A waiting entry never had a place: whatever was paid goes back.
        return Terms(paid_total, Decimal(0), currency, _("Leaves the waiting list."), "")
    rule = event.rulebook.cancellation
    if rule is None:
        return Terms(paid_total, Decimal(0), currency, _("No cancellation terms apply."), "")
    members = entry.members.count() or 1
    # ``XXX`` is ISO 4217's "no currency": the terms still say what share is refunded or owed.
    fee = (
        money.fee_amount(fee_rule, players=members) if fee_rule else money.money(Decimal(0), "XXX")
    )
    paid = money.money(paid_total, fee.currency)
    settled = money.cancellation(
        rule, fee=fee, paid=paid, cancelled_on=cancelled_on, starts_on=starts_on
    )
    return Terms(
        settled.refund.amount,
        settled.owed.amount,
        currency,
        shown(settled.reason),
        settled.reason.clause or rule.clause or "",
    )


def entry_cancel(*, entry: Entry, by: Actor, now: dt.datetime | None = None) -> Cancellation:
    """Cancels an entry with its terms, frees its place and promotes the first waiting entry."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locked_event(entry.event_id)
        entry = Entry.objects.select_related("squad").get(pk=entry.pk)
        entry.event = event
        if not (_is_owner(by, entry) or is_organizer(by, event)):
            raise Refused(_("Only the entry's registrant or an organizer may cancel it."))
        if entry.status == Entry.Status.CANCELLED:
            raise Refused(_("This entry is already cancelled."))
        terms = settlement_preview(entry=entry, now=now)
        as_was = copy.copy(entry)  # the terms again in each recipient's language
        had_place = entry.is_active
        was_waiting = entry.status == Entry.Status.WAITING
        entry.status = Entry.Status.CANCELLED
        entry.waiting_position = None
        entry.table_number = None
        entry.save(update_fields=["status", "waiting_position", "table_number"])
        cancellation = Cancellation.objects.create(
            entry=entry,
            cancelled_at=now,
            cancelled_by=by if by is not None and by.is_authenticated else None,
            refund=terms.refund,
            owed=terms.owed,
            currency=terms.currency,
            reason=terms.reason,
            clause=terms.clause,
        )
        audit(
            event=event,
            actor=by,
            action="entry.cancel",
            target=entry,
            refund=terms.refund,
            owed=terms.owed,
            currency=terms.currency,
            reason=terms.reason,
            clause=terms.clause,
        )
        mail.cancelled(
            entry, cancellation, reason=lambda: settlement_preview(entry=as_was, now=now).reason
        )
        if was_waiting:
            _renumber_waiting(event, entry.category)
        if had_place:
            _promote_first(event, entry, by=by, now=now)
        return cancellation


def _promote_first(event: Event, freed: Entry, *, by: Actor, now: dt.datetime) -> Entry | None:
    if not _has_room(event, freed.category):
        return None
    for candidate in waiting_list(event, freed.category):
        if candidate.squad is not None and not _squad_has_room(candidate.squad):
            continue
        candidate.event = event

        def reason() -> str:  # in the audit's language, and again in each recipient's
            return _(
                "A place freed when #%(number)d %(name)s cancelled; first on the waiting list."
            ) % {"number": freed.number, "name": freed.name}

        return _promote(
            candidate, by=by, reason=reason(), action="entry.promote.automatic", now=now,
            told=reason,
        )  # fmt: skip
    return None


# --- rosters ---------------------------------------------------------------------------------


def roster_add_player(*, entry: Entry, person: PersonData, by: Actor) -> EntryMember:
    """Adds a player to a team's roster where the rulebook allows it at any time (ChGK)."""
    with transaction.atomic():
        event = locked_event(entry.event_id)
        entry = Entry.objects.get(pk=entry.pk)
        kind = category_of(event, entry.category)
        if kind is None:  # pragma: no cover - an entry's category comes from its rulebook
            raise Refused(_("Unknown category."))
        entrants = kind.entrants
        if not (_is_owner(by, entry) or is_organizer(by, event)):
            raise Refused(_("Only the team's registrant or an organizer may add players."))
        if entry.status == Entry.Status.CANCELLED:
            raise Refused(_("This entry is cancelled."))
        if not entrants.players_added_any_time:
            raise Refused(_("Players cannot be added to an entry here."), clause=entrants.clause)
        if not person.first_name.strip() or not person.last_name.strip():
            raise Refused(_("Enter the first and last name."), field="last_name")
        size = entry.members.count()
        limit = entrants.roster_max or entrants.max_size
        if entry.scored and size + 1 > limit:
            raise Refused(
                _("A roster has at most %(n)d players; this one is full.") % {"n": limit},
                field="last_name",
                clause=entrants.clause,
            )
        verdict = eligibility.check(
            event.rulebook.registration.eligibility,
            birth_date=person.birth_date,
            event_date=_event_day(event),
            accompanied=bool(entry.accompanying_adult),
        )
        if not verdict.eligible:
            failure = verdict.failures[0]
            raise Refused(
                _("%(name)s may not enter: %(reason)s.")
                % {"name": person.full_name, "reason": shown(failure)},
                field="birth_date",
                clause=failure.clause,
            )
        refused = _person_refusal(person, None)
        if refused is not None:
            raise refused
        found = _find_person(person, None)
        banned = ban_refusal(event, found, None, "last_name")
        if banned is not None:
            raise banned
        if found is not None:
            if entry.members.filter(person=found).exists():
                raise Refused(
                    _("%(name)s is already on this roster.") % {"name": person.full_name},
                    field="last_name",
                )
            if entry.scored and entrants.one_team_per_person:
                other = other_team(event, found, besides=entry, scored_only=True)
                if other is not None:
                    raise Refused(
                        _("%(name)s already plays for %(team)s; a player plays for one team.")
                        % {"name": person.full_name, "team": other.name},
                        field="last_name",
                        clause=entrants.clause,
                    )
        saved = _save_person(person, found, None)
        member = EntryMember.objects.create(entry=entry, person=saved)
        audit(
            event=event,
            actor=by,
            action="roster.add",
            target=entry,
            player=person.full_name,
            roster_size=size + 1,
        )
        return member
