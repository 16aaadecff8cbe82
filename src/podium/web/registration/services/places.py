"""Places: approving a pending entry, and the waiting list — its order, and the promotions that
give its entries a place.

Vocabulary:
- waiting list: entries that came when the category was full, at a visible position; the first
  is promoted automatically when a place frees (``promote_first``), and the desk or an
  organizer may promote one by hand, saying why.
- promotion: a waiting entry taking a place — confirmed, or pending where approval is required;
  the entry is told by e-mail, with the last day it may still cancel for free.
- table (approval): where approval assigns the table, the lowest number free in the category.

Every service locks the event row before it counts, so two changes at once never take the same
place or position.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.web.kernel.audit import Actor, audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer, is_staff
from podium.web.models import Entry, Event
from podium.web.registration import mail
from podium.web.registration.selectors.entries import (
    places_left,
    squad_places_left,
    waiting_list,
)
from podium.web.registration.services.settlement import free_until, start_of

# --- approval --------------------------------------------------------------------------------


def _approve(event: Event, entry: Entry) -> int | None:
    """Confirms a pending entry of the locked event; the table it gets, where approval gives one."""
    rules = event.rulebook.registration
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
    return table


def entry_approve(*, entry: Entry, by: Actor) -> Entry:
    """Confirms a pending entry; where approval assigns the table, the lowest free one."""
    with transaction.atomic():
        event = locked_event(entry.event_id)
        entry = Entry.objects.get(pk=entry.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only the event's organizers may approve entries."))
        table = _approve(event, entry)
        rules = event.rulebook.registration
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


# An approval of many entries is bounded.
MOST_APPROVED = 1000


def entries_approve(*, event: Event, ids: Sequence[int], by: Actor) -> list[Entry]:
    """Confirms the chosen pending entries (``ids``) in one transaction with one audit entry;
    refused as a whole, naming the entry, when one of them may not be approved."""
    if not ids:
        raise Refused(_("Tick the entries to approve."), field="entries")
    if len(ids) > MOST_APPROVED:
        raise Refused(_("Too many entries chosen at once."), field="entries")
    with transaction.atomic():
        event = locked_event(event.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only the event's organizers may approve entries."))
        chosen = list(Entry.objects.filter(event=event, pk__in=ids).order_by("number", "pk"))
        if len(chosen) != len(set(ids)):
            raise Refused(_("Some of the chosen entries are not this event's."), field="entries")
        tables = {}
        for entry in chosen:
            try:
                tables[entry.pk] = _approve(event, entry)
            except Refused as refusal:
                raise Refused(f"#{entry.number} {entry.name}: {refusal.message}") from None
        audit(
            event=event, actor=by, action="entry.approve-many", target=f"{len(chosen)}",
            entries=[e.number for e in chosen], tables=[tables[e.pk] for e in chosen],
            clause=event.rulebook.registration.clause,
        )  # fmt: skip
        for entry in chosen:
            mail.approved(entry)
    return chosen


# --- the waiting list ------------------------------------------------------------------------


def next_waiting_position(event: Event, category: str) -> int:
    last = Entry.objects.filter(
        event=event, category=category, status=Entry.Status.WAITING
    ).aggregate(m=Max("waiting_position"))["m"]
    return (last or 0) + 1


def renumber_waiting(event: Event, category: str) -> None:
    for position, entry in enumerate(waiting_list(event, category), start=1):
        if entry.waiting_position != position:
            entry.waiting_position = position
            entry.save(update_fields=["waiting_position"])


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


def waiting_move(
    *, event: Event, category: str, ids: Sequence[int], position: int, by: Actor, reason: str
) -> list[Entry]:
    """Moves the ticked waiting entries of a category together, in their order in line, to
    start at ``position``; one transaction, one audit entry with the reason."""
    with transaction.atomic():
        event = locked_event(event.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only the event's organizers may reorder the waiting list."))
        if not reason.strip():
            raise Refused(_("A reason is required to reorder the waiting list."), field="reason")
        line = waiting_list(event, category)
        chosen = [e for e in line if e.pk in set(ids)]
        if not chosen or len(chosen) != len(set(ids)):
            raise Refused(_("Tick entries on this waiting list to move them."), field="entries")
        rest = [e for e in line if e not in chosen]
        if not 1 <= position <= len(rest) + 1:
            raise Refused(
                _("Choose a position from 1 to %(n)d.") % {"n": len(rest) + 1}, field="position"
            )
        was = {e.number: e.waiting_position for e in chosen}
        line = rest[: position - 1] + chosen + rest[position - 1 :]
        for i, item in enumerate(line, start=1):
            if item.waiting_position != i:
                Entry.objects.filter(pk=item.pk).update(waiting_position=i)
                item.waiting_position = i
        audit(
            event=event, actor=by, action="waiting.reorder-many", target=f"{len(chosen)}",
            moved=[e.number for e in chosen], was_positions=was, position=position,
            reason=reason.strip(),
        )  # fmt: skip
        return chosen


# --- promotion -------------------------------------------------------------------------------


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


def promote_first(event: Event, freed: Entry, *, by: Actor, now: dt.datetime) -> Entry | None:
    """Gives the place ``freed`` left to the first waiting entry that fits (its squad with room),
    while the category has room."""
    if places_left(event, freed.category) == 0:
        return None
    for candidate in waiting_list(event, freed.category):
        if candidate.squad is not None and not squad_places_left(candidate.squad):
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
    renumber_waiting(entry.event, entry.category)
    audit(
        event=entry.event,
        actor=by,
        action=action,
        target=entry,
        status=entry.status,
        was_position=old_position,
        reason=reason,
    )
    mail.promoted(
        entry,
        reason=told or (lambda: reason),
        free_until=free_until(entry, now or timezone.now()),
        starts=start_of(entry),
    )
    return entry
