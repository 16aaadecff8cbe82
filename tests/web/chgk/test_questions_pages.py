"""The question pages through Django's test client: who may open what, handing in, the
coordinator's packet page, import and the public database.

Hand-worked (deti-kolomny, Europe/Moscow, UTC+3):
- Tour 1 (host Sovy) starts Thu 14 Jan 2027 19:00 MSK: its questions are due Thu 7 Jan 2027,
  19:00. Sovy hands in 12 ChGK questions: "12 of at least 15", 3 more to hand in.
- Tour 2 (host Ezhi) started Thu 12 Nov 2026 19:00 MSK, two weeks before today in these tests
  at the latest; Ezhi handed in nothing: the packet page offers п. 23, which bans the team and
  its player Ezh.
- The archive (Кубок Коломны 2024, played 9 Mar 2024) holds a rewording of Sovy's question 1:
  the packet page shows it as the closest match at 62 % (0.619), "published before".
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from podium.web.chgk.services.questions import questions_import, questions_submit
from podium.web.models import (
    Ban,
    Entry,
    EntryMember,
    Event,
    EventRole,
    Person,
    Question,
    QuestionSubmission,
    Round,
    Sanction,
)

DATA = Path(__file__).parents[1] / "data" / "questions"
TOUR = "chgk-tour"
UTC = dt.UTC


def text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def numbered(n: int, start: int = 1) -> str:
    return "\n".join(
        f"{i}. Простой вопрос номер {i} о предмете {i * 7919 % 1000}.\nОтвет: ответ {i}\n"
        for i in range(start, start + n)
    )


def client_for(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def team(event: Event, number: int, name: str, user: Any) -> Entry:
    made = Entry.objects.create(
        event=event, category="teams", number=number, name=name, status=Entry.Status.CONFIRMED
    )
    person = Person.objects.create(first_name=name[:-1], last_name="Test", country="RU", user=user)
    member = EntryMember.objects.create(entry=made, person=person, captain=True)
    EntryMember.objects.filter(pk=member.pk).update(added_at=dt.datetime(2026, 10, 1, tzinfo=UTC))
    return made


@pytest.fixture
def club(make_user: Any, make_event: Any) -> SimpleNamespace:
    olga, sova, ezh, rita, other = (
        make_user(n) for n in ("olga", "sova", "ezh", "rita", "other-org")
    )
    event = make_event(
        "deti-kolomny", organizer=olga, timezone="Europe/Moscow", status=Event.Status.CLOSED,
        starts_at=dt.datetime(2026, 11, 1, 16, tzinfo=UTC), title="Дети Коломны XV",
        language="en",
    )  # fmt: skip
    EventRole.objects.create(event=event, user=rita, role=EventRole.Role.REFEREE)
    make_event("cz-jigsaw", slug="elsewhere", organizer=other)
    sovy, ezhi = team(event, 1, "Sovy", sova), team(event, 2, "Ezhi", ezh)
    future = Round.objects.create(
        event=event, stage=TOUR, number=1, host=sovy,
        starts_at=dt.datetime(2027, 1, 14, 16, tzinfo=UTC),
    )  # fmt: skip
    past = Round.objects.create(
        event=event, stage=TOUR, number=2, host=ezhi,
        starts_at=dt.datetime(2026, 11, 12, 16, tzinfo=UTC),
    )  # fmt: skip
    return SimpleNamespace(
        event=event, olga=olga, sova=sova, ezh=ezh, rita=rita, other=other, sovy=sovy,
        ezhi=ezhi, future=future, past=past,
    )  # fmt: skip


def url(name: str, club: Any, *args: Any) -> str:
    return reverse(f"questions:{name}", args=[club.event.slug, *args])


def page(club: Any) -> dict[str, str]:
    return {
        "index": url("index", club),
        "submit": url("submit", club, 1),
        "packet": url("packet", club, 1),
        "import": url("import", club),
    }


# --- Who may open what ----------------------------------------------------------------------


def test_anonymous_visitors_log_in_first_but_read_the_public_database(club: Any) -> None:
    for address in page(club).values():
        response = client_for().get(address)
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]
    assert client_for().get(reverse("questions:database")).status_code == 200


@pytest.mark.parametrize(
    ("who", "allowed"),
    [
        ("sova", {"index", "submit"}),  # a player of tour 1's host
        ("ezh", {"index"}),  # hosts tour 2 only
        ("rita", {"index", "submit"}),  # a referee hands in for the host
        ("olga", {"index", "submit", "packet", "import"}),
        ("other", set()),  # organizer of another event
    ],
)
def test_each_page_opens_only_for_those_it_serves(club: Any, who: str, allowed: set[str]) -> None:
    client = client_for(getattr(club, who))
    for name, address in page(club).items():
        assert client.get(address).status_code == (200 if name in allowed else 404), name


def test_another_team_cannot_hand_in_for_the_host(club: Any) -> None:
    response = client_for(club.ezh).post(
        url("submit", club, 1), {"discipline": "chgk", "packet": numbered(15)}
    )
    assert response.status_code == 404
    assert QuestionSubmission.objects.count() == 0


def test_a_host_sees_only_its_own_tours(club: Any) -> None:
    response = client_for(club.sova).get(url("index", club))
    assert 'id="tour-1"' in response.text
    assert 'id="tour-2"' not in response.text
    assert url("packet", club, 1) not in response.text
    response = client_for(club.olga).get(url("index", club))
    assert 'id="tour-1"' in response.text
    assert 'id="tour-2"' in response.text
    assert url("import", club) in response.text


def test_the_organizer_dashboard_links_the_questions(club: Any) -> None:
    response = client_for(club.olga).get(reverse("organizer:dashboard", args=[club.event.slug]))
    assert url("index", club) in response.text


# --- Handing in -----------------------------------------------------------------------------


def test_the_host_hands_in_and_sees_the_count_and_deadline(club: Any) -> None:
    client = client_for(club.sova)
    response = client.get(url("submit", club, 1))
    assert "0 of at least 15" in response.text
    assert "Thu 7 Jan 2027, 19:00" in response.text
    assert "Каждая команда, проводящая тур ЧГК" in response.text  # the duty's clause

    response = client.post(
        url("submit", club, 1), {"discipline": "chgk", "packet": numbered(12)}, follow=True
    )
    assert response.redirect_chain[-1][0] == url("submit", club, 1)
    assert "12 questions handed in (ChGK)." in response.text
    assert "12 of at least 15: 3 more to hand in." in response.text
    assert "3 more questions to hand in." in response.text
    assert Question.objects.filter(submission__entry=club.sovy).count() == 12


def test_a_bad_packet_is_shown_line_by_line_and_nothing_is_stored(club: Any) -> None:
    response = client_for(club.sova).post(
        url("submit", club, 1), {"discipline": "chgk", "packet": text("bad-packet.txt")}
    )
    assert response.status_code == 400
    assert "Question 2 (line 6): no answer; add a line “Ответ: …”." in response.text
    assert "Line 12: question 5 follows question 3" in response.text
    assert "Question 6 (line 14): no question text." in response.text
    assert QuestionSubmission.objects.count() == 0
    assert Question.objects.count() == 0


def test_a_late_host_sees_the_database_check_of_its_own_questions(club: Any) -> None:
    questions_import(
        event=club.event, discipline="chgk", packet=text("archive.txt"),
        source="Кубок Коломны 2024", played_on=dt.date(2024, 3, 9), by=club.olga,
    )  # fmt: skip
    response = client_for(club.ezh).post(
        url("submit", club, 2), {"discipline": "chgk", "packet": text("tour-packet.txt")},
        follow=True,
    )  # fmt: skip
    assert "Handed in after the deadline" in response.text
    assert "Closest in the database" in response.text
    assert "62 %" in response.text
    assert "published before" in response.text


# --- The coordinator ------------------------------------------------------------------------


@pytest.fixture
def handed(club: Any) -> list[Question]:
    questions_import(
        event=club.event, discipline="chgk", packet=text("archive.txt"),
        source="Кубок Коломны 2024", played_on=dt.date(2024, 3, 9), by=club.olga,
    )  # fmt: skip
    questions_submit(
        tour=club.future, discipline="chgk", packet=text("tour-packet.txt"), by=club.sova
    )
    return list(Question.objects.filter(submission__isnull=False).order_by("number"))


def test_the_packet_page_shows_the_closest_database_questions(
    club: Any, handed: list[Question]
) -> None:
    response = client_for(club.olga).get(url("packet", club, 1))
    assert response.status_code == 200
    first = response.text.split(f'id="q-{handed[0].pk}"')[1].split("</article>")[0]
    assert "published before" in first
    assert "62 %" in first
    assert "Кубок Коломны 2024" in first
    second = response.text.split(f'id="q-{handed[1].pk}"')[1].split("</article>")[0]
    assert "No similar question in the database." in second
    assert "The packet has 15 questions; 0 chosen." in response.text


def test_the_coordinator_selects_asks_and_the_host_replaces(
    club: Any, handed: list[Question]
) -> None:
    olga = client_for(club.olga)
    ids = [str(q.pk) for q in handed]
    response = olga.post(url("select", club, 1, "chgk"), {"questions": ids[:14]})
    assert response.status_code == 400
    assert "The packet has 15 questions; 14 are chosen." in response.text
    response = olga.post(url("select", club, 1, "chgk"), {"questions": ids}, follow=True)
    assert "The packet has 15 questions (ChGK)." in response.text
    assert Question.objects.filter(status="selected").count() == 15

    response = olga.post(url("ask", club, 1, handed[0].pk), {f"a{handed[0].pk}-note": ""})
    assert response.status_code == 400
    olga.post(url("ask", club, 1, handed[0].pk), {f"a{handed[0].pk}-note": "Кубок Коломны 2024"})
    assert Question.objects.get(pk=handed[0].pk).status == "replace"

    sova = client_for(club.sova)
    response = sova.get(url("submit", club, 1))
    assert "the coordinator says" in response.text
    assert "Кубок Коломны 2024" in response.text
    response = sova.post(
        url("replacement", club, 1, handed[0].pk),
        {f"r{handed[0].pk}-packet": "1. Новый вопрос?\nОтвет: новый"},
        follow=True,
    )
    assert "Replacement for question 1 handed in." in response.text
    replaced = Question.objects.get(pk=handed[0].pk)
    assert replaced.replaced_by is not None
    assert replaced.replaced_by.text == "Новый вопрос?"
    # The host never reaches the coordinator's actions.
    assert sova.post(url("select", club, 1, "chgk"), {"questions": ids}).status_code == 404


def test_play_after_the_tour_and_the_public_database(club: Any) -> None:
    questions_submit(
        tour=club.past, discipline="chgk", packet=text("tour-packet.txt"), by=club.olga,
        now=dt.datetime(2026, 11, 1, 9, tzinfo=UTC),
    )  # fmt: skip
    olga = client_for(club.olga)
    ids = [str(q.pk) for q in Question.objects.all()]
    olga.post(url("select", club, 2, "chgk"), {"questions": ids})
    response = olga.post(url("play", club, 2), follow=True)
    assert "15 questions are in the database." in response.text
    assert Question.objects.filter(status="archive", played_on=dt.date(2026, 11, 12)).count() == 15

    # Played less than a year ago: not public until the authors consent.
    response = client_for().get(reverse("questions:database"))
    assert "0 questions" in response.text
    first = Question.objects.get(number=1)
    olga.post(url("consent", club, 2, first.pk), {"consent": "1"})
    response = client_for().get(reverse("questions:database"), {"q": "Заячьем острове"})
    assert "1 question" in response.text
    assert "Санкт-Питер-Бурх." in response.text
    assert "Дети Коломны XV, tour 1" not in response.text
    assert "Дети Коломны XV, tour 2" in response.text


def test_the_coordinator_disqualifies_a_host_without_questions(club: Any) -> None:
    olga = client_for(club.olga)
    response = olga.get(url("packet", club, 2))
    assert "Disqualify the host team (п. 23)" in response.text
    assert "дисквалифицируется до конца следующего сезона" in response.text

    response = olga.post(url("disqualify", club, 2), {"reason": ""})
    assert response.status_code == 400
    assert Sanction.objects.count() == 0

    response = olga.post(url("disqualify", club, 2), {"confirm": "on"}, follow=True)
    assert "#2 Ezhi is disqualified under п. 23." in response.text
    assert "Host disqualified (п. 23)" in response.text
    sanction = Sanction.objects.get()
    assert (sanction.key, sanction.entry, sanction.round) == (
        "host-without-questions",
        club.ezhi,
        2,
    )
    assert sorted(b.team_name or b.person.first_name for b in Ban.objects.all()) == ["Ezh", "Ezhi"]
    # Tour 1 has not started: nothing is offered there.
    assert "Disqualify the host team" not in olga.get(url("packet", club, 1)).text


# --- Import ---------------------------------------------------------------------------------


def upload(content: bytes, name: str = "packet.txt") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/plain")


def test_import_a_file_all_or_nothing(club: Any) -> None:
    olga = client_for(club.olga)
    form = {"discipline": "chgk", "source": "Кубок Коломны 2024", "played_on": "2024-03-09"}
    broken = text("archive.txt").replace("Ответ: сова", "Ответ сова").encode("cp1251")
    response = olga.post(url("import", club), {**form, "file": upload(broken)})
    assert response.status_code == 400
    assert "Question 3 (line 10): no answer; add a line “Ответ: …”." in response.text
    assert Question.objects.count() == 0

    response = olga.post(
        url("import", club), {**form, "file": upload(text("archive.txt").encode("cp1251"))},
        follow=True,
    )  # fmt: skip
    assert "3 questions imported from “Кубок Коломны 2024”." in response.text
    assert Question.objects.filter(status="archive", submission=None).count() == 3
    assert Question.objects.get(number=3).answer == "сова"

    response = olga.post(url("import", club), {**form, "file": upload(b"\x00\x01binary")})
    assert response.status_code == 400
    assert "This is not a text file." in response.text
    assert Question.objects.count() == 3

    response = client_for(club.sova).post(
        url("import", club), {**form, "file": upload(text("archive.txt").encode())}
    )
    assert response.status_code == 404
    assert Question.objects.count() == 3


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_packet_saved_as_unicode_by_notepad_is_read(club: Any, codec: str) -> None:
    form = {"discipline": "chgk", "source": "Кубок Коломны 2024", "played_on": "2024-03-09"}
    data = text("archive.txt").encode(codec)  # "utf-16" writes the byte-order mark
    response = client_for(club.olga).post(url("import", club), {**form, "file": upload(data)})
    assert response.status_code == 302, response.text[:2000]
    assert Question.objects.filter(status="archive").count() == 3
    assert Question.objects.get(number=3).answer == "сова"
