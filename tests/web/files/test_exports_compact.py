"""The compact standings PDF of a 200-entrant qualification: the venue's printout.

Built by ``jigsaw_at(200)`` (conftest): individuals 1–200 alternate between groups B (odd) and
A (even), every seventh (7, 14, …, 196: 28 entrants) is from Slovakia and so outside the
competition, every tenth did not finish (ranked by pieces); 199 and 200 have no result, so
198 ranked rows are printed, then 199 and 200 at the foot of their groups without a place
(did not finish: the round's clock ended). A row holds place, number, name, country, score,
marks and its notes' numbers; the reasons are printed once each after the tables, so the 28
Slovaks' "registered in SK, not CZ" is a single note that all 28 rows point at.

The old layout (the "why" in full, eight rows a page) took 26 pages for this stage; the
compact one prints at least 30 rows on every full page of the tables.
"""

from __future__ import annotations

import io
import re
from typing import Any

from django.test import Client
from pypdf import PdfReader

ROW = re.compile(r"^(?:\d+(?:–\d+)?\.|—) (\d+) Individuals \1 (CZ|SK) (.*)$", re.MULTILINE)
NOTE = re.compile(r"^(\d+) (.+)$", re.MULTILINE)
WRAPPED = re.compile(r"\n(?=[a-z\d][a-z\d ,–-]*$)", re.MULTILINE)  # a cell's second line
SK_NOTE = re.compile(r"Outside the competition: registered in SK, not CZ \[[A-Z]\]")


def test_a_200_entrant_qualification_prints_compact_with_numbered_notes(jigsaw_at: Any) -> None:
    built = jigsaw_at(200, 1)
    slug = built.event.slug
    response = Client().get(f"/export/{slug}/standings/individual-qualification/1.pdf")
    assert response.status_code == 200
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages]
    pages = [WRAPPED.sub(" ", page) for page in pages]  # marks or notes wrapped in their cell
    total = len(pages)
    assert total <= 15, "the full layout took 26 pages"
    for n, page in enumerate(pages, start=1):
        assert f"page {n} of {total}" in page
        assert "preliminary · as of" in page

    rows_per_page = [len(ROW.findall(page)) for page in pages]
    table_pages = [n for n in rows_per_page if n]
    assert sum(table_pages) == 200  # 198 ranked, 2 without a result at the foot
    assert all(n >= 30 for n in table_pages[:-1]), rows_per_page
    assert len(table_pages) <= 5

    rows = {int(m.group(1)): (m.group(2), m.group(3)) for p in pages for m in ROW.finditer(p)}
    # No place, the status for a score: the round's clock ended without their result.
    assert [(n, rows[n][1].split(" ", 3)[:3]) for n in (200, 199)] == [
        (200, ["did", "not", "finish"]), (199, ["did", "not", "finish"])
    ]  # fmt: skip
    assert {n for n, (country, _rest) in rows.items() if country == "SK"} == set(range(7, 199, 7))
    everything = "\n".join(pages)
    notes_text = everything.split("\nNotes\n", 1)[1].split("\nThe rulebook's words\n", 1)[0]
    notes = {int(m.group(1)): m.group(2) for m in NOTE.finditer(notes_text) if "·" not in m[2]}
    shared = [number for number, text in notes.items() if SK_NOTE.fullmatch(text)]
    assert len(shared) == 1, "identical reasons share one note"
    sk_note = shared[0]
    for number in range(7, 199, 7):
        _country, rest = rows[number]
        assert "outside the competition" in rest
        assert sk_note in _numbers(rest), (number, rest)
    # Every note a row points at is printed, and numbered in order of first use.
    used = {n for _c, rest in rows.values() for n in _numbers(rest)}
    assert used == set(notes) == set(range(1, len(notes) + 1))
    assert len(notes) < 3 * 198, "some reasons are shared"
    words = everything.split("\nThe rulebook's words\n", 1)[1]
    assert words.startswith("[A] “"), "the rulebook's words are quoted once, labelled"


def _numbers(rest: str) -> set[int]:
    """The note numbers at the end of a row's line (``… 12, 31–33``)."""
    tail = re.search(r"((?:\d+(?:–\d+)?(?:, )?)+)$", rest)
    assert tail, rest
    found: set[int] = set()
    for part in tail.group(1).split(", "):
        first, _dash, last = part.partition("–")
        found.update(range(int(first), int(last or first) + 1))
    return found
