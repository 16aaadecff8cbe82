"""Names and text (``podium.web.kernel.text``): no length and no character anywhere answers 500.

Hand-worked:
- A cz-jigsaw pair of two members whose first and last names have 100 characters each (each
  allowed: ``Person.first_name`` is a varchar(100)) would be named "F L / F L", 2 × 201 + 3 =
  405 characters, in a varchar(200): the registration refuses it on the second member's last
  name ("would have 405 characters; at most 200 fit"), and nothing is saved.
- A first name of 101 characters, a team name of 201: the form refuses each on its field with
  Django's "at most 100 (200) characters" (the limits read from the columns).
- NUL (U+0000), BEL (U+0007), ESC (U+001B), DEL (U+007F), NEL (U+0085, C1), a stray surrogate
  (U+D800), a right-to-left override (U+202E) and a first-strong isolate (U+2068): refused,
  naming the character and its position ("Ja\\x07na" → U+0007 at position 3). A zero-width
  joiner (U+200D), a right-to-left mark (U+200F) and Hebrew are names like any other.
- The entrant import of a sheet with a 101-character first name (row 2), a NUL in a last
  name (row 3), an override in a pair's partner (row 4) and a pair of 100-character names
  (row 5): each listed with its row and column, nothing saved.
- The archive: an entry name of 201 characters or a NUL in a person's name is refused
  naming the list, the row and the field; nothing is made.
- ``?q=%00`` on the check-in desk, the results console and the question database: the page
  answers (PostgreSQL refuses NUL in a query); ``Nov\\x00á`` finds Anna Nová.
Every refusal is checked within 2 s and 100 MB.
"""

from __future__ import annotations

import datetime as dt
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import podium.web
from podium.web.chgk.packets import parse_packet
from podium.web.files.archive import ArchiveError, export_event, import_event
from podium.web.files.fields import guess_mapping
from podium.web.files.services.imports import (
    ImportRefused,
    entrants_import,
    entrants_preview,
    member_slots,
)
from podium.web.kernel.refusals import Refused
from podium.web.kernel.text import limit, search_text, text_problem
from podium.web.models import AuditEntry, Entry, EntryMember, Event, Person
from podium.web.readers.tables import read_upload
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.registering import entry_register
from podium.web.registration.services.rosters import roster_add_player
from podium.web.results.services.results import key_of
from podium.web.templatetags.podium_rows import linked

LONG = "x" * 100
HOSTILE = {
    "\x00": "U+0000",
    "\x07": "U+0007",
    "\x1b": "U+001B",
    "\x7f": "U+007F",
    "\x85": "U+0085",
    "\ud800": "U+D800",
    "\u202e": "U+202E",
    "\u2068": "U+2068",
}


@contextmanager
def bounded() -> Iterator[None]:
    """Asserts that the block takes under 2 s of CPU time (the wall clock, which a busy machine
    stretches, is not asked) and grows the process by under 100 MB (the issue's bound for a
    refusal; the peak resident size, as tracemalloc would slow the request several times
    over)."""
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.process_time()
    yield
    cpu = time.process_time() - started
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - grown  # KiB on Linux
    assert cpu < 2, f"{cpu:.2f} s of CPU time"
    assert grown < 100 * 1024, grown


def counts() -> dict[str, int]:
    return {
        "events": Event.objects.count(),
        "entries": Entry.objects.count(),
        "people": Person.objects.count(),
        "members": EntryMember.objects.count(),
        "audit": AuditEntry.objects.count(),
    }


def member(i: int, first: str, last: str) -> dict[str, str]:
    return {
        f"m{i}_first_name": first,
        f"m{i}_last_name": last,
        f"m{i}_birth_date": "1990-01-01",
        f"m{i}_country": "CZ",
    }


def register_url(event: Event, category: str) -> str:
    return reverse("participant:register", kwargs={"slug": event.slug, "category": category})


def form_errors(response: Any) -> dict[str, list[str]]:
    assert response.status_code == 200
    return {k: [str(m) for m in v] for k, v in response.context["form"].errors.items()}


@pytest.fixture
def cz(make_event: Any, make_user: Any) -> Event:
    return make_event("cz-jigsaw", organizer=make_user("olga"))


@pytest.fixture
def client(make_user: Any) -> Client:
    client = Client()
    client.force_login(make_user("ann"))
    return client


# --- the rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("char", "code"), HOSTILE.items())
def test_control_and_bidi_characters_are_named_with_their_position(char: str, code: str) -> None:
    problem = text_problem(f"Ja{char}na")
    assert problem == (
        f"The character {code} (at position 3) is not allowed: control and text-direction "
        "characters cannot be typed here."
    )
    assert text_problem(f"Ja{char}na", multiline=True) == problem


@pytest.mark.parametrize(
    "name", ["Anna Nová", "Ян\u200dа", "\u05e9\u05dc\u05d5\u05dd \u200f", "O'Brien-Smith"]
)
def test_names_of_every_script_are_allowed(name: str) -> None:
    assert text_problem(name, most=100) is None


def test_a_multi_line_text_keeps_its_tabs_and_line_breaks() -> None:
    assert text_problem("one\r\ntwo\tthree", multiline=True) is None
    assert "U+000A" in str(text_problem("one\ntwo"))
    assert text_problem("x" * 201, most=200) == (
        "At most 200 characters are allowed here; this text has 201."
    )


def test_the_limits_are_the_columns() -> None:
    assert (limit(Entry, "name"), limit(Person, "first_name"), limit(Person, "last_name")) == (
        200,
        100,
        100,
    )


def test_a_search_drops_control_characters() -> None:
    assert search_text("\x00") == ""
    assert search_text("Nov\x00á") == "Nová"
    assert search_text("Anna\tNová\u202e") == "Anna Nová"
    assert len(search_text("a" * 10_000_000)) == 200


# --- the registration form and service ---------------------------------------------------------


def test_a_pair_of_long_names_is_refused_on_the_field(cz: Event, client: Client) -> None:
    before = counts()
    data = {**member(0, LONG, LONG), **member(1, "y" * 100, "z" * 100)}
    assert client.get(register_url(cz, "pairs")).status_code == 200  # the form, first
    with bounded():
        response = client.post(register_url(cz, "pairs"), data)
    assert form_errors(response) == {
        "m1_last_name": [
            "The entry's name, made of its members' names, would have 405 characters; at most "
            "200 fit. Shorten the members' names."
        ]
    }
    assert counts() == before


@pytest.mark.parametrize(
    ("category", "data", "field", "message"),
    [
        (
            "individuals",
            member(0, "x" * 101, "Malá"),
            "m0_first_name",
            "Ensure this value has at most 100 characters (it has 101).",
        ),
        (
            "teams",
            {
                "name": "t" * 201,
                **member(0, "A", "Jedna"),
                **member(1, "B", "Dva"),
                **member(2, "C", "Tři"),
            },
            "name",
            "Ensure this value has at most 200 characters (it has 201).",
        ),
        ("individuals", member(0, "Ja\x00na", "Malá"), "m0_first_name", "Null characters are"),
        ("individuals", member(0, "Jana", "Ma\x07lá"), "m0_last_name", "U+0007 (at position 3)"),
        ("individuals", member(0, "\u202eanaJ", "Malá"), "m0_first_name", "U+202E"),
    ],
)
def test_too_long_or_hostile_text_is_refused_on_its_field(
    cz: Event, client: Client, category: str, data: dict[str, str], field: str, message: str
) -> None:
    before = counts()
    with bounded():
        response = client.post(register_url(cz, category), data)
    errors = form_errors(response)
    assert any(message in text for text in errors[field]), errors
    assert counts() == before


def test_the_service_refuses_what_the_form_would(cz: Event, make_user: Any) -> None:
    """A caller without the form (the import, a script) meets the same limits."""
    ann = make_user("ann")
    before = counts()
    cases = [
        ({"members": [PersonData("Jana", "x" * 101, country="CZ")]}, "m0_last_name"),
        ({"members": [PersonData("Ja\x00na", "Malá", country="CZ")]}, "m0_first_name"),
        ({"members": [PersonData("Jana", "Malá", country="CZ", email="\x1b@x.cz")]}, "m0_email"),
    ]
    for arguments, field in cases:
        with pytest.raises(Refused) as refused:
            entry_register(event=cz, category="individuals", by=ann, **arguments)
        assert refused.value.field == field
    assert counts() == before


def test_a_player_added_to_a_roster_is_checked_too(make_club: Any) -> None:
    club = make_club(["Sovy"], [dt.datetime(2025, 11, 6, 16, 0, tzinfo=dt.UTC)])
    sovy = club.teams["Sovy"]
    before = counts()
    with pytest.raises(Refused) as refused:
        roster_add_player(
            entry=sovy, person=PersonData("Ivan", "\u202eвонаварИ", country="RU"), by=club.org
        )
    assert refused.value.field == "last_name"
    assert "U+202E" in refused.value.message
    assert counts() == before


# --- the entrant import ------------------------------------------------------------------------

SHEET = (
    "Jméno;Příjmení;Datum narození;Stát;Kategorie;Jméno partnera;Příjmení partnera;"
    "Datum narození partnera;Stát partnera\n"
    f"{'x' * 101};Nováková;1990-01-01;CZ;Jednotlivci;;;;\n"
    "Petr;Ho\x00rák;1990-01-01;CZ;Jednotlivci;;;;\n"
    "Eva;Malá;1990-01-01;CZ;Dvojice;Jan;\u202eýlaM;1990-01-01;CZ\n"
    f"{LONG};{LONG};1990-01-01;CZ;Dvojice;{'y' * 100};{'z' * 100};1990-01-01;CZ\n"
)


def test_the_import_names_each_bad_cell_and_saves_nothing(cz: Event) -> None:
    olga = cz.roles.get(role="organizer").user
    sheet = read_upload("entrants.csv", SHEET.encode())
    mapping = guess_mapping(sheet.header, member_slots(cz))
    now = dt.datetime(2026, 5, 1, tzinfo=dt.UTC)
    before = counts()
    with bounded():
        plan = entrants_preview(event=cz, sheet=sheet, mapping=mapping, by=olga, now=now)
    found = [(i.row, i.column, i.message) for i in plan.issues]
    assert found == [
        (2, "Jméno", "At most 100 characters are allowed here; this text has 101."),
        (
            3,
            "Příjmení",
            "The character U+0000 (at position 3) is not allowed: control and text-direction "
            "characters cannot be typed here.",
        ),
        (
            4,
            "Příjmení partnera",
            "The character U+202E (at position 1) is not allowed: control and text-direction "
            "characters cannot be typed here.",
        ),
        (
            5,
            "Příjmení partnera",
            "The entry's name, made of its members' names, would have 405 characters; at most "
            "200 fit. Shorten the members' names.",
        ),
    ]
    with bounded(), pytest.raises(ImportRefused):
        entrants_import(event=cz, sheet=sheet, mapping=mapping, by=olga, token="t1", now=now)
    assert counts() == before


# --- the archive -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "field", "value", "message"),
    [
        (
            "entries",
            "name",
            "n" * 201,
            "entries row 1, name: At most 200 characters are allowed here; this text has 201.",
        ),
        ("people", "first_name", "Ja\x00na", "people row 1, first_name: The character U+0000"),
        ("event", "title", "\u202eevil", "event, title: The character U+202E"),
    ],
)
def test_the_archive_refuses_text_the_database_cannot_hold(
    make_event: Any, add_entry: Any, kind: str, field: str, value: str, message: str
) -> None:
    event = make_event("cz-jigsaw")
    add_entry(event, 1, "Anna Nová", category="individuals")
    document = export_event(event)
    (document[kind][0] if kind != "event" else document[kind])[field] = value
    before = counts()
    with bounded(), pytest.raises(ArchiveError) as refused:
        import_event(document, slug="copy")
    assert str(refused.value).startswith(message)
    assert counts() == before


# --- searches ----------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["\x00", "Nov\x00á", "\x1b[2J", "\u202e", "%_"])
def test_searches_answer_whatever_the_query_holds(
    make_event: Any, staff: Any, add_entry: Any, query: str
) -> None:
    """A control character is refused with 400 naming the parameter (issue 23); anything else
    is searched for as typed."""
    event = make_event("cz-jigsaw")
    people = staff(event, referee="rudolf")
    add_entry(event, 1, "Anna Nová", category="individuals", group="A")
    client = Client()
    client.force_login(people["referee"])
    addresses = [
        reverse("desk:desk", kwargs={"slug": event.slug}),
        reverse(
            "results:round",
            kwargs={"slug": event.slug, "stage": "individual-qualification", "round": 1},
        ),
        reverse("questions:database"),
    ]
    control = any(ord(c) < 32 for c in query)
    for address in addresses:
        with bounded():
            response = client.get(address, {"q": query})
        assert response.status_code == (400 if control else 200), address
        if control:
            assert "“q” holds a control character" in response.content.decode(), address
    desk = client.get(addresses[0], {"q": "Nová"}).content.decode()
    assert "#1 <bdi>Anna Nová</bdi>" in desk


# --- isolation ---------------------------------------------------------------------------------


def test_a_typed_override_stays_inside_its_name(make_event: Any, add_entry: Any) -> None:
    """A name saved before these checks (or by any other way in) cannot reverse its row."""
    event = make_event("cz-jigsaw")
    add_entry(event, 1, "\u202eavoN annA\u200b", category="individuals", group="A")
    add_entry(event, 2, "Bohdan & <b>Malý</b>", category="individuals", group="A")
    page = Client().get(reverse("event-entries", args=[event.slug])).content.decode()
    assert "<bdi>\u202eavoN annA\u200b</bdi>" in page
    assert "<bdi>Bohdan &amp; &lt;b&gt;Malý&lt;/b&gt;</bdi>" in page


def test_a_question_packet_names_the_line_of_a_control_character() -> None:
    """A packet with any error is refused whole (``PacketRefused``), naming each line."""
    _questions, errors = parse_packet("1. Кто\x00 это?\nОтвет: сова\n2. Где?\nОтвет: тут\u202e\n")
    assert [(e.line, e.message) for e in errors] == [
        (
            1,
            "Line 1: The character U+0000 (at position 7) is not allowed: control and "
            "text-direction characters cannot be typed here.",
        ),
        (
            4,
            "Line 4: The character U+202E (at position 11) is not allowed: control and "
            "text-direction characters cannot be typed here.",
        ),
    ]


def test_a_reason_typed_without_a_form_loses_its_control_characters(
    make_event: Any, staff: Any
) -> None:
    """Publishing a round with a reason holding NUL (which PostgreSQL refuses) publishes it
    with the reason as typed but for the NUL; an idempotency key with one is refused."""
    event = make_event("cz-jigsaw")
    people = staff(event, organizer="olga")
    client = Client()
    client.force_login(people["organizer"])
    address = reverse(
        "publication:change", kwargs={"slug": event.slug, "stage": "individual-qualification"}
    )
    with bounded():
        response = client.post(
            address, {"state": "preliminary", "round": "1", "reason": "typo\x00 fixed\u202e"}
        )
    assert response.status_code == 302
    (entry,) = AuditEntry.objects.filter(action__startswith="publication")
    assert entry.data["reason"] == "typo fixed"
    with pytest.raises(Refused, match="a key of 1 to 100 characters"):
        key_of("key\x00")


def test_a_linked_row_keeps_its_name_alone_in_an_isolated_cell() -> None:
    """A 2,000-row table stays small: its names carry no <bdi>; the cell holds the name's link
    alone and the style sheet isolates that link as <bdi> would."""
    row = {"id": "1", "number": 1, "official": True, "official_rank": 1, "official_rank_to": 1,
           "rank": 1, "rank_to": 1, "name": "\u202elive", "score": "1:00:00"}  # fmt: skip
    assert '<td>1</td><td><a href="?why=A.1">\u202elive</a></td><td>1:00:00</td>' in linked(
        "A", [row], "?why=", None
    )
    css = (Path(podium.web.__file__).parent / "static/podium/podium.css").read_text()
    assert "table.standings.linked td:nth-child(4) a { unicode-bidi: plaintext; }" in css
