"""The check-in desk's live counts, undoing a check-in with a reason, the "not yet here" filter,
and an entry's check-in code (its QR on the confirmation page) looked up at the desk.

Hand-worked:
- IT Puzzle Party at 15:00 Rome: check-in from 14:40, no close; a no-show from 15:10. Three
  confirmed pairs (#1–#3), one awaiting approval (#4), one waiting (#5): 3 expected. #1 checks in
  at 14:45: 1 checked in, 2 not yet here, 0 no-shows at 15:09, 2 no-shows at 15:10.
- ČBA squad at 10:00 Prague: check-in 9:30–9:45, no no-show rule, so a player not checked in
  is a no-show once the window closes: none at 9:45, one at 9:46.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from typing import Any

import pytest
from django.test import Client

from podium.web.events.services.events import squad_create
from podium.web.kernel.refusals import Refused
from podium.web.live import versions
from podium.web.models import AuditEntry, CheckIn, Entry, EventRole
from podium.web.registration.selectors.desk import checkin_code, counts, entry_by_code, search
from podium.web.registration.services.checkin import checkin_record, checkin_undo

ROME = zoneinfo.ZoneInfo("Europe/Rome")
PRAGUE = zoneinfo.ZoneInfo("Europe/Prague")


def rome(h: int, m: int) -> dt.datetime:
    return dt.datetime(2026, 5, 24, h, m, tzinfo=ROME)


def add(event: Any, number: int, **fields: Any) -> Entry:
    fields.setdefault("status", Entry.Status.CONFIRMED)
    fields.setdefault("category", event.rulebook.categories[0].key)
    fields.setdefault("name", f"Pair {number}")
    return Entry.objects.create(event=event, number=number, **fields)


@pytest.fixture
def party(make_user: Any, make_event: Any) -> Any:
    alice = make_user("alice")
    event = make_event(
        "it-puzzle-party", organizer=alice, starts_at=rome(15, 0), timezone="Europe/Rome"
    )
    pairs = [add(event, n, table_number=n) for n in (1, 2, 3)]
    add(event, 4, status=Entry.Status.PENDING)
    add(event, 5, status=Entry.Status.WAITING, waiting_position=1)
    return event, alice, pairs


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_counts_of_checked_in_expected_and_no_shows(party: Any) -> None:
    event, alice, pairs = party
    checkin_record(entry=pairs[0], by=alice, now=rome(14, 45))
    before = counts(event, rome(15, 9))
    assert (before.checked_in, before.expected, before.not_yet, before.no_shows) == (1, 3, 2, 0)
    after = counts(event, rome(15, 10))
    assert (after.checked_in, after.not_yet, after.no_shows) == (1, 2, 2)


@pytest.mark.django_db
def test_without_a_no_show_rule_the_close_of_check_in_makes_no_shows(
    make_user: Any, make_event: Any
) -> None:
    bea = make_user("bea")
    start = dt.datetime(2012, 3, 24, 9, 0, tzinfo=PRAGUE)
    event = make_event("cba-qualifier", organizer=bea, starts_at=start, timezone="Europe/Prague")
    squad = squad_create(
        event=event, by=bea, name="B", starts_at=start.replace(hour=10), capacity=4
    )
    here = add(event, 1, squad=squad)
    add(event, 2, squad=squad)
    checkin_record(entry=here, by=bea, now=start.replace(hour=9, minute=40))
    assert counts(event, start.replace(hour=9, minute=45)).no_shows == 0
    assert counts(event, start.replace(hour=9, minute=46)).no_shows == 1


@pytest.mark.django_db
def test_undo_a_check_in_with_a_reason_audited(party: Any) -> None:
    event, alice, pairs = party
    checkin_record(entry=pairs[1], by=alice, now=rome(14, 50), seat="Table 9")
    entry = checkin_undo(entry=pairs[1], by=alice, reason="Wrong card tapped: it was #3")
    assert not CheckIn.objects.filter(entry=pairs[1]).exists()
    assert not hasattr(entry, "check_in") or entry.check_in is None
    undone = AuditEntry.objects.get(action="entry.check-in-undo")
    assert undone.data["reason"] == "Wrong card tapped: it was #3"
    assert undone.data["seat"] == "Table 9"
    assert undone.actor == alice
    assert undone.scope == "desk"
    assert counts(event, rome(14, 55)).checked_in == 0
    # Checked in again afterwards, as any pair not yet here.
    assert checkin_record(entry=pairs[1], by=alice, now=rome(14, 56)).seat == "Table 2"


@pytest.mark.django_db
def test_undo_refusals_change_nothing(party: Any, make_user: Any) -> None:
    event, alice, pairs = party
    checkin_record(entry=pairs[0], by=alice, now=rome(14, 45))
    audits = AuditEntry.objects.count()
    with pytest.raises(Refused, match=re.escape("Say why the check-in is undone.")) as refused:
        checkin_undo(entry=pairs[0], by=alice, reason="   ")
    assert refused.value.field == "reason"
    with pytest.raises(Refused, match=re.escape("#2 is not checked in; there is nothing to undo.")):
        checkin_undo(entry=pairs[1], by=alice, reason="oops")
    stranger = make_user("dave")
    with pytest.raises(Refused, match="Only an organizer or referee of this event"):
        checkin_undo(entry=pairs[0], by=stranger, reason="not mine")
    referee = make_user("rita")
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    assert (CheckIn.objects.count(), AuditEntry.objects.count()) == (1, audits)
    checkin_undo(entry=pairs[0], by=referee, reason="Left again before the start")
    assert CheckIn.objects.count() == 0


@pytest.mark.django_db
def test_a_check_in_and_its_undo_change_the_desks_tag_and_no_table(party: Any) -> None:
    event, alice, pairs = party
    stage = event.rulebook.stages[0]
    desk, table = versions.desk_tag(event.slug), versions.stage_tag(event.slug, stage)
    checkin_record(entry=pairs[0], by=alice, now=rome(14, 45))
    checked = versions.desk_tag(event.slug)
    assert checked != desk
    checkin_undo(entry=pairs[0], by=alice, reason="Wrong pair")
    assert versions.desk_tag(event.slug) not in (desk, checked)
    assert versions.stage_tag(event.slug, stage) == table  # the standings are not recomputed


@pytest.mark.django_db
def test_the_check_in_code_finds_its_entry_and_nothing_else(party: Any, make_event: Any) -> None:
    event, _alice, pairs = party
    twelve = add(event, 12, name="Rossi 3 & Bianchi")
    code = checkin_code(pairs[2])
    assert re.fullmatch(r"3-[0-9a-f]{8}", code)
    assert entry_by_code(event, code) == pairs[2]
    assert entry_by_code(event, code.upper()) == pairs[2]  # typed in capitals
    # A name with "3" in it does not come along: the code names one entry.
    assert [e.number for e in search(event, code)] == [3]
    assert [e.number for e in search(event, "3")] == [3, 12]
    forged = f"12-{code.split('-')[1]}"
    assert entry_by_code(event, forged) is None
    assert list(search(event, forged)) == []
    other = make_event("it-puzzle-party", slug="other-party")
    add(other, 3)
    assert entry_by_code(other, code) is None
    assert entry_by_code(event, checkin_code(twelve)) == twelve


@pytest.mark.django_db
def test_the_desk_page_counts_filters_and_undoes(party: Any) -> None:
    event, alice, pairs = party
    client = signed_in(alice)
    desk = f"/desk/{event.slug}/"
    client.post(f"{desk}checkin/{pairs[0].pk}/", {"seat": ""})
    html = client.get(desk).content.decode()
    assert '<strong data-count="checked-in">1</strong>' in html
    assert '<strong data-count="expected">3</strong>' in html
    assert '<strong data-count="not-yet">2</strong>' in html
    # The event's start (in May 2026) is long past: both pairs not yet here are no-shows.
    assert '<strong data-count="no-shows">2</strong>' in html
    filtered = client.get(f"{desk}?show=not-yet").content.decode()
    assert re.findall(r'id="entry-(\d+)"', filtered) == ["2", "3"]
    assert re.findall(r'id="entry-(\d+)"', html) == ["1", "2", "3", "4", "5"]

    refused = client.post(
        f"{desk}undo/{pairs[0].pk}/", {"reason": "", "show": "not-yet"}, follow=True
    )
    assert "Say why the check-in is undone." in refused.content.decode()
    assert refused.redirect_chain[-1][0] == f"{desk}?show=not-yet"
    too_long = client.post(f"{desk}undo/{pairs[0].pk}/", {"reason": "x" * 201}, follow=True)
    assert "#1 — Why undo it: Ensure this value has at most 200 characters (it has 201)." in (
        too_long.content.decode()
    )
    control = client.post(f"{desk}undo/{pairs[0].pk}/", {"reason": "a\x00b"}, follow=True)
    assert "The character U+0000 (at position 2) is not allowed" in control.content.decode()
    assert CheckIn.objects.count() == 1
    assert not AuditEntry.objects.filter(action="entry.check-in-undo").exists()
    # A checked-in pair's code, searched under "not yet here": found, only filtered out.
    code = checkin_code(pairs[0])
    hidden = client.get(desk, {"q": code, "show": "not-yet"}).content.decode()
    assert "No entry of this event has the check-in code" not in hidden
    assert 'id="entry-1"' not in hidden
    done = client.post(f"{desk}undo/{pairs[0].pk}/", {"reason": "Tapped by mistake"}, follow=True)
    page = done.content.decode()
    assert "The check-in of #1 Pair 1 was undone." in page
    assert '<strong data-count="checked-in">0</strong>' in page
    assert AuditEntry.objects.get(action="entry.check-in-undo").data["reason"] == (
        "Tapped by mistake"
    )


@pytest.mark.django_db
def test_the_counts_fragment_answers_304_until_a_check_in(party: Any) -> None:
    event, alice, pairs = party
    client = signed_in(alice)
    url = f"/desk/{event.slug}/counts/"
    first = client.get(url)
    assert first.status_code == 200
    assert '<strong data-count="checked-in">0</strong>' in first.content.decode()
    etag = first["ETag"]
    assert f'hx-get="{url}"' in first.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # A check-in at another desk (another referee's phone) changes the counts.
    checkin_record(entry=pairs[2], by=alice)
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200
    assert '<strong data-count="checked-in">1</strong>' in again.content.decode()
    assert again["ETag"] != etag
    assert Client().get(url).status_code == 302  # to the login, not the counts


@pytest.mark.django_db
def test_the_confirmation_shows_the_qr_the_desk_looks_up(party: Any, make_user: Any) -> None:
    event, alice, pairs = party
    paola = make_user("paola")
    pending = Entry.objects.get(event=event, number=4)
    Entry.objects.filter(pk__in=[pairs[0].pk, pending.pk]).update(registered_by=paola)
    player = signed_in(paola)
    listing = player.get("/me/entries/").content.decode()
    assert f'href="/me/entries/{pairs[0].pk}/"' in listing
    page = player.get(f"/me/entries/{pairs[0].pk}/").content.decode()
    code = checkin_code(pairs[0])
    assert f'<p class="code" id="checkin-code">{code}</p>' in page
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page
    assert f"<title>Check-in code {code}</title>" in page
    assert "<script" not in page.split("<svg", 1)[1].split("</svg>", 1)[0]
    # Not confirmed yet: no code to show.
    waiting = player.get(f"/me/entries/{pending.pk}/").content.decode()
    assert "A check-in code comes with a confirmed entry." in waiting
    assert "<svg" not in waiting
    # Someone else's entry does not exist for this user.
    assert player.get(f"/me/entries/{pairs[1].pk}/").status_code == 404
    # The QR's address: the desk's search for the code, showing that card alone.
    desk = signed_in(alice).get(f"/desk/{event.slug}/", {"q": code}).content.decode()
    assert re.findall(r'id="entry-(\d+)"', desk) == ["1"]
    unknown = signed_in(alice).get(f"/desk/{event.slug}/", {"q": "1-00000000"}).content.decode()
    assert "No entry of this event has the check-in code 1-00000000." in unknown


@pytest.mark.django_db
def test_the_qr_encodes_the_desks_address_of_the_code(party: Any, make_user: Any) -> None:
    """The page's QR draws exactly the modules of the desk's address for the code."""
    import segno

    event, _alice, pairs = party
    code = checkin_code(pairs[1])
    address = f"http://testserver/desk/{event.slug}/?q={code}"
    paola = make_user("paola")
    Entry.objects.filter(pk=pairs[1].pk).update(registered_by=paola)
    page = signed_in(paola).get(f"/me/entries/{pairs[1].pk}/").content.decode()
    drawn = page.split("<svg", 1)[1].split("</svg>", 1)[0]
    expected = segno.make(address, error="m").svg_inline(scale=5, border=2)
    path = re.compile(r' d="([^"]+)"')
    assert path.findall(drawn) == path.findall(expected)
