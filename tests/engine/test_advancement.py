from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.advancement import Decision, advance
from podium.engine.compute import compute_standings
from podium.engine.entries import Entry, Reason
from podium.engine.inputs import RawRow
from podium.engine.ranking import criteria_for, rank
from podium.engine.standings import Row, Table
from podium.rules.loader import parse
from podium.rules.schema.ranking import Advancement, Pool

RULEBOOK = """
key: advancement-test
title: Advancement test
language: en
source: written for this test
classification:
  domestic: {{country: CZ}}
categories:
  - key: solo
    title: Solo
    entrants: {{kind: individual}}
stages:
  - key: qualification
    title: Qualification
    format: timed-solve
    category: solo
    groups: [A, B]
    time_limit_min: 90
    pieces: 500
    ranking:
      criteria: [finished, time, pieces]
    advancement:
      clause: "From each group the 50 fastest Czechs and the 5 fastest foreigners"
      ties_at_cut: {ties}
      ties_clause: "Our decision on ties at the cut"
      pools:
        - key: czech
          label: 50 fastest Czechs
          classes: [official]
          count: 50
          clause: "Foreigners do not reduce the number of Czechs"
        - key: foreign
          label: 5 fastest foreigners
          classes: [foreign]
          count: 5
"""

CZECH_POOL = "Foreigners do not reduce the number of Czechs"
POOL = "From each group the 50 fastest Czechs and the 5 fastest foreigners"
TIES = "Our decision on ties at the cut"


def rows(spec: Sequence[tuple[str, str, str, int]]) -> list[RawRow]:
    """RawRows from (id, group, country, seconds)."""
    out = []
    for line, (entrant, group, country, seconds) in enumerate(spec, start=2):
        minutes, secs = divmod(seconds, 60)
        cells = {"id": entrant, "group": group, "country": country, "time": f"{minutes}:{secs:02d}"}
        out.append(RawRow(line, cells))
    return out


def standings(
    spec: Sequence[tuple[str, str, str, int]], ties: str = "all-advance"
) -> dict[str, Table]:
    rulebook = parse(RULEBOOK.format(ties=ties))
    result = compute_standings(rulebook, "qualification", rows(spec))
    return {t.key: t for t in result.tables}


def by_id(table: Table) -> dict[str, Row]:
    return {row.entry.id: row for row in table.rows}


def advancing(table: Table) -> list[str]:
    return [row.entry.id for row in table.rows if row.advances]


def last_reason(row: Row) -> tuple[str | None, str]:
    reason = row.reasons[-1]
    return reason.clause, reason.text


def assert_every_non_advancing_row_says_why(table: Table) -> None:
    for row in table.rows:
        if not row.advances:
            clause, text = last_reason(row)
            assert text.startswith(("Does not advance", "Tied at the cut")), (row.entry.id, text)
            assert clause


def group_a(czech_times: Sequence[int] = ()) -> list[tuple[str, str, str, int]]:
    """8 foreigners, all faster than 60 Czechs, in group A; 3 Czechs and 2 foreigners in B."""
    times = list(czech_times) or [1100 + i for i in range(60)]
    foreigners = [(f"f{i:02d}", "A", "SK", 1000 + i) for i in range(1, 9)]
    czechs = [(f"c{i:02d}", "A", "CZ", t) for i, t in enumerate(times, start=1)]
    b = [("bc1", "B", "CZ", 2000), ("bc2", "B", "CZ", 2100), ("bc3", "B", "CZ", 2200)]
    b += [("bf1", "B", "DE", 1900), ("bf2", "B", "DE", 2050)]
    return foreigners + czechs + b


def test_quotas_per_pool_and_group() -> None:
    tables = standings(group_a())
    a = tables["A"]
    assert len(a.rows) == 68
    go = advancing(a)
    assert [i for i in go if i.startswith("c")] == [f"c{i:02d}" for i in range(1, 51)]
    assert [i for i in go if i.startswith("f")] == [f"f{i:02d}" for i in range(1, 6)]
    rows_a = by_id(a)
    # The foreigners are placed 1st–8th overall, yet the Czechs still get all 50 spots.
    assert (rows_a["f08"].rank, rows_a["c01"].rank, rows_a["c50"].rank) == (8, 9, 58)
    assert (rows_a["c01"].official_rank, rows_a["c50"].official_rank) == (1, 50)
    assert last_reason(rows_a["c01"]) == (
        CZECH_POOL,
        "Advances: 1st of the 50 places for 50 fastest Czechs in group A",
    )
    assert last_reason(rows_a["c51"]) == (
        CZECH_POOL,
        "Does not advance: 51st for 50 fastest Czechs in group A, which takes 50",
    )
    assert last_reason(rows_a["f05"]) == (
        POOL,
        "Advances: 5th of the 5 places for 5 fastest foreigners in group A",
    )
    assert last_reason(rows_a["f06"]) == (
        POOL,
        "Does not advance: 6th for 5 fastest foreigners in group A, which takes 5",
    )
    assert_every_non_advancing_row_says_why(a)
    # Group B has its own quotas: everyone fits.
    assert sorted(advancing(tables["B"])) == ["bc1", "bc2", "bc3", "bf1", "bf2"]


def tie_at_cut() -> list[tuple[str, str, str, int]]:
    times = [1100 + i for i in range(60)]
    times[50] = times[49]  # c50 and c51 share 50th–51st
    return group_a(times)


def test_a_tie_across_the_cut_all_advance() -> None:
    a = standings(tie_at_cut(), "all-advance")["A"]
    rows_a = by_id(a)
    text = (
        "Advances on a tie at the cut: shares 50th–51st for 50 fastest Czechs in group A, "
        "which takes 50; everyone tied goes through"
    )
    for entrant in ("c50", "c51"):
        assert rows_a[entrant].advances
        assert (rows_a[entrant].official_rank, rows_a[entrant].official_rank_to) == (50, 51)
        assert last_reason(rows_a[entrant]) == (TIES, text)
    assert not rows_a["c52"].advances
    assert last_reason(rows_a["c52"])[1] == (
        "Does not advance: 52nd for 50 fastest Czechs in group A, which takes 50"
    )
    assert len([i for i in advancing(a) if i.startswith("c")]) == 51
    assert_every_non_advancing_row_says_why(a)


def test_a_tie_across_the_cut_left_to_the_organizer() -> None:
    a = standings(tie_at_cut(), "organizer-decides")["A"]
    rows_a = by_id(a)
    text = (
        "Tied at the cut: shares 50th–51st for 50 fastest Czechs in group A, which takes 50; "
        "the organizer decides"
    )
    for entrant in ("c50", "c51"):
        assert not rows_a[entrant].advances
        assert last_reason(rows_a[entrant]) == (TIES, text)
    assert rows_a["c49"].advances
    assert len([i for i in advancing(a) if i.startswith("c")]) == 49
    assert_every_non_advancing_row_says_why(a)


# --- advance() on hand-built entries --------------------------------------------------------


def bowler(entry_id: str, total: int, klass: str = "official") -> Entry:
    return Entry(entry_id, entry_id, {"total": total}, klass=klass)


def pinfall(e: Entry) -> int:
    value = e.metrics["total"]
    assert isinstance(value, int)
    return value


def rule(ties: str, *pools: tuple[str, int]) -> Advancement:
    """An advancement rule with one pool per (class, count)."""
    return Advancement.model_validate(
        {
            "clause": "§ 13",
            "ties_at_cut": ties,
            "pools": [
                {"key": f"p{i}", "label": f"best {klass}", "classes": [klass], "count": count}
                for i, (klass, count) in enumerate(pools)
            ],
        }
    )


def decide(entries: Sequence[Entry], rule: Advancement, table: str = "all") -> dict[str, Decision]:
    return advance(rank(entries, criteria_for(["total"])), rule, table)


MASTERS = Advancement(
    clause="§ 13",
    pools=(Pool(key="m", label="Master men, places 1–2", classes=("official",), count=2),),
)


def test_an_already_qualified_player_takes_no_spot_the_next_official_does() -> None:
    entries = [
        bowler("q", 1400, "already-qualified"),
        bowler("a", 1300),
        bowler("b", 1200),
        bowler("c", 1100),
    ]
    decisions = decide(entries, MASTERS)
    assert {k: d.advances for k, d in decisions.items()} == {
        "q": False,
        "a": True,
        "b": True,
        "c": False,
    }
    texts = {k: d.reason.text for k, d in decisions.items() if d.reason}
    assert texts == {
        "q": "Does not advance: no quota takes this entrant's class",
        "a": "Advances: 1st of the 2 places for Master men, places 1–2",
        "b": "Advances: 2nd of the 2 places for Master men, places 1–2",
        "c": "Does not advance: 3rd for Master men, places 1–2, which takes 2",
    }


def test_an_outsider_is_told_it_takes_no_spot() -> None:
    outside = Reason("§ 3.5", "Outside the competition: already qualified")
    q = Entry("q", "q", {"total": 1400}, klass="already-qualified", outside=outside)
    decision = decide([q, bowler("a", 1300)], MASTERS)["q"]
    reason = Reason("§ 13", "Does not advance: outside the competition, takes no advancement spot")
    assert (decision.advances, decision.reason) == (False, reason)


def test_pools_by_table_apply_to_their_table_only() -> None:
    rule = Advancement(
        pools_by_table={
            "women": (Pool(key="w", label="Women 1–1", classes=("official",), count=1),),
        },
        pools=(Pool(key="d", label="Others 1–2", classes=("official",), count=2),),
    )
    entries = [bowler("a", 300), bowler("b", 200), bowler("c", 100)]
    assert [k for k, d in decide(entries, rule, "women").items() if d.advances] == ["a"]
    assert sorted(k for k, d in decide(entries, rule, "men").items() if d.advances) == ["a", "b"]


CLASSES = ("official", "foreign", "already-qualified")


@given(
    st.lists(
        st.tuples(st.integers(min_value=0, max_value=5), st.sampled_from(CLASSES)),
        min_size=1,
        max_size=25,
    ),
    st.integers(min_value=0, max_value=6),
    st.integers(min_value=0, max_value=3),
    st.sampled_from(["all-advance", "organizer-decides"]),
)
def test_no_quota_is_exceeded_except_by_a_tie_at_the_cut(
    field: list[tuple[int, str]], official: int, foreign: int, ties: str
) -> None:
    quotas = rule(ties, ("official", official), ("foreign", foreign))
    entries = [bowler(f"e{i}", total, klass) for i, (total, klass) in enumerate(field)]
    decisions = decide(entries, quotas)
    quota = {"official": official, "foreign": foreign}
    assert set(decisions) == {e.id for e in entries}
    for e in entries:
        decision = decisions[e.id]
        assert decision.reason is not None
        if e.klass not in quota:
            assert not decision.advances
            continue
        rivals = [r for r in entries if r.klass == e.klass]
        better = sum(pinfall(r) > pinfall(e) for r in rivals)
        level = sum(pinfall(r) == pinfall(e) for r in rivals)
        expected = better < quota[e.klass]
        if ties == "organizer-decides":
            expected = better + level <= quota[e.klass]
        assert decision.advances == expected, (e, decision)
    for klass, count in quota.items():
        through = [e for e in entries if e.klass == klass and decisions[e.id].advances]
        if len(through) > count:
            assert ties == "all-advance"
            lowest = min(pinfall(e) for e in through)
            cut = [e for e in through if pinfall(e) == lowest]
            assert len(through) - len(cut) < count
            for e in cut:
                reason = decisions[e.id].reason
                assert reason is not None
                assert reason.text.startswith("Advances on a tie at the cut")


@pytest.mark.parametrize("ties", ["all-advance", "organizer-decides"])
def test_a_tie_entirely_inside_the_quota_advances_without_a_cut_reason(ties: str) -> None:
    decisions = decide(
        [bowler("a", 300), bowler("b", 300), bowler("c", 200)], rule(ties, ("official", 2))
    )
    assert [decisions[k].advances for k in "abc"] == [True, True, False]
    assert decisions["a"].reason == Reason(
        "§ 13", "Advances: 1st–2nd of the 2 places for best official"
    )
