"""The ChGK season (п. 12 of the «Дети Коломны» rulebook) and the preset's tours and
season, with hand-worked numbers."""

from __future__ import annotations

from decimal import Decimal

from tests.engine.formats.test_chgk import (
    BOOK,
    by_id,
    places,
    problems_of,
    rows,
    season,
    texts,
    tour,
)

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.entries import Reason
from podium.engine.formats.chgk import tables
from podium.engine.inputs import RawRow
from podium.rules.loader import load

# --- The season -----------------------------------------------------------------------------


def season_rows(
    tours: dict[str, list[tuple[str, int]]], unscored: frozenset[str] = frozenset()
) -> list[RawRow]:
    return rows(
        *(
            {"tour": t, "id": team, "name": f"Team {team}", "questions": str(q)}
            | {"scored": "no" if team in unscored else "yes"}
            for t, results in tours.items()
            for team, q in results
        )
    )


def test_season_points_playoff_and_season_questions_with_an_absent_team() -> None:
    table = season(
        season_rows(
            {
                # Places 1 A, 2 E, 3 B, 4 C, 5 D: 12, 10, 8, 7, 6 points.
                "1": [("A", 13), ("E", 11), ("B", 10), ("C", 9), ("D", 8)],
                # 1 A, 2 E, 3 B, 4 D, 5 C.
                "2": [("A", 12), ("E", 11), ("B", 9), ("D", 8), ("C", 7)],
                # E is absent: 1 C (12), A and B share 2nd–3rd (9 each), 4 D (7); E counts as 5th.
                "3": [("C", 12), ("A", 10), ("B", 10), ("D", 8)],
            }
        )
    )
    d = Decimal
    got = {
        r.entry.id: (
            r.rank,
            r.rank_to,
            r.playoff,
            r.entry.metrics["points"],
            r.entry.metrics["season_questions"],
            r.entry.metrics["place_sum"],
        )
        for r in table.rows
    }
    assert got == {
        "A": (1, 1, False, d("33.000"), 35, d("4.5")),  # 12 + 12 + 9; 1 + 1 + 2.5
        # 25 points each, for 2nd–3rd: settled by the extra match, not by questions (29 vs 28).
        "B": (2, 3, True, d("25.000"), 29, d("8.5")),  # 8 + 8 + 9; 3 + 3 + 2.5
        "C": (2, 3, True, d("25.000"), 28, d("10")),  # 7 + 6 + 12; 4 + 5 + 1
        # 20 points each below 3rd: more questions over the season first.
        "D": (4, 4, False, d("20.000"), 24, d("13")),  # 6 + 7 + 7; 5 + 4 + 4
        "E": (5, 5, False, d("20.000"), 22, d("9")),  # 10 + 10 + 0; 2 + 2 + 5 (absent)
    }
    assert [r.entry.id for r in table.rows] == ["A", "B", "C", "D", "E"]
    rows_ = by_id(table)
    assert "Tied for places 2nd–3rd: to be settled by a 6-question extra match" in texts(rows_["B"])
    assert "Below Team D on questions taken in the season: 22 against 24" in texts(rows_["E"])
    assert rows_["E"].entry.score_text == "20.000 pts (22 q)"
    assert [(n.clause, n.text) for n in rows_["E"].entry.notes] == [
        (None, "Tours played: 1, 2 (2 of 3)"),
        (
            "п. 11 points",
            "Points per tour: tour 1: 10.000 (place 2, 11 q); tour 2: 10.000 (place 2, 11 q); "
            "tour 3: absent (place 5), 0 points",
        ),
        ("п. 12", "Sum of tour places: 2 + 2 + 5 = 9"),
        (
            "п. 9 absent",
            "Absent from tour 3: counted at place 5, after the last official team, "
            "with no points and no questions (our interpretation)",
        ),
    ]
    assert rows_["B"].entry.notes[1].text == (
        "Points per tour: tour 1: 8.000 (place 3, 10 q); tour 2: 8.000 (place 3, 9 q); "
        "tour 3: 9.000 (places 2–3 → 2.5, 10 q)"
    )


def test_season_tie_settled_by_the_sum_of_places_with_a_shared_place() -> None:
    table = season(
        season_rows(
            {
                # 1 P (12), R and T share 2nd–3rd (9 each, place 2.5), 4 Q (7), 5 S (6).
                "1": [("P", 14), ("R", 11), ("T", 11), ("Q", 9), ("S", 7)],
                # U plays outside the competition: official places 1 P, 2 S, 3 Q, 4 T, 5 R.
                "2": [("P", 13), ("S", 12), ("U", 11), ("Q", 10), ("T", 8), ("R", 6)],
                # 1 Q (12), 2 P (10), 3 R (8), S and T share 4th–5th (6.5 each, place 4.5).
                "3": [("Q", 12), ("P", 11), ("R", 10), ("S", 9), ("T", 9)],
            },
            unscored=frozenset({"U"}),
        )
    )
    d = Decimal
    got = {
        r.entry.id: (
            r.rank,
            r.entry.metrics["points"],
            r.entry.metrics["season_questions"],
            r.entry.metrics["place_sum"],
        )
        for r in table.rows
    }
    # U took no points and is not in the season table.
    assert got == {
        "P": (1, d("34.000"), 38, d("4")),
        "Q": (2, d("27.000"), 31, d("8")),
        "R": (3, d("23.000"), 27, d("10.5")),
        # 22.5 points and 28 questions each: T's places 2.5 + 4 + 4.5 beat S's 5 + 2 + 4.5.
        "T": (4, d("22.500"), 28, d("11.0")),
        "S": (5, d("22.500"), 28, d("11.5")),
    }
    rows_ = by_id(table)
    assert "Below Team T on sum of tour places: 11.5 against 11.0" in texts(rows_["S"])
    assert "Sum of tour places: 2.5 + 4 + 4.5 = 11" in texts(rows_["T"])


def test_a_renamed_team_keeps_its_id_and_shows_its_latest_name() -> None:
    # Team 68118 played as «ЖмеR» in 2023 and as «ЖRём» in December 2024 (venue results).
    table = season(
        rows(
            {"tour": "1", "id": "68118", "name": "ЖмеR", "questions": "13"},
            {"tour": "1", "id": "65108", "name": "Сфинкс-party", "questions": "10"},
            {"tour": "2", "id": "68118", "name": "ЖRём", "questions": "13"},
            {"tour": "2", "id": "65108", "name": "Сфинкс-party", "questions": "14"},
        )
    )
    renamed = by_id(table)["68118"]
    assert renamed.entry.name == "ЖRём"
    assert renamed.entry.notes[-1] == Reason(None, "Also played as 'ЖмеR'")
    # 12 + 10 each: tied for 1st–2nd, a play-off, although ЖRём took 26 questions to 24.
    assert [(r.rank, r.rank_to, r.playoff) for r in table.rows] == [(1, 2, True), (1, 2, True)]


def test_bad_season_rows() -> None:
    raw = rows(
        {"tour": "1", "id": "A", "questions": "10"},
        {"tour": "1", "id": "A", "questions": "9"},
        {"tour": "", "id": "B", "questions": "9"},
        {"tour": "2", "id": "A", "questions": "9", "scored": "no"},
        {"tour": "2", "id": "C", "questions": "16"},
    )
    assert sorted(problems_of(lambda: season(raw))) == [
        ("row 3, column id", "duplicate id 'A' in tour 1 (also on row 2)"),
        ("row 4, column tour", "a season row needs its tour"),
        ("row 5, column scored", "team 'A' plays outside the competition here but in it on row 2"),
        ("row 6, column questions", "16 questions taken, but the tour has 15"),
    ]


# --- The preset ------------------------------------------------------------------------------


def test_deti_kolomny_preset_tour_and_season() -> None:
    book = load("deti-kolomny")
    [tour_table] = tables(
        book,
        book.stage("chgk-tour"),
        rows(
            {"id": "a", "name": "A", "questions": "12"},
            {"id": "b", "name": "B", "questions": "12"},
            {"id": "c", "name": "C", "questions": "9", "scored": "no"},
            {"id": "d", "name": "D", "questions": "7"},
        ),
    )
    assert [places(r) for r in tour_table.rows] == [
        (1, 2, 1, 2, Decimal("11.000")),
        (1, 2, 1, 2, Decimal("11.000")),
        (3, 3, None, None, None),
        (4, 4, 3, 3, Decimal("8.000")),
    ]
    [season_table] = tables(
        book,
        book.stage("chgk-season"),
        rows(
            {"tour": "1", "id": "a", "name": "A", "questions": "12"},
            {"tour": "1", "id": "b", "name": "B", "questions": "11"},
            {"tour": "2", "id": "b", "name": "B", "questions": "12"},
            {"tour": "2", "id": "a", "name": "A", "questions": "11"},
            {"tour": "2", "id": "c", "name": "C", "questions": "3"},
        ),
    )
    got = {r.entry.id: (r.rank, r.rank_to, r.playoff, r.entry.metrics) for r in season_table.rows}
    # A and B both 12 + 10 = 22 for 1st–2nd: a play-off, not their 23 questions each.
    assert got["a"][:3] == (1, 2, True)
    assert got["b"][:3] == (1, 2, True)
    assert got["c"][:3] == (3, 3, False)
    assert got["c"][3]["place_sum"] == Decimal(6)  # absent from tour 1 (3rd), 3rd in tour 2


def test_a_sanctioned_team_counts_zero_questions_in_the_tour_with_the_clause() -> None:
    book = load("deti-kolomny")
    [table] = tables(
        book,
        book.stage("chgk-tour"),
        rows(
            {"id": "a", "name": "A", "questions": "12", "sanctioned": "yes"},
            {"id": "b", "name": "B", "questions": "10", "sanctioned": "no"},
            {"id": "c", "name": "C", "questions": "9"},
            {"id": "d", "name": "D", "questions": "0"},
        ),
    )
    # A took most but counts 0: B 1st (12), C 2nd (10), A and D share 3rd–4th ((8 + 7) / 2).
    assert [(r.entry.id, *places(r)) for r in table.rows] == [
        ("b", 1, 1, 1, 1, Decimal("12.000")),
        ("c", 2, 2, 2, 2, Decimal("10.000")),
        ("a", 3, 4, 3, 4, Decimal("7.500")),
        ("d", 3, 4, 3, 4, Decimal("7.500")),
    ]
    a = by_id(table)["a"]
    assert a.entry.score_text == "0 q (sanction; 12 taken)"
    assert [(n.clause, n.text) for n in a.entry.notes] == [
        (
            "п. 8: … результат провинившейся команды в туре ЧГК принимается за 0",
            "Tour result counted as 0 under a sanction (12 questions taken)",
        )
    ]


def test_the_sanctioned_column_is_yes_or_no() -> None:
    assert problems_of(
        lambda: tour(BOOK, rows({"id": "a", "name": "A", "questions": "3", "sanctioned": "maybe"}))
    ) == [
        (
            "row 2, column sanctioned",
            "'maybe' is not one of 'yes', 'no', 'y', 'n', 'true', 'false', '1', '0'",
        )
    ]


# --- Points on the rows (DESIGN §3) ---------------------------------------------------------


def test_season_rows_stand_on_their_summed_points() -> None:
    table = season(season_rows({"1": [("A", 13), ("B", 10)], "2": [("B", 12), ("A", 9)]}))
    assert {r.entry.id: r.points for r in table.rows} == {
        "A": Decimal("22.000"),  # 12 + 10
        "B": Decimal("22.000"),  # 10 + 12
    }
