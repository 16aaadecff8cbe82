"""What re-rendering a live table after a write costs, counted in work, never in time: the
round's results are read once per rendering (its table and its unverified marks alike; a
season's table and its chart alike), the rows' "why" shelves are written only when a "why" is
asked, and whatever path made a table, it is byte for byte the table a fresh rendering makes —
after one result, a tie, rows moving, and in another language.

The scenario is the cz-jigsaw qualification of ``test_standings_pages``.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from tests.web.standings.test_standings_pages import (
    QUALI,
    entry,
    record,
    row_html,
    stage_url,
    table_url,
    text,
    why,
)

from podium.web.live import flight
from podium.web.results.selectors import rows as rows_selectors
from podium.web.standings.services.publication import publication_set


@pytest.fixture
def reads(monkeypatch: Any) -> list[tuple[str, Any]]:
    """Every read of a stage's current results from the database: (stage, rounds)."""
    made: list[tuple[str, Any]] = []
    real = rows_selectors._current_by_round

    def counting(event: Any, stage: str, rounds: Any, *args: Any) -> Any:
        made.append((stage, rounds))
        return real(event, stage, rounds, *args)

    monkeypatch.setattr(rows_selectors, "_current_by_round", counting)
    monkeypatch.setattr(flight, "SETTLE_S", 0)  # every write's next poll renders
    return made


def fresh(url: str) -> str:
    """The fragment rendered from nothing: the shared cache emptied first."""
    cache.clear()
    return Client().get(url).content.decode()


def test_a_poll_after_a_write_reads_the_results_once_and_writes_no_shelves(
    cz: Any, reads: list[tuple[str, Any]]
) -> None:
    event, org, ref1, _ref2 = cz
    record(event, entry(event, 1, "Anna Nová"), "1:10:00", ref1, 0)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    client = Client()
    client.get(table_url(event))
    record(event, entry(event, 2, "Bohdan Malý"), "1:05:00", ref1, 1)
    reads.clear()
    after = client.get(table_url(event), HTTP_IF_NONE_MATCH='"stale"').content.decode()
    assert "Bohdan Malý" in after
    assert reads == [(QUALI, (1,))]  # the ranks and the unverified marks: one read
    assert not [key for key in cache._cache if ":shelf:" in key]  # type: ignore[attr-defined]
    # The first "why" of the version shelves the rows, from the round already computed.
    assert "Below Bohdan Malý" in text(why(stage_url(event), "A", 1))
    assert "First: finished, time 1:05:00" in text(why(stage_url(event), "A", 2))
    assert reads == [(QUALI, (1,))]
    assert [key for key in cache._cache if ":shelf:" in key]  # type: ignore[attr-defined]


def test_the_table_after_each_change_is_the_table_rendered_afresh(cz: Any) -> None:
    event, org, ref1, ref2 = cz
    anna, bohdan = entry(event, 1, "Anna Nová"), entry(event, 2, "Bohdan Malý")
    cyril = entry(event, 3, "Cyril Sova", country="SK")
    record(event, anna, "1:10:00", ref1, 0)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    client = Client()
    url = table_url(event)

    def polled() -> str:
        return client.get(url, HTTP_IF_NONE_MATCH='"stale"').content.decode()

    flight.SETTLE_S, settle = 0, flight.SETTLE_S
    try:
        assert polled() == fresh(url)
        record(event, bohdan, "1:05:00", ref1, 1)  # one more result: Anna moves down
        shown = polled()
        assert shown == fresh(url)
        assert text(row_html(shown, "A", 1)).startswith("2. 2. 1 Anna Nová")
        record(event, cyril, "1:05:00", ref1, 2)  # a tie with Bohdan
        shown = polled()
        assert shown == fresh(url)
        assert "1–2." in text(row_html(shown, "A", 2))
        record(event, entry(event, 4, "Dana Malá"), "0:59:00", ref2, 3)  # a new leader
        shown = polled()
        assert shown == fresh(url)
        assert text(row_html(shown, "A", 4)).startswith("1. 1. 4 Dana Malá")
        czech = client.get(f"/cs{url}", HTTP_IF_NONE_MATCH='"stale"').content.decode()
        cache.clear()
        assert czech == Client().get(f"/cs{url}").content.decode()
        assert czech != shown  # the same rows in Czech
    finally:
        flight.SETTLE_S = settle
