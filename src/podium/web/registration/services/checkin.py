"""The check-in desk: checking an entry in, and giving a no-show's seat to the waiting list.

Vocabulary:
- check-in: a confirmed entry present at the desk inside the rulebook's window, with the seat,
  table or lane handed out (by default its table number).
- undo: a check-in taken back (a wrong card tapped, someone who left again), with the reason
  the audit trail keeps; the entry is then not yet here, as before.
- no-show: a confirmed entry not checked in by the no-show time; its seat goes to the first
  waiting entry of its category, the no-show is cancelled — with no refund where
  ``no_show.refund`` is false — and the seat offer is recorded.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.web.kernel.audit import audit
from podium.web.kernel.moments import moment_text
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_organizer, is_staff
from podium.web.models import Cancellation, CheckIn, Entry, Event, SeatOffer
from podium.web.models.money import APPEAL_FEE_PREFIX
from podium.web.registration.selectors.desk import no_show_time, window_of
from podium.web.registration.selectors.entries import waiting_list
from podium.web.registration.selectors.payments import fees_for
from podium.web.registration.services.places import entry_approve, entry_promote


def default_seat(entry: Entry) -> str:
    if entry.table_number:
        return _("Table %(number)d") % {"number": entry.table_number}
    return entry.group


def checkin_record(
    *, entry: Entry, by: Any, now: dt.datetime | None = None, seat: str = "", key: str = ""
) -> CheckIn:
    """Checks the entry in at ``now``; ``key``: the desk's idempotency key, kept in the audit
    entry so a tap sent again after an undo is known (``checkin_tap``)."""
    now = now or timezone.now()
    with transaction.atomic():
        entry = (
            Entry.objects.select_for_update(of=("self",))
            .select_related("event", "squad")
            .get(pk=entry.pk)
        )
        if not is_staff(by, entry.event):
            raise Refused(_("Only an organizer or referee of this event may check entries in."))
        if entry.status != Entry.Status.CONFIRMED:
            raise Refused(
                _("#%(number)d is %(status)s, not confirmed; it cannot check in.")
                % {"number": entry.number, "status": entry.get_status_display()}
            )
        if CheckIn.objects.filter(entry=entry).exists():
            raise Refused(_("#%(number)d is already checked in.") % {"number": entry.number})
        window = window_of(entry)
        if window.opens is not None and now < window.opens:
            raise Refused(
                _("Check-in opens at %(opens)s.")
                % {"opens": moment_text(window.opens, entry.event)},
                clause=window.clause,
            )
        if window.closes is not None and now > window.closes:
            raise Refused(
                _("Check-in closed at %(closes)s.")
                % {"closes": moment_text(window.closes, entry.event)},
                clause=window.clause,
            )
        seat = seat.strip()[:40] or default_seat(entry)
        check_in = CheckIn.objects.create(
            entry=entry, checked_in_at=now, checked_in_by=by, seat=seat
        )
        extra = {"key": key} if key else {}
        audit(
            event=entry.event, actor=by, action="entry.check-in", target=entry, seat=seat, **extra
        )
    return check_in


def checkin_undo(*, entry: Entry, by: Any, reason: str) -> Entry:
    """Takes a check-in back; ``reason`` (required) goes into the audit entry with the seat and
    the time of the check-in undone."""
    with transaction.atomic():
        entry = (
            Entry.objects.select_for_update(of=("self",))
            .select_related("event", "check_in")
            .get(pk=entry.pk)
        )
        if not is_staff(by, entry.event):
            raise Refused(_("Only an organizer or referee of this event may undo a check-in."))
        done = getattr(entry, "check_in", None)
        if done is None:
            raise Refused(
                _("#%(number)d is not checked in; there is nothing to undo.")
                % {"number": entry.number}
            )
        reason = reason.strip()
        if not reason:
            raise Refused(_("Say why the check-in is undone."), field="reason")
        audit(
            event=entry.event,
            actor=by,
            action="entry.check-in-undo",
            target=entry,
            reason=reason,
            seat=done.seat,
            checked_in_at=done.checked_in_at,
        )
        done.delete()
        entry.refresh_from_db()  # forgets the check-in just deleted
    return entry


def seat_offer(*, absent: Entry, by: Any, now: dt.datetime | None = None) -> SeatOffer:
    now = now or timezone.now()
    with transaction.atomic():
        absent = (
            Entry.objects.select_for_update(of=("self",))
            .select_related("event", "squad")
            .get(pk=absent.pk)
        )
        event = absent.event
        rule = event.rulebook.no_show
        if not is_staff(by, event):
            raise Refused(_("Only an organizer or referee of this event may give seats away."))
        if rule is None:
            raise Refused(_("This rulebook does not let a no-show's seat be given away."))
        if rule.seat_to == "organizer" and not is_organizer(by, event):
            raise Refused(_("Only an organizer may give this seat away."), clause=rule.clause)
        if absent.status != Entry.Status.CONFIRMED:
            raise Refused(
                _("#%(number)d is %(status)s, not a confirmed entry.")
                % {"number": absent.number, "status": absent.get_status_display()}
            )
        if CheckIn.objects.filter(entry=absent).exists():
            raise Refused(_("#%(number)d is checked in.") % {"number": absent.number})
        time = no_show_time(absent)
        assert time is not None  # the rulebook has a no-show rule
        if now < time:
            raise Refused(
                _("The seat can be given away from %(time)s.")
                % {"time": moment_text(time, absent.event)},
                clause=rule.clause,
            )
        queue = waiting_list(event, absent.category)
        if not queue:
            raise Refused(_("Nobody is waiting in this category."))
        taker = queue[0]
        refund = Decimal(0)
        currency = ""
        fees = fees_for(absent)
        if fees:
            currency = fees[0].price.currency
        if rule.refund:
            own = absent.payments.exclude(fee_key__startswith=APPEAL_FEE_PREFIX)
            refund = sum((p.amount for p in own), Decimal(0))
        table = absent.table_number
        reason = _("No-show: not checked in by %(time)s; the seat went to #%(taker)d.") % {
            "time": moment_text(time, absent.event),
            "taker": taker.number,
        }
        absent.status = Entry.Status.CANCELLED
        absent.table_number = None
        absent.waiting_position = None
        absent.save(update_fields=["status", "table_number", "waiting_position"])
        Cancellation.objects.create(
            entry=absent,
            cancelled_at=now,
            cancelled_by=by,
            refund=refund,
            owed=Decimal(0),
            currency=currency,
            reason=reason,
            clause=rule.clause or "",
        )
        taker = entry_promote(entry=taker, by=by, reason=reason)
        if taker.status == Entry.Status.PENDING and is_organizer(by, event):
            # The organizer hands the seat over on the spot: that is the approval.
            taker = entry_approve(entry=taker, by=by)
        if table is not None and taker.table_number != table:
            taker.table_number = table  # the no-show's own table, freed above
            taker.save(update_fields=["table_number"])
        offer = SeatOffer.objects.create(absent=absent, taker=taker, offered_at=now, offered_by=by)
        audit(
            event=event,
            actor=by,
            action="seat.offer",
            target=absent,
            taker=taker.number,
            refund=str(refund),
            clause=rule.clause or "",
        )
    return offer


def _taken(entry: Entry) -> dict[str, str]:
    done = entry.check_in
    who = done.checked_in_by
    return {
        "by": (who.get_full_name() or who.get_username()) if who else "",
        "at": done.checked_in_at.isoformat(),
        "seat": done.seat,
    }


def checkin_tap(
    *, event: Event, number: int, key: str, by: Any, at: dt.datetime | None = None
) -> dict[str, Any]:
    """A check-in tapped on a desk's phone, perhaps offline and sent later; answered as a
    result tap is (``podium.web.results.services.taps``): ``stored``, ``already`` (this key was
    stored before, or another desk checked the person in: not a conflict) or ``refused`` with
    the reason in words. ``at``: the tap's moment on the server's clock, for the window."""
    answer: dict[str, Any] = {"key": key, "number": number}
    entry = (
        event.entries.filter(number=number)
        .select_related("event", "check_in__checked_in_by")
        .first()
    )
    try:
        if not key or len(key) > 100:
            raise Refused(
                _("Every submission needs a key of 1 to %(max)d characters.") % {"max": 100}
            )
        if entry is None:
            raise Refused(_("No entrant has the number %(number)d.") % {"number": number})
        if getattr(entry, "check_in", None) is not None:
            return answer | {"status": "already", **_taken(entry)}
        replayed = event.audit.filter(
            action="entry.check-in", target=str(entry)[:200], data__key=key
        ).exists()
        if replayed:  # checked in by this very tap, then undone at the desk: not again
            return answer | {"status": "already", "message": _("This check-in was undone.")}
        done = checkin_record(entry=entry, by=by, now=at, key=key)
    except Refused as refused:
        return answer | {"status": "refused", "message": refusal_text(refused)}
    entry.check_in = done
    return answer | {"status": "stored", **_taken(entry)}
