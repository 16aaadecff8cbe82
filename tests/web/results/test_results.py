"""Results as append-only entries: recording, corrections, "as of" replay, verification and
publication.

Hand-worked (cz-jigsaw, individual final: finishers by time + 10 s per missing piece, then
non-finishers by pieces; only CZ entrants take official places):
- A records #1 Anna 1:10:00 at 10:00, #2 Bohdan 1:05:00 at 10:05; #1 is corrected to 1:02:00 at
  10:10. As of 10:02 only Anna is ranked (1st); as of 10:07 Bohdan 1st, Anna 2nd; as of 10:12
  Anna 1st (1:02:00), Bohdan 2nd.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import threading
from typing import Any

import pytest
from django.db import connection
from django.utils import translation

from podium.engine.errors import InputError
from podium.engine.standings import Standings
from podium.web.kernel.refusals import Refused
from podium.web.kernel.texts import reason_text
from podium.web.models import (
    AuditEntry,
    Entry,
    EntryMember,
    EventRole,
    Person,
    Publication,
    Result,
    Round,
    Verification,
)
from podium.web.results.selectors.publication import final_versions, publication_current
from podium.web.results.selectors.rows import current_results, stage_rows, standings_as_of
from podium.web.results.selectors.verification import unverified
from podium.web.results.services.checks import result_confirm as result_verify
from podium.web.results.services.results import result_correct, result_record
from podium.web.standings.services.publication import publication_set

FINAL = "individual-final"


def at(h: int, m: int) -> dt.datetime:
    return dt.datetime(2026, 6, 20, h, m, tzinfo=dt.UTC)


def entry(event: Any, number: int, name: str, country: str = "CZ", **fields: Any) -> Entry:
    fields.setdefault("status", Entry.Status.CONFIRMED)
    fields.setdefault("category", "individuals")
    made = Entry.objects.create(event=event, number=number, name=name, **fields)
    first, _, last = name.partition(" ")
    person = Person.objects.create(first_name=first, last_name=last or first, country=country)
    EntryMember.objects.create(entry=made, person=person, captain=True)
    return made


def ranks(standings: Standings) -> list[tuple[str, int, str]]:
    return [(r.entry.id, r.rank, r.entry.score_text) for t in standings.tables for r in t.rows]


def timed(time: str = "", missing: str = "", pieces: str = "") -> dict[str, str]:
    return {"time": time, "missing": missing, "pieces": pieces}


@pytest.fixture
def cz(make_user: Any, make_event: Any, put_in_stage: Any) -> Any:
    """A referee (ref1) and a head referee (ref2); Anna and Bohdan are in the final."""
    org, ref1, ref2 = make_user("olga"), make_user("rudolf"), make_user("renata")
    event = make_event("cz-jigsaw", organizer=org)
    EventRole.objects.create(event=event, user=ref1, role=EventRole.Role.REFEREE)
    EventRole.objects.create(event=event, user=ref2, role=EventRole.Role.HEAD_REFEREE)
    anna, bohdan = entry(event, 1, "Anna Nová"), entry(event, 2, "Bohdan Malý")
    put_in_stage(event, FINAL, anna, bohdan)
    return event, org, ref1, ref2, anna, bohdan


def test_record_then_standings(cz: Any) -> None:
    event, _org, ref1, ref2, anna, bohdan = cz
    first = result_record(
        event=event, stage=FINAL, entry=anna, cells={"time": "1:10:00"}, by=ref1,
        idempotency_key="k1", now=at(10, 0),
    )  # fmt: skip
    assert first.cells == timed("1:10:00")  # every column of the format, as a CSV row has it
    assert (first.recorded_by, first.recorded_at, first.corrects) == (ref1, at(10, 0), None)
    result_record(
        event=event, stage=FINAL, entry=bohdan, cells=timed("", pieces="412"), by=ref2,
        idempotency_key="k2", now=at(10, 1),
    )  # fmt: skip
    rows = stage_rows(event, FINAL, at=at(10, 5))
    assert [(r.line, r.cells["id"], r.cells["country"], r.cells["time"]) for r in rows] == [
        (1, "1", "CZ", "1:10:00"),
        (2, "2", "CZ", ""),
    ]
    assert ranks(standings_as_of(event, FINAL, at=at(10, 5))) == [
        ("1", 1, "1:10:00"),
        ("2", 2, "412 pcs"),
    ]
    assert AuditEntry.objects.filter(action="result.record").count() == 2


def test_correction_chain_and_as_of_replay(cz: Any) -> None:
    event, _org, ref1, ref2, anna, bohdan = cz
    a = result_record(
        event=event, stage=FINAL, entry=anna, cells=timed("1:10:00"), by=ref1,
        idempotency_key="a", now=at(10, 0),
    )  # fmt: skip
    b = result_record(
        event=event, stage=FINAL, entry=bohdan, cells=timed("1:05:00"), by=ref1,
        idempotency_key="b", now=at(10, 5),
    )  # fmt: skip
    a2 = result_correct(
        result=a, cells=timed("1:02:00"), by=ref2, reason="misread the clock",
        idempotency_key="a2", now=at(10, 10),
    )  # fmt: skip
    assert (a2.corrects, a2.reason, a2.recorded_by) == (a, "misread the clock", ref2)
    a.refresh_from_db()
    assert a.cells == timed("1:10:00")  # the corrected result is kept as it was
    assert Result.objects.count() == 3

    with pytest.raises(InputError):  # nothing recorded yet at 9:59
        standings_as_of(event, FINAL, at=at(9, 59))
    assert stage_rows(event, FINAL, at=at(9, 59)) == []
    assert ranks(standings_as_of(event, FINAL, at=at(10, 2))) == [("1", 1, "1:10:00")]
    assert ranks(standings_as_of(event, FINAL, at=at(10, 7))) == [
        ("2", 1, "1:05:00"),
        ("1", 2, "1:10:00"),
    ]
    assert ranks(standings_as_of(event, FINAL, at=at(10, 12))) == [
        ("1", 1, "1:02:00"),
        ("2", 2, "1:05:00"),
    ]
    # a correction of the correction extends the chain; the first two stay in history
    a3 = result_correct(
        result=a2, cells=timed("1:02:00", missing="2"), by=ref1, reason="2 pieces missing",
        idempotency_key="a3", now=at(10, 15),
    )  # fmt: skip
    assert ranks(standings_as_of(event, FINAL, at=at(10, 16)))[0] == ("1", 1, "1:02:20 (+20 s)")
    assert ranks(standings_as_of(event, FINAL, at=at(10, 12)))[0] == ("1", 1, "1:02:00")
    assert [r.pk for r in current_results(event, FINAL, at=at(10, 16))] == [a3.pk, b.pk]
    audit = AuditEntry.objects.get(action="result.correct", data__reason="misread the clock")
    assert audit.data["was"]["time"] == "1:10:00"
    assert audit.data["cells"]["time"] == "1:02:00"


def test_second_result_without_correction_is_refused(cz: Any) -> None:
    event, _org, ref1, ref2, anna, _bohdan = cz
    result_record(
        event=event, stage=FINAL, entry=anna, cells=timed("1:10:00"), by=ref1, idempotency_key="x"
    )
    with pytest.raises(Refused, match="already recorded — correct it instead"):
        result_record(
            event=event, stage=FINAL, entry=anna, cells=timed("1:11:00"), by=ref2,
            idempotency_key="y",
        )  # fmt: skip
    assert Result.objects.count() == 1


def test_idempotent_resubmission_records_once(cz: Any) -> None:
    event, _org, ref1, ref2, anna, bohdan = cz
    kwargs = {"event": event, "stage": FINAL, "entry": anna, "cells": timed("1:10:00"), "by": ref1}
    first = result_record(**kwargs, idempotency_key="phone-17", now=at(10, 0))
    again = result_record(**kwargs, idempotency_key="phone-17", now=at(10, 1))
    assert again.pk == first.pk
    assert again.recorded_at == at(10, 0)
    assert Result.objects.count() == 1
    fix = {"result": first, "cells": timed("1:09:00"), "by": ref2, "reason": "typo"}
    c1 = result_correct(**fix, idempotency_key="phone-18", now=at(10, 2))
    c2 = result_correct(**fix, idempotency_key="phone-18", now=at(10, 3))
    assert c1.pk == c2.pk
    assert Result.objects.count() == 2
    # the same key for another result is a client error, not a resubmission
    with pytest.raises(Refused, match="already used for a different result"):
        result_record(
            event=event, stage=FINAL, entry=bohdan, cells=timed("1:00:00"), by=ref1,
            idempotency_key="phone-17",
        )  # fmt: skip


def test_stale_correction_is_refused_with_both_values(cz: Any) -> None:
    event, _org, ref1, ref2, anna, _bohdan = cz
    a = result_record(
        event=event, stage=FINAL, entry=anna, cells=timed("1:10:00"), by=ref1, idempotency_key="a"
    )
    # two referees both saw 1:10:00; the first correction wins
    result_correct(result=a, cells=timed("1:01:00"), by=ref1, reason="r1", idempotency_key="c1")
    with pytest.raises(Refused) as refused:
        result_correct(result=a, cells=timed("1:20:00"), by=ref2, reason="r2", idempotency_key="c2")
    assert "it is now “time 1:01:00”" in refused.value.message
    assert "you changed “time 1:10:00”" in refused.value.message
    assert Result.objects.count() == 2
    current = current_results(event, FINAL)[0]
    assert current.cells == timed("1:01:00")
    with pytest.raises(Refused, match="needs a reason"):
        result_correct(
            result=current, cells=timed("1:00:00"), by=ref2, reason=" ", idempotency_key="c3"
        )


@pytest.mark.parametrize(
    ("cells", "message", "field"),
    [
        (timed("9:99"), "column time: '9:99' is not a time: write H:MM:SS or M:SS", "time"),
        (
            timed("1:00:00", missing="-1"),
            "column missing: -1 is negative: a number of pieces cannot be below 0",
            "missing",
        ),
        (timed("", pieces="501"), "column pieces: 501 is more than the 500 this allows", "pieces"),
        (
            {"tiem": "1:00:00"},
            "“tiem” is not a column of this stage (time, missing, pieces)",
            "tiem",
        ),
    ],
)
def test_bad_cells_are_refused_with_the_engines_message(
    cz: Any, cells: dict[str, str], message: str, field: str
) -> None:
    event, _org, ref1, _ref2, anna, _bohdan = cz
    with pytest.raises(Refused, match=re.escape(message)) as refused:
        result_record(
            event=event, stage=FINAL, entry=anna, cells=cells, by=ref1, idempotency_key="k"
        )
    assert refused.value.field == field
    assert not Result.objects.exists()
    assert not AuditEntry.objects.filter(action="result.record").exists()


def test_bad_correction_is_refused_and_nothing_stored(cz: Any) -> None:
    event, _org, ref1, ref2, anna, _bohdan = cz
    a = result_record(
        event=event, stage=FINAL, entry=anna, cells=timed("1:10:00"), by=ref1, idempotency_key="a"
    )
    with pytest.raises(Refused, match=re.escape("'1:xx' is not a time")):
        result_correct(result=a, cells=timed("1:xx"), by=ref2, reason="r", idempotency_key="b")
    assert Result.objects.count() == 1


def test_who_and_what_may_be_recorded(cz: Any, make_user: Any, make_event: Any) -> None:
    event, _org, ref1, _ref2, anna, _bohdan = cz
    stranger = make_user("stranger")
    other = make_event("cz-jigsaw", slug="other")
    EventRole.objects.create(event=other, user=stranger, role=EventRole.Role.REFEREE)
    with pytest.raises(Refused, match="Only an organizer or referee of this event"):
        result_record(
            event=event, stage=FINAL, entry=anna, cells=timed("1:00:00"), by=stranger,
            idempotency_key="s",
        )  # fmt: skip
    waiting = entry(event, 3, "Cyril Dlouhý", status=Entry.Status.WAITING)
    pair = entry(event, 4, "Dana Krátká", category="pairs")
    not_advanced = entry(event, 5, "Eva Malá")
    for who in (waiting, pair, not_advanced):
        text = f"#{who.number} {who.name} is not in the entry list of Individuals — final"
        with pytest.raises(Refused, match=text):
            result_record(
                event=event, stage=FINAL, entry=who, cells=timed("1:00:00"), by=ref1,
                idempotency_key=f"e{who.number}",
            )  # fmt: skip
    with pytest.raises(Refused, match="no such stage"):
        result_record(event=event, stage="nope", entry=anna, cells={}, by=ref1, idempotency_key="n")
    # a qualification stage has groups: an entry not yet drawn into one is refused by the engine
    with pytest.raises(Refused, match=re.escape("column group: a group is required (A, B)")):
        result_record(
            event=event, stage="individual-qualification", entry=anna, cells=timed("1:00:00"),
            by=ref1, idempotency_key="q",
        )  # fmt: skip
    assert not Result.objects.exists()


def test_verification_needs_a_second_person(cz: Any) -> None:
    event, org, ref1, ref2, anna, _bohdan = cz
    a = result_record(
        event=event, stage=FINAL, entry=anna, cells=timed("1:10:00"), by=ref1,
        idempotency_key="a", now=at(10, 0),
    )  # fmt: skip
    # cz-jigsaw: a head referee confirms each result (recording.verification: head-referee)
    with pytest.raises(Refused, match="confirm the results of Individuals — final here: head "):
        result_verify(result=a, by=ref1)
    assert [r.pk for r in unverified(event, FINAL, at=at(10, 1))] == [a.pk]
    check = result_verify(result=a, by=ref2, now=at(10, 2))
    assert (check.verified_by, check.verified_at) == (ref2, at(10, 2))
    assert result_verify(result=a, by=ref2).pk == check.pk  # a repeat is the same check
    assert unverified(event, FINAL, at=at(10, 3)) == []
    assert [r.pk for r in unverified(event, FINAL, at=at(10, 1))] == [a.pk]  # as of before it
    # a correction is a new result: it needs its own check; the corrected one cannot get one
    a2 = result_correct(
        result=a, cells=timed("1:09:00"), by=ref2, reason="typo", idempotency_key="a2",
        now=at(10, 4),
    )  # fmt: skip
    assert [r.pk for r in unverified(event, FINAL, at=at(10, 5))] == [a2.pk]
    verified_by_renata = r"already verified \(confirmed by the head referee, renata\)"
    with pytest.raises(Refused, match=verified_by_renata):
        result_verify(result=a, by=org)
    with pytest.raises(Refused, match="Whoever recorded a result cannot confirm it"):
        result_verify(result=a2, by=ref2)
    result_verify(result=a2, by=org, now=at(10, 6))
    assert Verification.objects.count() == 2


def test_publication_draft_preliminary_final_and_versions(cz: Any) -> None:
    event, org, ref1, ref2, anna, bohdan = cz
    a = result_record(
        event=event, stage=FINAL, entry=anna, cells=timed("1:10:00"), by=ref1,
        idempotency_key="a", now=at(10, 0),
    )  # fmt: skip
    b = result_record(
        event=event, stage=FINAL, entry=bohdan, cells=timed("1:05:00"), by=ref1,
        idempotency_key="b", now=at(10, 1),
    )  # fmt: skip
    assert publication_current(event, FINAL) is None  # a draft until changed
    with pytest.raises(Refused, match="Only an organizer"):
        publication_set(event=event, stage=FINAL, state="preliminary", by=ref1)
    with pytest.raises(Refused, match="from draft to preliminary, not to final"):
        publication_set(event=event, stage=FINAL, state="final", by=org)
    pre = publication_set(event=event, stage=FINAL, state="preliminary", by=org, now=at(11, 0))
    assert (pre.state, pre.version, pre.table) == ("preliminary", 1, None)
    result_verify(result=a, by=ref2, now=at(11, 5))
    with pytest.raises(Refused, match="every result is verified; not yet: #2"):
        publication_set(event=event, stage=FINAL, state="final", by=org, now=at(11, 10))
    result_verify(result=b, by=ref2, now=at(11, 15))
    v1 = publication_set(event=event, stage=FINAL, state="final", by=org, now=at(11, 20))
    assert (v1.state, v1.version) == ("final", 1)
    rows = v1.table["tables"][0]["rows"]
    assert [(r["id"], r["rank"], r["official_rank"], r["points"]) for r in rows] == [
        ("2", 1, 1, None),
        ("1", 2, 2, None),
    ]
    first = rows[0]["reasons"][0]
    assert first["text"] == "First: finished, time 1:05:00"
    # The frozen table keeps the message too, so it reads in any language later.
    with translation.override("cs"):
        assert reason_text(first) == "První: ukončeno, čas 1:05:00"
    assert v1.table["as_of"] == at(11, 20).isoformat()

    # after final: a change needs a reason and starts version 2
    with pytest.raises(Refused, match="a change needs a recorded reason"):
        publication_set(event=event, stage=FINAL, state="preliminary", by=org)
    reopened = publication_set(
        event=event, stage=FINAL, state="preliminary", by=org, reason="appeal upheld: #1 time",
        now=at(12, 0),
    )  # fmt: skip
    assert (reopened.version, reopened.reason) == (2, "appeal upheld: #1 time")
    a2 = result_correct(
        result=a, cells=timed("1:00:00"), by=ref1, reason="appeal", idempotency_key="a2",
        now=at(12, 5),
    )  # fmt: skip
    with pytest.raises(Refused, match="not yet: #1"):
        publication_set(event=event, stage=FINAL, state="final", by=org, now=at(12, 10))
    result_verify(result=a2, by=ref2, now=at(12, 15))
    v2 = publication_set(event=event, stage=FINAL, state="final", by=org, now=at(12, 20))
    assert v2.version == 2
    versions = final_versions(event, FINAL)
    assert [v.version for v in versions] == [1, 2]
    assert [r["id"] for r in versions[0].table["tables"][0]["rows"]] == ["2", "1"]  # kept
    assert [r["id"] for r in versions[1].table["tables"][0]["rows"]] == ["1", "2"]
    assert publication_current(event, FINAL).pk == v2.pk
    assert Publication.objects.count() == 4
    assert AuditEntry.objects.filter(action="publication.set").count() == 4


def test_chgk_mask_of_the_wrong_length_is_refused(make_user: Any, make_event: Any) -> None:
    org, ref = make_user("org"), make_user("ref")
    event = make_event("deti-kolomny", organizer=org)
    EventRole.objects.create(event=event, user=ref, role=EventRole.Role.REFEREE)
    team = entry(event, 1, "Sovy", country="RU", category="teams")
    Round.objects.create(event=event, stage="chgk-tour", number=1, starts_at=at(19, 0))
    with pytest.raises(Refused, match="mask"):
        result_record(
            event=event, stage="chgk-tour", entry=team, cells={"mask": "1010"}, by=ref,
            idempotency_key="m",
        )  # fmt: skip
    done = result_record(
        event=event, stage="chgk-tour", entry=team, cells={"mask": "101010101010101"}, by=ref,
        idempotency_key="m2",
    )  # fmt: skip
    assert done.cells == {"questions": "", "mask": "101010101010101"}
    assert ranks(standings_as_of(event, "chgk-tour"))[0][:2] == ("1", 1)


ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")


def _race(n: int, act: Any) -> tuple[list[Any], list[BaseException]]:
    start = threading.Barrier(n)
    done: list[Any] = []
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            start.wait()
            done.append(act(i))
        except BaseException as error:  # reported by the main thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return done, errors


@pytest.mark.skipif(not ON_POSTGRES, reason="threads need a database with real row locks")
@pytest.mark.django_db(transaction=True)
def test_parallel_corrections_and_resubmissions_on_postgres(cz: Any) -> None:
    event, _org, ref1, ref2, anna, bohdan = cz
    a = result_record(
        event=event, stage=FINAL, entry=anna, cells=timed("1:10:00"), by=ref1, idempotency_key="a"
    )
    done, errors = _race(
        6,
        lambda i: result_correct(
            result=a, cells=timed(f"1:0{i}:00"), by=ref2, reason="r", idempotency_key=f"c{i}"
        ),
    )
    assert len(done) == 1
    assert len(errors) == 5
    assert all(isinstance(e, Refused) and "changed meanwhile" in e.message for e in errors)
    assert Result.objects.filter(entry=anna).count() == 2
    done, errors = _race(
        6,
        lambda i: result_record(
            event=event,
            stage=FINAL,
            entry=bohdan,
            cells=timed("1:05:00"),
            by=ref1,
            idempotency_key="phone-1",
        ),
    )
    assert errors == []
    assert len({r.pk for r in done}) == 1
    assert Result.objects.filter(entry=bohdan).count() == 1
