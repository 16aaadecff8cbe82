"""Version tags (``podium.web.live.versions``): a write changes the tag of the tables it can
change — once its transaction commits — and no other; the tags live in the shared cache, and
when the cache loses them or misses a change, the database tells."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from podium.web.kernel.audit import audit
from podium.web.live import versions
from podium.web.live.cache import SharedRedisCache
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

QUALI = "individual-qualification"


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cz-jigsaw", language="en")
    people = staff(event, organizer="olga", referee="rudolf")
    entries = [add_entry(event, n, f"Entrant {n}", group="A") for n in (1, 2)]
    return event, people, entries


def tag_of(event: Any, stage: str) -> str:
    return versions.stage_tag(event.slug, event.rulebook.stage(stage))


def record(event: Any, people: dict[str, Any], entry: Any, time: str) -> Any:
    return result_record(
        event=event, stage=QUALI, entry=entry, cells={"time": time}, by=people["referee"],
        idempotency_key=f"k{entry.number}-{time}",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("action", "data", "scope"),
    [
        ("result.record", {"stage": QUALI, "round": 1}, QUALI),
        ("result.correct", {"stage": QUALI}, QUALI),
        ("round.start", {"stage": QUALI, "group": "A"}, QUALI),
        ("publication.set", {"stage": "chgk-tour", "round": 3}, "chgk-tour"),
        ("playoff.record", {"stage": "chgk-season"}, "chgk-season"),
        # Rulings reach every table of the event, whatever stage they name.
        ("sanction.impose", {"stage": "chgk-tour"}, ""),
        ("appeal.verdict", {}, ""),
        ("entry.withdraw", {}, ""),
        ("roster.add", {}, ""),
        ("advancement.make", {"stage": QUALI, "to": "individual-final"}, ""),
        # Money, tokens and question packets show in no table; check-ins only at the desk.
        ("payment.record", {}, "-"),
        ("token.create", {}, "-"),
        ("entry.check-in", {}, "desk"),
        ("entry.check-in-undo", {}, "desk"),
        ("seat.offer", {}, "desk"),
        ("questions.submit", {"round": 2}, "-"),
        # An action nobody classified changes every table: safe, never stale.
        ("something.new", {"stage": QUALI}, ""),
    ],
)
def test_the_scope_of_an_action(action: str, data: dict[str, Any], scope: str) -> None:
    assert versions.scope_of(action, data) == scope


def test_a_result_changes_its_stages_tag_once_committed_and_no_other(
    cz: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    event, people, (anna, _bohdan) = cz
    monkeypatch.setattr(versions, "on_commit", transaction.on_commit)  # production's order
    before, final = tag_of(event, QUALI), tag_of(event, "individual-final")
    assert tag_of(event, QUALI) == before  # stable while nothing changes
    with django_capture_on_commit_callbacks(execute=True):
        record(event, people, anna, "1:10:00")
        # Not committed yet: the cached tag stands (a poll now sees the table as it was).
        assert tag_of(event, QUALI) == before
    after = tag_of(event, QUALI)
    assert after != before
    assert tag_of(event, "individual-final") == final  # another stage: untouched


def test_an_event_wide_change_changes_every_stage(cz: Any) -> None:
    event, people, _entries = cz
    quali, final = tag_of(event, QUALI), tag_of(event, "individual-final")
    audit(event=event, actor=people["organizer"], action="roster.add", target="x")
    assert tag_of(event, QUALI) != quali
    assert tag_of(event, "individual-final") != final
    # Money shows in no table.
    quali = tag_of(event, QUALI)
    audit(event=event, actor=people["organizer"], action="payment.record", target="x")
    assert tag_of(event, QUALI) == quali


def test_a_season_follows_its_tours(make_event: Any, staff: Any) -> None:
    event = make_event("deti-kolomny", language="en")
    people = staff(event, organizer="ilya")
    season = tag_of(event, "chgk-season")
    publication_set(event=event, stage="chgk-tour", round=1, state="preliminary",
                    by=people["organizer"])  # fmt: skip
    assert tag_of(event, "chgk-season") != season
    assert versions.cached_tag(event.slug, "chgk-season") == tag_of(event, "chgk-season")


def test_the_cache_alone_answers_once_the_tag_was_read(cz: Any) -> None:
    event, people, (anna, _bohdan) = cz
    assert versions.cached_tag(event.slug, QUALI) is None  # never read: the scopes are unknown
    tag = tag_of(event, QUALI)
    with CaptureQueriesContext(connection) as queries:
        assert versions.cached_tag(event.slug, QUALI) == tag
    assert len(queries) == 0
    record(event, people, anna, "1:10:00")
    assert versions.cached_tag(event.slug, QUALI) is None  # stale: the next reader reads again
    assert tag_of(event, QUALI) != tag


def test_a_lost_increment_shows_when_the_fingerprint_is_checked_again(
    cz: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process killed between its commit and the increment: the cached fingerprint expires
    (``CHECK_S``) and the database's count of audit entries shows the change."""
    event, people, (anna, _bohdan) = cz
    before = tag_of(event, QUALI)
    monkeypatch.setattr(versions, "on_commit", lambda call: None)  # the increment never comes
    record(event, people, anna, "1:10:00")
    assert tag_of(event, QUALI) == before  # still trusted...
    cache.delete(f"podium:v:f:{event.slug}:{QUALI}")  # ...until CHECK_S has passed
    assert tag_of(event, QUALI) != before


def test_a_cache_that_lost_everything_gives_the_same_tags(cz: Any) -> None:
    """Redis restarted: the tags come back from the database unchanged, so every spectator's
    ETag still holds (no stampede of full tables)."""
    event, people, (anna, _bohdan) = cz
    record(event, people, anna, "1:10:00")
    tag = tag_of(event, QUALI)
    cache.clear()
    assert tag_of(event, QUALI) == tag


def test_with_the_cache_down_the_database_answers(cz: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    event, people, (anna, _bohdan) = cz
    dead = SharedRedisCache("redis://127.0.0.1:9/0", {})
    monkeypatch.setattr(versions, "cache", dead)
    before = tag_of(event, QUALI)
    assert dead.is_down
    record(event, people, anna, "1:10:00")
    assert tag_of(event, QUALI) != before  # read from the database every time: never stale


def test_the_gate_remembers_a_tag_briefly_a_local_write_at_once(
    cz: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    event, people, (anna, _bohdan) = cz
    monkeypatch.setattr(versions, "MEMO_S", 0.3)
    now = [1000.0]  # the memo's clock, moved by hand: a busy machine cannot age the memo early
    monkeypatch.setattr(versions, "time", SimpleNamespace(monotonic=lambda: now[0]))
    tag = tag_of(event, QUALI)
    assert versions.cached_tag(event.slug, QUALI) == tag
    # Another process wrote: its increment reaches the shared cache, not this process's memo.
    cache.set(f"podium:v:g:{event.slug}:{QUALI}", 987_654, timeout=None)
    with CaptureQueriesContext(connection) as queries:
        assert versions.cached_tag(event.slug, QUALI) == tag  # remembered, for MEMO_S
    assert len(queries) == 0
    now[0] += 0.35
    assert versions.cached_tag(event.slug, QUALI) is None  # stale now: the view reads again
    tag = tag_of(event, QUALI)
    assert versions.cached_tag(event.slug, QUALI) == tag
    record(event, people, anna, "1:10:00")  # a write through this process: forgotten at once
    assert versions.cached_tag(event.slug, QUALI) is None
