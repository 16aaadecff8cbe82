"""E-mail to participants: what happened to their entry, in their language, with the event.

Vocabulary:
- message: one kind of e-mail, a pair of templates ``podium/mail/<kind>_subject.txt`` and
  ``podium/mail/<kind>.txt``: ``registered`` (registration received: confirmed, awaiting
  approval or on the waiting list), ``approved``, ``promoted`` (moved from the waiting list,
  with the day by which to give the place back free of charge), ``cancelled`` (with the
  refund and what is still owed) and ``results`` (a stage's round published, preliminary or
  final).
- recipients of an entry: its registrant, unless that is the event's staff entering someone
  else (by phone, an import), and every member with an address; each address once.
- recipient's language: the language their account remembers (``Account.language``: the one
  they last chose, logged in or signed up with), else the event's.
- event details: its title, start (in its time zone), venue and the address of its page in the
  recipient's language (``PODIUM_SITE_URL``).
- sending: composed after the transaction commits (``transaction.on_commit``) and handed to
  the outbox (``podium.web.kernel.outbox``), whose thread sends it after the answer; a message that
  cannot be sent is lost without undoing what it tells.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core import mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from podium.web.kernel.moments import moment_text
from podium.web.kernel.roles import STAFF
from podium.web.models import Account, Entry, EntryMember, Event, EventRole

Recipient = tuple[str, str]  # address, language


def _languages(users: Iterable[Any]) -> dict[int, str]:
    ids = [u.pk for u in users if u is not None]
    known = Account.objects.filter(user_id__in=ids).exclude(language="")
    return dict(known.values_list("user_id", "language"))


def recipients(entries: Iterable[Entry]) -> list[tuple[Entry, Recipient]]:
    """Each entry's recipients (see the vocabulary) with their languages, in a few queries."""
    entries = list(entries)
    members = EntryMember.objects.filter(entry__in=entries).select_related("person__user")
    by_entry: dict[int, list[tuple[str, Any]]] = {e.pk: [] for e in entries}
    for member in members:
        person = member.person
        address = person.email or (person.user.email if person.user else "")
        by_entry[member.entry_id].append((address, person.user))
    registrant_of = {e.pk: e.registered_by for e in entries}
    users = [u for people in by_entry.values() for _a, u in people]
    languages = _languages([*users, *registrant_of.values()])
    staff = set(
        EventRole.objects.filter(
            event_id__in={e.event_id for e in entries}, role__in=STAFF
        ).values_list("event_id", "user_id")
    )
    found: list[tuple[Entry, Recipient]] = []
    for entry in entries:
        people = list(by_entry[entry.pk])
        registrant = registrant_of[entry.pk]
        if registrant is not None and (entry.event_id, registrant.pk) not in staff:
            people.insert(0, (registrant.email, registrant))
        seen: set[str] = set()
        for address, user in people:
            if not address or address.casefold() in seen:
                continue
            seen.add(address.casefold())
            language = languages.get(user.pk) if user is not None else None
            found.append((entry, (address, language or entry.event.language)))
    return found


def site_url(path: str) -> str:
    return settings.PODIUM_SITE_URL.rstrip("/") + path


def event_details(event: Event) -> dict[str, Any]:
    """The event as a message names it, in the active language."""
    return {
        "title": event.title,
        "starts": moment_text(event.starts_at, event),
        "zone": event.timezone,
        "venue": event.venue,
        "link": site_url(reverse("event", args=[event.slug])),
    }


def _message(kind: str, context: dict[str, Any]) -> tuple[str, str]:
    subject = render_to_string(f"podium/mail/{kind}_subject.txt", context)
    body = render_to_string(f"podium/mail/{kind}.txt", context)
    # A header is one line, whatever a typed name holds.
    # Optional lines of the templates leave runs of blank lines; one is enough.
    return " ".join(subject.split()), re.sub(r"\n{3,}", "\n\n", body.strip()) + "\n"


def send(
    kind: str,
    entries: Callable[[], Iterable[Entry]],
    context: Callable[[Entry], dict[str, Any]],
) -> None:
    """Once the transaction commits, composes ``kind`` for every recipient of ``entries`` in
    their language and sends the messages: the event's row, locked by the services, is not
    held while hundreds of messages are written, and a failure only logs (``robust``)."""
    transaction.on_commit(lambda: _deliver(compose(kind, entries(), context)), robust=True)


def compose(
    kind: str, entries: Iterable[Entry], context: Callable[[Entry], dict[str, Any]]
) -> list[mail.EmailMessage]:
    messages = []
    for entry, (address, language) in recipients(entries):
        with translation.override(language):
            data = {
                "entry": entry,
                "event": event_details(entry.event),
                "my_entries": site_url(reverse("participant:entries")),
                **context(entry),
            }
            subject, body = _message(kind, data)
        messages.append(mail.EmailMessage(subject, body, None, [address]))
    return messages


def _deliver(messages: list[mail.EmailMessage]) -> None:
    if not messages:
        return
    with mail.get_connection(fail_silently=True) as connection:
        connection.send_messages(messages)


# --- the messages ----------------------------------------------------------------------------
