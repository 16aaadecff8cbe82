from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.entries import Entry, Number
from podium.engine.errors import InputError
from podium.engine.ranking import Placed, PlayoffZone, criteria_for, official_places, rank


def entry(
    entry_id: str,
    *,
    klass: str = "official",
    versus: Mapping[str, Number] | None = None,
    **metrics: Number | None,
) -> Entry:
    return Entry(entry_id, entry_id, metrics, klass=klass, versus=versus or {})


def ranked(
    entries: Sequence[Entry], keys: Sequence[str], playoff: PlayoffZone | None = None
) -> list[Placed]:
    return rank(entries, criteria_for(keys), playoff=playoff)


def places(placed: Sequence[Placed]) -> dict[str, tuple[int, int]]:
    return {p.entry.id: (p.place, p.place_to) for p in placed}


def order(placed: Sequence[Placed]) -> list[str]:
    return [p.entry.id for p in placed]


def by_id(placed: Sequence[Placed]) -> dict[str, Placed]:
    return {p.entry.id: p for p in placed}


def split_of(p: Placed) -> tuple[str, Number | None, Number | None, str] | None:
    s = p.split
    return None if s is None else (s.criterion.key, s.value, s.above_value, s.above.id)


def bowlers(*rows: tuple[str, int, int]) -> list[Entry]:
    return [entry(i, total=total, **{"high-game": high}) for i, total, high in rows]


# --- places and splits ----------------------------------------------------------------------


def test_standard_competition_places_1_2_2_4() -> None:
    placed = ranked(bowlers(("a", 300, 0), ("b", 250, 0), ("c", 250, 0), ("d", 200, 0)), ["total"])
    assert order(placed) == ["a", "b", "c", "d"]
    assert [(p.place, p.place_to) for p in placed] == [(1, 1), (2, 3), (2, 3), (4, 4)]
    assert [p.tied for p in placed] == [False, True, True, False]


def test_split_names_the_criterion_and_both_values() -> None:
    entries = bowlers(("a", 1200, 250), ("b", 1190, 230), ("c", 1190, 220), ("d", 1150, 260))
    placed = by_id(ranked(entries, ["total", "high-game"]))
    assert split_of(placed["a"]) is None
    assert split_of(placed["b"]) == ("total", 1190, 1200, "a")
    assert split_of(placed["c"]) == ("high-game", 220, 230, "b")
    assert split_of(placed["d"]) == ("total", 1150, 1190, "c")


def test_tie_groups_stay_together_after_all_criteria() -> None:
    entries = bowlers(("a", 1200, 250), ("b", 1200, 250), ("c", 1200, 240), ("d", 1100, 300))
    placed = ranked(entries, ["total", "high-game"])
    assert places(placed) == {"a": (1, 2), "b": (1, 2), "c": (3, 3), "d": (4, 4)}
    first, second = placed[:2]
    # Only the first row of a tie group carries the split from the rows above; here none.
    assert (first.split, second.split) == (None, None)
    assert split_of(placed[2]) == ("high-game", 240, 250, "b")


def test_a_missing_value_compared_with_a_value_is_an_error_naming_both() -> None:
    entries = [entry("fast", time_ms=5000), entry("nobody", time_ms=None), entry("slow", time_ms=9)]
    with pytest.raises(InputError) as caught:
        ranked(entries, ["time"])
    [problem] = caught.value.problems
    assert problem.where == "entry nobody"
    assert problem.text == "has no time to compare with slow's (criterion 'time')"


def test_a_missing_value_is_an_error_whatever_the_direction() -> None:
    entries = [entry("x", pieces=300), entry("y", pieces=None)]
    with pytest.raises(InputError, match=r"has no pieces placed to compare with x's"):
        ranked(entries, ["pieces"])


def solvers() -> list[Entry]:
    def solver(entry_id: str, time_ms: int | None, pieces: int | None) -> Entry:
        return entry(entry_id, finished=int(time_ms is not None), time_ms=time_ms, pieces=pieces)

    return [
        solver("f1", 3_000_000, None),
        solver("f2", 2_000_000, None),
        solver("f3", 3_000_000, None),
        solver("n1", None, 450),
        solver("n2", None, 480),
        solver("n3", None, 450),
    ]


def test_no_value_for_everyone_in_a_group_after_a_split_is_fine() -> None:
    """Finishers have no pieces, non-finishers no time: each is only compared within its kind."""
    placed = ranked(solvers(), ["finished", "time", "pieces"])
    assert places(placed) == {
        "f2": (1, 1),
        "f1": (2, 3),
        "f3": (2, 3),
        "n2": (4, 4),
        "n1": (5, 6),
        "n3": (5, 6),
    }
    rows = by_id(placed)
    assert split_of(rows["f1"]) == ("time", 3_000_000, 2_000_000, "f2")
    assert split_of(rows["n2"]) == ("finished", 0, 1, "f3")
    assert split_of(rows["n1"]) == ("pieces", 450, 480, "n2")


# --- group criteria -------------------------------------------------------------------------


def league() -> list[Entry]:
    """A, B and C are level on 4 match points; D is behind.

    Among A, B and C alone: A beat B and C (4), B beat C (2), C nothing (0). Over the whole
    league each has 4, because B and C took their other points from D: counting D too would
    leave the three tied.
    """
    return [
        entry("A", match_points=4, versus={"B": 2, "C": 2, "D": 0}),
        entry("B", match_points=4, versus={"A": 0, "C": 2, "D": 2}),
        entry("C", match_points=4, versus={"A": 0, "B": 0, "D": 4}),
        entry("D", match_points=2, versus={"A": 2, "B": 0, "C": 0}),
    ]


def test_head_to_head_counts_only_the_opponents_still_tied() -> None:
    placed = ranked(league(), ["match-points", "head-to-head"])
    assert order(placed) == ["A", "B", "C", "D"]
    assert [(p.place, p.place_to) for p in placed] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    rows = by_id(placed)
    assert split_of(rows["B"]) == ("head-to-head", Decimal(2), Decimal(4), "A")
    assert split_of(rows["C"]) == ("head-to-head", Decimal(0), Decimal(2), "B")
    assert split_of(rows["D"]) == ("match-points", 2, 4, "C")


def test_head_to_head_leaves_a_tie_to_the_next_criterion() -> None:
    """B and C drew each other; the question difference then decides between them."""
    entries = [
        entry("A", match_points=5, question_difference=1, versus={"B": 2, "C": 2, "D": 1}),
        entry("B", match_points=5, question_difference=3, versus={"A": 0, "C": 1, "D": 4}),
        entry("C", match_points=5, question_difference=9, versus={"A": 0, "B": 1, "D": 4}),
        entry("D", match_points=1, question_difference=-13, versus={"A": 1}),
    ]
    placed = ranked(entries, ["match-points", "head-to-head", "question-difference"])
    assert order(placed) == ["A", "C", "B", "D"]
    rows = by_id(placed)
    assert split_of(rows["C"]) == ("head-to-head", Decimal(1), Decimal(4), "A")
    assert split_of(rows["B"]) == ("question-difference", 3, 9, "C")


def test_a_row_reordered_by_a_later_criterion_keeps_its_split_from_the_rows_above() -> None:
    """Z leads its group only after season questions: it still sits below X on points."""
    entries = [
        entry("X", points=20, season_questions=0),
        entry("Y", points=15, season_questions=10),
        entry("Z", points=15, season_questions=30),
        entry("V", points=1, season_questions=0),
        entry("W", points=1, season_questions=5),
    ]
    zone = PlayoffZone("points", 1, 1)
    placed = ranked(entries, ["points", "season-questions"], playoff=zone)
    assert order(placed) == ["X", "Z", "Y", "W", "V"]
    rows = by_id(placed)
    assert split_of(rows["Z"]) == ("points", 15, 20, "X")
    assert split_of(rows["Y"]) == ("season-questions", 10, 30, "Z")
    # The row above W is now Y (not Z, with whom it was compared): its name is the one shown.
    assert split_of(rows["W"]) == ("points", 1, 15, "Y")
    assert split_of(rows["V"]) == ("season-questions", 0, 5, "W")


# --- play-off zone --------------------------------------------------------------------------


def season() -> list[Entry]:
    def team(entry_id: str, points: int, questions: int) -> Entry:
        return entry(entry_id, points=points, season_questions=questions)

    return [
        team("a", 30, 10),
        team("b", 30, 20),
        team("c", 20, 5),
        team("h", 20, 50),
        team("d", 10, 1),
        team("e", 10, 2),
        team("f", 5, 7),
        team("g", 5, 7),
    ]


def test_ties_touching_the_playoff_places_are_held_and_flagged() -> None:
    zone = PlayoffZone("points", 1, 3)
    placed = ranked(season(), ["points", "season-questions"], playoff=zone)
    got = {p.entry.id: (p.place, p.place_to, p.playoff) for p in placed}
    assert got == {
        # 1st–2nd and 3rd–4th touch places 1–3: held together for the play-off.
        "a": (1, 2, True),
        "b": (1, 2, True),
        "c": (3, 4, True),
        "h": (3, 4, True),
        # Below the zone, season questions decide …
        "e": (5, 5, False),
        "d": (6, 6, False),
        # … and a tie they do not settle is shared, not a play-off.
        "f": (7, 8, False),
        "g": (7, 8, False),
    }


def test_without_a_playoff_zone_the_next_criteria_separate_every_tie() -> None:
    placed = ranked(season(), ["points", "season-questions"])
    assert order(placed)[:4] == ["b", "a", "h", "c"]
    assert not any(p.playoff for p in placed)


# --- official places ------------------------------------------------------------------------


def test_official_places_skip_outsiders() -> None:
    entries = [
        entry("o1", total=300),
        entry("x1", total=290, klass="foreign"),
        entry("o2", total=280),
        entry("o3", total=270),
        entry("x2", total=270, klass="foreign"),
        entry("o4", total=270),
        entry("o5", total=260),
    ]
    placed = ranked(entries, ["total"])
    assert places(placed) == {
        "o1": (1, 1),
        "x1": (2, 2),
        "o2": (3, 3),
        "o3": (4, 6),
        "x2": (4, 6),
        "o4": (4, 6),
        "o5": (7, 7),
    }
    # x1 between o1 and o2 takes no official place; x2 tied with o3 and o4 does not widen
    # their official span (3rd–4th, not 3rd–5th).
    assert official_places(placed) == {
        "o1": (1, 1),
        "o2": (2, 2),
        "o3": (3, 4),
        "o4": (3, 4),
        "o5": (5, 5),
    }


def test_a_tie_of_outsiders_only_takes_no_official_place() -> None:
    entries = [
        entry("o1", total=300),
        entry("x1", total=200, klass="already-qualified"),
        entry("x2", total=200, klass="foreign"),
        entry("o2", total=100),
    ]
    assert official_places(ranked(entries, ["total"])) == {"o1": (1, 1), "o2": (2, 2)}


# --- properties -----------------------------------------------------------------------------

NAMES = st.sampled_from(["Ann", "ann", "Bob", "Cy", "Dora"])


@st.composite
def fields(draw: st.DrawFn) -> list[Entry]:
    """Entrants with few distinct values (ties are common), some names repeated."""
    n = draw(st.integers(min_value=1, max_value=12))
    out = []
    for i in range(n):
        total = draw(st.integers(min_value=0, max_value=4))
        high = draw(st.integers(min_value=0, max_value=2))
        klass = draw(st.sampled_from(["official", "official", "foreign"]))
        name = draw(NAMES)
        out.append(Entry(f"e{i}", name, {"total": total, "high-game": high}, klass=klass))
    return out


KEYS = ["total", "high-game"]


def merit(e: Entry) -> tuple[int, int]:
    total, high = e.metrics["total"], e.metrics["high-game"]
    assert isinstance(total, int)
    assert isinstance(high, int)
    return total, high


def snapshot(placed: Sequence[Placed]) -> list[tuple[object, ...]]:
    return [(p.entry.id, p.place, p.place_to, p.playoff, split_of(p)) for p in placed]


@given(fields(), st.randoms(use_true_random=False))
def test_ranking_does_not_depend_on_input_order(entries: list[Entry], rnd: random.Random) -> None:
    shuffled = list(entries)
    rnd.shuffle(shuffled)
    zone = PlayoffZone("total", 1, 2)
    assert snapshot(ranked(shuffled, KEYS, zone)) == snapshot(ranked(entries, KEYS, zone))
    assert official_places(ranked(shuffled, KEYS)) == official_places(ranked(entries, KEYS))


@given(fields())
def test_places_are_standard_competition_places(entries: list[Entry]) -> None:
    placed = ranked(entries, KEYS)
    position = 0
    for p in placed:
        if p.place > position:
            assert p.place == position + 1
        same = [q for q in placed if q.place == p.place]
        assert p.place_to == p.place + len(same) - 1
        position = p.place_to
    assert position == len(entries)
    for a in placed:
        for b in placed:
            assert (a.place < b.place) == (merit(a.entry) > merit(b.entry))


@given(fields(), st.data())
def test_swapping_the_ids_of_two_tied_rows_swaps_nothing_else(
    entries: list[Entry], data: st.DataObject
) -> None:
    pairs = [
        (i, j)
        for i in range(len(entries))
        for j in range(i + 1, len(entries))
        if entries[i].metrics == entries[j].metrics
    ]
    if not pairs:
        return
    i, j = data.draw(st.sampled_from(pairs))
    swapped = list(entries)
    a, b = entries[i], entries[j]
    swapped[i] = Entry(b.id, a.name, a.metrics, klass=a.klass)
    swapped[j] = Entry(a.id, b.name, b.metrics, klass=b.klass)
    before, after = by_id(ranked(entries, KEYS)), by_id(ranked(swapped, KEYS))
    for entry_id, p in before.items():
        q = after[entry_id]
        assert (q.place, q.place_to, q.playoff) == (p.place, p.place_to, p.playoff)
        if entry_id not in (a.id, b.id) and p.split is not None and q.split is not None:
            assert p.split.criterion.key == q.split.criterion.key
            assert (p.split.value, p.split.above_value) == (q.split.value, q.split.above_value)


@given(fields())
def test_a_strictly_worse_newcomer_changes_nothing_above_it(entries: list[Entry]) -> None:
    worst = min(merit(e)[0] for e in entries)
    newcomer = Entry("zz", "Aaron", {"total": worst - 1, "high-game": 9})
    before = snapshot(ranked(entries, KEYS))
    after = ranked([newcomer, *entries], KEYS)
    assert snapshot(after[:-1]) == before
    last = after[-1]
    assert (last.entry.id, last.place, last.place_to) == ("zz", len(entries) + 1, len(entries) + 1)
    assert last.split is not None
    assert last.split.criterion.key == "total"
