"""The referee console through its views: record each format, refusals on the field, idempotent
resubmission, corrections with a reason, stale corrections, verification, and who may see it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.models import Entry, EntryMember, EventRole, Person, Result, Verification
from podium.web.services.results import result_correct, result_record

FINAL = "individual-final"
PASSWORD = "correct horse battery"


def entry(event: Any, number: int, name: str, country: str = "CZ", **fields: Any) -> Entry:
    fields.setdefault("status", Entry.Status.CONFIRMED)
    fields.setdefault("category", "individuals")
    made = Entry.objects.create(event=event, number=number, name=name, **fields)
    first, _, last = name.partition(" ")
    person = Person.objects.create(first_name=first, last_name=last or first, country=country)
    EntryMember.objects.create(entry=made, person=person, captain=True)
    return made


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def console_url(event: Any, stage: str = FINAL) -> str:
    return reverse("results:console", kwargs={"slug": event.slug, "stage": stage})


def record_url(event: Any, entry: Entry, stage: str = FINAL) -> str:
    return reverse(
        "results:record", kwargs={"slug": event.slug, "stage": stage, "entry_id": entry.pk}
    )


def form_data(client: Client, event: Any, entry: Entry, stage: str = FINAL) -> dict[str, str]:
    """The hidden fields of the entry's form as the console renders it."""
    html = client.get(console_url(event, stage)).content.decode()
    prefix = f"e{entry.pk}-"
    data = {}
    for name in ("idempotency_key", "result"):
        found = re.search(rf'name="{prefix}{name}"(?: value="([^"]*)")?', html)
        assert found is not None, name
        if found.group(1):
            data[prefix + name] = found.group(1)
    return data


def post(client: Client, event: Any, entry: Entry, stage: str = FINAL, **cells: str) -> Any:
    data = form_data(client, event, entry, stage)
    data.update({f"e{entry.pk}-{k}": v for k, v in cells.items()})
    return client.post(record_url(event, entry, stage), data, follow=True)


@pytest.fixture
def cz(make_user: Any, make_event: Any, put_in_stage: Any) -> Any:
    org, ref1, ref2 = make_user("olga"), make_user("rudolf"), make_user("renata")
    event = make_event("cz-jigsaw", organizer=org)
    EventRole.objects.create(event=event, user=ref1, role=EventRole.Role.REFEREE)
    EventRole.objects.create(event=event, user=ref2, role=EventRole.Role.HEAD_REFEREE)
    anna, bohdan = entry(event, 1, "Anna Nová"), entry(event, 2, "Bohdan Malý")
    put_in_stage(event, FINAL, anna, bohdan)
    return event, ref1, ref2, anna, bohdan


def test_stage_list_and_console_show_the_format(cz: Any) -> None:
    event, ref1, _ref2, anna, _bohdan = cz
    client = client_for(ref1)
    index = client.get(reverse("results:index", kwargs={"slug": event.slug})).content.decode()
    assert console_url(event) in index
    assert console_url(event, "team") in index
    html = client.get(console_url(event)).content.decode()
    assert "#1 Anna Nová" in html
    assert "#2 Bohdan Malý" in html
    for name in ("time", "missing", "pieces", "idempotency_key"):
        assert f'name="e{anna.pk}-{name}"' in html
    assert "H:MM:SS" in html
    found = client.get(console_url(event), {"q": "bohdan"}).content.decode()
    assert "Bohdan Malý" in found
    assert "Anna Nová" not in found
    assert "Anna Nová" in client.get(console_url(event), {"q": "1"}).content.decode()
    team = client.get(console_url(event, "team")).content.decode()
    assert "No entry found." in team  # no confirmed team; individuals are not in that stage
    assert "Results console" in client.get(f"/desk/{event.slug}/").content.decode()


def test_record_a_time(cz: Any) -> None:
    event, ref1, _ref2, anna, _bohdan = cz
    client = client_for(ref1)
    response = post(client, event, anna, time="1:02:03", missing="1")
    assert response.status_code == 200
    result = Result.objects.get()
    assert result.cells == {"time": "1:02:03", "missing": "1", "pieces": ""}
    assert result.recorded_by == ref1
    html = response.content.decode()
    assert "#1 Anna Nová recorded: time 1:02:03, missing 1" in html
    assert "not verified" in html


def test_record_bowling_games(make_user: Any, make_event: Any) -> None:
    org, ref = make_user("org"), make_user("ref")
    event = make_event("cba-qualifier", organizer=org)
    EventRole.objects.create(event=event, user=ref, role=EventRole.Role.REFEREE)
    player = entry(event, 7, "Karel Koule", category="players", division="master-men")
    client = client_for(ref)
    html = client.get(console_url(event, "qualification")).content.decode()
    for n in range(1, 7):
        assert f'name="e{player.pk}-g{n}"' in html
    games = {f"g{n}": str(150 + n) for n in range(1, 7)}
    response = post(client, event, player, "qualification", **games)
    assert response.status_code == 200, response.content.decode()
    assert Result.objects.get().cells == games
    assert "#7 Karel Koule recorded: g1 151" in response.content.decode()


def test_record_a_chgk_mask(make_user: Any, make_event: Any) -> None:
    org, ref = make_user("org"), make_user("ref")
    event = make_event("deti-kolomny", organizer=org)
    EventRole.objects.create(event=event, user=ref, role=EventRole.Role.REFEREE)
    team = entry(event, 1, "Sovy", country="RU", category="teams")
    client = client_for(ref)
    html = client.get(console_url(event, "chgk-tour")).content.decode()
    assert "15 characters: 1 right, 0 wrong, X void, ? unknown" in html
    short = post(client, event, team, "chgk-tour", mask="1010")
    assert short.status_code == 400
    assert "mask" in short.content.decode()
    assert not Result.objects.exists()
    response = post(client, event, team, "chgk-tour", mask="10101010101010X")
    assert response.status_code == 200
    assert Result.objects.get().cells == {"questions": "", "mask": "10101010101010X"}
    assert "recorded: mask 10101010101010X" in response.content.decode()


def test_a_bad_time_is_refused_on_the_field_and_nothing_stored(cz: Any) -> None:
    event, ref1, _ref2, anna, _bohdan = cz
    response = post(client_for(ref1), event, anna, time="9:99")
    assert response.status_code == 400
    html = response.content.decode()
    assert "column time: &#x27;9:99&#x27; is not a time: write H:MM:SS or M:SS" in html
    # the message sits in the time field's label, next to its input
    label = re.search(r"<label>[^<]*Time<input[^>]*>.*?</label>", html, re.S)
    assert label is not None
    assert "is not a time" in label.group(0)
    assert not Result.objects.exists()


def test_the_same_form_resubmitted_records_once(cz: Any) -> None:
    event, ref1, _ref2, anna, _bohdan = cz
    client = client_for(ref1)
    data = form_data(client, event, anna)
    data[f"e{anna.pk}-time"] = "1:10:00"
    first = client.post(record_url(event, anna), data)
    again = client.post(record_url(event, anna), data)  # the connection dropped; sent again
    assert first.status_code == again.status_code == 302
    assert Result.objects.count() == 1
    # two freshly rendered forms carry different keys
    assert form_data(client, event, anna) != form_data(client, event, anna)


def test_a_correction_needs_a_reason_and_corrects_the_current_result(cz: Any) -> None:
    event, ref1, ref2, anna, _bohdan = cz
    first = result_record(
        event=event, stage=FINAL, entry=anna, cells={"time": "1:10:00"}, by=ref1,
        idempotency_key="a",
    )  # fmt: skip
    client = client_for(ref2)
    html = client.get(console_url(event)).content.decode()
    assert f'name="e{anna.pk}-reason"' in html
    assert ">Correct<" in html
    assert form_data(client, event, anna)[f"e{anna.pk}-result"] == str(first.pk)
    refused = post(client, event, anna, time="1:02:00")
    assert refused.status_code == 400
    assert "A correction needs a reason." in refused.content.decode()
    assert Result.objects.count() == 1
    done = post(client, event, anna, time="1:02:00", reason="misread the clock")
    assert done.status_code == 200
    correction = Result.objects.get(corrects=first)
    assert (correction.cells["time"], correction.reason) == ("1:02:00", "misread the clock")
    assert "#1 Anna Nová corrected to: time 1:02:00" in done.content.decode()


def test_a_stale_correction_is_refused_with_both_values(cz: Any) -> None:
    event, ref1, ref2, anna, _bohdan = cz
    first = result_record(
        event=event, stage=FINAL, entry=anna, cells={"time": "1:10:00"}, by=ref1,
        idempotency_key="a",
    )  # fmt: skip
    client = client_for(ref2)
    data = form_data(client, event, anna)  # ref2 sees 1:10:00 …
    result_correct(  # … while ref1 corrects it
        result=first, cells={"time": "1:01:00"}, by=ref1, reason="r1", idempotency_key="b"
    )
    data.update({f"e{anna.pk}-time": "1:20:00", f"e{anna.pk}-reason": "r2"})
    response = client.post(record_url(event, anna), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "it is now “time 1:01:00”" in html
    assert "you corrected “time 1:10:00”" in html
    assert Result.objects.count() == 2


def test_verify_by_another_referee(cz: Any) -> None:
    event, ref1, ref2, anna, _bohdan = cz
    result = result_record(
        event=event, stage=FINAL, entry=anna, cells={"time": "1:10:00"}, by=ref1,
        idempotency_key="a",
    )  # fmt: skip
    verify_url = reverse(
        "results:verify", kwargs={"slug": event.slug, "stage": FINAL, "result_id": result.pk}
    )
    own = client_for(ref1)
    assert verify_url not in own.get(console_url(event)).content.decode()
    refused = own.post(verify_url, follow=True)
    assert "cannot verify it" in refused.content.decode()
    assert not Verification.objects.exists()

    other = client_for(ref2)
    assert verify_url in other.get(console_url(event)).content.decode()
    response = other.post(verify_url, follow=True)
    html = response.content.decode()
    assert "#1 Anna Nová verified: time 1:10:00" in html
    assert "verified by renata" in html
    assert Verification.objects.get().verified_by == ref2


def test_only_the_events_staff_see_the_console(cz: Any, make_user: Any, make_event: Any) -> None:
    event, _ref1, _ref2, anna, _bohdan = cz
    other_ref = make_user("otto")
    other = make_event("cz-jigsaw", slug="other")
    EventRole.objects.create(event=other, user=other_ref, role=EventRole.Role.REFEREE)
    client = client_for(other_ref)
    urls = [
        reverse("results:index", kwargs={"slug": event.slug}),
        console_url(event),
    ]
    for url in urls:
        assert client.get(url).status_code == 404
    assert client.post(record_url(event, anna), {}).status_code == 404
    assert client.get(console_url(other, "no-such-stage")).status_code == 404
    anonymous = Client()
    for url in urls:
        response = anonymous.get(url)
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]
    assert not Result.objects.exists()
