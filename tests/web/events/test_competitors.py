"""Name search on the entry lists and the standings, and a competitor's page.

Hand-worked (cz-jigsaw, individual qualification, group A; ranked by time, a non-finisher by
pieces after every finisher; only Czech entrants take official places):
- 2026 (20 June): #3 Hans Meier (DE) 1:00:00, #2 Bohdan Malý 1:02:03, #1 Anna Nová and
  #4 Dana Zelená 1:10:00, #5 Eva Malá not finished, 415 pieces. Positions 1, 2, 3–4, 3–4, 5;
  official places —, 1, 2–3, 2–3, 4. Published final.
- 2025 (21 June, an earlier event): #8 Bohdan Malý (born 1985) 1:01:00, #7 Anna Nová (born
  1990) 1:05:00: places 1 and 2. Published final.
- Who is the same person: Anna Nová of 2026 (CZ, born 4 March 1990) and of 2025 (CZ, born
  1 July 1990) are two records with the same name, country and birth year: the same person.
  Bohdan Malý of 2026 has no birth date, so the 2025 Bohdan (born 1985) is not taken for him.
- Search: "nová" finds Anna Nová only; "MAL" finds Bohdan Malý and Eva Malá (case folded,
  accents kept); "anna nová" needs both words.
"""

from __future__ import annotations

import datetime as dt
import time
import tracemalloc
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.models import Entry, EntryMember, Event, Person
from podium.web.results.services.checks import result_confirm
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

QUALI = "individual-qualification"


def at(year: int, h: int, m: int = 0) -> dt.datetime:
    return dt.datetime(year, 6, 20, h, m, tzinfo=dt.UTC)


def person_entry(
    event: Event, number: int, first: str, last: str, country: str, born: dt.date | None
) -> Entry:
    entry = Entry.objects.create(
        event=event, number=number, name=f"{first} {last}", category="individuals",
        group="A", status=Entry.Status.CONFIRMED,
    )  # fmt: skip
    person = Person.objects.create(
        first_name=first, last_name=last, country=country, birth_date=born
    )
    EntryMember.objects.create(entry=entry, person=person, captain=True)
    return entry


def recorded(event: Event, people: dict[str, Any], year: int, rows: list[Any]) -> None:
    for entry, cells in rows:
        done = result_record(
            event=event, stage=QUALI, entry=entry, cells=cells, by=people["referee"],
            idempotency_key=f"{event.slug}-{entry.number}", now=at(year, 10, entry.number),
        )  # fmt: skip
        result_confirm(result=done, by=people["head"], now=at(year, 11))


@pytest.fixture
def two_years(make_event: Any, staff: Any) -> dict[str, Any]:
    old = make_event("cz-jigsaw", slug="cz-2025", title="Czech Jigsaw 2025", language="en",
                     starts_at=dt.datetime(2025, 6, 21, 9, 0, tzinfo=dt.UTC),
                     status=Event.Status.CLOSED)  # fmt: skip
    new = make_event("cz-jigsaw", slug="cz-2026", title="Czech Jigsaw 2026", language="en")
    old_staff = staff(old, organizer="olga25", referee="rudolf25", head="renata25")
    new_staff = staff(new, organizer="olga", referee="rudolf", head="renata")
    anna_then = person_entry(old, 7, "Anna", "Nová", "CZ", dt.date(1990, 7, 1))
    bohdan_then = person_entry(old, 8, "Bohdan", "Malý", "CZ", dt.date(1985, 1, 1))
    recorded(old, old_staff, 2025, [(anna_then, {"time": "1:05:00"}),
                                    (bohdan_then, {"time": "1:01:00"})])  # fmt: skip
    made = {
        "anna": person_entry(new, 1, "Anna", "Nová", "CZ", dt.date(1990, 3, 4)),
        "bohdan": person_entry(new, 2, "Bohdan", "Malý", "CZ", None),
        "hans": person_entry(new, 3, "Hans", "Meier", "DE", None),
        "dana": person_entry(new, 4, "Dana", "Zelená", "CZ", None),
        "eva": person_entry(new, 5, "Eva", "Malá", "CZ", None),
    }
    cells = {"anna": "1:10:00", "bohdan": "1:02:03", "hans": "1:00:00", "dana": "1:10:00"}
    recorded(new, new_staff, 2026, [(made[k], {"time": t}) for k, t in cells.items()])
    recorded(new, new_staff, 2026, [(made["eva"], {"pieces": "415"})])
    for event, who, year in ((old, old_staff, 2025), (new, new_staff, 2026)):
        for state, hour in (("preliminary", 12), ("final", 13)):
            publication_set(event=event, stage=QUALI, state=state, by=who["organizer"],
                            now=at(year, hour))  # fmt: skip
    return {"old": old, "new": new, **made}


def page(url: str, **query: str) -> str:
    response = Client().get(url, query)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def entries_url(event: Event) -> str:
    return reverse("event-entries", args=[event.slug])


def competitor_url(event: Event, number: int) -> str:
    return reverse("competitor", args=[event.slug, number])


# --- Search ----------------------------------------------------------------------------------


def test_the_entry_lists_find_a_name_without_a_script(two_years: dict[str, Any]) -> None:
    new = two_years["new"]
    whole = page(entries_url(new))
    assert '<form method="get" class="name-search" role="search">' in whole
    assert f'href="{competitor_url(new, 1)}"><bdi>Anna Nová</bdi></a>' in whole
    found = page(entries_url(new), q="nová")
    assert "1 entry matches “nová”." in found
    assert "Anna Nová" in found
    assert "Bohdan" not in found
    assert "Eva Malá" not in found
    found = page(entries_url(new), q="MAL")
    assert "2 entries match “MAL”." in found
    assert "Bohdan Malý" in found
    assert "Eva Malá" in found
    assert "Anna Nová" not in found
    assert "1 entry matches “nová anna”." in page(entries_url(new), q="nová anna")
    assert "0 entries match “anna zelená”." in page(entries_url(new), q="anna zelená")


def test_the_standings_find_a_name_and_link_the_competitor(two_years: dict[str, Any]) -> None:
    new = two_years["new"]
    url = reverse("standings:stage", args=[new.slug, QUALI])
    found = page(url, q="malá")
    assert "1 row matches “malá”." in found
    assert (
        f'<tr><td>4.</td><td>5</td>\n      <td><a href="{competitor_url(new, 5)}">'
        "<bdi>Eva Malá</bdi></a></td><td>415 pcs</td>"
    ) in found
    found = page(url, q="mal")
    assert "2 rows match “mal”." in found
    assert found.index("Bohdan Malý</bdi></a>") < found.index("Eva Malá</bdi></a>")
    why = page(url, why="A.1")
    assert f'<a href="{competitor_url(new, 1)}">The competitor\'s page</a>' in why


def test_a_hostile_query_is_answered_quickly_a_control_character_refused(
    two_years: dict[str, Any],
) -> None:
    new = two_years["new"]
    url = reverse("standings:stage", args=[new.slug, QUALI])
    hostile = "a\u202e" + "%_" * 50_000  # a direction override, LIKE wildcards
    for target in (url, entries_url(new)):
        page(target)  # the templates compiled, the table computed once
        tracemalloc.start()
        started = time.process_time()  # CPU time: a busy machine stretches the wall clock
        answer = page(target, q=hostile)
        cpu = time.process_time() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert cpu < 2, (target, cpu)
        assert peak < 100 * 2**20, (target, peak)
        assert "%_%_" in answer, "searched for as typed (cut to 200 characters), no wildcard"
    assert "0 rows match" in page(url, q=hostile)
    nul = Client().get(url, {"q": "\x00a"})  # a control character: refused, named (issue 23)
    assert nul.status_code == 400
    assert "“q” holds a control character" in nul.content.decode()
    assert "0 entries match" in page(entries_url(new), q=hostile)


# --- A competitor's page ---------------------------------------------------------------------


def test_a_competitors_page_lists_their_results_here_and_in_earlier_events(
    two_years: dict[str, Any],
) -> None:
    new, old = two_years["new"], two_years["old"]
    anna = page(competitor_url(new, 1))
    assert '<bdi>Anna Nová</bdi> <span class="muted">#1</span>' in anna
    here, others = anna.split("Other entries of the same people")
    assert (
        '<td>2–3.</td><td>3–4.</td><td>1:10:00<br><small class="muted">advances</small></td>'
        in here
    ), "official place 2–3, position 3–4 in the final version"
    assert "Individuals — qualification — group A" in here
    assert f'href="{competitor_url(old, 7)}">Czech Jigsaw 2025 — <bdi>Anna Nová</bdi>' in others
    assert "<td>2.</td><td>2.</td><td>1:05:00<br>" in others
    bohdan = page(competitor_url(new, 2))
    here, others = bohdan.split("Other entries of the same people")
    assert '<td>1.</td><td>2.</td><td>1:02:03<br><small class="muted">advances</small></td>' in here
    assert "Czech Jigsaw 2025" not in others, "no birth year: another Bohdan Malý"
    assert "<p>None.</p>" in others
    hans = page(competitor_url(new, 3))
    assert (
        '<td>—</td><td>1.</td><td>1:00:00<br><small class="muted">advances, outside the competition'
        in hans
    )
    assert Client().get(competitor_url(new, 99)).status_code == 404


def test_a_round_not_final_yet_says_so(make_event: Any, staff: Any) -> None:
    event = make_event("cz-jigsaw", language="en", title="Open 2026")
    people = staff(event, organizer="olga", referee="rudolf", head="renata")
    entry = person_entry(event, 1, "Anna", "Nová", "CZ", None)
    recorded(event, people, 2026, [(entry, {"time": "1:10:00"})])
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"],
                    now=at(2026, 12))  # fmt: skip
    shown = page(competitor_url(event, 1))
    assert "Not final yet: see the live standings." in shown
    assert reverse("standings:round", args=[event.slug, QUALI, 1]) in shown


# --- Query counts ----------------------------------------------------------------------------


def _also_elsewhere(built: Any, make_event: Any, events: int) -> None:
    """Enters individual #2's person in ``events`` more events (each with a final table)."""
    person = Person.objects.get(memberships__entry__event=built.event, memberships__entry__number=2)
    for n in range(events):
        other = make_event("cz-jigsaw", slug=f"{built.event.slug}-old-{n}",
                           starts_at=dt.datetime(2024 - n, 6, 1, tzinfo=dt.UTC),
                           status=Event.Status.CLOSED, language="en")  # fmt: skip
        entry = Entry.objects.create(event=other, number=2, name="Again", category="individuals",
                                     group="A", status=Entry.Status.CONFIRMED)  # fmt: skip
        EntryMember.objects.create(entry=entry, person=person, captain=True)


def searched(built: Any) -> dict[str, tuple[Any, str]]:
    slug = built.event.slug
    return {
        "competitor": (None, f"/e/{slug}/competitors/2/"),
        "entries search": (None, f"/e/{slug}/entries/?q=individuals+2"),
        "standings search": (None, f"/standings/{slug}/individual-qualification/?q=individuals"),
        "final standings search": (None, f"/standings/{slug}/individual-final/?q=2"),
    }


SEARCHED = {
    "competitor": 17,  # the event, the entry, its people, their entries, publications, results;
    # and the live table of its newest round not final yet (its outlook: what it needs)
    "entries search": 4,
    "standings search": 17,  # the page's own (the table and its outlook once), and the names
    "final standings search": 9,
}


@pytest.mark.django_db
def test_search_and_the_competitors_page_read_as_much_for_60_entrants_in_4_events_as_for_12(
    jigsaw_at: Any, make_event: Any, queries_at: Any
) -> None:
    small, large = jigsaw_at(12, 1), jigsaw_at(60, 2)
    _also_elsewhere(large, make_event, 3)
    counts = queries_at(small, large, searched)
    assert counts == {page: (n, n) for page, n in SEARCHED.items()}
