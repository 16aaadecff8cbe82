"""Reads of what is verified: the current results nobody has verified yet, as of a moment,
and a round's counts of results and of those still waiting.

Vocabulary:
- current result, verification: see ``podium.web.models.results``.
- as of, by round: see ``podium.web.results.selectors.rows``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection

from podium.web.models import Event, Result, Verification
from podium.web.results.selectors.rows import current_by_round, moment_of, of_rounds


def unverified(
    event: Event, stage: str, round: int = 1, at: dt.datetime | None = None
) -> list[Result]:
    """The current results as of ``at`` that nobody had verified by then."""
    return unverified_by_round(event, stage, (round,), at).get(round, [])


def unverified_by_round(
    event: Event, stage: str, rounds: Collection[int] | None = None, at: dt.datetime | None = None
) -> dict[int, list[Result]]:
    """The same for ``rounds`` of the stage (``None``: every round), by round, in two reads
    (without the entries' members: who has not been verified needs only their numbers)."""
    current = current_by_round(event, stage, rounds, at, members=False)
    checked = _verified(event, stage, rounds, at)
    return {
        number: [r for r in results if r.id not in checked] for number, results in current.items()
    }


def round_counts(event: Event, stage: str, rounds: Collection[int]) -> dict[int, tuple[int, int]]:
    """Round → how many current results it has, and how many of them nobody verified yet."""
    current = current_by_round(event, stage, rounds)
    checked = _verified(event, stage, rounds, None)
    counts = {}
    for number in rounds:
        results = current.get(number, [])
        counts[number] = (len(results), sum(1 for r in results if r.id not in checked))
    return counts


def _verified(
    event: Event, stage: str, rounds: Collection[int] | None, at: dt.datetime | None
) -> set[int]:
    """The ids of the results of ``rounds`` verified by ``at``."""
    return set(
        Verification.objects.filter(
            **of_rounds(event, stage, rounds), verified_at__lte=moment_of(at)
        ).values_list("result_id", flat=True)
    )
