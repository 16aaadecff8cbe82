"""Draws: groups, tables, ČBA lanes and the American-system schedule, ChGK hosts."""

from __future__ import annotations

import math
from collections import Counter
from decimal import Decimal
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from podium.engine.draws import ALGORITHM, DrawError
from podium.engine.draws.groups import Entrant, number_tables, split_groups
from podium.engine.draws.lanes import (
    LaneDraw,
    LaneSeat,
    american_schedule,
    lane_for_frame,
    lane_pairs,
)
from podium.engine.draws.leagues import battle_schedule, tour_hosts

PAIRS = [(1, 2), (3, 4), (5, 6)]


# --- Pinned results: a change of the algorithm or of Python's generator shows here ----------


def test_algorithm_names_version_and_python() -> None:
    assert ALGORITHM.startswith("podium-draws/1; python-3.")
    assert "random.Random(str seed)" in ALGORITHM


def test_pinned_group_draw() -> None:
    # Entrants 4 and 8 are foreign: one per group; 10 entrants: 5 and 5.
    people = [Entrant(i, domestic=i % 4 != 0) for i in range(1, 11)]
    draw = split_groups(people, ["A", "B"], "abc")
    assert draw.members("A") == (1, 2, 4, 9, 10)
    assert draw.members("B") == (3, 5, 6, 7, 8)
    assert draw.seed == "abc"
    assert draw.algorithm == ALGORITHM


def test_pinned_tables_hosts_and_lanes() -> None:
    assert number_tables([5, 3, 9, 1], "abc").tables == ((1, 1), (2, 3), (3, 5), (4, 9))
    hosts = tour_hosts([10, 20, 30], [str(n) for n in range(1, 8)], "abc")
    assert [team for _, team in hosts.hosts] == [10, 20, 30, 10, 20, 30, 10]
    draw = lane_pairs(range(1, 10), PAIRS, "abc", per_pair=4)
    assert [(s.entrant, s.pair, s.side) for s in draw.seats[:3]] == [
        (5, 0, "left"),
        (6, 0, "left"),
        (2, 0, "right"),
    ]


# --- Groups ---------------------------------------------------------------------------------


def test_groups_spread_foreigners_and_sizes() -> None:
    # 11 entrants, 3 foreign (ids 1, 2, 3), groups A and B: sizes 6 and 5, foreigners 2 and 1.
    people = [Entrant(i, domestic=i > 3) for i in range(1, 12)]
    draw = split_groups(people, ["A", "B"], "seed-1")
    sizes = sorted(len(draw.members(g)) for g in "AB")
    foreign = sorted(sum(1 for i in draw.members(g) if i <= 3) for g in "AB")
    assert sizes == [5, 6]
    assert foreign == [1, 2]


def test_groups_by_rating_deal_one_of_each_pot() -> None:
    # Ratings 200, 190, 180, 170: pots {200, 190} and {180, 170}; each group one of each pot.
    people = [Entrant(i, rating=Decimal(210 - 10 * i)) for i in range(1, 5)]
    draw = split_groups(people, ["A", "B"], "x", balance_by=("rating",))
    for group in "AB":
        members = set(draw.members(group))
        assert len(members & {1, 2}) == 1
        assert len(members & {3, 4}) == 1


def test_groups_unrated_go_last_in_the_rating_order() -> None:
    people = [
        Entrant(1),
        Entrant(2),
        Entrant(3, rating=Decimal(150)),
        Entrant(4, rating=Decimal(1)),
    ]
    draw = split_groups(people, ["A", "B"], "y", balance_by=("rating",))
    for group in "AB":
        assert len(set(draw.members(group)) & {3, 4}) == 1


def test_groups_refuse_duplicates_and_nothing_to_split_into() -> None:
    with pytest.raises(DrawError, match="listed twice"):
        split_groups([Entrant(1), Entrant(1)], ["A"], "s")
    with pytest.raises(DrawError, match="at least one group"):
        split_groups([Entrant(1)], [], "s")
    with pytest.raises(DrawError, match="repeat"):
        split_groups([Entrant(1)], ["A", "A"], "s")
    with pytest.raises(DrawError, match="seed"):
        split_groups([Entrant(1)], ["A"], "")


entrant_sets = st.lists(
    st.builds(
        Entrant,
        id=st.integers(1, 500),
        domestic=st.booleans(),
        rating=st.one_of(st.none(), st.integers(100, 250).map(Decimal)),
    ),
    max_size=60,
    unique_by=lambda e: e.id,
)
group_lists = st.sampled_from([["A"], ["A", "B"], ["A", "B", "C"], ["1", "2", "3", "4"]])
balances = st.sampled_from([(), ("domestic",), ("rating",), ("domestic", "rating")])


@given(entrant_sets, group_lists, st.text(min_size=1, max_size=12), balances, st.randoms())
def test_groups_reproducible_and_order_free(
    people: list[Entrant], groups: list[str], seed: str, balance: tuple, shuffler: object
) -> None:
    first = split_groups(people, groups, seed, balance_by=balance)
    again = list(people)
    shuffler.shuffle(again)  # type: ignore[attr-defined]
    assert split_groups(again, groups, seed, balance_by=balance) == first
    assert [i for i, _ in first.assignments] == sorted(e.id for e in people)


@given(entrant_sets, group_lists, st.text(min_size=1, max_size=12), balances)
def test_groups_balanced(
    people: list[Entrant], groups: list[str], seed: str, balance: tuple
) -> None:
    draw = split_groups(people, groups, seed, balance_by=balance)
    sizes = [len(draw.members(g)) for g in groups]
    assert max(sizes) - min(sizes) <= 1
    if "domestic" in balance:
        foreign = {e.id for e in people if not e.domestic}
        counts = [len(set(draw.members(g)) & foreign) for g in groups]
        assert max(counts) - min(counts) <= 1


# --- Tables ---------------------------------------------------------------------------------


@given(st.sets(st.integers(1, 1000), max_size=60), st.text(min_size=1), st.integers(1, 50))
def test_tables_are_consecutive_and_reproducible(ids: set[int], seed: str, start: int) -> None:
    draw = number_tables(ids, seed, start=start)
    assert [t for t, _ in draw.tables] == list(range(start, start + len(ids)))
    assert {e for _, e in draw.tables} == ids
    assert number_tables(sorted(ids, reverse=True), seed, start=start) == draw


def test_table_of() -> None:
    draw = number_tables([7, 8], "t", start=11)
    assert {draw.table_of(7), draw.table_of(8)} == {11, 12}


# --- Lanes ----------------------------------------------------------------------------------


def test_lane_draw_spreads_players_and_sides() -> None:
    # 8 players on 3 pairs: 3, 3, 2 players; in a pair of 3, two start left and one right.
    draw = lane_pairs(range(1, 9), PAIRS, "lanes", per_pair=4)
    per_pair = Counter(s.pair for s in draw.seats)
    assert [per_pair[p] for p in range(3)] == [3, 3, 2]
    assert Counter((s.pair, s.side) for s in draw.seats) == {
        (0, "left"): 2,
        (0, "right"): 1,
        (1, "left"): 2,
        (1, "right"): 1,
        (2, "left"): 1,
        (2, "right"): 1,
    }
    assert sorted(s.entrant for s in draw.seats) == list(range(1, 9))


def test_lane_draw_refuses_over_capacity_and_bad_pairs() -> None:
    with pytest.raises(DrawError, match="13 players do not fit on 3 lane pairs of 4"):
        lane_pairs(range(1, 14), PAIRS, "s", per_pair=4)
    with pytest.raises(DrawError, match="more than one pair"):
        lane_pairs([1], [(1, 2), (2, 3)], "s")
    with pytest.raises(DrawError, match="at least one lane pair"):
        lane_pairs([1], [], "s")


def hand_draw() -> LaneDraw:
    """Three pairs; players 1, 2 | 3 on lanes 1–2, 4 | 5 on 3–4, 6 | 7 on 5–6 (left | right)."""
    seats = (
        LaneSeat(1, 0, "left", 1),
        LaneSeat(2, 0, "left", 2),
        LaneSeat(3, 0, "right", 1),
        LaneSeat(4, 1, "left", 1),
        LaneSeat(5, 1, "right", 1),
        LaneSeat(6, 2, "left", 1),
        LaneSeat(7, 2, "right", 1),
    )
    return LaneDraw("s", ALGORITHM, tuple(PAIRS), 3, seats)


def test_american_schedule_by_hand() -> None:
    schedule = american_schedule(hand_draw(), (2, 2, 2))
    first, second, third = schedule.blocks
    assert [b.games for b in schedule.blocks] == [(1, 2), (3, 4), (5, 6)]
    # Block 1: as drawn.
    assert [(p.lanes, p.left, p.right) for p in first.pairs] == [
        ((1, 2), (1, 2), (3,)),
        ((3, 4), (4,), (5,)),
        ((5, 6), (6,), (7,)),
    ]
    # Block 2: left starters one pair on (wrapping), right starters one pair back.
    assert [(p.lanes, p.left, p.right) for p in second.pairs] == [
        ((1, 2), (6,), (5,)),
        ((3, 4), (1, 2), (7,)),
        ((5, 6), (4,), (3,)),
    ]
    # Block 3: two pairs on / back.
    assert [(p.lanes, p.left, p.right) for p in third.pairs] == [
        ((1, 2), (4,), (7,)),
        ((3, 4), (6,), (3,)),
        ((5, 6), (1, 2), (5,)),
    ]
    assert schedule.pair_of(3, 1) == (1, 2)
    assert schedule.pair_of(3, 2) == (5, 6)
    assert schedule.pair_of(3, 3) == (3, 4)


def test_american_schedule_other_lanes_and_mismatch() -> None:
    schedule = american_schedule(hand_draw(), (3, 3), lane_pairs=[(11, 12), (13, 14), (15, 16)])
    assert [b.games for b in schedule.blocks] == [(1, 2, 3), (4, 5, 6)]
    assert schedule.blocks[0].pairs[0].lanes == (11, 12)
    with pytest.raises(DrawError, match="used 3 lane pairs, the schedule has 1"):
        american_schedule(hand_draw(), lane_pairs=[(1, 2)])
    with pytest.raises(DrawError, match="at least one game"):
        american_schedule(hand_draw(), (2, 0))


def test_american_schedule_checks_capacity() -> None:
    # A hand-made (not drawn) start with 3 on the left of pair 1 and 2 on the right of pair 2
    # fits 3 per pair in block 1, but block 2 would bring 3 + 2 = 5 players to lanes 3–4.
    seats = (
        LaneSeat(1, 0, "left", 1),
        LaneSeat(2, 0, "left", 2),
        LaneSeat(3, 0, "left", 3),
        LaneSeat(4, 2, "right", 1),
        LaneSeat(5, 2, "right", 2),
    )
    draw = LaneDraw("s", ALGORITHM, tuple(PAIRS), 3, seats)
    with pytest.raises(DrawError, match="block 2: lanes 3–4 would take 5 players, more than 3"):
        american_schedule(draw)


def test_frames_alternate_lanes() -> None:
    # Starting on the left lane 3: frames 1, 3, … on lane 3; 2, 4, …, 10 on lane 4.
    assert [lane_for_frame((3, 4), "left", f) for f in range(1, 11)] == [3, 4] * 5
    assert [lane_for_frame((3, 4), "right", f) for f in (1, 2, 10)] == [4, 3, 3]
    with pytest.raises(DrawError):
        lane_for_frame((3, 4), "left", 11)


@given(
    st.sets(st.integers(1, 300), max_size=40),
    st.integers(1, 8),
    st.integers(1, 8),
    st.text(min_size=1, max_size=8),
)
def test_schedule_never_over_capacity(ids: set[int], pairs: int, per_pair: int, seed: str) -> None:
    lanes = [(2 * n + 1, 2 * n + 2) for n in range(pairs)]
    if len(ids) > pairs * per_pair:
        with pytest.raises(DrawError):
            lane_pairs(ids, lanes, seed, per_pair=per_pair)
        return
    draw = lane_pairs(ids, lanes, seed, per_pair=per_pair)
    assert draw == lane_pairs(sorted(ids, reverse=True), lanes, seed, per_pair=per_pair)
    schedule = american_schedule(draw)
    for block in schedule.blocks:
        assert all(p.players <= per_pair for p in block.pairs)
        placed = [e for p in block.pairs for e in p.left + p.right]
        assert sorted(placed) == sorted(ids)


# --- ChGK hosts -----------------------------------------------------------------------------


@given(
    st.sets(st.integers(1, 100), min_size=1, max_size=12), st.integers(0, 30), st.text(min_size=1)
)
def test_hosts_take_turns(teams: set[int], tours: int, seed: str) -> None:
    names = [f"tour {n}" for n in range(1, tours + 1)]
    draw = tour_hosts(teams, names, seed)
    assert [tour for tour, _ in draw.hosts] == names
    counts = Counter(team for _, team in draw.hosts)
    assert max(counts.values(), default=0) <= math.ceil(tours / len(teams))
    if len(teams) > 1:
        hosts = [team for _, team in draw.hosts]
        assert all(a != b for a, b in pairwise(hosts))
    assert tour_hosts(sorted(teams, reverse=True), names, seed) == draw


def test_hosts_by_hand_and_refusals() -> None:
    # 2 teams, 5 tours: one hosts tours 1, 3, 5 and the other 2, 4 (⌈5/2⌉ = 3).
    draw = tour_hosts([7, 9], ["1", "2", "3", "4", "5"], "h")
    first, second = draw.hosts[0][1], draw.hosts[1][1]
    assert {first, second} == {7, 9}
    assert draw.hosted_by(first) == ("1", "3", "5")
    assert draw.hosted_by(second) == ("2", "4")
    with pytest.raises(DrawError, match="at least one team"):
        tour_hosts([], ["1"], "h")
    with pytest.raises(DrawError, match="repeat"):
        tour_hosts([1], ["1", "1"], "h")


# --- Brainball: a double round-robin on two stages at once ------------------------------------


@pytest.mark.parametrize("teams", [4, 5, 9, 10])
def test_battle_schedule_meets_every_pair_twice_with_sides_swapped(teams: int) -> None:
    schedule = battle_schedule(range(1, teams + 1), "season-2026")
    assert len(schedule.bouts) == teams * (teams - 1)  # n(n-1)/2 pairs, twice
    for round_ in (1, 2):
        sides = [(b.team1, b.team2) for b in schedule.bouts if b.round == round_]
        assert len({frozenset(s) for s in sides}) == len(sides) == teams * (teams - 1) // 2
    first = {(b.team1, b.team2) for b in schedule.bouts if b.round == 1}
    second = {(b.team2, b.team1) for b in schedule.bouts if b.round == 2}
    assert first == second


@pytest.mark.parametrize("teams", [4, 5, 9, 10])
def test_battle_schedule_never_puts_a_team_in_two_battles_at_once(teams: int) -> None:
    schedule = battle_schedule(range(1, teams + 1), "season-2026")
    slots: dict[tuple[int, int, int], list[int]] = {}
    stages: dict[tuple[int, int, int], list[int]] = {}
    days: Counter[tuple[int, int, int]] = Counter()
    for b in schedule.bouts:
        at = (b.round, b.day, b.slot)
        slots.setdefault(at, []).extend((b.team1, b.team2))
        stages.setdefault(at, []).append(b.stage)
        for team in (b.team1, b.team2):
            days[(b.round, b.day, team)] += 1
    assert all(len(t) == len(set(t)) for t in slots.values())
    assert all(sorted(s) in ([1], [2], [1, 2]) for s in stages.values())
    assert set(days.values()) == {1}  # one battle per team and matchday
    # An odd number of teams: one rests each matchday; 2(n-1) or 2n matchdays in all.
    assert len({(b.round, b.day) for b in schedule.bouts}) == 2 * (teams - 1 + teams % 2)


@pytest.mark.parametrize("teams", [4, 5, 9, 10])
def test_battle_schedule_balances_the_stages(teams: int) -> None:
    schedule = battle_schedule(range(1, teams + 1), "season-2026")
    per_stage = Counter(b.stage for b in schedule.bouts)
    assert abs(per_stage[1] - per_stage[2]) <= 1
    for team in range(1, teams + 1):
        mine = Counter(b.stage for b in schedule.of(team))
        assert mine[1] + mine[2] == 2 * (teams - 1)
        assert abs(mine[1] - mine[2]) <= 2


def test_battle_schedule_is_fixed_by_its_seed_and_refuses_a_lone_team() -> None:
    a = battle_schedule([3, 1, 2, 4], "abc")
    assert a == battle_schedule([4, 3, 2, 1], "abc")
    assert a.seed == "abc"
    assert a.algorithm == ALGORITHM
    # Pinned: the first matchday of seed "abc", and another seed pairs other teams first.
    assert [(b.day, b.slot, b.stage, b.team1, b.team2) for b in a.bouts[:2]] == [
        (1, 1, 1, 1, 4),
        (1, 1, 2, 2, 3),
    ]
    assert [(b.team1, b.team2) for b in battle_schedule([1, 2, 3, 4], "xyz").bouts[:2]] == [
        (1, 3),
        (4, 2),
    ]
    with pytest.raises(DrawError, match="at least two teams"):
        battle_schedule([1], "abc")
