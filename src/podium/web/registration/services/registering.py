"""Registering: an entry enters a category — confirmed, pending approval, or on the waiting list.

Vocabulary:
- cap: the category's ``cap``, else the registration's; only active entries (pending and
  confirmed) count against it. A squad (ČBA) has its own capacity on top.
- window: ``opens``–``closes`` as dates in the event's timezone; after ``closes`` only while there
  is room, where the rulebook allows late entries.
- division (ČBA): assigned to an individual from gender and ladder average, with its reason.
- person data, member field: see ``members``.

The service locks the event row before it counts, so two registrations at once can never both
take the last place. Every rule is checked, in the order of the steps below, before anything is
written.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.engine.entries import Reason
from podium.engine.formats.games import assign_division
from podium.rules.schema.registration import Category
from podium.web.kernel.audit import Actor, audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.text import limit as column_limit
from podium.web.kernel.texts import reason_data
from podium.web.models import Entry, EntryMember, Event, Person, Squad
from podium.web.registration import mail
from podium.web.registration.selectors.entries import (
    active_count,
    category_cap,
    category_of,
    squad_places_left,
)
from podium.web.registration.services.members import (
    PersonData,
    check_not_banned,
    check_one_team,
    find_member,
    ineligible,
    member_field,
    member_verdict,
    person_refusal,
    save_person,
    typed_problem,
)
from podium.web.registration.services.places import next_waiting_position


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
    adult = accompanying_adult
    with transaction.atomic():
        event = locked_event(event.pk)
        cat = _open_category(event, category)
        today = now.astimezone(event.zone).date()
        late = _check_window(event, today)
        _check_entrants(event, cat, members, name=name, adult=adult, scored=scored)
        own = Person.objects.filter(user=by).first() if by and by.is_authenticated else None
        found, needs_adult = _check_members(event, cat, members, own, adult=adult, scored=scored)
        division, why = _division(event, cat, members)
        _check_squad(event, squad)
        status, position = _place(event, cat, late=late, today=today, waiting=waiting)
        # Every rule passed: write.
        entry = Entry.objects.create(
            event=event,
            category=category,
            name=_entry_name(cat, members, name),
            number=(Entry.objects.filter(event=event).aggregate(m=Max("number"))["m"] or 0) + 1,
            status=status,
            waiting_position=position,
            division=division,
            **why,
            squad=squad,
            scored=scored,
            accompanying_adult=adult.strip() if needs_adult else "",
            registered_by=by if by is not None and by.is_authenticated else None,
        )
        _save_members(entry, members, found, user=_linked_user(event, by, own))
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


# --- the category and the window -------------------------------------------------------------


def _open_category(event: Event, category: str) -> Category:
    """The category entered, of an event open for registration."""
    cat = category_of(event, category)
    if cat is None:
        raise Refused(_("This event has no category “%s”.") % category, field="category")
    if event.status != Event.Status.OPEN:
        raise Refused(
            _("Registration for this event is not open."), clause=event.rulebook.registration.clause
        )
    return cat


def _check_window(event: Event, today: dt.date) -> bool:
    """The window, ``today`` in the event's own timezone; ``True``: a late entry (while room)."""
    rules = event.rulebook.registration
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
        return True
    return False


# --- who enters, and how many ----------------------------------------------------------------


def _check_entrants(
    event: Event,
    cat: Category,
    members: Sequence[PersonData],
    *,
    name: str | None,
    adult: str,
    scored: bool,
) -> None:
    """The entry as a whole: in the competition or not, its size, a team's name (not banned),
    and every text as typed."""
    kind = cat.entrants
    if not scored and event.rulebook.classification.unscored is None:
        raise Refused(_("This event has no teams outside the competition."), field="scored")
    if scored:
        _check_size(cat, len(members))
    elif not members:
        raise Refused(_("A team needs at least one player."), field="members")
    if kind.kind == "team" and not (name or "").strip():
        raise Refused(_("Give the team a name."), field="name")
    refused = _text_refusal(cat, members, name, adult)
    if refused is not None:
        raise refused
    if kind.kind == "team":
        check_not_banned(event, team_name=name, field="name")


def _check_size(cat: Category, size: int) -> None:
    """A scored entry's size: within the roster's limit and the category's team size."""
    kind = cat.entrants
    if kind.roster_max is not None and size > kind.roster_max:
        raise Refused(
            _("A roster has at most %(n)d players; this one has %(size)d.")
            % {"n": kind.roster_max, "size": size},
            field="members",
            clause=kind.clause,
        )
    if kind.min_size <= size <= kind.max_size:
        return
    if kind.min_size == kind.max_size:
        text = _("An entry here has exactly %(n)d members; this one has %(size)d.") % {
            "n": kind.min_size,
            "size": size,
        }
    else:
        text = _("A team size outside %(low)d–%(high)d is not allowed; this one has %(size)d.") % {
            "low": kind.min_size,
            "high": kind.max_size,
            "size": size,
        }
    raise Refused(text, field="members", clause=kind.clause or cat.clause)


def _entry_name(category: Category, members: Sequence[PersonData], name: str | None) -> str:
    if name and name.strip():
        return name.strip()
    return " / ".join(m.full_name for m in members)


def _text_refusal(
    category: Category, members: Sequence[PersonData], name: str | None, adult: str
) -> Refused | None:
    """The first text of a registration that cannot be saved as typed; a pair's name made of
    its members' names (``Jana Nová / Petr Malý``) must fit the entry's name too."""
    for index, data in enumerate(members):
        refused = person_refusal(data, index)
        if refused is not None:
            return refused
    for field, text in (("name", name or ""), ("accompanying_adult", adult)):
        problem = typed_problem(field, text.strip())
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
            field=member_field(len(members) - 1, "last_name"),
        )
    return None


# --- the members -----------------------------------------------------------------------------


def _check_members(
    event: Event,
    cat: Category,
    members: Sequence[PersonData],
    own: Person | None,
    *,
    adult: str,
    scored: bool,
) -> tuple[list[Person | None], bool]:
    """Each member in turn: named, entered once, eligible, not banned, on no other entry of the
    category nor (where the rulebook says so) on another team. Returns the person each member
    already is (``None``: a new person) and whether any needs the accompanying adult."""
    found: list[Person | None] = []
    seen: set[tuple[str, str, dt.date | None]] = set()
    needs_adult = False
    for i, data in enumerate(members):
        if not data.first_name.strip() or not data.last_name.strip():
            raise Refused(_("Enter the first and last name."), field=member_field(i, "last_name"))
        key = (data.first_name.casefold(), data.last_name.casefold(), data.birth_date)
        if key in seen:
            raise Refused(
                _("%(name)s is entered twice.") % {"name": data.full_name},
                field=member_field(i, "last_name"),
            )
        seen.add(key)
        needs_adult = _check_eligible(event, data, i, adult=adult) or needs_adult
        person = find_member(data, own)
        found.append(person)
        check_not_banned(event, person=person, field=member_field(i, "last_name"))
        if person is not None:
            _check_not_entered(event, cat, data, person, i, scored=scored)
    return found, needs_adult


def _check_eligible(event: Event, data: PersonData, index: int, *, adult: str) -> bool:
    """The rulebook's eligibility of one member; ``True``: they need the accompanying adult."""
    verdict = member_verdict(event, data.birth_date, accompanied=bool(adult.strip()))
    if "birth_date" in verdict.unknown:
        raise Refused(
            _("Enter the birth date of %(name)s: the rules depend on it.")
            % {"name": data.full_name},
            field=member_field(index, "birth_date"),
        )
    if not verdict.eligible:
        field = "accompanying_adult" if verdict.needs_adult else member_field(index, "birth_date")
        raise ineligible(data, verdict.failures[0], field)
    return verdict.needs_adult


def _check_not_entered(
    event: Event, cat: Category, data: PersonData, person: Person, index: int, *, scored: bool
) -> None:
    """A person known before: not on another entry of the category, nor on another team."""
    field = member_field(index, "last_name")
    if (
        Entry.objects.filter(event=event, category=cat.key, members__person=person)
        .exclude(status=Entry.Status.CANCELLED)
        .exists()
    ):
        raise Refused(
            _("%(name)s is already registered in this category.") % {"name": data.full_name},
            field=field,
        )
    if scored and cat.entrants.one_team_per_person:
        check_one_team(event, data, person, field=field, clause=cat.entrants.clause)


def _linked_user(event: Event, by: Actor, own: Person | None) -> Actor | None:
    """The registrant's own person is created once, from the first member they enter, unless
    they register others (an organizer taking entries by phone)."""
    if own is None and by is not None and by.is_authenticated and not is_organizer(by, event):
        return by
    return None


def _save_members(
    entry: Entry, members: Sequence[PersonData], found: list[Person | None], *, user: Actor | None
) -> None:
    """The entry's members, the first its captain; ``user`` becomes the first member's person
    where that person is new."""
    for i, (data, person) in enumerate(zip(members, found, strict=True)):
        linked = user if i == 0 and person is None else None
        saved = save_person(data, person, linked)
        EntryMember.objects.create(entry=entry, person=saved, captain=i == 0)


# --- the division (ČBA) ----------------------------------------------------------------------


def _division(
    event: Event, cat: Category, members: Sequence[PersonData]
) -> tuple[str, dict[str, Any]]:
    """ČBA: the division from gender and ladder average, with its reason (the entry's fields)."""
    divisions = event.rulebook.divisions
    if divisions is None or cat.entrants.kind != "individual":
        return "", division_fields(None)
    data = members[0]
    if data.gender not in ("M", "F"):
        raise Refused(
            _("Choose man or woman: the divisions depend on it."),
            field=member_field(0, "gender"),
            clause=divisions.clause,
        )
    chosen, reason = assign_division(divisions, data.gender, data.ladder_average)
    return chosen.key, division_fields(reason)


def division_fields(reason: Reason | None) -> dict[str, Any]:
    """An entry's division reason as it keeps it: the English text with the clause on a line of
    its own, and the reason's data to show it in any language (none without a division)."""
    if reason is None:
        return {"division_reason": "", "division_message": None}
    text = reason.text + (f"\n{reason.clause}" if reason.clause else "")
    return {"division_reason": text, "division_message": reason_data(reason)}


# --- places: the squad, the cap, the waiting list --------------------------------------------


def _check_squad(event: Event, squad: Squad | None) -> None:
    """Squads with their own capacity: one of this event's, with room."""
    squads = Squad.objects.filter(event=event)
    if squad is not None and squad.event_id != event.pk:
        raise Refused(_("Choose one of this event's squads."), field="squad")
    if squad is None and squads.exists():
        raise Refused(_("Choose a squad."), field="squad")
    if squad is not None and not squad_places_left(squad):
        raise Refused(
            _("Squad %(squad)s is full; choose another squad.") % {"squad": squad.name},
            field="squad",
            clause=event.rulebook.registration.clause,
        )


def _place(
    event: Event, cat: Category, *, late: bool, today: dt.date, waiting: bool
) -> tuple[str, int | None]:
    """The cap: the entry's status, and its position on the waiting list when the category is
    full (refused where a late entry, no waiting list, or ``waiting=False`` forbids it)."""
    rules = event.rulebook.registration
    cap = category_cap(event, cat.key)
    if cap is None or active_count(event, cat.key) < cap:
        if rules.approval_required:
            return Entry.Status.PENDING, None
        return Entry.Status.CONFIRMED, None
    if late:
        raise Refused(
            _("Registration closed on %(date)s and the category is full.")
            % {"date": (rules.closes or today).isoformat()},
            clause=rules.clause,
        )
    if not rules.waiting_list:
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
    position = next_waiting_position(event, cat.key)
    if not waiting:
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
    return Entry.Status.WAITING, position
