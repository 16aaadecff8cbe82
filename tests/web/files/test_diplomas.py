"""Diplomas: one A4 landscape page per prize winner, worded in the event's language with the
verb agreeing with the winner (Czech and Russian), for the event's staff.

Hand-worked (cz-jigsaw, individual final; prizes 1–3 for Czech entrants only):
#1 Anna Nová (CZ, woman) 1:00:00, #2 Hans Meier (DE) 1:02:00, #3 Bohdan Malý (CZ, man)
1:03:00, #4 Cyril Dvořák (CZ, man) 1:04:00, #5 Dana Zelená (CZ, woman) 1:05:00. Official
places Anna 1, Bohdan 2, Cyril 3, Dana 4 → three diplomas: "Anna Nová obsadila 1. místo",
"Bohdan Malý obsadil 2. místo", "Cyril Dvořák obsadil 3. místo". Hans, 2nd overall, gets none.

Hand-worked (cz-jigsaw, pair final): #11 Nová/Malý 1:30:00, #12 Horák/Černá 1:35:00 → a pair
takes the plural: "obsadili 1. místo", its members named.

Hand-worked (deti-kolomny, ChGK season of one tour; points 12, 10, 8, 7, 6): Alfa 14, Beta 12,
Gamma 10, Delta 8, Epsilon 5 questions → Alfa, Beta and Gamma win places 1–3: "заняли 1-е
место", "заняли 2-е место", "заняли 3-е место".

Hand-worked (it-puzzle-party, the first 3 pairs whoever they are): #4 Rossi/Bianchi 0:50:00,
#2 Dubois/Martin (FR) 0:55:00, #1 Verdi/Neri 1:00:00, #3 Russo/Gallo 1:05:00 → diplomas for
#4, #2 and #1 with the same (neutral) wording for everyone.

The wording comes from the real Czech, Russian and Italian catalogues (``pgettext`` with
the contexts male, female, plural and unknown gender).
"""

from __future__ import annotations

import datetime as dt
import io
import re
from typing import Any

import pypdfium2 as pdfium
import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from podium.web.files.selectors.diplomas import place_ordinal
from podium.web.models import Entry, EntryMember, Event, Person, Round
from podium.web.results.services.checks import result_confirm, second_entry_record
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set


def at(h: int, m: int = 0) -> dt.datetime:
    return dt.datetime(2026, 6, 20, h, m, tzinfo=dt.UTC)


def entry(
    event: Event, number: int, name: str, category: str, *people: tuple[str, str, str]
) -> Entry:
    """An entry with its members: (first and last name, country, gender)."""
    made = Entry.objects.create(
        event=event, number=number, name=name, category=category, status=Entry.Status.CONFIRMED
    )
    for full, country, gender in people:
        first, _, last = full.partition(" ")
        person = Person.objects.create(
            first_name=first, last_name=last, country=country, gender=gender
        )
        EntryMember.objects.create(entry=made, person=person)
    return made


def record(event: Event, stage: str, who: Entry, cells: dict[str, str], people: Any) -> None:
    done = result_record(
        event=event, stage=stage, entry=who, cells=cells, by=people["referee"],
        idempotency_key=f"{stage}-{who.number}", now=at(10, who.number),
    )  # fmt: skip
    result_confirm(result=done, by=people["head"], now=at(11))


def pages_of(content: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(content)).pages]


def diplomas_url(event: Event, stage: str) -> str:
    return reverse("exports:diplomas", args=[event.slug, stage])


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def cz(make_event: Any, staff: Any, put_in_stage: Any) -> tuple[Event, Any]:
    event = make_event(
        "cz-jigsaw",
        language="cs",
        title="Mistrovství ČR v puzzle 2026",
        venue="Praha, Kongresové centrum",
    )
    people = staff(event, organizer="olga", referee="rudolf", head="renata")
    for number, name, country, gender, time in (
        (1, "Anna Nová", "CZ", "F", "1:00:00"), (2, "Hans Meier", "DE", "M", "1:02:00"),
        (3, "Bohdan Malý", "CZ", "M", "1:03:00"), (4, "Cyril Dvořák", "CZ", "M", "1:04:00"),
        (5, "Dana Zelená", "CZ", "F", "1:05:00"),
    ):  # fmt: skip
        made = entry(event, number, name, "individuals", (name, country, gender))
        put_in_stage(event, "individual-final", made)
        record(event, "individual-final", made, {"time": time}, people)
    return event, people


def test_czech_diplomas_for_czech_entrants_in_their_gender(cz: Any) -> None:
    event, people = cz
    response = signed_in(people["organizer"]).get(diplomas_url(event, "individual-final"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        'attachment; filename="cz-jigsaw-individual-final-diplomas.pdf"'
    )
    pages = pages_of(response.content)
    assert len(pages) == 3  # Hans, 2nd overall, is not Czech: no diploma
    assert "Hans Meier" not in " ".join(pages)
    expected = [
        ("Anna Nová", "obsadila 1. místo"),
        ("Bohdan Malý", "obsadil 2. místo"),
        ("Cyril Dvořák", "obsadil 3. místo"),
    ]
    for page, (name, wording) in zip(pages, expected, strict=True):
        assert name in page
        assert wording in page
        assert "Mistrovství ČR v puzzle 2026" in page
        assert "Jednotlivci — finále" in page  # the stage, in the event's language
        assert "20. června 2026 · Praha, Kongresové centrum" in page
        assert "koncept" in page  # not published yet: the state is printed small
    document = pdfium.PdfDocument(response.content)
    width, height = document[0].get_size()
    assert (round(width), round(height)) == (842, 595)  # A4 landscape, in points
    document[0].render(scale=1.5).to_pil().save("/tmp/podium-diploma.png")

    for state in ("preliminary", "final"):
        publication_set(event=event, stage="individual-final", state=state, by=people["organizer"])
    pages = pages_of(signed_in(people["head"]).get(diplomas_url(event, "individual-final")).content)
    assert len(pages) == 3
    assert not any("koncept" in p or "předběžné" in p for p in pages)


def test_a_pair_takes_the_plural_and_is_named_with_its_members(cz: Any, put_in_stage: Any) -> None:
    event, people = cz
    pairs = (
        (11, "Nová/Malý", (("Jana Nová", "CZ", "F"), ("Petr Malý", "CZ", "M")), "1:30:00"),
        (12, "Horák/Černá", (("Jan Horák", "CZ", "M"), ("Eva Černá", "CZ", "F")), "1:35:00"),
    )
    for number, name, members, time in pairs:
        made = entry(event, number, name, "pairs", *members)
        put_in_stage(event, "pair-final", made)
        record(event, "pair-final", made, {"time": time}, people)
    pages = pages_of(signed_in(people["organizer"]).get(diplomas_url(event, "pair-final")).content)
    assert len(pages) == 2
    assert "Nová/Malý" in pages[0]
    assert "Jana Nová, Petr Malý" in pages[0]
    assert "obsadili 1. místo" in pages[0]
    assert "Horák/Černá" in pages[1]
    assert "obsadili 2. místo" in pages[1]


def test_russian_team_diplomas_use_the_plural(make_event: Any, staff: Any) -> None:
    event = make_event("deti-kolomny", language="ru", title="Дети Коломны XV", venue="Коломна")
    people = staff(event, organizer="ilya", referee="roman", referee2="rita")
    Round.objects.create(event=event, stage="chgk-tour", number=1, starts_at=at(16))
    teams = ("Альфа", "Бета", "Гамма", "Дельта", "Эпсилон")
    for number, (name, taken) in enumerate(zip(teams, (14, 12, 10, 8, 5), strict=True), 1):
        team = entry(
            event, number, name, "teams", (f"Иван Игрок{number}", "RU", "M"),
            (f"Мария Игрок{number}", "RU", "F"),
        )  # fmt: skip
        first = result_record(
            event=event, stage="chgk-tour", round=1, entry=team, cells={"questions": str(taken)},
            by=people["referee"], idempotency_key=f"t{number}", now=at(18),
        )  # fmt: skip
        second_entry_record(
            result=first, cells={"questions": str(taken)}, by=people["referee2"],
            idempotency_key=f"s{number}", now=at(18),
        )  # fmt: skip
    publication_set(
        event=event, stage="chgk-tour", round=1, state="preliminary", by=people["organizer"]
    )
    pages = pages_of(signed_in(people["organizer"]).get(diplomas_url(event, "chgk-season")).content)
    assert [re.search(r"заняли \d-е место", p).group(0) for p in pages] == [
        "заняли 1-е место", "заняли 2-е место", "заняли 3-е место",
    ]  # fmt: skip
    assert "Альфа" in pages[0]
    assert "Иван Игрок1, Мария Игрок1" in pages[0]
    assert "Бета" in pages[1]
    assert "Гамма" in pages[2]
    assert all("Дети Коломны XV" in p and "Коломна" in p for p in pages)


def test_italian_pairs_whoever_they_are_with_neutral_wording(make_event: Any, staff: Any) -> None:
    event = make_event("it-puzzle-party", language="it", title="Puzzle Party 2026")
    people = staff(event, organizer="olga", referee="rudolf", head="renata")
    for number, name, country, time in (
        (1, "Verdi/Neri", "IT", "1:00:00"), (2, "Dubois/Martin", "FR", "0:55:00"),
        (3, "Russo/Gallo", "IT", "1:05:00"), (4, "Rossi/Bianchi", "IT", "0:50:00"),
    ):  # fmt: skip
        first, second = name.split("/")
        made = entry(
            event, number, name, "pairs", (f"Anna {first}", country, "F"),
            (f"Marco {second}", country, "M"),
        )  # fmt: skip
        record(event, "pairs", made, {"time": time}, people)
    pages = pages_of(signed_in(people["organizer"]).get(diplomas_url(event, "pairs")).content)
    assert len(pages) == 3  # Russo/Gallo, 4th, gets none
    for page, name, place in zip(
        pages, ("Rossi/Bianchi", "Dubois/Martin", "Verdi/Neri"), "123", strict=True
    ):
        assert name in page
        assert f"{place}° posto" in page
    assert "Anna Dubois, Marco Martin" in pages[1]  # a foreign pair wins too


def test_place_ordinals_per_language() -> None:
    assert [place_ordinal(1, 1, code) for code in ("en", "cs", "ru", "it")] == [
        "1st", "1.", "1-е", "1°",
    ]  # fmt: skip
    assert place_ordinal(2, 3, "en") == "2nd–3rd"
    assert place_ordinal(2, 3, "cs") == "2.–3."
    assert place_ordinal(2, 3, "ru") == "2–3-е"


def test_diplomas_are_for_staff_only(cz: Any, make_user: Any) -> None:
    event, people = cz
    address = diplomas_url(event, "individual-final")
    assert Client().get(address).status_code == 302  # to the login page
    assert signed_in(make_user("visitor")).get(address).status_code == 404
    organizer = signed_in(people["organizer"])
    assert organizer.get(diplomas_url(event, "individual-qualification")).status_code == 404
    assert organizer.get(diplomas_url(event, "no-such-stage")).status_code == 404
    prizes = organizer.get(reverse("prizes:index", args=[event.slug])).content.decode()
    link = "/export/cz-jigsaw/diplomas/individual-final.pdf"  # under the page's language prefix
    assert link in prizes
    assert link not in Client().get(reverse("prizes:index", args=[event.slug])).content.decode()
