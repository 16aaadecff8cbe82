"""The outlook against brute force: small cases of every format, every completion (from a set
that holds each entrant's extremes and the values that make ties) ranked by the engine itself.
Sound always; exact where the outlook claims it. ``slow`` runs thousands of examples."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.engine.outlook.brute import check, reached, rows, small_quotas

from podium.engine.compute import compute_standings
from podium.engine.inputs import RawRow
from podium.engine.outlook import outlook
from podium.engine.timing import format_clock
from podium.rules.loader import load, parse, preset_text

T = TypeVar("T")
JIGSAW = small_quotas("cz-jigsaw", {50: 2, 5: 1})
BOWLING = small_quotas("cba-qualifier", {6: 2})
KOLOMNA = load("deti-kolomny")
FEW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def both(test: Callable[[T], None], cases: st.SearchStrategy[T]) -> tuple[object, object]:
    """The property as a quick test and as a ``slow`` one with many examples."""

    def quick(case: T) -> None:
        test(case)

    def many(case: T) -> None:
        test(case)

    return FEW(given(cases)(quick)), pytest.mark.slow(MANY(given(cases)(many)))


def products(choices: Sequence[Sequence[object]]) -> Iterator[tuple[object, ...]]:
    return itertools.product(*choices)


# --- Timed round: some finished, the others still solving -----------------------------------

timed_cases = st.lists(
    st.tuples(st.sampled_from(["CZ", "DE"]), st.one_of(st.none(), st.integers(1, 6))),
    min_size=2,
    max_size=5,
).filter(lambda c: sum(t is None for _, t in c) <= 2)


def timed(case: list[tuple[str, int | None]]) -> None:
    cells = [
        {"id": f"p{i}", "name": f"P{i}", "country": country, "group": "A",
         "time": format_clock(t * 60_000) if t else "", "pieces": "" if t else "10"}
        for i, (country, t) in enumerate(case)
    ]  # fmt: skip
    now = max((t or 0) for _, t in case)
    open_ = [i for i, (_, t) in enumerate(case) if t is None]
    # Finishing at the clock now, at each finisher's time from now on, just after, or not at
    # all (with no piece, or as many as another).
    times = sorted({now, *(t for _, t in case if t and t >= now), now + 1})
    outcomes: list[dict[str, str]] = [
        {"time": format_clock(m * 60_000), "pieces": ""} for m in times
    ]
    outcomes += [{"time": "", "pieces": "0"}, {"time": "", "pieces": "10"}]

    def completions() -> Iterator[list[RawRow]]:
        for picks in products([outcomes] * len(open_)):
            done = [dict(c) for c in cells]
            for i, pick in zip(open_, picks, strict=True):
                done[i].update(pick)  # type: ignore[arg-type]
            yield rows(done)

    stage = "individual-qualification"
    result = outlook(JIGSAW, stage, rows(cells), now_ms=now * 60_000)
    check(result, reached(JIGSAW, stage, completions()))


test_timed, test_timed_many = both(timed, timed_cases)


# --- Bowling: a series with games still to bowl ------------------------------------------------

bowling_cases = st.lists(
    st.tuples(
        st.sampled_from(["no", "no", "yes"]),
        st.lists(st.sampled_from([150, 200]), min_size=4, max_size=6),
    ),
    min_size=2,
    max_size=4,
).filter(lambda c: sum(6 - len(g) for _, g in c) <= 3)


def bowling(case: list[tuple[str, list[int]]]) -> None:
    cells = []
    for i, (qualified, games) in enumerate(case):
        row = {
            "id": f"b{i}",
            "name": f"B{i}",
            "gender": "M",
            "average": "195",
            "qualified": qualified,
        }
        row.update({f"g{n + 1}": (str(games[n]) if n < len(games) else "") for n in range(6)})
        cells.append(row)
    empties = [(i, f"g{n + 1}") for i, (_, g) in enumerate(case) for n in range(len(g), 6)]

    def completions() -> Iterator[list[RawRow]]:
        for picks in products([["0", "150", "200", "300"]] * len(empties)):
            done = [dict(c) for c in cells]
            for (i, column), pick in zip(empties, picks, strict=True):
                done[i][column] = str(pick)
            yield rows(done)

    result = outlook(BOWLING, "qualification", rows(cells))
    check(result, reached(BOWLING, "qualification", completions()))


test_bowling, test_bowling_many = both(bowling, bowling_cases)


# --- A ChGK tour: masks still being written -----------------------------------------------------

tour_cases = st.lists(
    st.builds(
        lambda marks, length, disputed: ("?" if disputed else "") + marks[: length - disputed],
        st.text("01", min_size=15, max_size=15),
        st.integers(14, 15),
        st.booleans(),
    ),
    min_size=2,
    max_size=3,
)


def tour(masks: list[str]) -> None:
    cells = [{"id": f"t{i}", "name": f"T{i}", "mask": m} for i, m in enumerate(masks)]
    holes = [(i, n) for i, m in enumerate(masks) for n in range(15) if n >= len(m) or m[n] == "?"]

    def completions() -> Iterator[list[RawRow]]:
        for picks in products([["0", "1"]] * len(holes)):
            marks = [list(m.ljust(15, "?")) for m in masks]
            for (i, n), pick in zip(holes, picks, strict=True):
                marks[i][n] = str(pick)
            yield rows([{**c, "mask": "".join(m)} for c, m in zip(cells, marks, strict=True)])

    result = outlook(KOLOMNA, "chgk-tour", rows(cells))
    check(result, reached(KOLOMNA, "chgk-tour", completions()))


test_tour, test_tour_many = both(tour, tour_cases)


# --- A ChGK season with one tour left -----------------------------------------------------------

season_cases = st.lists(
    st.lists(st.integers(0, 15), min_size=1, max_size=2), min_size=2, max_size=4
)


def season(case: list[list[int]]) -> None:
    cells = [
        {"id": f"t{i}", "name": f"T{i}", "tour": str(n + 1), "questions": str(q)}
        for i, tours in enumerate(case)
        for n, q in enumerate(tours)
    ]

    def completions() -> Iterator[list[RawRow]]:
        for picks in products([[None, 0, 5, 15]] * len(case)):
            last = [
                {"id": f"t{i}", "name": f"T{i}", "tour": "9", "questions": str(q)}
                for i, q in enumerate(picks)
                if q is not None
            ]
            yield rows(cells + last)

    result = outlook(KOLOMNA, "chgk-season", rows(cells), remaining=1)
    check(result, reached(KOLOMNA, "chgk-season", completions()))


test_season, test_season_many = both(season, season_cases)


# --- Brainball: battles still to play ------------------------------------------------------------

league_cases = st.lists(
    st.one_of(st.none(), st.sampled_from([(6, 0), (0, 6), (3, 3), (2, 1)])), min_size=3, max_size=6
).filter(lambda b: 1 <= sum(x is None for x in b) <= 3 and any(x is not None for x in b))
PAIRS = [("A", "B"), ("A", "C"), ("B", "C"), ("B", "A"), ("C", "A"), ("C", "B")]


def league_cells(battles: list[tuple[int, int] | None]) -> tuple[list[dict[str, str]], list[int]]:
    """The league's rows (two rounds of A, B, C; ``None``: still to play) and the open ones."""
    cells = [
        {"id": str(n + 1), "round": "1" if n < 3 else "2", "team1": a, "team2": b,
         "score1": str(s[0]) if s else "", "score2": str(s[1]) if s else ""}
        for n, ((a, b), s) in enumerate(zip(PAIRS, battles, strict=False))
    ]  # fmt: skip
    return cells, [n for n, s in enumerate(battles) if s is None]


def league(battles: list[tuple[int, int] | None]) -> None:
    cells, open_ = league_cells(battles)

    def completions() -> Iterator[list[RawRow]]:
        for picks in products([[(6, 0), (0, 6), (3, 3), (1, 0)]] * len(open_)):
            done = [dict(c) for c in cells]
            for n, (s1, s2) in zip(open_, picks, strict=True):  # type: ignore[misc]
                done[n].update(score1=str(s1), score2=str(s2))
            yield rows(done)

    result = outlook(KOLOMNA, "brainball", rows(cells))
    found = reached(KOLOMNA, "brainball", completions())
    # A team with no battle played yet has no row now; the completions' other rows are checked.
    for key in set(found) - set(result.rows):
        del found[key]
    check(result, found)


test_league, test_league_many = both(league, league_cases)


# --- A superfinal with questions still to ask ---------------------------------------------------

final_cases = st.tuples(
    st.integers(21, 23),
    st.lists(st.sampled_from(["10", "01", "11", "00"]), min_size=23, max_size=23),
)


def superfinal(case: tuple[int, list[str]]) -> None:
    asked, marks = case
    marks = [m if n < 12 or m != "11" else "10" for n, m in enumerate(marks)]  # Brainball: one team
    cells = [
        {
            "id": str(n + 1),
            "discipline": "chgk" if n < 12 else "brainball",
            "Alfa": m[0],
            "Beta": m[1],
        }
        for n, m in enumerate(marks[:asked])
    ]

    def completions() -> Iterator[list[RawRow]]:
        left = range(asked, 24)
        for picks in products([["10", "01", "00"]] * len(left)):
            done = cells + [
                {"id": str(n + 1), "discipline": "brainball", "Alfa": p[0], "Beta": p[1]}
                for n, p in zip(left, picks, strict=True)
            ]
            a = sum(int(c["Alfa"]) for c in done)
            b = sum(int(c["Beta"]) for c in done)
            if a != b:
                yield rows(done)
                continue
            for pair in (("10", "00"), ("00", "10")):  # a tie goes to a pair, won either way
                extra = [
                    {"id": "25", "discipline": "chgk", "Alfa": pair[0][0], "Beta": pair[1][0]},
                    {"id": "26", "discipline": "brainball", "Alfa": "0", "Beta": "0"},
                ]
                yield rows(done + extra)

    result = outlook(KOLOMNA, "superfinal", rows(cells))
    check(result, reached(KOLOMNA, "superfinal", completions()))


test_superfinal, test_superfinal_many = both(superfinal, final_cases)


# --- What it takes: a bowler's last game --------------------------------------------------------

needs_cases = st.lists(
    st.tuples(st.sampled_from([150, 200, 250]), st.booleans()), min_size=3, max_size=4
).filter(lambda c: 1 <= sum(left for _, left in c) <= 2)


def needs(case: list[tuple[int, bool]]) -> None:
    """Whatever the others bowl, a last game at or above ``sure_at`` advances and one at or
    below ``out_at`` does not."""
    cells = []
    for i, (game, left) in enumerate(case):
        row = {"id": f"b{i}", "name": f"B{i}", "gender": "M", "average": "195"}
        row.update({f"g{n + 1}": str(game + n) for n in range(6)})
        if left:
            row["g6"] = ""
        cells.append(row)
    result = outlook(BOWLING, "qualification", rows(cells))
    open_ = [i for i, (_, left) in enumerate(case) if left]
    for i in open_:
        seen = result.rows[("master-men", f"b{i}")]
        if seen.needs is None:
            continue
        for mine in (seen.needs.sure_at, seen.needs.out_at):
            if mine is None:
                continue
            others = [j for j in open_ if j != i]
            completions = []
            for picks in products([["0", "150", "300"]] * len(others)):
                done = [dict(c) for c in cells]
                done[i]["g6"] = str(mine)
                for j, pick in zip(others, picks, strict=True):
                    done[j]["g6"] = str(pick)
                completions.append(rows(done))
            advances = reached(BOWLING, "qualification", completions)[("master-men", f"b{i}")][1]
            assert advances == ({True} if mine == seen.needs.sure_at else {False}), (i, seen)


test_needs, test_needs_many = both(needs, needs_cases)


# --- What it takes: a team still solving ----------------------------------------------------------

TEAM_LIMIT_MS, BIGGEST = 150 * 60_000, 1000  # the preset's team stage: 1000 + 500 pcs, 150 min
team_cases = st.lists(
    st.one_of(
        st.integers(100, 140).map(lambda m: (2, m, 0)),  # finished at m minutes
        st.tuples(st.integers(0, 1), st.none(), st.sampled_from([0, 300, 999])),
    ),
    min_size=3,
    max_size=5,
).filter(lambda c: 1 <= sum(t is None for _, t, _p in c) <= 2)


def team_cells(done: int, minutes: int | None, pieces: int) -> dict[str, str]:
    time = format_clock(minutes * 60_000) if minutes is not None else ""
    return {"done": str(done), "time": time, "pieces": "" if done == 2 else str(pieces)}


def team_result(start: int, x: int) -> tuple[int, int | None, int]:
    """Result number ``x`` of a team that has done ``start`` puzzles, as (done, ms, pieces)."""
    steps = (2 - start) * (BIGGEST + 1)
    if x < steps:
        return start + x // (BIGGEST + 1), None, x % (BIGGEST + 1)
    return 2, TEAM_LIMIT_MS - (x - steps) * 1000, 0


def team_needs(case: list[tuple[int, int | None, int]]) -> None:
    """Whatever the other teams still do, a result at ``sure_at`` wins a prize and one at
    ``out_at`` does not; and both are the least and the most such (exact): the result just
    below ``sure_at``, or just above ``out_at``, leaves it open."""
    cells = [
        {"id": f"t{i}", "name": f"T{i}", "country": "CZ", **team_cells(*c)}
        for i, c in enumerate(case)
    ]
    now = max((m or 0) for _, m, _p in case) * 60_000
    result = outlook(JIGSAW, "team", rows(cells), now_ms=now)
    open_ = [i for i, (_, m, _p) in enumerate(case) if m is None]
    for i in open_:
        seen = result.rows[("all", f"t{i}")]
        assert seen.needs is not None or seen.best == seen.worst, (i, seen)
        if seen.needs is None:
            continue
        sure, out = seen.needs.sure_at, seen.needs.out_at
        between = {sure - 1 if sure else None, None if out is None else out + 1} - {None}
        claims = [(sure, {True}), (out, {False})]
        claims += [(n, {True, False}) for n in between if n not in (sure, out)]
        for mine, expected in claims:
            if mine is None:
                continue
            done, ms, pieces = team_result(case[i][0], mine)
            own = {"done": str(done), "time": format_clock(ms) if ms else "",
                   "pieces": "" if ms else str(pieces)}  # fmt: skip
            # The others' extremes, a result just like this one, and one either side of it.
            later, sooner = min(TEAM_LIMIT_MS, (ms or 0) + 1000), max(now, (ms or 0) - 1000)
            near = [(2, ms, 0), (2, later, 0), (2, sooner, 0)] if ms else [
                (done, None, pieces), (done, None, min(BIGGEST, pieces + 1)),
                (done, None, max(0, pieces - 1))]  # fmt: skip
            options = [(2, now, 0), (0, None, 0), (1, None, 0), (1, None, BIGGEST), *near]
            choices = [[o for o in options if o[0] >= case[j][0]] for j in open_ if j != i]
            completions = []
            for picks in products(choices):
                done_cells = [dict(c) for c in cells]
                done_cells[i].update(own)
                for j, (d, t, p) in zip([j for j in open_ if j != i], picks, strict=True):
                    done_cells[j].update(done=str(d), time=format_clock(t) if t else "",
                                         pieces="" if t else str(p))  # fmt: skip
                completions.append(rows(done_cells))
            prizes = {
                row.prize
                for completion in completions
                for table in compute_standings(JIGSAW, "team", completion).tables
                for row in table.rows
                if row.entry.id == f"t{i}"
            }
            assert prizes == expected, (i, seen, mine)


test_team_needs, test_team_needs_many = both(team_needs, team_cases)


# --- What it takes: a superfinal's questions still to ask -----------------------------------------

# The preset's superfinal made short: 3 ChGK questions (both teams may take one), then 3 Brainball
# (at most one team), so that the questions left can be of both kinds.
SHORT_FINAL = parse(
    preset_text("deti-kolomny").replace(
        "- [chgk, 12]\n      - [brainball, 12]", "- [chgk, 3]\n      - [brainball, 3]"
    )
)
final_needs_cases = st.tuples(
    st.integers(2, 5), st.lists(st.sampled_from(["10", "01", "11", "00"]), min_size=6, max_size=6)
)


def final_needs(case: tuple[int, list[str]]) -> None:
    """Whatever the other team takes, ``sure_at`` of the questions left (however they fall)
    wins the title and ``out_at`` does not, play-off pairs included; and both are the least
    and the most such (exact): one question fewer, or one more, leaves it open."""
    asked, marks = case
    kinds = ["chgk"] * 3 + ["brainball"] * 3
    marks = [m if k == "chgk" or m != "11" else "10" for k, m in zip(kinds, marks, strict=True)]
    cells = [
        {"id": str(n + 1), "discipline": kinds[n], "Alfa": m[0], "Beta": m[1]}
        for n, m in enumerate(marks[:asked])
    ]
    result = outlook(SHORT_FINAL, "superfinal", rows(cells))
    for me, col in (("Alfa", 0), ("Beta", 1)):
        seen = result.rows[("all", me)]
        if seen.needs is None:
            assert seen.best == seen.worst, seen
            continue
        sure, out = seen.needs.sure_at, seen.needs.out_at
        claims = [(sure, {True}), (out, {False})]
        between = {sure - 1 if sure else None, None if out is None else out + 1} - {None}
        claims += [(n, {True, False}) for n in between if n not in (sure, out)]
        for mine, expected in claims:
            if mine is None:
                continue
            won: set[bool] = set()
            for picks in products([["10", "01", "00", "11"][: 4 if k == "chgk" else 3]
                                   for k in kinds[asked:]]):  # fmt: skip
                if sum(int(p[col]) for p in picks) != mine:  # type: ignore[index]
                    continue
                done = cells + [
                    {"id": str(n + 1), "discipline": kinds[n], "Alfa": p[0], "Beta": p[1]}  # type: ignore[index]
                    for n, p in zip(range(asked, 6), picks, strict=True)
                ]
                a, b = (sum(int(c[t]) for c in done) for t in ("Alfa", "Beta"))
                extras: list[list[dict[str, str]]] = [[]] if a != b else [
                    [{"id": "7", "discipline": "chgk", "Alfa": x, "Beta": y},
                     {"id": "8", "discipline": "brainball", "Alfa": "0", "Beta": "0"}]
                    for x, y in (("1", "0"), ("0", "1"))
                ]  # fmt: skip
                for extra in extras:
                    table = compute_standings(SHORT_FINAL, "superfinal", rows(done + extra))
                    won |= {r.rank == 1 for t in table.tables for r in t.rows if r.entry.id == me}
            assert won == expected, (me, seen, mine)


test_final_needs, test_final_needs_many = both(final_needs, final_needs_cases)


# --- What it takes: a Brainball team's battles left -------------------------------------------

BATTLE_POINTS = {(6, 0): (2, 0), (0, 6): (0, 2), (3, 3): (1, 1), (1, 0): (2, 0)}  # win 2, draw 1


def league_needs(battles: list[tuple[int, int] | None]) -> None:
    """Whatever the other battles bring, ``sure_at`` match points in a team's battles left
    (however it takes them) win the league alone and ``out_at`` do not; with 2, 1 and 0
    points a battle, result number ``x`` is ``x`` match points."""
    cells, open_ = league_cells(battles)
    result = outlook(KOLOMNA, "brainball", rows(cells))
    for (_table, team), seen in result.rows.items():
        mine = [n for n in open_ if team in PAIRS[n]]
        if seen.needs is None:
            assert not mine or seen.best == seen.worst, (team, seen)
            continue
        for points in (seen.needs.sure_at, seen.needs.out_at):
            if points is None:
                continue
            won: set[bool] = set()
            for picks in products([list(BATTLE_POINTS)] * len(open_)):
                taken = sum(
                    BATTLE_POINTS[pick][PAIRS[n].index(team)]  # type: ignore[index]
                    for n, pick in zip(open_, picks, strict=True)
                    if n in mine
                )
                if taken != points:
                    continue
                done = [dict(c) for c in cells]
                for n, (s1, s2) in zip(open_, picks, strict=True):  # type: ignore[misc]
                    done[n].update(score1=str(s1), score2=str(s2))
                for table in compute_standings(KOLOMNA, "brainball", rows(done)).tables:
                    # Sure: first alone; out: not even sharing the first place.
                    won |= {
                        (r.rank, r.rank_to) == (1, 1)
                        if points == seen.needs.sure_at
                        else r.rank == 1
                        for r in table.rows
                        if r.entry.id == team
                    }
            assert won == ({True} if points == seen.needs.sure_at else {False}), (team, seen)


test_league_needs, test_league_needs_many = both(league_needs, league_cases)
