"""The event after creation: its organizers edit the dates, caps, fees, language and, while it is a
draft, the rulebook — checked like an upload, audited, refused on the field concerned with
nothing changed.

Hand-worked:
- Puzzle Party (open, cap 50 pairs, registration 23 Apr – 21 May 2026) with 3 approved pairs and
  one awaiting approval: a cap of 3 is allowed (3 approved), 2 is refused.
- ČBA qualifier: entry fee 600 CZK; once a payment of it is recorded its price stays.
"""

from __future__ import annotations

import datetime as dt
import re
import time
import tracemalloc
import zoneinfo
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from podium.rules.loader import preset_text
from podium.web.events.services.events import RulebookRefused, event_update
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Entry, Event, EventRole
from podium.web.registration.services.payments import payment_record

ROME = zoneinfo.ZoneInfo("Europe/Rome")


def values(event: Event, **changes: Any) -> dict[str, Any]:
    """The edit as the form sends it back unchanged, with ``changes`` typed over it."""
    book = event.rulebook
    sent: dict[str, Any] = {
        "title": event.title,
        "starts_at": event.starts_at,
        "timezone": event.timezone,
        "venue": event.venue,
        "language": event.language,
        "registration_opens": book.registration.opens,
        "registration_closes": book.registration.closes,
        "registration_cap": book.registration.cap,
        "caps": {c.key: c.cap for c in book.categories},
        "fees": {f.key: f.price.amount for f in book.fees},
    }
    sent.update(changes)
    return sent


def fresh(event: Event) -> Event:
    """The event as saved (``Event.rulebook`` is kept on the object once read)."""
    return Event.objects.get(pk=event.pk)


def snapshot(event: Event) -> tuple[Any, ...]:
    event = fresh(event)
    return (
        event.title,
        event.starts_at,
        event.language,
        event.rulebook_text,
        AuditEntry.objects.filter(action="event.update").count(),
    )


@pytest.fixture
def party(make_user: Any, make_event: Any) -> Any:
    alice = make_user("alice")
    event = make_event(
        "it-puzzle-party",
        organizer=alice,
        starts_at=dt.datetime(2026, 5, 24, 15, 0, tzinfo=ROME),
        timezone="Europe/Rome",
        language="it",
    )
    for number in (1, 2, 3):
        Entry.objects.create(
            event=event, category="pairs", number=number, name=f"Pair {number}", status="confirmed"
        )
    Entry.objects.create(event=event, category="pairs", number=4, name="Late", status="pending")
    return event, alice


@pytest.mark.django_db
def test_a_valid_edit_changes_the_settings_in_place_and_is_audited(party: Any) -> None:
    event, alice = party
    start = dt.datetime(2026, 5, 31, 14, 30, tzinfo=ROME)
    event_update(
        event=event,
        by=alice,
        **values(
            event,
            title="Puzzle Party 2026",
            starts_at=start,
            language="en",
            registration_closes=dt.date(2026, 5, 28),
            caps={"pairs": 3},
        ),
    )
    event = fresh(event)
    assert (event.title, event.starts_at, event.language) == ("Puzzle Party 2026", start, "en")
    assert event.rulebook.categories[0].cap == 3
    assert event.rulebook.registration.closes == dt.date(2026, 5, 28)
    # The rest of the document is as its author wrote it: comments, clauses, order.
    before = preset_text("it-puzzle-party").splitlines()
    after = event.rulebook_text.splitlines()
    assert [(a, b) for a, b in zip(before, after, strict=True) if a != b] == [
        ("event_date: 2026-05-24", "event_date: 2026-05-31"),  # ages count on the new day
        ("    cap: 50", "    cap: 3"),
        ("  closes: 2026-05-21", "  closes: 2026-05-28"),
    ]
    entry = AuditEntry.objects.get(action="event.update")
    assert entry.actor == alice
    assert entry.data["changes"]["title"] == ["it-puzzle-party", "Puzzle Party 2026"]
    assert entry.data["changes"]["language"] == ["it", "en"]
    assert entry.data["settings"] == {
        "registration.closes": "2026-05-28",
        "categories.0.cap": "3",
        "event_date": "2026-05-31",
    }
    assert entry.scope == ""  # every table of the event may show it


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"caps": {"pairs": 2}}, "cap_pairs",
         "Pairs: 3 entries are already approved; the cap cannot be lower than 3."),
        ({"caps": {"pairs": 0}}, "cap_pairs", "A cap is at least 1 (leave it empty for none)."),
        ({"registration_opens": dt.date(2026, 5, 22)}, "registration_closes",
         "Registration would close (2026-05-21) before it opens (2026-05-22)."),
        ({"title": "  "}, "title", "An event needs a title."),
        ({"timezone": "Mars/Olympus"}, "timezone", "Unknown time zone “Mars/Olympus”."),
        ({"language": "xx"}, "language", "Unknown language."),
        ({"rulebook_text": preset_text("cz-jigsaw")}, "rulebook_text",
         "The rulebook can be replaced only while the event is a draft; it is “registration "
         "open”. Its dates, caps and fees can still be changed here."),
    ],
)  # fmt: skip
@pytest.mark.django_db
def test_each_refusal_names_its_field_and_changes_nothing(
    party: Any, changes: dict[str, Any], field: str, message: str
) -> None:
    event, alice = party
    before = snapshot(event)
    with pytest.raises(Refused) as refused:
        event_update(event=event, by=alice, **values(event, **changes))
    assert (refused.value.field, refused.value.message) == (field, message)
    assert snapshot(event) == before


@pytest.mark.django_db
def test_only_an_organizer_edits(party: Any, make_user: Any) -> None:
    event, _alice = party
    referee = make_user("rita")
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    before = snapshot(event)
    with pytest.raises(Refused, match=re.escape("Only an organizer of this event may edit it.")):
        event_update(event=event, by=referee, **values(event, title="Mine"))
    assert snapshot(event) == before


@pytest.mark.django_db
def test_a_fee_keeps_its_price_once_paid(make_user: Any, make_event: Any) -> None:
    bea = make_user("bea")
    event = make_event("cba-qualifier", organizer=bea, timezone="Europe/Prague")
    event_update(event=event, by=bea, **values(event, fees={"entry": Decimal("650.50")}))
    event = fresh(event)
    assert event.rulebook.fees[0].price.amount == Decimal("650.5")
    assert "price: {amount: 650.5, currency: CZK}" in event.rulebook_text
    player = Entry.objects.create(
        event=event, category="players", number=1, name="Novák", status="confirmed"
    )
    payment_record(entry=player, fee_key="entry", amount="650.50", method="cash", by=bea)
    before = snapshot(event)
    with pytest.raises(Refused) as refused:
        event_update(event=event, by=bea, **values(event, fees={"entry": Decimal("700")}))
    assert refused.value.field == "fee_entry"
    assert refused.value.message == (
        "Payments of “Entry fee” are recorded; its price cannot change any more."
    )
    with pytest.raises(Refused, match=re.escape("A price cannot be negative.")):
        event_update(event=event, by=bea, **values(event, fees={"entry": Decimal("-1")}))
    assert snapshot(event) == before
    # A cap for every category without its own is added to the document, other fees untouched.
    event_update(event=event, by=bea, **values(event, registration_cap=48))
    event = fresh(event)
    assert event.rulebook.registration.cap == 48
    assert event.rulebook.fees[0].price.amount == Decimal("650.5")


@pytest.mark.django_db
def test_the_rulebook_is_replaced_while_a_draft_checked_like_an_upload(
    make_user: Any, make_event: Any
) -> None:
    olga = make_user("olga")
    event = make_event("cz-jigsaw", organizer=olga, status=Event.Status.DRAFT)
    text = preset_text("cz-jigsaw").replace("    cap: 200", "    cap: 180")
    event_update(event=event, by=olga, **values(event, rulebook_text=text))
    event = fresh(event)
    assert event.rulebook.categories[0].cap == 180
    assert AuditEntry.objects.get(action="event.update").data["rulebook"] == "replaced"

    broken = text.replace("    cap: 180", "    cap: many").replace("kind: individual", "kind: solo")
    before = snapshot(event)
    with pytest.raises(RulebookRefused) as refused:
        event_update(event=event, by=olga, **values(event, rulebook_text=broken))
    assert refused.value.field == "rulebook_text"
    assert refused.value.message == "The rulebook has 2 problem(s); nothing was changed."
    found = {(p.line, p.path) for p in refused.value.problems}
    assert found == {(16, "categories[0].entrants.kind"), (18, "categories[0].cap")}
    # The engine's checks too: a criterion the format does not compute.
    engine = text.replace("- key: time\n", "- key: total\n", 1)
    assert engine != text
    with pytest.raises(RulebookRefused) as refused:
        event_update(event=event, by=olga, **values(event, rulebook_text=engine))
    assert any("total" in p.message for p in refused.value.problems)
    assert snapshot(event) == before


@pytest.mark.django_db
def test_a_replacement_keeps_every_category_with_entries(make_user: Any, make_event: Any) -> None:
    olga = make_user("olga")
    event = make_event("cz-jigsaw", organizer=olga, status=Event.Status.DRAFT)
    Entry.objects.create(event=event, category="teams", number=1, name="T", status="pending")
    before = snapshot(event)
    with pytest.raises(Refused) as refused:
        event_update(
            event=event, by=olga, **values(event, rulebook_text=preset_text("it-puzzle-party"))
        )
    assert refused.value.message == (
        "Entries exist in the category “teams”; the new rulebook must keep it."
    )
    assert snapshot(event) == before


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form_data(event: Event, **changes: str) -> dict[str, str]:
    book = event.rulebook
    data = {
        "title": event.title,
        "starts_at": event.local_start.strftime("%Y-%m-%dT%H:%M"),
        "timezone": event.timezone,
        "venue": event.venue,
        "language": event.language,
        "registration_opens": str(book.registration.opens or ""),
        "registration_closes": str(book.registration.closes or ""),
        "registration_cap": str(book.registration.cap or ""),
    }
    data |= {f"cap_{c.key}": str(c.cap or "") for c in book.categories}
    data |= {f"fee_{f.key}": str(f.price.amount) for f in book.fees}
    return data | changes


@pytest.mark.django_db
def test_the_edit_page_saves_and_shows_refusals_by_field(party: Any) -> None:
    event, alice = party
    client = signed_in(alice)
    url = f"/organize/{event.slug}/edit/"
    page = client.get(url).content.decode()
    assert '<input type="number" name="cap_pairs" value="50"' in page
    assert 'name="rulebook_text"' not in page  # open for registration: no longer a draft
    assert "its rulebook can no longer be replaced" in page
    assert f'href="{url}"' in client.get(f"/organize/{event.slug}/").content.decode()

    refused = client.post(url, form_data(event, cap_pairs="2")).content.decode()
    assert "Pairs: 3 entries are already approved; the cap cannot be lower than 3." in refused
    assert snapshot(event)[3] == preset_text("it-puzzle-party")

    saved = client.post(url, form_data(event, cap_pairs="40", starts_at="2026-05-24T16:00"))
    assert saved["Location"] == f"/organize/{event.slug}/"
    event = fresh(event)
    assert event.rulebook.categories[0].cap == 40
    assert event.starts_at == dt.datetime(2026, 5, 24, 16, 0, tzinfo=ROME)


@pytest.mark.django_db
def test_the_edit_page_in_czech(party: Any) -> None:
    event, alice = party
    client = signed_in(alice)
    page = client.post(
        f"/cs/organize/{event.slug}/edit/", form_data(event, cap_pairs="2")
    ).content.decode()
    assert "Dvojice: schválených přihlášek je již 3; limit nemůže být nižší než 3." in page
    assert "Limit: Dvojice" in page  # the field's label, the category's title translated


@pytest.mark.django_db
def test_the_draft_page_lists_the_problems_of_a_replaced_rulebook(
    make_user: Any, make_event: Any
) -> None:
    olga = make_user("olga")
    event = make_event("it-puzzle-party", organizer=olga, status=Event.Status.DRAFT)
    client = signed_in(olga)
    url = f"/organize/{event.slug}/edit/"
    assert 'name="rulebook_text"' in client.get(url).content.decode()
    broken = preset_text("it-puzzle-party").replace("kind: pair", "kind: trio")
    page = client.post(url, form_data(event, rulebook_text=broken)).content.decode()
    assert "Problems in the rulebook" in page
    assert "<code>categories[0].entrants.kind</code>" in page
    assert snapshot(event)[3] == preset_text("it-puzzle-party")


@pytest.mark.django_db
def test_an_oversized_rulebook_is_refused_fast_with_bounded_memory(
    make_user: Any, make_event: Any
) -> None:
    olga = make_user("olga")
    event = make_event("it-puzzle-party", organizer=olga, status=Event.Status.DRAFT)
    client = signed_in(olga)
    huge = "notes:\n" + "  - clause: x\n" * 30_000  # 420 KB
    url = f"/organize/{event.slug}/edit/"
    assert client.get(url).status_code == 200  # templates and catalogues loaded: not timed
    tracemalloc.start()
    started = time.process_time()  # CPU time: a busy machine stretches the wall clock
    page = client.post(url, form_data(event, rulebook_text=huge)).content.decode()
    cpu = time.process_time() - started
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert "Ensure this value has at most 262144 characters (it has 420006)." in page
    assert cpu < 2, cpu
    assert peak < 100 * 2**20, peak
    assert snapshot(event)[3] == preset_text("it-puzzle-party")
