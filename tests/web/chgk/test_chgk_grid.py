"""The ChGK desk pages through Django's test client: the tour sheet (its plain form, without the
grid script), the second scorer's check sheet, and the organizer's tour calendar.

Hand-worked (deti-kolomny, 15 questions, event in Moscow time, UTC+3):
- A referee saves Sovy 10, Ezhi 8, Lisy 8 and Gosti (outside) 11 through the plain form: four
  results; Sovy 12 points, Ezhi and Lisy 9.000 each. Another referee's check sheet gives Ezhi
  question 3 not taken and question 15 taken: a mismatch on questions 3 and 15; Sovy and Lisy
  match and are verified.
- A tour added for 12 Nov 2026 at 19:00 starts at 16:00 UTC and is listed as 19:00.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.chgk.services.sheets import tour_sheet_record
from podium.web.disputes.services.discipline import sanction_impose, withdrawal_record
from podium.web.draws.services import draw_make
from podium.web.models import (
    Entry,
    EntryMember,
    Event,
    EventRole,
    Person,
    Result,
    Round,
    Verification,
)
from podium.web.results.selectors.rows import standings_as_of

TOUR = "chgk-tour"


def mask(taken: int, questions: int = 15) -> str:
    return "1" * taken + "0" * (questions - taken)


def team(event: Event, number: int, name: str, scored: bool = True) -> Entry:
    made = Entry.objects.create(
        event=event, category="teams", number=number, name=name,
        status=Entry.Status.CONFIRMED, scored=scored,
    )  # fmt: skip
    person = Person.objects.create(first_name=name, last_name="Captain", country="RU")
    EntryMember.objects.create(entry=made, person=person, captain=True)
    return made


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def desk(make_user: Any, make_event: Any) -> SimpleNamespace:
    org, irina, pavel = make_user("olga"), make_user("irina"), make_user("pavel")
    event = make_event(
        "deti-kolomny", organizer=org, timezone="Europe/Moscow", status=Event.Status.CLOSED
    )
    for user in (irina, pavel):
        EventRole.objects.create(event=event, user=user, role=EventRole.Role.REFEREE)
    # Gosti (#1) plays outside the competition, so the grid lists it last.
    gosti = team(event, 1, "Gosti", scored=False)
    sovy, ezhi, lisy = team(event, 2, "Sovy"), team(event, 3, "Ezhi"), team(event, 4, "Lisy")
    Round.objects.create(
        event=event, stage=TOUR, number=1, starts_at=dt.datetime(2026, 11, 5, 16, tzinfo=dt.UTC)
    )
    return SimpleNamespace(
        event=event, org=org, irina=irina, pavel=pavel, sovy=sovy, ezhi=ezhi, lisy=lisy,
        gosti=gosti,
    )  # fmt: skip


def grid_url(event: Event, round: int = 1, name: str = "chgk:grid") -> str:
    return reverse(name, kwargs={"slug": event.slug, "stage": TOUR, "round": round})


def posted(page: str) -> dict[str, str]:
    """The form's fields as the browser would send them (hidden and text inputs)."""
    fields = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            fields[name.group(1)] = value.group(1) if value else ""
    return fields


def masks_of(event: Event) -> dict[str, str]:
    return {
        r.entry.name: r.cells["mask"]
        for r in Result.objects.filter(event=event).select_related("entry")
        if not Result.objects.filter(corrects=r).exists()
    }


def test_only_the_events_staff_open_the_sheet(desk: Any, make_user: Any, make_event: Any) -> None:
    other_ref = make_user("rudolf")
    other = make_event("deti-kolomny", slug="other-club")
    EventRole.objects.create(event=other, user=other_ref, role=EventRole.Role.REFEREE)
    url = grid_url(desk.event)
    assert Client().get(url).status_code == 302  # to the login page
    assert client_for(other_ref).get(url).status_code == 404
    assert client_for(make_user("player")).get(url).status_code == 404
    assert client_for(other_ref).post(url, {}).status_code == 404
    assert client_for(desk.irina).get(url).status_code == 200
    assert client_for(desk.irina).get(grid_url(desk.event, round=2)).status_code == 404
    brainball = reverse(
        "chgk:grid", kwargs={"slug": desk.event.slug, "stage": "brainball", "round": 1}
    )
    assert client_for(desk.irina).get(brainball).status_code == 404
    assert Result.objects.count() == 0


def test_the_plain_form_lists_scored_teams_first_and_saves_the_masks(desk: Any) -> None:
    client = client_for(desk.irina)
    page = client.get(grid_url(desk.event)).content.decode()
    order = re.findall(r'id="team-(\d+)"', page)
    assert order == ["2", "3", "4", "1"]  # Gosti, outside the competition, comes last
    assert "Outside the competition" in page
    assert 'href="/desk/deti-kolomny/results/"' in page  # ← all stages
    data = posted(page)
    data[f"mask-{desk.sovy.pk}"] = mask(10)
    data[f"mask-{desk.ezhi.pk}"] = "1111 1111 0000 000"  # spaces are allowed
    data[f"mask-{desk.lisy.pk}"] = mask(8)
    data[f"mask-{desk.gosti.pk}"] = mask(11)
    answer = client.post(grid_url(desk.event), data, follow=True)
    assert answer.redirect_chain[-1][0] == grid_url(desk.event)
    assert "Sheet saved: 4 recorded, 0 corrected, 0 unchanged." in answer.content.decode()
    assert masks_of(desk.event) == {
        "Sovy": mask(10), "Ezhi": mask(8), "Lisy": mask(8), "Gosti": mask(11),
    }  # fmt: skip
    points = {
        r.entry.name: r.points for t in standings_as_of(desk.event, TOUR).tables for r in t.rows
    }
    assert points == {
        "Gosti": None,
        "Sovy": Decimal("12.000"),
        "Ezhi": Decimal("9.000"),
        "Lisy": Decimal("9.000"),
    }
    # Sent again (a dropped connection): nothing is recorded twice.
    client.post(grid_url(desk.event), data)
    assert Result.objects.count() == 4
    # The recorded masks are shown in the first-entry sheet, with the totals.
    page = client.get(grid_url(desk.event)).content.decode()
    assert f'value="{mask(10)}"' in page
    assert re.search(r'id="team-2".*?data-total>10<', page, re.S)


def test_errors_re_render_the_sheet_with_every_message_and_store_nothing(desk: Any) -> None:
    client = client_for(desk.irina)
    data = posted(client.get(grid_url(desk.event)).content.decode())
    data[f"mask-{desk.sovy.pk}"] = mask(10)
    data[f"mask-{desk.ezhi.pk}"] = mask(8)[:14]
    data[f"mask-{desk.lisy.pk}"] = "11a" + "0" * 12
    answer = client.post(grid_url(desk.event), data)
    page = answer.content.decode()
    assert answer.status_code == 400
    assert "Nothing was saved" in page
    assert (
        "#3 Ezhi: mask &#x27;11111111000000&#x27; has 14 marks, but the tour has 15 questions"
        in page
    )
    assert "#4 Lisy: mask &#x27;11A000000000000&#x27; has &#x27;A&#x27; at question 3" in page
    assert f'value="{mask(8)[:14]}"' in page  # what was typed is kept
    assert 'id="team-3" class="error"' in page
    assert Result.objects.count() == 0


def test_changing_a_recorded_mask_needs_the_reason(desk: Any) -> None:
    tour_sheet_record(
        event=desk.event, stage=TOUR, round=1, by=desk.irina, idempotency_key="first",
        masks={desk.sovy: mask(10), desk.ezhi: mask(8)},
    )  # fmt: skip
    client = client_for(desk.irina)
    page = client.get(grid_url(desk.event)).content.decode()
    assert "Reason for changing a recorded mask" in page
    data = posted(page)
    data[f"mask-{desk.ezhi.pk}"] = mask(9)
    answer = client.post(grid_url(desk.event), data)
    assert answer.status_code == 400
    assert (
        "#3 Ezhi: the recorded mask would change; give the reason for it."
        in answer.content.decode()
    )
    assert Result.objects.count() == 2
    data["reason"] = "question 9 was misread"
    answer = client.post(grid_url(desk.event), data, follow=True)
    assert "Sheet saved: 0 recorded, 1 corrected, 1 unchanged." in answer.content.decode()
    correction = Result.objects.get(kind=Result.Kind.CORRECTION)
    assert (correction.entry, correction.cells["mask"]) == (desk.ezhi, mask(9))


def test_the_check_sheet_is_blind_and_lists_matches_and_mismatches(desk: Any) -> None:
    tour_sheet_record(
        event=desk.event, stage=TOUR, round=1, by=desk.irina, idempotency_key="first",
        masks={desk.sovy: mask(10), desk.ezhi: mask(8), desk.lisy: mask(8)},
    )  # fmt: skip
    client = client_for(desk.pavel)
    url = grid_url(desk.event, name="chgk:check")
    page = client.get(url).content.decode()
    assert mask(10) not in page
    assert mask(8) not in page
    assert "Reason for changing" not in page
    assert client.get(grid_url(desk.event) + "?check=1").content.decode().count(mask(8)) == 0
    data = posted(page)
    data[f"mask-{desk.sovy.pk}"] = mask(10)
    data[f"mask-{desk.ezhi.pk}"] = "110" + mask(8)[3:14] + "1"
    data[f"mask-{desk.lisy.pk}"] = mask(8)
    data[f"mask-{desk.gosti.pk}"] = mask(11)
    answer = client.post(url, data)
    page = answer.content.decode()
    assert answer.status_code == 200
    assert re.search(r'class="mismatch">#3 <bdi>Ezhi</bdi>: questions 3, 15 differ<', page)
    matches = re.findall(r'class="match">#(\d) <bdi>(\w+)</bdi><', page)
    assert matches == [("2", "Sovy"), ("4", "Lisy")]
    assert "#1 <bdi>Gosti</bdi>" in page.split("no first entry yet")[1]
    verified = Verification.objects.values_list("result__entry__name", "method")
    assert sorted(verified) == [("Lisy", "second-entry"), ("Sovy", "second-entry")]
    # The first scorer cannot check their own sheet.
    answer = client_for(desk.irina).post(url, {**data, "idempotency_key": "irina"})
    assert answer.status_code == 400
    assert (
        "#3 Ezhi: The second entry must be made by someone else than the first."
        in answer.content.decode()
    )


def test_the_calendar_lists_tours_in_the_events_time_and_adds_one(
    desk: Any, make_user: Any
) -> None:
    url = reverse("calendar:index", kwargs={"slug": desk.event.slug})
    assert client_for(desk.irina).get(url).status_code == 404  # a referee is not an organizer
    assert Client().get(url).status_code == 302
    client = client_for(desk.org)
    draw = draw_make(
        event=desk.event, kind="tour-hosts", stage=TOUR, seed="club", by=desk.org, tours=3
    )
    hosts = dict(draw.result["outcome"]["hosts"])
    second = Entry.objects.get(pk=hosts["2"])
    page = client.get(url).content.decode()
    assert re.search(
        r'id="round-1">\s*<td>1</td>\s*<td>—</td>\s*<td>Thu 5 Nov 2026, 19:00 MSK</td>', page
    )
    assert "Add tour 2" in page
    assert re.search(rf'<option value="{second.pk}" selected>', page)  # the drawn host
    assert f"gives tour 2 to {second}" in page
    assert 'value="2026-11-12"' in page
    assert 'value="19:00"' in page
    answer = client.post(
        reverse("calendar:add", kwargs={"slug": desk.event.slug, "stage": TOUR}),
        {f"{TOUR}-date": "2026-11-12", f"{TOUR}-time": "19:30", f"{TOUR}-title": "Autumn",
         f"{TOUR}-host": str(desk.lisy.pk)},
        follow=True,
    )  # fmt: skip
    assert "Tour 2 is on the calendar" in answer.content.decode()
    made = Round.objects.get(number=2)
    assert (made.starts_at, made.title, made.host) == (
        dt.datetime(2026, 11, 12, 16, 30, tzinfo=dt.UTC), "Autumn", desk.lisy,
    )  # fmt: skip
    assert "Thu 12 Nov 2026, 19:30" in answer.content.decode()


def test_a_bad_tour_is_refused_and_nothing_is_added(desk: Any, make_event: Any) -> None:
    client = client_for(desk.org)
    add = reverse("calendar:add", kwargs={"slug": desk.event.slug, "stage": TOUR})
    answer = client.post(add, {f"{TOUR}-date": "", f"{TOUR}-time": "25:00"})
    assert answer.status_code == 400
    assert answer.content.decode().count("errorlist") >= 2
    stranger = team(make_event("deti-kolomny", slug="elsewhere"), 9, "Chuzhie")
    answer = client.post(
        add, {f"{TOUR}-date": "2026-11-12", f"{TOUR}-time": "19:00", f"{TOUR}-host": stranger.pk}
    )
    assert answer.status_code == 400
    assert "Select a valid choice" in answer.content.decode()
    assert Round.objects.filter(event=desk.event).count() == 1
    brainball = reverse("calendar:add", kwargs={"slug": desk.event.slug, "stage": "brainball"})
    assert client.post(brainball, {}).status_code == 404


def test_a_withdrawn_team_is_shown_as_such_and_never_blocks_the_sheet(desk: Any) -> None:
    """Lisy withdrew in writing before the tour: the sheet lists it under "Not playing this
    tour" with the day, offers no field for it, and saves the other three teams."""
    withdrawal_record(
        entry=desk.lisy, by=desk.org, statement="Lisy leave the championship.",
        received_at=dt.datetime(2026, 11, 1, 9, tzinfo=dt.UTC),
    )  # fmt: skip
    client = client_for(desk.irina)
    page = client.get(grid_url(desk.event)).content.decode()
    assert re.findall(r'id="team-(\d+)"', page) == ["2", "3", "1", "4"]
    row = page[page.index('id="team-4"') : page.index("</tr>", page.index('id="team-4"'))]
    assert "Not playing this tour" in page
    assert "withdrew on Nov. 1, 2026" in row
    assert f'name="mask-{desk.lisy.pk}"' not in page  # nothing of it is sent
    data = posted(page)
    # Question 5 was withdrawn (X on every sheet); Ezhi's 10th answer is disputed (?).
    masks = {"Sovy": "1111X11111000", "Ezhi": "1111X1111?000", "Gosti": "1111X11111110"}
    masks = {name: m + "00" for name, m in masks.items()}
    for entry in (desk.sovy, desk.ezhi, desk.gosti):
        data[f"mask-{entry.pk}"] = masks[entry.name]
    answer = client.post(grid_url(desk.event), data, follow=True)
    assert "Sheet saved: 3 recorded, 0 corrected, 0 unchanged." in answer.content.decode()
    assert masks_of(desk.event) == masks
    # A mask sent for it all the same (an old page) is refused by name, and nothing is saved.
    data[f"mask-{desk.lisy.pk}"] = mask(3)
    before = Result.objects.count()
    client.post(grid_url(desk.event), data)
    assert Result.objects.count() == before


def test_a_team_not_admitted_to_the_tour_is_shown_as_such_for_that_tour_only(desk: Any) -> None:
    Round.objects.create(
        event=desk.event, stage=TOUR, number=2,
        starts_at=dt.datetime(2026, 11, 19, 16, tzinfo=dt.UTC),
    )  # fmt: skip
    sanction_impose(
        event=desk.event, key="unpaid-fee", by=desk.org, entry=desk.sovy, stage=TOUR, round=1,
        effect="not-admitted", reason="the second half's fee is unpaid",
    )  # fmt: skip
    client = client_for(desk.irina)
    first = client.get(grid_url(desk.event)).content.decode()
    row = first[first.index('id="team-2"') : first.index("</tr>", first.index('id="team-2"'))]
    assert "not admitted to this round: the second half&#x27;s fee is unpaid" in row
    assert f'name="mask-{desk.sovy.pk}"' not in first
    second = client.get(grid_url(desk.event, round=2)).content.decode()
    assert f'name="mask-{desk.sovy.pk}"' in second
    assert "Not playing this tour" not in second
