"""Hand-worked outlooks from the seeds' rules, with the numbers a referee would work out."""

from __future__ import annotations

from tests.engine.outlook.brute import rows, small_quotas

from podium.engine.outlook import outlook
from podium.engine.outlook.why import why_above
from podium.rules.loader import load


def texts(o: object) -> list[str]:
    return [r.text for r in o.reasons]  # type: ignore[attr-defined]


def test_a_jigsaw_group_cut_with_foreigners_outside_the_official_order() -> None:
    # Two Czechs and one foreigner advance from the group; the clock stands at 0:50:00.
    book = small_quotas("cz-jigsaw", {50: 2, 5: 1})
    cells = [
        {"id": "c1", "name": "Czech 1", "country": "CZ", "group": "A", "time": "0:40:00"},
        {"id": "f1", "name": "Foreign 1", "country": "DE", "group": "A", "time": "0:41:00"},
        {"id": "c2", "name": "Czech 2", "country": "CZ", "group": "A", "time": "0:50:00"},
        {"id": "c3", "name": "Czech 3", "country": "CZ", "group": "A", "time": "", "pieces": "310"},
        {"id": "f2", "name": "Foreign 2", "country": "AT", "group": "A", "pieces": "450"},
    ]  # fmt: skip
    seen = outlook(book, "individual-qualification", rows(cells)).rows
    got = {i: (o.best, o.worst, o.advances) for (_, i), o in seen.items()}
    assert got == {
        "c1": (1, 1, "certain"),
        "f1": (2, 2, "certain"),  # nobody still solving can beat 0:41:00
        # Czech 3 can at best tie at 0:50:00: a tie at the cut sends both through.
        "c2": (3, 3, "certain"),
        "c3": (3, 5, "open"),
        "f2": (3, 5, "out"),  # the one foreign spot is Foreign 1's whatever happens
    }
    c3 = seen[("A", "c3")]
    assert c3.needs is not None
    assert c3.needs.reason.text == (
        "Needs a finish in 0:50:00 to be sure to advance (Czech entrants); "
        "out of it with a finish in 0:50:01 or worse"
    )
    assert (
        seen[("A", "f2")].reasons[-1].clause
        == book.stage("individual-qualification").advancement.pools[1].clause
    )  # type: ignore[union-attr]
    assert all(o.exact for o in seen.values())


BOWLERS = [
    # Master women: two advance; an already qualified bowler is shown but takes no spot.
    ("q", "yes", [220, 200, 200, 200, 200, 200]),
    ("w1", "no", [200, 180, 180, 180, 180, 180]),
    ("w2", "no", [180, 180, 180, 180, 180, None]),
    ("w3", "no", [170, 170, 170, 170, 170, None]),
    ("w4", "no", [200, 160, 160, 160, 160, 160]),
]


def bowling_rows() -> list[dict[str, str]]:
    cells = []
    for i, qualified, games in BOWLERS:
        row = {"id": i, "name": i.upper(), "gender": "F", "average": "180", "qualified": qualified}
        row.update({f"g{n + 1}": "" if g is None else str(g) for n, g in enumerate(games)})
        cells.append(row)
    return cells


def test_a_bowling_category_quota_with_an_already_qualified_bowler_excluded() -> None:
    book = load("cba-qualifier")
    seen = outlook(book, "qualification", rows(bowling_rows())).rows
    got = {i: (o.best, o.worst, o.advances) for (_, i), o in seen.items()}
    assert got == {
        "q": (1, 1, "out"),  # nobody can reach 1,220; Q takes no spot whatever it bowled
        "w1": (2, 4, "open"),  # W2 (up to 1,200) and W3 (1,150) can both pass 1,100
        "w2": (2, 5, "open"),
        "w3": (2, 5, "open"),
        "w4": (3, 5, "open"),
    }
    assert "Cannot advance: no quota takes this entrant's class" in texts(
        seen[("master-women", "q")]
    )
    w2 = seen[("master-women", "w2")].needs
    # 200 makes W2's series W1's exactly (1,100, high 200, low 180…): a shared 2nd place, and a
    # tie at the cut sends both through. With 100, W4's 1,000 is ahead on the high game.
    assert w2 is not None
    assert w2.reason.text == (
        "Needs 200 in the last game to be sure to advance (Master women); "
        "out of it with 100 in the last game or worse"
    )


def test_why_above_names_the_tie_break_game_and_its_clause() -> None:
    book = load("cba-qualifier")
    cells = bowling_rows()
    cells[2].update(g6="200")  # W2 now 1,100 like W1, with the same high game…
    cells[2].update(g1="190", g2="170")  # …but a lower low game: 170 against 180
    standings = outlook(book, "qualification", rows(cells)).standings
    why = why_above(standings, book.stage("qualification"), "w2", "w1")
    assert (why.above, why.below, why.criterion) == ("w1", "w2", "low-game")
    assert why.reason.text == "W1 is ahead of W2 on lowest game, 180 to 170"
    assert why.reason.clause is not None
    assert "c)" in why.reason.clause or "b)" in why.reason.clause


TOURS = {  # questions taken per tour: shared 2nd–3rd places in both tours
    "A": (10, 5),
    "B": (8, 9),
    "C": (8, 9),
    "D": (5, 10),
}


def season_rows() -> list[dict[str, str]]:
    return [
        {"id": team, "name": f"Team {team}", "tour": str(n + 1), "questions": str(q)}
        for team, taken in TOURS.items()
        for n, q in enumerate(taken)
    ]


def test_a_chgk_season_with_shared_places_and_a_prize_place_playoff() -> None:
    # A 12 + 7 = 19, D 7 + 12 = 19: tied for 1st, held for the play-off (п. 12); B and C share
    # 2nd–3rd in both tours, (10 + 8) / 2 = 9 each time: 18, tied across 3rd place.
    book = load("deti-kolomny")
    seen = outlook(book, "chgk-season", rows(season_rows())).rows
    got = {i: (o.best, o.worst, o.exact) for (_, i), o in seen.items()}
    assert got == {"A": (1, 2, True), "D": (1, 2, True), "B": (3, 4, True), "C": (3, 4, True)}
    # One tour still to play: D needs the tour's win to be sure of a prize place by this bound.
    one_more = outlook(book, "chgk-season", rows(season_rows()), remaining=1).rows
    d = one_more[("all", "D")]
    assert (d.best, d.worst, d.exact) == (1, 4, False)
    assert d.needs is not None
    assert d.needs.reason.text == (
        "Needs 12 pts in the last tour to be sure of a prize place (a bound)"
    )
    assert any(t.startswith("These places are bounds, not exact") for t in texts(d))


def battle_rows(last: tuple[str, str]) -> list[dict[str, str]]:
    played = [("1", "A", "B", "4", "2"), ("1", "A", "C", "5", "1"), ("1", "B", "C", "3", "2"),
              ("2", "A", "B", "4", "1"), ("2", "A", "C", "4", "2")]  # fmt: skip
    battles = [*played, ("2", "B", "C", *last)]
    return [
        {"id": f"b{n}", "round": r, "team1": a, "team2": b, "score1": s1, "score2": s2}
        for n, (r, a, b, s1, s2) in enumerate(battles, 1)
    ]


def test_a_brainball_league_outlook_bounds_then_its_tie_breaks_once_played() -> None:
    # Win 2, draw 1, loss 0: A 8 pts; B 2 and C 0 with B–C left (empty scores: still to play).
    book = load("deti-kolomny")
    seen = outlook(book, "brainball", rows(battle_rows(("", "")))).rows
    got = {i: (o.best, o.worst, o.exact) for (_, i), o in seen.items()}
    assert got == {"A": (1, 1, False), "B": (2, 3, False), "C": (2, 3, False)}
    # C wins 5:1: both on 2 pts, one win each between them; C ahead on question difference,
    # 1 + 2 + 2 + 5 = 10 : 13 (-3) to B's 2 + 3 + 1 + 1 = 7 : 15 (-8): places as the table's,
    # not shared on match points.
    done = outlook(book, "brainball", rows(battle_rows(("1", "5")))).rows
    got = {i: (o.best, o.worst, o.exact) for (_, i), o in done.items()}
    assert got == {"A": (1, 1, True), "C": (2, 2, True), "B": (3, 3, True)}


def test_what_a_team_still_solving_needs_for_a_prize_place() -> None:
    # Three prize places; four teams have finished both puzzles, two are still solving at 2:00.
    cells = [
        {"id": "a", "name": "A", "country": "CZ", "done": "2", "time": "1:40:00"},
        {"id": "b", "name": "B", "country": "CZ", "done": "2", "time": "1:50:00"},
        {"id": "c", "name": "C", "country": "CZ", "done": "2", "time": "2:10:00"},
        {"id": "d", "name": "D", "country": "CZ", "done": "1", "pieces": "300"},
        {"id": "e", "name": "E", "country": "CZ", "done": "2", "time": "2:20:00"},
        {"id": "f", "name": "F", "country": "CZ", "done": "0", "pieces": "400"},
    ]  # fmt: skip
    seen = outlook(load("cz-jigsaw"), "team", rows(cells), now_ms=2 * 3_600_000).rows
    # D must be sure to beat F, who can still finish at 2:00:00 (a tie shares the third place),
    # and is out behind C's 2:10:00 even if F never finishes.
    d, f = seen[("all", "d")].needs, seen[("all", "f")].needs
    assert d is not None
    assert f is not None
    assert d.reason.text == (
        "Needs a finish in 2:00:00 to be sure of a prize place; "
        "out of it with a finish in 2:10:01 or worse"
    )
    # D's results are numbered from 1 of 2 done with 0 pcs (0) to a finish at 2:00:00.
    assert (d.sure_at, d.out_at) == (1001 + 30 * 60, 1001 + 20 * 60 - 1)
    # F has a puzzle more to do, but the same finish would do: every unfinished team is behind.
    assert f.reason.text == d.reason.text


def test_what_each_superfinalist_needs_of_the_brainball_questions_left() -> None:
    # The 12 ChGK questions asked: Alfa took 8, Beta 6; the 12 Brainball questions are left,
    # each taken by at most one team, and a tie after them goes to play-off pairs.
    marks = ["10"] * 6 + ["11"] * 2 + ["01"] * 4
    cells = [
        {"id": str(n + 1), "discipline": "chgk", "Alfa": m[0], "Beta": m[1]}
        for n, m in enumerate(marks)
    ]
    seen = outlook(load("deti-kolomny"), "superfinal", rows(cells)).rows
    alfa, beta = seen[("all", "Alfa")].needs, seen[("all", "Beta")].needs
    assert alfa is not None
    assert beta is not None
    # Alfa with 6 of 12: 14 to Beta's 6 + 6 at most; with 5, 13 to 13 would go to pairs.
    assert alfa.reason.text == "Needs 6 of the 12 questions left to be sure to win"
    # Beta with 8: 14 to 8 + 4; with 1 or none it trails Alfa's 8 even if Alfa takes no more.
    assert beta.reason.text == (
        "Needs 8 of the 12 questions left to be sure to win; "
        "out of it with 1 of the 12 questions left or worse"
    )
    assert (beta.sure_at, beta.out_at) == (8, 1)


def test_what_each_brainball_team_needs_of_its_battles_left() -> None:
    # The first round played: A beat B and drew with C, C beat B; A and C have 3 match points,
    # B none. The second round's three battles (B–A, C–A, C–B) are still to play.
    played = [("A", "B", "4", "2"), ("A", "C", "3", "3"), ("B", "C", "2", "4")]
    left = [("B", "A", "", ""), ("C", "A", "", ""), ("C", "B", "", "")]
    cells = [
        {"id": str(n + 1), "round": "1" if n < 3 else "2", "team1": a, "team2": b,
         "score1": s1, "score2": s2}
        for n, (a, b, s1, s2) in enumerate(played + left)
    ]  # fmt: skip
    seen = outlook(load("deti-kolomny"), "brainball", rows(cells)).rows
    a, b = seen[("all", "A")].needs, seen[("all", "B")].needs
    assert a is not None
    assert b is not None
    # A with both wins: 7, and C, beaten by A, 5 at most. A win and a draw (6) is not enough:
    # drawing with C and beating B lets C tie at 6.
    assert a.reason.text == "Needs 4 match points in the 2 battles left to be sure to win (a bound)"
    # B even with both wins (4) can be passed by A beating C (5); with 2 or fewer it trails
    # A's 3, which A keeps whatever happens.
    assert b.reason.text == (
        "Cannot be sure to win whatever it does; "
        "out of it with 2 match points in the 2 battles left or worse (a bound)"
    )


def test_a_long_brainball_league_says_what_it_takes_only_in_its_last_battles() -> None:
    """120 teams, every pair once, two thirds played: the outlook is bounded work (counted in
    CPU time with a wide margin), and "what it takes" waits for a team's last battles."""
    import itertools
    import time

    from podium.engine.outlook.leagues import LAST_BATTLES

    teams = [f"T{i:03}" for i in range(120)]
    cells, left = [], dict.fromkeys(teams, 0)
    for n, (a, b) in enumerate(itertools.combinations(teams, 2)):
        played = n % 3 != 0
        score = ("3", "1") if (n % 5) < 2 else ("1", "3") if (n % 5) < 4 else ("2", "2")
        if not played:
            left[a] += 1
            left[b] += 1
        scores = score if played else ("", "")
        cells.append({"id": str(n + 1), "round": "1", "team1": a, "team2": b,
                      "score1": scores[0], "score2": scores[1]})  # fmt: skip
    started = time.process_time()
    seen = outlook(load("deti-kolomny"), "brainball", rows(cells)).rows
    assert time.process_time() - started < 20  # was minutes: every rival's sums made afresh
    by_team = {i: o for (_, i), o in seen.items()}
    assert set(by_team) == set(teams)
    assert any(n > LAST_BATTLES for n in left.values())
    for team, o in by_team.items():
        assert o.best <= o.worst
        if left[team] > LAST_BATTLES:
            assert o.needs is None, team
