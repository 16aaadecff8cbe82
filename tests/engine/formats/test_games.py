from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.formats.games import outside_in
from podium.engine.inputs import RawRow
from podium.engine.standings import Row, Standings, Table
from podium.rules.loader import load, parse
from podium.rules.schema import Rulebook

RULEBOOK = """
key: bowling-test
title: Bowling test (after the ČBA supplementary qualification)
language: en
source: written for this test
classification:
  already_qualified:
    clause: "§ 3.5 already qualified players are not counted"
divisions:
  reference_date: 2011-07-01
  fallback_clause: "§ 3.4 not on the ladder: lowest category"
  items:
    - {{key: master-men, title: Master men, gender: M, average_min: 190, clause: "§ 3.4 MM"}}
    - key: standard-men
      title: Standard men
      gender: M
      average_min: 165
      average_max: 189.99
      clause: "§ 3.4 SM"
    - key: amateur-men
      title: Amateur men
      gender: M
      average_max: 164.99
      fallback: true
      clause: "§ 3.4 AM"
    - {{key: master-women, title: Master women, gender: F, average_min: 175, clause: "§ 3.4 MW"}}
    - key: standard-women
      title: Standard women
      gender: F
      average_min: 160
      average_max: 174.99
      clause: "§ 3.4 SW"
    - key: amateur-women
      title: Amateur women
      gender: F
      average_max: 159.99
      fallback: true
      clause: "§ 3.4 AW"
categories:
  - key: players
    title: Players
    entrants: {{kind: individual}}
stages:
  - key: qualification
    title: Qualification
    format: games
    category: players
    games: {games}
    tables_by: division
    ranking:
      clause: "§ 9 total pinfall"
      criteria:
        - total
        - {{key: high-game, clause: "§ 9 a)"}}
        - {{key: low-game, clause: "§ 9 b)"}}
        - {{key: high-game-2, clause: "§ 9 c)"}}
        - {{key: low-game-2, clause: "§ 9 c)"}}
        - {{key: high-game-3, clause: "§ 9 c)"}}
        - {{key: low-game-3, clause: "§ 9 c)"}}
    advancement:
      clause: "§ 13"
      ties_at_cut: all-advance
      pools_by_table:
        master-men: [{{key: mm, label: Master men 1–6, classes: [official], count: 6}}]
        standard-men: [{{key: sm, label: Standard men 1–8, classes: [official], count: 8}}]
        amateur-men: [{{key: am, label: Amateur men 1–8, classes: [official], count: 8}}]
        master-women: [{{key: mw, label: Master women 1–2, classes: [official], count: 2}}]
        standard-women: [{{key: sw, label: Standard women 1–4, classes: [official], count: 4}}]
        amateur-women: [{{key: aw, label: Amateur women 1–4, classes: [official], count: 4}}]
"""


def rulebook(games: int = 6) -> Rulebook:
    return parse(RULEBOOK.format(games=games))


def bowler(
    entrant: str,
    games: Sequence[int | str],
    *,
    gender: str = "M",
    average: str = "",
    qualified: str = "no",
) -> dict[str, str]:
    cells = {"id": entrant, "gender": gender, "average": average, "qualified": qualified}
    cells.update({f"g{i}": str(g) for i, g in enumerate(games, start=1)})
    return cells


def compute(*cells: Mapping[str, str], games: int = 6) -> Standings:
    rows = [RawRow(line, c) for line, c in enumerate(cells, start=2)]
    return compute_standings(rulebook(games), "qualification", rows)


def tables(*cells: Mapping[str, str], games: int = 6) -> dict[str, Table]:
    return {t.key: t for t in compute(*cells, games=games).tables}


def by_id(table: Table) -> dict[str, Row]:
    return {row.entry.id: row for row in table.rows}


def problems(caught: pytest.ExceptionInfo[InputError]) -> list[str]:
    return [str(p) for p in caught.value.problems]


def reason(row: Row, start: str) -> tuple[str | None, str]:
    """The one reason of a row whose text starts with ``start``, with its clause."""
    (found,) = [r for r in row.reasons if r.text.startswith(start)]
    return found.clause, found.text


def test_total_pinfall_and_score_text() -> None:
    (table,) = compute(
        bowler("a", [200, 210, 190, 180, 220, 200]),
        bowler("b", [300, 100, 100, 100, 100, 100]),
        bowler("c", [150, 150, 150, 150, 150, 149]),
    ).tables
    assert table.key == "amateur-men"
    assert table.title == "Qualification — Amateur men"
    got = [(r.entry.id, r.rank, r.entry.metrics["total"], r.entry.score_text) for r in table.rows]
    assert got == [
        ("a", 1, 1200, "1200 (220 high)"),
        ("c", 2, 899, "899 (150 high)"),
        ("b", 3, 800, "800 (300 high)"),
    ]
    # The leader is shown with what it leads on: the total that split off the runner-up.
    assert reason(table.rows[0], "First") == ("§ 9 total pinfall", "First: total pinfall 1200")
    assert reason(table.rows[2], "Below") == (
        "§ 9 total pinfall",
        "Below c on total pinfall: 800 against 899",
    )


def test_outside_in_metrics() -> None:
    assert outside_in([180, 220, 150, 200, 170, 190]) == {
        "high-game": 220,
        "low-game": 150,
        "high-game-2": 200,
        "low-game-2": 170,
        "high-game-3": 190,
        "low-game-3": 180,
    }


# Pairs of six-game series with equal totals (1160), decided at each step in turn: the first
# series of each pair wins. Games are listed from the highest down: h1 h2 h3 l3 l2 l1.
TIE_BREAKS = {
    "high-game": ([220, 200, 200, 180, 180, 180], [210, 200, 200, 190, 180, 180]),
    "low-game": ([220, 200, 200, 190, 180, 170], [220, 205, 200, 190, 185, 160]),
    "high-game-2": ([220, 210, 195, 195, 180, 160], [220, 205, 200, 195, 180, 160]),
    "low-game-2": ([220, 210, 200, 185, 185, 160], [220, 210, 205, 185, 180, 160]),
    "high-game-3": ([220, 210, 200, 190, 180, 160], [220, 210, 195, 195, 180, 160]),
}

LABELS = {
    "high-game": "highest game",
    "low-game": "lowest game",
    "high-game-2": "second highest game",
    "low-game-2": "second lowest game",
    "high-game-3": "third highest game",
    "low-game-3": "third lowest game",
}

CLAUSES = {"high-game": "§ 9 a)", "low-game": "§ 9 b)"}

# The deciding values, worse against better, worked out by hand from the series above.
DECIDING = {
    "high-game": (210, 220),
    "low-game": (160, 170),
    "high-game-2": (205, 210),
    "low-game-2": (180, 185),
    "high-game-3": (195, 200),
}


@pytest.mark.parametrize("criterion", list(TIE_BREAKS))
def test_each_tie_break_in_turn_decides(criterion: str) -> None:
    better, worse = TIE_BREAKS[criterion]
    assert sum(better) == sum(worse) == 1160
    # The loser is listed first and the games shuffled: neither input order nor game order counts.
    rows = by_id(
        tables(bowler("w", list(reversed(worse))), bowler("b", better[::2] + better[1::2]))[
            "amateur-men"
        ]
    )
    assert (rows["b"].rank, rows["w"].rank) == (1, 2)
    metrics_b, metrics_w = rows["b"].entry.metrics, rows["w"].entry.metrics
    lost, won = DECIDING[criterion]
    assert (metrics_w[criterion], metrics_b[criterion]) == (lost, won)
    assert reason(rows["w"], "Below") == (
        CLAUSES.get(criterion, "§ 9 c)"),
        f"Below b on {LABELS[criterion]}: {lost} against {won}",
    )
    # Every earlier criterion was level.
    order = ["total", *LABELS]
    for earlier in order[: order.index(criterion)]:
        assert metrics_b[earlier] == metrics_w[earlier]


def test_the_third_lowest_game_decides_only_with_more_than_six_games() -> None:
    """With six games it is fixed by the total and the five before it; with seven it is not."""
    better = [220, 210, 200, 185, 185, 180, 160]
    worse = [220, 210, 200, 190, 180, 180, 160]
    assert sum(better) == sum(worse)
    rows = by_id(tables(bowler("w", worse), bowler("b", better), games=7)["amateur-men"])
    assert (rows["b"].rank, rows["w"].rank) == (1, 2)
    assert reason(rows["w"], "Below") == ("§ 9 c)", "Below b on third lowest game: 180 against 185")


@given(st.lists(st.integers(0, 300), min_size=6, max_size=6))
def test_with_six_games_the_third_lowest_follows_from_the_rest(games: list[int]) -> None:
    """Why no pair of six-game series can be decided by the last tie-break: it is implied."""
    metrics = outside_in(games)
    five = sum(metrics[k] or 0 for k in list(LABELS)[:5])
    assert metrics["low-game-3"] == sum(games) - five
    assert sorted(v for v in metrics.values() if v is not None) == sorted(games)


def test_equal_on_everything_shares_the_place() -> None:
    rows = by_id(
        tables(
            bowler("x", [200, 190, 180, 170, 160, 150]),
            bowler("y", [150, 160, 170, 180, 190, 200]),
            bowler("z", [200, 190, 180, 170, 160, 149]),
        )["amateur-men"]
    )
    assert [(rows[k].rank, rows[k].rank_to) for k in "xyz"] == [(1, 2), (1, 2), (3, 3)]
    assert reason(rows["y"], "Shares") == (
        "§ 9 total pinfall",
        "Shares places 1st–2nd: equal on total pinfall, highest game, lowest game, second "
        "highest game, second lowest game, third highest game, third lowest game",
    )


# --- divisions ------------------------------------------------------------------------------

SERIES = [200] * 6


@pytest.mark.parametrize(
    ("gender", "average", "division"),
    [
        ("M", "190", "master-men"),
        ("M", "250.5", "master-men"),
        ("M", "189.99", "standard-men"),
        ("M", "165", "standard-men"),
        ("M", "165,00", "standard-men"),
        ("M", "164.99", "amateur-men"),
        ("M", "0", "amateur-men"),
        ("F", "175", "master-women"),
        ("F", "174.99", "standard-women"),
        ("F", "160", "standard-women"),
        ("F", "159.99", "amateur-women"),
        ("M", "", "amateur-men"),
        ("F", "", "amateur-women"),
        ("f", "176", "master-women"),
    ],
)
def test_division_by_gender_and_average(gender: str, average: str, division: str) -> None:
    standings = compute(bowler("p", SERIES, gender=gender, average=average))
    assert [t.key for t in standings.tables] == [division]


def test_the_division_reason_cites_its_clause() -> None:
    tables_ = tables(
        bowler("m", SERIES, average="190"),
        bowler("n", SERIES, gender="F"),
    )
    (master,) = tables_["master-men"].rows
    assert reason(master, "Division") == (
        "§ 3.4 MM",
        "Division Master men: ladder average 190 as of 2011-07-01 (190 or more)",
    )
    (newcomer,) = tables_["amateur-women"].rows
    assert reason(newcomer, "Division") == (
        "§ 3.4 not on the ladder: lowest category",
        "Division Amateur women: not on the ladder as of 2011-07-01, so the lowest division",
    )


def test_an_average_between_two_divisions_is_an_input_error() -> None:
    with pytest.raises(InputError) as caught:
        compute(bowler("p", SERIES, average="189.995"))
    assert problems(caught) == [
        "row 2, column average: no division takes gender M with average 189.995"
    ]


def test_gender_is_needed_to_choose_the_division() -> None:
    with pytest.raises(InputError) as caught:
        compute(bowler("ok", SERIES), bowler("p", SERIES, gender=""))
    assert problems(caught) == ["row 3, column gender: M or F is needed to choose the division"]


# --- already qualified and advancement ------------------------------------------------------


def masters(*extra: Mapping[str, str]) -> dict[str, Row]:
    """Seven master men plus ``extra``; m1 is best, m7 worst."""
    field = [bowler(f"m{i}", [230 - 5 * i] * 6, average="200") for i in range(1, 8)]
    return by_id(tables(*field, *extra)["master-men"])


def test_already_qualified_has_a_position_but_no_official_rank_and_no_spot() -> None:
    rows = masters(bowler("q", [280] * 6, average="210", qualified="yes"))
    q = rows["q"]
    assert (q.rank, q.official_rank, q.official_rank_to, q.advances) == (1, None, None, False)
    assert (q.reasons[0].clause, q.reasons[0].text) == (
        "§ 3.5 already qualified players are not counted",
        "Outside the competition: already qualified for the final; takes no place",
    )
    assert q.reasons[-1].text == (
        "Does not advance: outside the competition, takes no advancement spot"
    )
    got = {k: (r.rank, r.official_rank, r.advances) for k, r in rows.items() if k != "q"}
    assert got == {f"m{i}": (i + 1, i, i <= 6) for i in range(1, 8)}
    assert rows["m7"].reasons[-1].text == (
        "Does not advance: 7th for Master men 1–6, which takes 6"
    )


def test_a_tie_at_the_sixth_place_sends_both_through() -> None:
    rows = masters(bowler("m6b", [230 - 5 * 6] * 6, average="195"))
    assert (rows["m6"].official_rank, rows["m6"].official_rank_to) == (6, 7)
    assert (rows["m6b"].official_rank, rows["m6b"].official_rank_to) == (6, 7)
    assert rows["m6"].advances
    assert rows["m6b"].advances
    assert rows["m6b"].reasons[-1].text == (
        "Advances on a tie at the cut: shares 6th–7th for Master men 1–6, "
        "which takes 6; everyone tied goes through"
    )
    assert not rows["m7"].advances
    assert sum(r.advances for r in rows.values()) == 7


def test_quotas_per_division() -> None:
    """Ten players in every division: the best 6/8/8 men and 2/4/4 women advance."""
    averages = {
        "master-men": ("M", "195"),
        "standard-men": ("M", "170"),
        "amateur-men": ("M", "150"),
        "master-women": ("F", "180"),
        "standard-women": ("F", "165"),
        "amateur-women": ("F", "150"),
    }
    field = [
        bowler(f"{key}-{i}", [200 - i] * 6, gender=gender, average=average)
        for key, (gender, average) in averages.items()
        for i in range(1, 11)
    ]
    result = tables(*field)
    assert list(result) == list(averages)
    through = {key: [r.entry.id for r in t.rows if r.advances] for key, t in result.items()}
    quotas = {
        "master-men": 6,
        "standard-men": 8,
        "amateur-men": 8,
        "master-women": 2,
        "standard-women": 4,
        "amateur-women": 4,
    }
    assert through == {key: [f"{key}-{i}" for i in range(1, n + 1)] for key, n in quotas.items()}


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("games", "expected"),
    [
        ([301, 200, 200, 200, 200, 200], "row 2, column g1: 301 is more than the 300 this allows"),
        (
            [200, -5, 200, 200, 200, 200],
            "row 2, column g2: -5 is negative: a game score cannot be below 0",
        ),
        ([200, 200, "", 200, 200, 200], "row 2, column g3: every game needs its score"),
        ([200, 200, 200, "2x", 200, 200], "row 2, column g4: '2x' is not a whole number"),
    ],
)
def test_bad_games(games: list[int | str], expected: str) -> None:
    with pytest.raises(InputError) as caught:
        compute(bowler("p", games))
    assert problems(caught) == [expected]


def test_a_missing_game_column_and_all_row_problems_at_once() -> None:
    with pytest.raises(InputError) as caught:
        compute(bowler("p", [200] * 5))
    assert problems(caught) == ["column g6: missing required column"]
    with pytest.raises(InputError) as caught:
        compute(
            bowler("a", [301, 200, 200, 200, 200, -1]),
            bowler("b", SERIES, gender="X"),
            bowler("c", SERIES, average="abc"),
        )
    assert problems(caught) == [
        "row 2, column g1: 301 is more than the 300 this allows",
        "row 2, column g6: -1 is negative: a game score cannot be below 0",
        "row 3, column gender: 'X' is not one of 'm', 'f'",
        "row 4, column average: 'abc' is not a number",
    ]


# --- The common columns of a real qualifier (ČBA), as a results file writes them -------------

CBA = load("cba-qualifier")


def cba(*cells: Mapping[str, str]) -> dict[str, Row]:
    rows = [RawRow(line, c) for line, c in enumerate(cells, start=2)]
    standings = compute_standings(CBA, "qualification", rows)
    return {row.entry.id: row for table in standings.tables for row in table.rows}


def test_birth_dates_in_iso_or_czech_form_against_the_cut_off() -> None:
    rows = cba(
        bowler("iso", SERIES) | {"birth_date": "1999-06-30"},
        bowler("czech", SERIES) | {"birth_date": "30.6.1999"},
        bowler("unpadded", SERIES) | {"birth_date": "1999-6-30"},
        bowler("late", SERIES) | {"birth_date": "1999-07-01"},
        bowler("late-too", SERIES) | {"birth_date": "1.7.1999"},
    )
    assert {key: row.entry.klass for key, row in rows.items()} == {
        "iso": "official",
        "czech": "official",
        "unpadded": "official",
        "late": "ineligible",
        "late-too": "ineligible",
    }
    # Two players born on one day are judged alike, each with the reason in full.
    for key in ("late", "late-too"):
        assert rows[key].reasons[0].text == (
            "Outside the competition: Born 1999-07-01, after 1999-06-30: not eligible"
        )


def test_a_day_that_does_not_exist_is_not_a_date() -> None:
    with pytest.raises(InputError) as caught:
        cba(bowler("p", SERIES) | {"birth_date": "1999-02-30"})
    assert problems(caught) == [
        "row 2, column birth_date: '1999-02-30' is not a date: write YYYY-MM-DD"
    ]


def test_players_of_one_average_share_its_reason_as_each_wrote_it() -> None:
    rows = cba(
        bowler("a", SERIES, average="190"),
        bowler("b", SERIES, average="190.0"),
        bowler("c", SERIES, average="190"),
    )
    texts = {key: reason(row, "Division")[1] for key, row in rows.items()}
    assert texts == {
        "a": "Division Master — men: ladder average 190 as of 2011-07-01 (190 or more)",
        "b": "Division Master — men: ladder average 190.0 as of 2011-07-01 (190 or more)",
        "c": "Division Master — men: ladder average 190 as of 2011-07-01 (190 or more)",
    }


def test_game_cells_are_read_with_spaces_around_and_checked_against_300() -> None:
    rows = cba(bowler("p", [" 200", "210 ", 190, 180, 220, 200]))
    assert rows["p"].entry.metrics["total"] == 1200
    with pytest.raises(InputError) as caught:
        cba(bowler("p", [200, 301, 190, 180, 220, 200]))
    assert problems(caught) == ["row 2, column g2: 301 is more than the 300 this allows"]
