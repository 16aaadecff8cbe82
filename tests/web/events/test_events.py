"""Events from rulebooks: creation from a preset or an uploaded YAML, staff, squads, dashboard."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from podium.rules.loader import preset_text
from podium.web.events.services.events import (
    RulebookRefused,
    event_create,
    event_set_status,
    role_appoint,
    squad_create,
)
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Event, EventRole, Squad

PRAGUE = zoneinfo.ZoneInfo("Europe/Prague")
START = dt.datetime(2026, 6, 20, 9, 0, tzinfo=PRAGUE)


def bad_cba() -> str:
    return (
        preset_text("cba-qualifier")
        .replace("games: 6", "games: many")
        .replace("opens_before_min: 30", "opens_before_min: -5")
    )


def line_of(text: str, needle: str) -> int:
    """The 1-based line of ``needle`` in ``text`` (where the loader must point)."""
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


BAD_OPENS = line_of(bad_cba(), "opens_before_min: -5")
BAD_GAMES = line_of(bad_cba(), "games: many")


def create(organizer: Any, **overrides: Any) -> Event:
    fields: dict[str, Any] = {
        "organizer": organizer,
        "title": "ČBA qualifier",
        "slug": "cba-2026",
        "preset": "cba-qualifier",
        "starts_at": START,
        "timezone": "Europe/Prague",
        "venue": "Bowling Brno",
        "language": "cs",
    }
    fields.update(overrides)
    return event_create(**fields)


@pytest.mark.django_db
def test_event_from_a_preset_makes_its_creator_the_organizer(make_user: Any) -> None:
    alice = make_user("alice")
    event = create(alice)
    assert event.rulebook_key == "cba-qualifier"
    assert event.status == Event.Status.DRAFT
    assert event.local_start == START
    assert event.rulebook.check_in is not None
    assert list(event.roles.values_list("user__username", "role")) == [("alice", "organizer")]
    assert AuditEntry.objects.get().action == "event.create"


@pytest.mark.django_db
def test_an_uploaded_rulebook_with_problems_creates_nothing(make_user: Any) -> None:
    alice = make_user("alice")
    with pytest.raises(RulebookRefused) as refused:
        create(alice, preset=None, rulebook_text=bad_cba())
    found = {(p.line, p.path) for p in refused.value.problems}
    assert found == {(BAD_OPENS, "check_in.opens_before_min"), (BAD_GAMES, "stages[0].games")}
    assert not Event.objects.exists()
    assert not EventRole.objects.exists()
    assert not AuditEntry.objects.exists()


@pytest.mark.django_db
def test_an_uploaded_rulebook_without_problems_is_stored(make_user: Any) -> None:
    text = preset_text("it-puzzle-party")
    event = create(make_user("alice"), preset=None, rulebook_text=text, slug="pp")
    assert event.rulebook_text == text
    assert event.rulebook_key == "it-puzzle-party"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"slug": "Not A Slug"}, "slug"),
        ({"title": "  "}, "title"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"language": "de"}, "language"),
        ({"preset": "chess"}, "preset"),
        ({"rulebook_text": "key: x"}, "preset"),  # a preset AND a file
        ({"starts_at": dt.datetime(2026, 6, 20, 9, 0)}, "starts_at"),
    ],
)
def test_bad_event_fields_are_refused(
    make_user: Any, overrides: dict[str, Any], field: str
) -> None:
    with pytest.raises(Refused) as refused:
        create(make_user("alice"), **overrides)
    assert refused.value.field == field
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_a_taken_slug_is_refused(make_user: Any) -> None:
    create(make_user("alice"))
    with pytest.raises(Refused) as refused:
        create(make_user("bob"))
    assert refused.value.field == "slug"
    assert Event.objects.count() == 1


@pytest.mark.django_db
def test_only_an_organizer_of_the_event_appoints_staff(make_user: Any, make_event: Any) -> None:
    alice, bob, carol, dave = (make_user(n) for n in ("alice", "bob", "carol", "dave"))
    event = make_event("deti-kolomny", organizer=alice)
    make_event("cz-jigsaw", organizer=dave)
    role_appoint(event=event, by=alice, user=bob, role=EventRole.Role.REFEREE)
    role_appoint(event=event, by=alice, user=carol, role=EventRole.Role.JURY)
    assert set(event.roles.values_list("user__username", "role")) == {
        ("alice", "organizer"),
        ("bob", "referee"),
        ("carol", "jury"),
    }
    before = AuditEntry.objects.count()
    for intruder in (bob, dave):  # a referee of this event; the organizer of another one
        with pytest.raises(Refused):
            role_appoint(event=event, by=intruder, user=intruder, role="organizer")
    with pytest.raises(Refused) as twice:
        role_appoint(event=event, by=alice, user=bob, role=EventRole.Role.REFEREE)
    assert twice.value.field == "username"
    assert event.roles.count() == 3
    assert AuditEntry.objects.count() == before


@pytest.mark.django_db
def test_squads_with_start_and_capacity(make_user: Any, make_event: Any) -> None:
    alice = make_user("alice")
    event = make_event("cba-qualifier", organizer=alice)
    start = dt.datetime(2012, 3, 24, 9, 0, tzinfo=PRAGUE)
    squad = squad_create(event=event, by=alice, name="Squad 1", starts_at=start, capacity=24)
    assert (squad.starts_at, squad.capacity) == (start, 24)
    for bad, field in (({"name": "Squad 1"}, "name"), ({"capacity": 0}, "capacity")):
        fields: dict[str, Any] = {"name": "Squad 2", "starts_at": start, "capacity": 24} | bad
        with pytest.raises(Refused) as refused:
            squad_create(event=event, by=alice, **fields)
        assert refused.value.field == field
    with pytest.raises(Refused):
        squad_create(event=event, by=make_user("bob"), name="X", starts_at=start, capacity=2)
    assert Squad.objects.count() == 1


@pytest.mark.django_db
def test_status_change_by_the_organizer_only(make_user: Any, make_event: Any) -> None:
    alice = make_user("alice")
    event = make_event("cz-jigsaw", organizer=alice, status=Event.Status.DRAFT)
    with pytest.raises(Refused):
        event_set_status(event=event, by=make_user("bob"), status=Event.Status.OPEN)
    event_set_status(event=event, by=alice, status=Event.Status.OPEN)
    event.refresh_from_db()
    assert event.status == Event.Status.OPEN


# --- pages -------------------------------------------------------------------------------------


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


FORM = {
    "title": "Czech Jigsaw 2026",
    "slug": "cz-2026",
    "preset": "cz-jigsaw",
    "starts_at": "2026-06-20T09:00",
    "timezone": "Europe/Prague",
    "venue": "Praha",
    "language": "cs",
}


@pytest.mark.django_db
def test_new_event_page_creates_from_a_preset(make_user: Any) -> None:
    client = logged_in(make_user("alice"))
    response = client.post("/organize/new/", FORM)
    assert response.status_code == 302
    assert response["Location"] == "/organize/cz-2026/"
    event = Event.objects.get()
    # 09:00 typed in Prague is 07:00 UTC in summer.
    assert event.starts_at == dt.datetime(2026, 6, 20, 7, 0, tzinfo=dt.UTC)
    page = client.get("/organize/").content.decode()
    assert "Czech Jigsaw 2026" in page


@pytest.mark.django_db
def test_new_event_page_shows_every_rulebook_problem(make_user: Any) -> None:
    client = logged_in(make_user("alice"))
    upload = SimpleUploadedFile("cba.yaml", bad_cba().encode(), "application/yaml")
    response = client.post("/organize/new/", FORM | {"preset": "", "rulebook_file": upload})
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<td>{BAD_OPENS}</td><td><code>check_in.opens_before_min</code></td>" in html
    assert f"<td>{BAD_GAMES}</td><td><code>stages[0].games</code></td>" in html
    assert "Input should be greater than or equal to 0" in html
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_new_event_page_shows_a_yaml_syntax_error(make_user: Any) -> None:
    client = logged_in(make_user("alice"))
    upload = SimpleUploadedFile("x.yaml", b"key: [unclosed\ntitle: x\n", "application/yaml")
    html = client.post("/organize/new/", FORM | {"preset": "", "rulebook_file": upload})
    assert "not valid YAML" in html.content.decode()
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_dashboard_shows_what_the_rulebook_implies(make_user: Any, make_event: Any) -> None:
    alice = make_user("alice")
    event = make_event("cba-qualifier", organizer=alice, timezone="Europe/Prague")
    client = logged_in(alice)
    response = client.post(
        "/organize/cba-qualifier/squads/",
        {"name": "Squad A", "starts_at": "2012-03-24T10:00", "capacity": "24"},
    )
    assert response.status_code == 302
    squad = event.squads.get()
    assert squad.starts_at == dt.datetime(2012, 3, 24, 9, 0, tzinfo=dt.UTC)  # CET is UTC+1
    make_user("bob")
    client.post("/organize/cba-qualifier/roles/", {"username": "bob", "role": "referee"})
    html = client.get("/organize/cba-qualifier/").content.decode()
    assert "Qualification" in html  # the stage
    for division in event.rulebook.divisions.items:  # type: ignore[union-attr]
        assert division.title in html
    assert "<td>Squad A</td>" in html
    assert "<td>24</td>" in html
    assert "bob — referee" in html

    cz = make_event("cz-jigsaw", organizer=alice)
    html = client.get(f"/organize/{cz.slug}/").content.decode()
    assert html.count('class="stage"') == len(cz.rulebook.stages)
    assert "A, B" in html  # the qualification groups


@pytest.mark.django_db
def test_appointing_an_unknown_user_shows_the_error(make_user: Any, make_event: Any) -> None:
    alice = make_user("alice")
    make_event("cz-jigsaw", organizer=alice)
    response = logged_in(alice).post(
        "/organize/cz-jigsaw/roles/", {"username": "nobody", "role": "referee"}
    )
    assert response.status_code == 200
    assert "No such user." in response.content.decode()
    assert EventRole.objects.count() == 1


def test_the_new_event_page_names_the_presets_by_their_titles(make_user: Any) -> None:
    client = Client()
    client.force_login(make_user("newcomer"))
    czech = client.get("/cs/organize/new/").content.decode()
    assert (
        '<option value="cba-qualifier">Dodatkový kvalifikační turnaj ČBA (cba-qualifier)' in czech
    )
    english = client.get("/organize/new/").content.decode()
    assert '<option value="cz-jigsaw">Czech Jigsaw Puzzle Championship (cz-jigsaw)' in english
