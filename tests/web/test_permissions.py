"""Every organizer, registrations, desk and participant URL, tried by outsiders.

The URL patterns are read from the resolver, so pages added later are covered too. An
anonymous visitor is sent to log in (or gets 403/404/405); an organizer or referee of ANOTHER
event gets 403/404 on every page of this event (405 for a GET of a POST-only URL), and a POST
changes nothing: every row of every model is the same before and after.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter
from django.utils import timezone

from podium.web.models import Draw, Entry, EntryMember, EventRole, Person, Squad
from podium.web.registration.services.payments import payment_record

NAMESPACES = (
    "organizer",
    "registrations",
    "desk",
    "participant",
    "results",
    "checks",
    "board",
    "chgk",
    "bowling",
    "battles",
    "calendar",
    "publication",
    "advancement",
    "tokens",
    "imports",
    "appeals",
    "jury",
    "protests",
    "discipline",
    "season",
    "questions",
)
PUBLIC = {("questions", "database")}  # the club's public question database
# Every model of the app, so a model added later is watched too.
MODELS = tuple(apps.get_app_config("podium").get_models())
SECRET = "Zdeňka Tajná"


def walk(
    patterns: list[Any], namespace: str | None, converters: dict[str, Any]
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for p in patterns:
        found = {**converters, **getattr(p.pattern, "converters", {})}
        if isinstance(p, URLResolver):
            inner = f"{namespace}:{p.namespace}" if namespace and p.namespace else p.namespace
            yield from walk(p.url_patterns, inner or namespace, found)
        elif (
            isinstance(p, URLPattern)
            and namespace in NAMESPACES
            and p.name
            and (namespace, p.name) not in PUBLIC
        ):
            yield namespace, p.name, found


def routes() -> list[tuple[str, str, dict[str, Any]]]:
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for namespace, name, converters in walk(get_resolver().url_patterns, None, {}):
        seen.setdefault((namespace, name), converters)
    return [(ns, name, conv) for (ns, name), conv in sorted(seen.items())]


def snapshot() -> dict[str, list[dict[str, Any]]]:
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in MODELS}


@pytest.fixture
def world(make_user: Any, make_event: Any) -> dict[str, Any]:
    """The target event with one of everything; its outsiders run another event."""
    alice = make_user("alice")
    start = timezone.now() + dt.timedelta(minutes=20)  # the check-in window is open now
    event = make_event("cba-qualifier", organizer=alice, starts_at=start)
    squad = Squad.objects.create(event=event, name="A", starts_at=start, capacity=10)
    person = Person.objects.create(first_name="Zdeňka", last_name="Tajná", user=make_user("zd"))
    entry = Entry.objects.create(
        event=event, category="players", name=SECRET, number=1, status="confirmed"
    )
    EntryMember.objects.create(entry=entry, person=person)
    entry.registered_by = person.user
    entry.save()
    waiting = Entry.objects.create(
        event=event, category="players", name="Waiting", number=2, status="waiting"
    )
    waiting.waiting_position = 1
    waiting.save()
    payment = payment_record(entry=entry, fee_key="entry", amount="600", method="cash", by=alice)
    draw = Draw.objects.create(event=event, kind="groups", seed="1", result={})
    other_organizer, other_referee = make_user("olga"), make_user("rudolf")
    other = make_event("cba-qualifier", slug="other", organizer=other_organizer)
    EventRole.objects.create(event=other, user=other_referee, role=EventRole.Role.REFEREE)
    return {
        "event": event,
        "entry": entry,
        "squad": squad,
        "payment": payment,
        "draw": draw,
        "member": entry.members.get(),
        "outsiders": [other_organizer, other_referee],
    }


def kwargs_for(converters: dict[str, Any], world: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    for name, converter in converters.items():
        if not isinstance(converter, IntConverter):
            kwargs[name] = world["event"].slug
        elif "number" in name or "receipt" in name:
            kwargs[name] = world["payment"].receipt_number
        elif "draw" in name:
            kwargs[name] = world["draw"].pk
        elif "squad" in name:
            kwargs[name] = world["squad"].pk
        elif "payment" in name:
            kwargs[name] = world["payment"].pk
        elif "member" in name:
            kwargs[name] = world["member"].pk
        else:
            kwargs[name] = world["entry"].pk
    return kwargs


def payload(world: dict[str, Any], outsider: Any) -> dict[str, Any]:
    """Plausible data for any of the forms, so a missing check would really change something."""
    return {
        "username": outsider.username,
        "role": "organizer",
        "entry": world["entry"].pk,
        "fee_key": "entry",
        "amount": "600",
        "method": "cash",
        "seat": "Lane 1",
        "q": "",
        "name": "Squad X",
        "starts_at": "2030-03-24T10:00",
        "capacity": "5",
        "status": "finished",
        "reason": "because",
        "position": "1",
        "seed": "42",
    }


def test_the_walk_finds_the_pages() -> None:
    names = {(ns, name) for ns, name, _ in routes()}
    assert {("organizer", "payments"), ("desk", "check-in"), ("participant", "entries")} <= names


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_log_in(world: dict[str, Any]) -> None:
    client = Client()
    before = snapshot()
    for namespace, name, converters in routes():
        url = reverse(f"{namespace}:{name}", kwargs=kwargs_for(converters, world))
        for method in ("get", "post"):
            response = getattr(client, method)(url, payload(world, world["outsiders"][0]))
            if response.status_code == 302:
                assert response["Location"].startswith("/accounts/login/?next="), (method, url)
            elif response.status_code == 401:  # a desk's JSON: the phone keeps its taps
                assert response.json()["signed_out"] is True, (method, url)
            else:
                assert response.status_code in (403, 404, 405), (method, url)
    assert snapshot() == before


@pytest.mark.django_db
def test_staff_of_another_event_see_and_change_nothing(world: dict[str, Any]) -> None:
    before = snapshot()
    checked = 0
    for outsider in world["outsiders"]:
        client = Client()
        client.force_login(outsider)
        for namespace, name, converters in routes():
            kwargs = kwargs_for(converters, world)
            url = reverse(f"{namespace}:{name}", kwargs=kwargs)
            own_pages = namespace == "participant" and not any(
                isinstance(c, IntConverter) for c in converters.values()
            )
            data = {} if own_pages else payload(world, outsider)
            for method in ("get", "post"):
                response = getattr(client, method)(url, data)
                html = response.content.decode(errors="replace")
                assert SECRET not in html, (outsider, method, url)
                if kwargs and not own_pages:
                    allowed = (403, 404, 405) if method == "get" else (403, 404)
                    assert response.status_code in allowed, (outsider, method, url)
                    checked += 1
                else:
                    assert response.status_code < 500, (outsider, method, url)
            assert snapshot() == before, (outsider, url)
    assert checked >= 2 * 2 * 8  # two outsiders, GET and POST, at least this engineer's pages
