"""Checking in a list of entries at once (a club arriving together, a list read out at the
door): one transaction, every entry checked as the desk checks one, all or nothing.

Vocabulary:
- check-in: see ``podium.web.registration.services.checkin``; each entry of the list keeps its
  own audited check-in (the desk's counts follow them), and one more audit entry says what the
  list did.
- list: entry numbers as typed — ``3, 5 12-15`` — at most ``MOST`` of them; a number that is no
  entry of the event, or an entry that may not check in, refuses the whole list, naming each.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_staff
from podium.web.models import CheckIn, Entry, Event
from podium.web.registration.services.checkin import checkin_record

MOST = 500
_PART = re.compile(r"^(\d{1,6})(?:-(\d{1,6}))?$")


def list_numbers(text: str) -> list[int]:
    """The entry numbers of a typed list, in order, each once; refused naming the bad part."""
    numbers: dict[int, None] = {}
    for part in re.split(r"[\s,;]+", text.strip()[:5000]):
        if not part:
            continue
        found = _PART.match(part)
        if found is None:
            raise Refused(
                _("“%(part)s” is not an entry number or a range like 12-15.") % {"part": part[:20]},
                field="numbers",
            )
        first, last = int(found.group(1)), int(found.group(2) or found.group(1))
        if last < first or last - first >= MOST:
            raise Refused(
                _("The range %(part)s is reversed or too long.") % {"part": part}, field="numbers"
            )
        numbers.update(dict.fromkeys(range(first, last + 1)))
        if len(numbers) > MOST:
            raise Refused(_("At most %(n)d entries at once.") % {"n": MOST}, field="numbers")
    if not numbers:
        raise Refused(_("Type the numbers of the entries to check in."), field="numbers")
    return list(numbers)


def checkins_record(
    *, event: Event, numbers: list[int], by: Any, now: dt.datetime | None = None
) -> list[CheckIn]:
    """Checks in the entries numbered ``numbers``, all or none (see the vocabulary)."""
    now = now or timezone.now()
    if len(numbers) > MOST:
        raise Refused(_("At most %(n)d entries at once.") % {"n": MOST}, field="numbers")
    with transaction.atomic():
        event = locked_event(event.pk)
        if not is_staff(by, event):
            raise Refused(_("Only an organizer or referee of this event may check entries in."))
        entries = {e.number: e for e in Entry.objects.filter(event=event, number__in=numbers)}
        unknown = [str(n) for n in numbers if n not in entries]
        if unknown:
            raise Refused(
                _("No entry of this event has the number %(numbers)s.")
                % {"numbers": ", ".join(unknown)},
                field="numbers",
            )
        done, refused = [], []
        for number in numbers:
            try:
                with transaction.atomic():
                    done.append(checkin_record(entry=entries[number], by=by, now=now))
            except Refused as refusal:
                refused.append(refusal.message)
        if refused:
            raise Refused(
                _("Nobody was checked in: %(reasons)s") % {"reasons": " ".join(refused)},
                field="numbers",
            )
        audit(
            event=event, actor=by, action="entry.check-in-list", target=f"{len(done)}",
            numbers=numbers,
        )  # fmt: skip
    return done
