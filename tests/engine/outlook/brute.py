"""Brute force for the outlook's tests: every completion ranked by the engine itself."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from podium.engine.compute import compute_standings
from podium.engine.inputs import RawRow
from podium.engine.outlook import StageOutlook
from podium.rules.loader import parse, preset_text
from podium.rules.schema import Rulebook


def rows(cells: Sequence[dict[str, str]]) -> list[RawRow]:
    return [RawRow(i + 2, dict(c)) for i, c in enumerate(cells)]


def small_quotas(name: str, counts: dict[str, int]) -> Rulebook:
    """A preset with its quotas made small, so that a few entrants meet the cut."""
    text = preset_text(name)
    for old, new in counts.items():
        text = re.sub(rf"(\n\s+count: ){old}\n", rf"\g<1>{new}\n", text)
    return parse(text)


Reached = dict[tuple[str, str], tuple[set[int], set[bool]]]


def reached(book: Rulebook, stage: str, completions: Iterable[Sequence[RawRow]]) -> Reached:
    found: Reached = {}
    for completion in completions:
        for table in compute_standings(book, stage, completion).tables:
            for row in table.rows:
                ranks, advances = found.setdefault((table.key, row.entry.id), (set(), set()))
                ranks.add(row.rank)
                advances.add(row.advances)
    return found


def check(result: StageOutlook, found: Reached, *, exact_verdicts: bool = True) -> None:
    """Sound always; exact where the outlook says so."""
    assert set(result.rows) == set(found)
    for key, o in result.rows.items():
        ranks, advances = found[key]
        assert o.best <= min(ranks), (key, o, ranks)
        assert max(ranks) <= o.worst, (key, o, ranks)
        if o.advances == "certain":
            assert advances == {True}, (key, o)
        if o.advances == "out":
            assert advances == {False}, (key, o)
        if o.exact:
            assert (o.best, o.worst) == (min(ranks), max(ranks)), (key, o, ranks)
            if exact_verdicts and o.advances is not None:
                expected = (
                    "certain" if advances == {True} else "out" if advances == {False} else "open"
                )
                assert o.advances == expected, (key, o, advances)
