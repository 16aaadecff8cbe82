"""The live standings' outlook: clinched and eliminated marks, each row's place range, what it
takes in a row's "why", and the API's rows.

Hand-worked (cba-qualifier, Master women advance 1–2; games 0–300; Klára has bowled nothing yet,
so she can still bowl anything from 0 to 1,800):
- Eva 6 × 250 = 1,500: only Klára can pass her: places 1–2, sure to advance.
- Ivana 6 × 200 = 1,200: Eva, Klára and Lucie (up to 1,300) can be ahead: places 2–4, open.
- Lucie 5 × 200 = 1,000 and one game left: at best 1,300, below Eva's 1,500 and, if Klára bowls
  well, below hers: never sure; with 199 or less she stays behind Ivana's 1,200 and Eva: out.
  With 200 she ties Ivana game for game (shared place: both would go through). At worst Jana
  (up to 1,050) is above her too: places 2–5.
- Jana 5 × 150 = 750 and one game left: at best 1,050, below Eva and Ivana: cannot advance.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from tests.web.standings.test_standings_pages import marks, row_html, stage_url, why

from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

BOWLERS = {
    1: ("Eva", [250] * 6),
    2: ("Ivana", [200] * 6),
    3: ("Lucie", [200] * 5),
    4: ("Jana", [150] * 5),
    5: ("Klára", []),
}


@pytest.fixture
def qualifier(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cba-qualifier", language="en")
    people = staff(event, organizer="olga", referee="rudolf")
    for number, (name, games) in BOWLERS.items():
        entry = add_entry(event, number, name, division="master-women")
        if games:
            result_record(
                event=event, stage="qualification", entry=entry, by=people["referee"],
                cells={f"g{i}": str(g) for i, g in enumerate(games, 1)},
                idempotency_key=f"g{number}",
            )  # fmt: skip
    publication_set(event=event, stage="qualification", state="preliminary",
                    by=people["organizer"])  # fmt: skip
    return event


def test_live_rows_are_marked_clinched_or_eliminated_with_their_place_range(qualifier: Any) -> None:
    html = Client().get(stage_url(qualifier, "qualification")).content.decode()
    # The page's linked table: the mark is the row's class, which its legend explains.
    assert "✓✓: sure to advance whatever happens; ✗: cannot advance any more" in html
    rows = {n: row_html(html, "master-women", n) for n in (1, 2, 3, 4)}
    classes = {
        n: re.search(r'<tr id="[^"]+"(?: class="([^"]*)")?', r).group(1) for n, r in rows.items()
    }  # type: ignore[union-attr]
    assert classes == {1: "advances c", 2: "advances", 3: None, 4: "x"}
    assert [marks(rows[n]).split()[-1] for n in (1, 2, 3)] == ["1–2", "2–4", "2–5"]
    assert "3–5" not in marks(rows[4])  # out: its places no longer matter for advancing
    # The projector writes the marks out in words.
    projector = Client().get(f"{stage_url(qualifier, 'qualification')}projector/").content.decode()
    assert "✓✓ sure to advance" in marks(row_html(projector, "master-women", 1))
    assert "can finish 1–2" in marks(row_html(projector, "master-women", 1))
    assert "✗ cannot advance" in marks(row_html(projector, "master-women", 4))
    assert "can finish 3–5" in marks(row_html(projector, "master-women", 4))


def test_a_rows_why_says_what_it_takes(qualifier: Any) -> None:
    lucie = why(stage_url(qualifier, "qualification"), "master-women", 3)
    assert "Can still finish anywhere from 2nd–5th" in lucie
    assert (
        "Cannot be sure to advance (Master women) whatever it does; "
        "out of it with 199 in the last game or worse"
    ) in lucie
    jana = why(stage_url(qualifier, "qualification"), "master-women", 4)
    assert "Cannot advance: even at its best, 2 or more others stay ahead" in jana


def test_the_api_rows_carry_the_outlook(qualifier: Any) -> None:
    url = f"/api/events/{qualifier.slug}/stages/qualification/rounds/1/standings"
    response = Client().get(url)
    assert response.status_code == 200
    rows = {r["name"]: r["outlook"] for t in response.json()["tables"] for r in t["rows"]}
    got = {name: (o["best"], o["worst"], o["advances"]) for name, o in rows.items()}
    assert got == {
        "Eva": (1, 2, "certain"),
        "Ivana": (2, 4, "open"),
        "Lucie": (2, 5, "open"),
        "Jana": (3, 5, "out"),
    }
    assert rows["Lucie"]["needs"]["text"].endswith("out of it with 199 in the last game or worse")
    assert all(o["exact"] for o in rows.values())


def test_the_competitors_page_says_what_they_need(qualifier: Any) -> None:
    html = Client().get(f"/e/{qualifier.slug}/competitors/3/").content.decode()
    assert "Not final yet: see the live standings." in html
    assert '<span class="outlook">can finish 2–5</span>' in html
    assert (
        '<strong class="needs">Cannot be sure to advance (Master women) whatever it does; '
        "out of it with 199 in the last game or worse</strong>"
    ) in html
