"""Cancelling an entry: on its terms (``settlement``), by its registrant or an organizer; the
place it frees goes to the first waiting entry (``places``)."""

from __future__ import annotations

import copy
import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.web.kernel.audit import Actor, audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.models import Cancellation, Entry
from podium.web.registration import mail
from podium.web.registration.services.members import is_registrant
from podium.web.registration.services.places import promote_first, renumber_waiting
from podium.web.registration.services.settlement import settlement_preview


def entry_cancel(*, entry: Entry, by: Actor, now: dt.datetime | None = None) -> Cancellation:
    """Cancels an entry with its terms, frees its place and promotes the first waiting entry."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locked_event(entry.event_id)
        entry = Entry.objects.select_related("squad").get(pk=entry.pk)
        entry.event = event
        if not (is_registrant(by, entry) or is_organizer(by, event)):
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
            renumber_waiting(event, entry.category)
        if had_place:
            promote_first(event, entry, by=by, now=now)
        return cancellation
