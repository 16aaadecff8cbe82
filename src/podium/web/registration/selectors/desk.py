"""Reads for the check-in desk: finding an entry, its check-in window, and the no-shows.

Vocabulary:
- start: when an entry plays: its squad's start (ČBA) or else the event's start.
- window: from ``check_in.opens_before_min`` before the start to ``closes_before_min`` before
  it; a side the rulebook leaves out is open (IT: opens 20 min before, no close).
- no-show time: ``no_show.after_start_min`` after the start; from then a confirmed entry that
  has not checked in is a no-show, and its seat may be offered to the waiting list. An entry
  that took a no-show's seat counts the same minutes from when it took it, so it is not a
  no-show the moment it gets the seat.
- waiting list: the category's waiting entries, by position.
- expected: the confirmed entries; checked in: those of them present; not yet here: the rest.
- no-show (in the counts): not yet here past its no-show time, or, where the rulebook has no
  no-show rule, past the close of its check-in window (else its start).
- check-in code: ``<number>-<8 hex>`` — the entry's number and a keyed hash of the event and
  the entry, so a code typed or scanned at the desk finds that entry of this event and nothing
  else; the QR code of an entry's confirmation opens the desk's search with it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils.crypto import constant_time_compare, salted_hmac

from podium.web.kernel.text import search_text
from podium.web.models import Entry, Event
from podium.web.registration.selectors.entries import roster, waiting_list


def start_of(entry: Entry) -> dt.datetime:
    return entry.squad.starts_at if entry.squad_id and entry.squad else entry.event.starts_at


@dataclass(frozen=True)
class Window:
    opens: dt.datetime | None
    closes: dt.datetime | None
    clause: str | None

    def contains(self, moment: dt.datetime) -> bool:
        return (self.opens is None or moment >= self.opens) and (
            self.closes is None or moment <= self.closes
        )


def window_of(entry: Entry) -> Window:
    rule = entry.event.rulebook.check_in
    if rule is None:
        return Window(None, None, None)
    start = start_of(entry)
    opens = start - dt.timedelta(minutes=rule.opens_before_min) if rule.opens_before_min else None
    closes = (
        start - dt.timedelta(minutes=rule.closes_before_min)
        if rule.closes_before_min is not None
        else None
    )
    return Window(opens, closes, rule.clause)


def no_show_time(entry: Entry) -> dt.datetime | None:
    rule = entry.event.rulebook.no_show
    if rule is None:
        return None
    grace = dt.timedelta(minutes=rule.after_start_min)
    # A seat handed over at the desk; read from ``seat_taken`` whole, so a list prefetches it.
    took = max((offer.offered_at for offer in entry.seat_taken.all()), default=None)
    if took is not None:
        return max(start_of(entry), took) + grace
    return start_of(entry) + grace


CODE = re.compile(r"^(?P<number>\d{1,9})-(?P<check>[0-9a-f]{8})$")


def checkin_code(entry: Entry) -> str:
    check = salted_hmac("podium.checkin-code", f"{entry.event_id}:{entry.pk}").hexdigest()[:8]
    return f"{entry.number}-{check}"


def is_code(query: str) -> bool:
    return CODE.match(query.strip().lower()) is not None


def entry_by_code(event: Event, code: str) -> Entry | None:
    """The entry of this event whose check-in code this is (see the vocabulary)."""
    found = CODE.match(code.strip().lower())
    if found is None:
        return None
    entry = event.entries.filter(number=int(found["number"])).first()
    if entry is None or not constant_time_compare(checkin_code(entry), code.strip().lower()):
        return None
    return entry


def search(event: Event, query: str = "", *, not_yet: bool = False) -> QuerySet[Entry]:
    """The entries the desk shows for ``query`` (a name, a number or a check-in code);
    ``not_yet``: only the confirmed entries not checked in yet."""
    entries = (
        event.entries.exclude(status=Entry.Status.CANCELLED)
        .select_related("event", "squad", "check_in")
        .prefetch_related(roster(), "payments")
        .order_by("number")
    )
    if not_yet:
        entries = entries.filter(status=Entry.Status.CONFIRMED, check_in__isnull=True)
    query = search_text(query).strip().lstrip("#")
    if not query:
        return entries
    if is_code(query):
        found = entry_by_code(event, query)
        return entries.filter(pk=found.pk) if found else entries.none()
    found = Q(name__icontains=query) | Q(members__person__last_name__icontains=query)
    found |= Q(members__person__first_name__icontains=query)
    if query.isdigit():
        found |= Q(number=int(query))
    return entries.filter(found).distinct()


def no_shows(event: Event, now: dt.datetime) -> list[tuple[Entry, Entry | None]]:
    """Confirmed entries past their no-show time and not checked in, each with who is next."""
    if event.rulebook.no_show is None:
        return []
    absent = [
        entry
        for entry in event.entries.filter(status=Entry.Status.CONFIRMED, check_in__isnull=True)
        .select_related("event", "squad")
        .prefetch_related("seat_taken")
        .order_by("category", "number")
        if (time := no_show_time(entry)) is not None and now >= time
    ]
    queues: dict[str, list[Entry]] = {}
    result: list[tuple[Entry, Entry | None]] = []
    for entry in absent:
        if entry.category not in queues:
            queues[entry.category] = waiting_list(event, entry.category)
        queue = queues[entry.category]
        result.append((entry, queue.pop(0) if queue else None))
    return result


def is_no_show(entry: Entry, now: dt.datetime) -> bool:
    """Whether a confirmed entry not checked in counts as a no-show at ``now`` (see the
    vocabulary): from its no-show time on, or once its check-in window has closed (the last
    minute of the window still checks in), or else from its start."""
    time = no_show_time(entry)
    if time is not None:
        return now >= time
    closes = window_of(entry).closes
    return now > closes if closes is not None else now >= start_of(entry)


@dataclass(frozen=True)
class Counts:
    expected: int
    checked_in: int
    no_shows: int

    @property
    def not_yet(self) -> int:
        return self.expected - self.checked_in


def counts(event: Event, now: dt.datetime) -> Counts:
    """The desk's counts at ``now``, in two queries whatever the number of entries."""
    confirmed = list(
        event.entries.filter(status=Entry.Status.CONFIRMED)
        .select_related("event", "squad", "check_in")
        .prefetch_related("seat_taken")
    )
    here = [e for e in confirmed if getattr(e, "check_in", None) is not None]
    absent = [e for e in confirmed if getattr(e, "check_in", None) is None and is_no_show(e, now)]
    return Counts(expected=len(confirmed), checked_in=len(here), no_shows=len(absent))


def desk_list(event: Event) -> list[dict[str, object]]:
    """The desk's list for a phone to keep and search offline: every entry that may come to
    the desk (not cancelled), its number, name, check-in code, status and whether it is here
    (two queries, whatever the event's size)."""
    entries = (
        event.entries.exclude(status=Entry.Status.CANCELLED)
        .select_related("check_in")
        .only("id", "number", "name", "status", "event_id", "check_in__checked_in_at")
        .order_by("number")
    )
    return [
        {
            "n": e.number,
            "name": e.name,
            "code": checkin_code(e),
            "status": e.status,
            "here": getattr(e, "check_in", None) is not None,
        }
        for e in entries
    ]
