"""Public pages: the event page (places left, waiting list), the rules page and entry lists."""

from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from podium.rules.loader import preset_text
from podium.web.models import Entry, EntryMember, Event, Person

pytestmark = pytest.mark.django_db

LOCALE = Path(__file__).resolve().parents[3] / "src" / "podium" / "web" / "locale"


@pytest.fixture(autouse=True, scope="module")
def _compiled_messages() -> None:
    """Czech pages need the compiled catalogue (``make messages``); build a stale one here."""
    po = LOCALE / "cs" / "LC_MESSAGES" / "django.po"
    mo = po.with_suffix(".mo")
    if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
        subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True)


def _entry(event: Event, category: str, number: int, status: str, **fields: Any) -> Entry:
    countries = fields.pop("countries", ["CZ"])
    entry = Entry.objects.create(
        event=event,
        category=category,
        name=fields.pop("name", f"Entry {number}"),
        number=number,
        status=status,
        **fields,
    )
    for i, country in enumerate(countries):
        person = Person.objects.create(first_name=f"P{number}", last_name=f"M{i}", country=country)
        EntryMember.objects.create(entry=entry, person=person)
    return entry


def test_event_page_shows_places_left_and_waiting_list(make_event: Any) -> None:
    event = make_event("it-puzzle-party", title="Puzzle Party", language="en", venue="Milano")
    for n in range(1, 48):
        _entry(event, "pairs", n, Entry.Status.CONFIRMED, countries=["IT", "IT"])
    _entry(event, "pairs", 48, Entry.Status.PENDING, countries=["IT", "IT"])
    _entry(event, "pairs", 49, Entry.Status.CANCELLED, countries=["IT", "IT"])
    for n in range(50, 53):
        _entry(event, "pairs", n, Entry.Status.WAITING, waiting_position=n - 49)
    html = Client().get("/e/it-puzzle-party/").content.decode()
    assert "Puzzle Party" in html
    assert "Milano" in html
    assert "2 places left" in html  # 50 - 47 confirmed - 1 pending
    assert "3 waiting" in html
    assert "/me/register/it-puzzle-party/pairs/" in html
    assert "registration open" in html


def test_event_page_in_event_timezone_and_locale(make_event: Any) -> None:
    make_event(
        "cz-jigsaw",
        starts_at=dt.datetime(2026, 6, 20, 7, 0, tzinfo=dt.UTC),
        language="cs",
        status=Event.Status.CLOSED,
    )
    html = Client().get("/e/cz-jigsaw/").content.decode()
    # 07:00 UTC is 9:00 in Prague (summer time); Czech date format, Czech words.
    assert "20. června 2026 9:00" in html
    assert "registrace uzavřena" in html
    assert "Registrace není otevřena." in html


def test_event_language_is_the_default_unless_the_visitor_chose(make_event: Any) -> None:
    make_event("it-puzzle-party", language="it")
    client = Client()
    assert 'lang="it"' in client.get("/e/it-puzzle-party/").content.decode()
    # An explicit prefix wins.
    assert 'lang="cs"' in client.get("/cs/e/it-puzzle-party/").content.decode()
    # The switcher's cookie wins too (English has no prefix).
    client.post("/i18n/setlang/", {"language": "en", "next": "/e/it-puzzle-party/"})
    assert 'lang="en"' in client.get("/e/it-puzzle-party/").content.decode()
    # The home page is not an event's page: English by default.
    assert 'lang="en"' in Client().get("/").content.decode()


def test_drafts_have_no_public_pages(make_event: Any) -> None:
    make_event("cz-jigsaw", status=Event.Status.DRAFT)
    assert Client().get("/e/cz-jigsaw/").status_code == 404
    assert Client().get("/e/cz-jigsaw/rules/").status_code == 404


@pytest.mark.parametrize(
    "preset", ["cz-jigsaw", "it-puzzle-party", "cba-qualifier", "deti-kolomny"]
)
def test_rules_page_renders_every_preset(make_event: Any, preset: str) -> None:
    make_event(preset, language="en")
    response = Client().get(f"/e/{preset}/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "The rulebook says:" in html
    assert "Our interpretation:" in html


def test_rules_page_quotes_clauses_and_interpretations(make_event: Any) -> None:
    make_event("cz-jigsaw", language="en")
    html = Client().get("/e/cz-jigsaw/rules/").content.decode()
    assert "Maximální počet: 200 jednotlivců" in html
    assert "Individuals: individuals, at most 200 entrants." in html
    assert "Teams: teams of 3 to 4 players, at most 50 teams." in html
    assert "Entrants younger than 16 may take part only with an accompanying adult." in html
    assert "the best 50 Czech entrants of each group" in html
    assert "Each piece missing at the finish adds 10 seconds to the time." in html
    assert "we decided that every\n" not in html
    assert "all its members are (team_rule: all)" in html
    assert "On a tie across the cut line, every tied entrant advances." in html


def test_rules_page_for_bowling_and_chgk(make_event: Any) -> None:
    make_event("cba-qualifier", language="en")
    make_event("deti-kolomny", language="en")
    cba = Client().get("/e/cba-qualifier/rules/").content.decode()
    assert "Master — men: average 190 or more." in cba
    assert "Standard — women: average from 160 to 174.99." in cba
    assert "A deposit of 500\xa0CZK." in cba
    assert "Cancelled later: 50\xa0% of the fee refunded. 50\xa0% of the fee owed." in cba
    assert "Cancelled at least 5 days before: 100\xa0% of the fee refunded." in cba
    assert "Check-in opens 30 minutes before the start." in cba
    assert "places 1 to 4" in cba
    assert "we read it as places 1–4" in cba
    chgk = Client().get("/e/deti-kolomny/rules/").content.decode()
    assert "Points for places 1 to 10: 12, 10, 8, 7, 6, 5, 4, 3, 2, 1." in chgk
    assert "A win gives 2 points, a draw 1, a loss 0." in chgk
    assert "900\xa0RUB per entry" in chgk
    assert "ChGK: the team&#x27;s result in the tour counts as 0" in chgk


def test_entry_lists_mark_foreigners_and_separate_the_waiting_list(make_event: Any) -> None:
    event = make_event("cz-jigsaw", language="en", status=Event.Status.CLOSED)
    _entry(event, "individuals", 1, Entry.Status.CONFIRMED, name="Jana Nováková", group="A")
    _entry(
        event,
        "individuals",
        2,
        Entry.Status.CONFIRMED,
        name="Jozef Kováč",
        group="B",
        countries=["SK"],
    )
    _entry(event, "pairs", 3, Entry.Status.CONFIRMED, name="Mixed pair", countries=["CZ", "PL"])
    _entry(event, "individuals", 4, Entry.Status.WAITING, name="Petr Čekal", waiting_position=1)
    _entry(event, "individuals", 5, Entry.Status.CANCELLED, name="Gone Person")
    html = Client().get("/e/cz-jigsaw/entries/").content.decode()
    assert "Group A" in html
    assert "Group B" in html
    assert html.count("outside the official order (foreign)") == 2  # Kováč and the mixed pair
    assert "Jana Nováková" in html
    waiting = html.split("Waiting list")[1]
    assert "Petr Čekal" in waiting
    assert "Gone Person" not in html


def test_entry_lists_mark_unscored_chgk_teams(make_event: Any) -> None:
    event = make_event("deti-kolomny", language="en")
    _entry(event, "teams", 1, Entry.Status.CONFIRMED, name="Дети капитана", countries=["RU"])
    _entry(
        event, "teams", 2, Entry.Status.CONFIRMED, name="Сборная", countries=["RU"], scored=False
    )
    html = Client().get("/e/deti-kolomny/entries/").content.decode()
    assert html.count("outside the competition (unscored team)") == 1
    assert "1 entry in the official order, 1 outside it" in html


def test_entry_lists_per_squad_with_divisions(make_event: Any) -> None:
    from podium.web.models import Squad

    event = make_event("cba-qualifier", language="en", status=Event.Status.CLOSED)
    early = Squad.objects.create(
        event=event,
        name="Round 1",
        starts_at=dt.datetime(2012, 3, 24, 8, tzinfo=dt.UTC),
        capacity=2,
    )
    late = Squad.objects.create(
        event=event,
        name="Round 2",
        starts_at=dt.datetime(2012, 3, 24, 12, tzinfo=dt.UTC),
        capacity=2,
    )
    _entry(event, "players", 1, "confirmed", name="Karel Král", squad=late, division="master-men")
    _entry(event, "players", 2, "confirmed", name="Eva Malá", squad=early, division="amateur-women")
    _entry(event, "players", 3, "pending", name="Jan Čekal", squad=early, division="amateur-men")
    html = Client().get("/e/cba-qualifier/entries/").content.decode()
    assert html.index("Round 1") < html.index("Eva Malá") < html.index("Round 2")
    assert html.index("Round 2") < html.index("Karel Král")
    assert "Master — men" in html
    assert "Amateur — women" in html
    assert "Jan Čekal" not in html
    assert "1 more awaiting approval" in html
    page = Client().get("/e/cba-qualifier/").content.decode()
    assert "Round 1" in page
    assert "4 places left" not in page  # 3 active of 4 squad places
    assert "1 place left" in page


def test_rules_page_says_how_results_become_official(make_event: Any) -> None:
    for preset in ("cz-jigsaw", "it-puzzle-party", "deti-kolomny"):
        make_event(preset, language="en")
    cz = Client().get("/e/cz-jigsaw/rules/").content.decode()
    assert "The head referee confirms every result before it is official." in cz
    assert "The competitor agrees with the recorded result at the table; no later claim" in cz
    assert "Na pozdější reklamace nebude brán zřetel." in cz
    it = Client().get("/e/it-puzzle-party/rules/").content.decode()
    assert "is given back and taken off the time." in it
    assert "Il tempo perso verrà recuperato o compensato." in it
    chgk = Client().get("/e/deti-kolomny/rules/").content.decode()
    assert "A second referee enters every result independently; both must match." in chgk
    assert "Preliminary results are published 1 day after the round." in chgk
    assert "Final results only once the appeal window has closed and every verdict is in." in chgk
    assert "Played between the winners of ChGK season standings, Brainball" in chgk


def test_rules_page_explains_tours_of_any_length_and_the_question_rating(make_event: Any) -> None:
    text = preset_text("deti-kolomny").replace(
        "    questions: 15\n", "    questions: 15\n    max_questions: 36\n", 1
    )
    text = text.replace(
        '          clause: "п. 11: … по количеству взятых командами вопросов."\n',
        '          clause: "п. 11: … по количеству взятых командами вопросов."\n'
        "        - key: question-rating\n",
        1,
    )
    Event.objects.filter(pk=make_event("deti-kolomny", language="en").pk).update(rulebook_text=text)
    html = Client().get("/e/deti-kolomny/rules/").content.decode()
    assert "A tour of 15 questions unless its masks give another length, up to 36." in html
    assert (
        "the higher question rating (a question taken by k of N teams is worth N − k + 1)" in html
    )
