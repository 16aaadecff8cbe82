"""Second entries and the head referee's resolution of a mismatch (deti-kolomny ChGK tours are
checked by a second scorer, recording.verification: second-entry).

Hand-worked, tour 1 (15 questions):
- Сова: the first scorer enters 110010111000101 (8 taken); the second enters 110011111000100
  (8 taken too, but questions 6 and 15 differ) → a mismatch on questions 6 and 15, unverified.
- The head referee takes the second sheet ("the captain's card shows 6 taken, 15 not") → a
  correction by the head referee to 110011111000100, verified by resolution.
- Ять: both scorers enter 111111111100000 → verified at once by the second entry.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from podium.engine.compare import mask_differences
from podium.web.chgk.services.rounds import round_add
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Result, SecondEntry, Verification
from podium.web.results.selectors.rows import current_results
from podium.web.results.selectors.verification import unverified
from podium.web.results.services.checks import mismatch_resolve, result_confirm, second_entry_record
from podium.web.results.services.results import result_record

TOUR = "chgk-tour"
SOVA_1, SOVA_2 = "110010111000101", "110011111000100"


@pytest.fixture
def tour(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("deti-kolomny")
    people = staff(event, organizer="ilya", head="mikhail", referee="roman", referee2="rita")
    start = dt.datetime(2010, 11, 14, 19, 0, tzinfo=event.zone)
    round_add(event=event, stage=TOUR, starts_at=start, by=people["organizer"])
    sova = add_entry(event, 1, "Сова", country="RU", category="teams")
    yat = add_entry(event, 2, "Ять", country="RU", category="teams")
    return event, people, sova, yat


def first(event: Any, entry: Any, mask: str, by: Any, key: str) -> Result:
    return result_record(
        event=event, stage=TOUR, entry=entry, cells={"mask": mask}, by=by, idempotency_key=key
    )


def test_a_matching_second_entry_verifies_a_mismatch_waits(tour: Any) -> None:
    event, people, sova, yat = tour
    roman, rita = people["referee"], people["referee2"]
    s = first(event, sova, SOVA_1, roman, "s")
    y = first(event, yat, "111111111100000", roman, "y")
    match = second_entry_record(
        result=y, cells={"mask": "111111111100000"}, by=rita, idempotency_key="y2"
    )
    assert match.matches
    assert Verification.objects.get(result=y).method == "second-entry"
    mismatch = second_entry_record(result=s, cells={"mask": SOVA_2}, by=rita, idempotency_key="s2")
    assert mismatch.differences == ["mask"]
    assert mask_differences(s.cells["mask"], mismatch.cells["mask"]) == (6, 15)
    assert [r.entry.name for r in unverified(event, TOUR)] == ["Сова"]
    with pytest.raises(Refused, match="someone else than the first"):
        second_entry_record(result=s, cells={"mask": SOVA_1}, by=roman, idempotency_key="s3")
    with pytest.raises(Refused, match="already verified"):
        second_entry_record(
            result=y, cells={"mask": "111111111100000"}, by=people["head"], idempotency_key="y3"
        )
    # a resubmitted second sheet is not entered twice
    again = second_entry_record(result=s, cells={"mask": SOVA_2}, by=rita, idempotency_key="s2")
    assert again.pk == mismatch.pk
    assert SecondEntry.objects.count() == 2


def test_the_head_referee_resolves_a_mismatch_with_a_reason(tour: Any) -> None:
    event, people, sova, _yat = tour
    roman, rita, head = people["referee"], people["referee2"], people["head"]
    s = first(event, sova, SOVA_1, roman, "s")
    mismatch = second_entry_record(result=s, cells={"mask": SOVA_2}, by=rita, idempotency_key="m")
    resolve = {"second_entry": mismatch, "idempotency_key": "r"}
    with pytest.raises(Refused, match="Only a head referee"):
        mismatch_resolve(**resolve, choice="second", by=rita, reason="x")
    with pytest.raises(Refused, match="Say why"):
        mismatch_resolve(**resolve, choice="second", by=head, reason=" ")
    check = mismatch_resolve(
        **resolve, choice="second", by=head, reason="the captain's card shows 6 taken, 15 not"
    )
    (current,) = current_results(event, TOUR)
    assert current.cells["mask"] == SOVA_2
    assert (current.kind, current.recorded_by, current.corrects_id) == ("correction", head, s.pk)
    assert current.reason == "mismatch resolved: the captain's card shows 6 taken, 15 not"
    assert (check.result_id, check.method, check.verified_by) == (current.pk, "resolution", head)
    assert unverified(event, TOUR) == []
    audit = AuditEntry.objects.get(action="result.resolve")
    assert (audit.data["first"]["mask"], audit.data["chosen"]["mask"]) == (SOVA_1, SOVA_2)


def test_keeping_the_first_value_verifies_it_without_a_correction(tour: Any) -> None:
    event, people, sova, yat = tour
    s = first(event, sova, SOVA_1, people["referee"], "s")
    mismatch = second_entry_record(
        result=s, cells={"mask": SOVA_2}, by=people["referee2"], idempotency_key="m"
    )
    check = mismatch_resolve(
        second_entry=mismatch, choice="first", by=people["head"], reason="second sheet misread",
        idempotency_key="r",
    )  # fmt: skip
    assert check.result_id == s.pk
    assert Result.objects.count() == 1
    # another value altogether: the head referee types it
    y = first(event, yat, "000000000000001", people["referee"], "y")
    m2 = second_entry_record(
        result=y, cells={"mask": "000000000000011"}, by=people["referee2"], idempotency_key="m2"
    )
    with pytest.raises(Refused, match="'A' at question 1"):
        mismatch_resolve(
            second_entry=m2, choice="other", cells={"mask": "A00000000000011"},
            by=people["head"], reason="r", idempotency_key="r2",
        )  # fmt: skip
    mismatch_resolve(
        second_entry=m2, choice="other", cells={"mask": "000000000000111"},
        by=people["head"], reason="both sheets wrong: the jury list", idempotency_key="r3",
    )  # fmt: skip
    assert current_results(event, TOUR)[1].cells["mask"] == "000000000000111"


def test_each_stage_is_checked_the_way_its_rulebook_says(tour: Any) -> None:
    event, people, sova, _yat = tour
    s = first(event, sova, SOVA_1, people["referee"], "s")
    with pytest.raises(Refused, match="a second entry by another referee checks each result"):
        result_confirm(result=s, by=people["head"])
    assert not Verification.objects.exists()
