"""The desks with the network cut (Chromium, the context set offline): a referee records three
results and a desk checks two people in offline, reloads the page still offline (served by the
service worker: the kept copy), and when the network returns each tap is stored exactly once,
a finish with the time it was tapped at, not the time it arrived; another phone's different
value comes back as a choice; a tap refused by a rule says why; a session that expired
offline sends its taps after the next login. All by keyboard where a referee would type.

Hand-worked: group A started 30 minutes before the page opens; a finish tapped offline at
T and sent at T + 4 s or later is stored as the clock at T (to the second, rounded down).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from podium.engine.timing import parse_clock
from podium.web.models import AuditEntry, CheckIn, Result, Signal

QUALI = "individual-qualification"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cz-jigsaw", starts_at=timezone.now() - dt.timedelta(minutes=40))
    people = staff(event, organizer="olga", head="renata", referee="rudolf")
    for number, name in ((1, "Anna Nová"), (2, "Bohdan Malý"), (3, "Cecílie Kos"), (4, "Dan Ryba")):
        add_entry(event, number, name, group="A")
    started = timezone.now() - dt.timedelta(minutes=30)
    Signal.objects.create(
        event=event, stage=QUALI, group="A", kind="start", at=started, given_by=people["organizer"]
    )
    return event, people, started


def controlled(page: Any, url: str) -> None:
    """Opens the desk, waits for the service worker, and opens it again under its control (so
    the worker keeps this page)."""
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("!!navigator.serviceWorker.controller")


def referee_phone(new_context: Any, sign_in: Any, user: Any, event: Any) -> tuple[Any, Any, str]:
    """A signed-in phone on the console of the qualification, under the service worker."""
    context = new_context(viewport=PHONE)
    sign_in(context, user)
    phone = context.new_page()
    console = reverse("results:round", args=[event.slug, QUALI, 1])
    controlled(phone, console)
    return context, phone, console


def badge(page: Any) -> str:
    return str(page.locator("[data-offline] .outbox").inner_text())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_three_results_and_two_check_ins_offline_are_stored_once_when_the_network_returns(
    cz: Any, new_context: Any, sign_in: Any
) -> None:
    event, people, started = cz
    context, phone, _console = referee_phone(new_context, sign_in, people["referee"], event)
    kept_at = phone.locator("[data-offline]").get_attribute("data-server-now")

    context.set_offline(True)
    tapped = [timezone.now()]
    phone.locator("#entry-1").get_by_role("button", name="Finished — #1 Anna Nová").click()
    phone.wait_for_selector("text=Kept on this phone, not sent yet: #1 Anna Nová")
    keyed = phone.locator("#keyed-entry")
    keyed.get_by_label("Number").fill("2")
    keyed.get_by_label("Number").press("Tab")
    phone.keyboard.type("0:20:00")
    phone.keyboard.press("Enter")
    tapped.append(timezone.now())
    phone.locator("#entry-3").get_by_role("button", name="Finished — #3 Cecílie Kos").click()
    phone.wait_for_function("document.querySelector('.outbox').textContent.startsWith('3 ')")
    assert badge(phone).startswith("3 not sent yet")
    assert not Result.objects.exists()

    phone.wait_for_timeout(4000)  # the taps wait on the phone while the clock runs on
    phone.reload()  # still offline: the service worker's copy, the outbox still there
    assert phone.locator("[data-offline]").get_attribute("data-server-now") == kept_at
    phone.wait_for_function("document.querySelector('.outbox').textContent.startsWith('3 ')")
    phone.screenshot(path="/tmp/podium-offline-console.png", full_page=True)

    context.set_offline(False)
    phone.wait_for_function("document.querySelector('.outbox').hidden", timeout=15_000)
    stored = {r.entry.number: r for r in Result.objects.select_related("entry")}
    assert sorted(stored) == [1, 2, 3]
    assert Result.objects.count() == 3  # each once
    assert stored[2].cells["time"] == "0:20:00"
    for number, at in ((1, tapped[0]), (3, tapped[1])):
        clock_ms = parse_clock(stored[number].cells["time"])
        tap_ms = (at - started).total_seconds() * 1000
        assert tap_ms - 2000 <= clock_ms <= tap_ms + 3000, (number, clock_ms, tap_ms)
    phone.wait_for_selector("text=#1 Anna Nová finished:")

    # The check-in desk, offline: two people found in the list kept on the phone.
    desk = reverse("desk:desk", args=[event.slug])
    controlled(phone, desk)
    context.set_offline(True)
    search = phone.get_by_role("searchbox")
    for number, name in ((1, "Anna Nová"), (4, "Dan Ryba")):
        search.fill(name.split()[0].lower())
        phone.get_by_role("button", name=f"Check in — #{number} {name}").last.click()
    phone.wait_for_function("document.querySelector('.outbox').textContent.startsWith('2 ')")
    phone.reload()
    phone.wait_for_function("document.querySelector('.outbox').textContent.startsWith('2 ')")
    assert not CheckIn.objects.exists()
    context.set_offline(False)
    phone.wait_for_function("document.querySelector('.outbox').hidden", timeout=15_000)
    assert sorted(CheckIn.objects.values_list("entry__number", flat=True)) == [1, 4]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_conflict_offers_the_choice_and_a_refusal_says_why(
    cz: Any, new_context: Any, sign_in: Any
) -> None:
    event, people, _started = cz
    first_context, first, console = referee_phone(new_context, sign_in, people["referee"], event)
    second_context = new_context(viewport=PHONE)
    sign_in(second_context, people["head"])
    second = second_context.new_page()
    second.goto(console)

    first_context.set_offline(True)
    first.locator("#entry-1").get_by_role("button", name="Finished — #1 Anna Nová").click()
    keyed = second.locator("#keyed-entry")
    keyed.get_by_label("Number").fill("1")
    keyed.get_by_label("Time").fill("0:25:00")
    keyed.get_by_label("Time").press("Enter")
    second.wait_for_selector("text=#1 Anna Nová recorded: time 0:25:00")

    first_context.set_offline(False)
    first.wait_for_selector("text=another device recorded “time 0:25:00” (renata,")
    first.get_by_role("button", name="Keep theirs: time 0:25:00").click()
    first.wait_for_function("!document.querySelector('.answers .conflict')")
    assert AuditEntry.objects.filter(action="result.conflict-theirs").count() == 1
    assert Result.objects.get().cells["time"] == "0:25:00"

    keyed = first.locator("#keyed-entry")
    keyed.get_by_label("Number").fill("99")
    keyed.get_by_label("Time").fill("0:21:00")
    keyed.get_by_label("Time").press("Enter")
    first.wait_for_selector("text=Not saved: #99 — No entrant has the number 99.")
    assert Result.objects.count() == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_taps_of_a_session_that_expired_offline_are_sent_after_the_next_login(
    cz: Any, new_context: Any, sign_in: Any
) -> None:
    event, people, _started = cz
    context, phone, console = referee_phone(new_context, sign_in, people["referee"], event)
    context.set_offline(True)
    phone.locator("#entry-2").get_by_role("button", name="Finished — #2 Bohdan Malý").click()
    Session.objects.all().delete()  # the session expires meanwhile
    context.set_offline(False)
    phone.wait_for_selector("text=You are signed out: 1 tap waits on this phone")
    assert not Result.objects.exists()

    sign_in(context, people["referee"])
    phone.goto(console)
    phone.wait_for_selector("text=#2 Bohdan Malý finished:", timeout=15_000)
    assert phone.locator(".outbox").is_hidden()
    stored = Result.objects.get()
    assert (stored.entry.number, stored.recorded_by) == (2, people["referee"])
