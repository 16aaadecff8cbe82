"""Rosters: a team's members after it registered. Where the rulebook allows it (ChGK), a roster
grows at any time, up to ``roster_max``, and never shrinks; each new player meets the rules a
member meets at registration (``members``)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from podium.rules.schema.registration import Entrants
from podium.web.kernel.audit import Actor, audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.models import Entry, EntryMember, Event, Person
from podium.web.registration.selectors.entries import category_of
from podium.web.registration.services.members import (
    PersonData,
    check_not_banned,
    check_one_team,
    find_member,
    ineligible,
    is_registrant,
    member_verdict,
    person_refusal,
    save_person,
)


def roster_add_player(*, entry: Entry, person: PersonData, by: Actor) -> EntryMember:
    """Adds a player to a team's roster where the rulebook allows it at any time (ChGK)."""
    with transaction.atomic():
        event = locked_event(entry.event_id)
        entry = Entry.objects.get(pk=entry.pk)
        kind = category_of(event, entry.category)
        if kind is None:  # pragma: no cover - an entry's category comes from its rulebook
            raise Refused(_("Unknown category."))
        entrants = kind.entrants
        if not (is_registrant(by, entry) or is_organizer(by, event)):
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
        found = _check_player(event, entry, entrants, person)
        member = EntryMember.objects.create(entry=entry, person=save_person(person, found, None))
        audit(
            event=event,
            actor=by,
            action="roster.add",
            target=entry,
            player=person.full_name,
            roster_size=size + 1,
        )
        return member


def _check_player(
    event: Event, entry: Entry, entrants: Entrants, person: PersonData
) -> Person | None:
    """The new player: eligible, typed right, not banned, not on the roster already nor on
    another team; returns the person they already are (``None``: a new person)."""
    verdict = member_verdict(event, person.birth_date, accompanied=bool(entry.accompanying_adult))
    if not verdict.eligible:
        raise ineligible(person, verdict.failures[0], "birth_date")
    refused = person_refusal(person, None)
    if refused is not None:
        raise refused
    found = find_member(person, None)
    check_not_banned(event, person=found, field="last_name")
    if found is None:
        return None
    if entry.members.filter(person=found).exists():
        raise Refused(
            _("%(name)s is already on this roster.") % {"name": person.full_name},
            field="last_name",
        )
    if entry.scored and entrants.one_team_per_person:
        check_one_team(
            event, person, found, field="last_name", clause=entrants.clause, besides=entry
        )
    return found
