"""Next steps, the competitor's agreement, and what a final round still allows.

Hand-worked (cz-jigsaw individual final, 75 minutes, 10 s per missing piece; the rulebook has
the competitor agree with the time, "Na pozdější reklamace nebude brán zřetel"):
- Anna's finish is recorded at 1:02:03; the check finds 2 pieces missing, added as the next
  step → 1:02:23 (+20 s). She agrees on the referee's phone.
- After that the referee can neither add nor correct; the head referee corrects to 1:02:13
  with a reason ("misread the clock"), which stands.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from podium.web.kernel.refusals import Refused
from podium.web.models import Agreement, AuditEntry, Result
from podium.web.results.selectors.rows import standings_as_of
from podium.web.results.services.checks import result_confirm
from podium.web.results.services.results import (
    result_agree,
    result_correct,
    result_progress,
    result_record,
)
from podium.web.standings.services.publication import publication_set

FINAL = "individual-final"


def at(h: int, m: int) -> dt.datetime:
    return dt.datetime(2026, 6, 20, h, m, tzinfo=dt.UTC)


@pytest.fixture
def final(make_event: Any, staff: Any, add_entry: Any, put_in_stage: Any) -> Any:
    event = make_event("cz-jigsaw")
    people = staff(event, organizer="olga", head="renata", referee="rudolf")
    anna, bohdan = add_entry(event, 1, "Anna Nová"), add_entry(event, 2, "Bohdan Malý")
    put_in_stage(event, FINAL, anna, bohdan, source="individual-qualification")
    return event, people, anna, bohdan


def test_a_next_step_fills_in_missing_pieces_and_changes_nothing_else(final: Any) -> None:
    event, people, anna, _bohdan = final
    ref = people["referee"]
    first = result_record(
        event=event, stage=FINAL, entry=anna, cells={"time": "1:02:03"}, by=ref,
        idempotency_key="a1", now=at(10, 2),
    )  # fmt: skip
    step = result_progress(
        result=first, cells={"time": "1:02:03", "missing": "2"}, by=ref, idempotency_key="a2",
        now=at(10, 3),
    )  # fmt: skip
    assert (step.kind, step.corrects_id, step.reason) == ("progress", first.pk, "")
    assert standings_as_of(event, FINAL, at=at(10, 4)).tables[0].rows[0].entry.score_text == (
        "1:02:23 (+20 s)"
    )
    with pytest.raises(Refused, match="only fills in what is still empty; time would change"):
        result_progress(
            result=step, cells={"time": "1:02:00", "missing": "2"}, by=ref,
            idempotency_key="a3", now=at(10, 5),
        )  # fmt: skip
    with pytest.raises(Refused, match="nothing to add"):
        result_progress(
            result=step, cells={"time": "1:02:03", "missing": "2"}, by=ref,
            idempotency_key="a4", now=at(10, 5),
        )  # fmt: skip
    assert AuditEntry.objects.filter(action="result.progress").count() == 1


def test_after_the_competitor_agreed_only_the_head_referee_corrects(final: Any) -> None:
    event, people, anna, _bohdan = final
    ref, head = people["referee"], people["head"]
    result = result_record(
        event=event, stage=FINAL, entry=anna, cells={"time": "1:02:03", "missing": "2"}, by=ref,
        idempotency_key="a1", now=at(10, 2),
    )  # fmt: skip
    agreed = result_agree(result=result, by=ref, now=at(10, 3))
    assert result_agree(result=result, by=ref).pk == agreed.pk  # a second tap: the same
    for attempt in (
        lambda: result_progress(
            result=result, cells={"time": "1:02:03", "missing": "2", "pieces": "500"}, by=ref,
            idempotency_key="x1",
        ),
        lambda: result_correct(
            result=result, cells={"time": "1:02:00"}, by=ref, reason="claim",
            idempotency_key="x2",
        ),
    ):  # fmt: skip
        with pytest.raises(Refused, match="agreed with this result, so no later claim") as no:
            attempt()
        assert "Na pozdější reklamace nebude brán zřetel" in (no.value.clause or "")
    fixed = result_correct(
        result=result, cells={"time": "1:02:13", "missing": "2"}, by=head,
        reason="misread the clock", idempotency_key="h1", now=at(10, 10),
    )  # fmt: skip
    assert (fixed.kind, fixed.recorded_by) == ("correction", head)
    assert Result.objects.count() == 2
    # the head referee's correction is a new result: nobody has agreed to it yet
    assert not Agreement.objects.filter(result=fixed).exists()


def test_an_agreement_is_taken_only_where_the_rulebook_asks_for_it(
    make_event: Any, staff: Any, add_entry: Any
) -> None:
    event = make_event("it-puzzle-party")
    people = staff(event, referee="rocco")
    pair = add_entry(event, 1, "Rossi / Bianchi", country="IT/IT")
    result = result_record(
        event=event, stage="pairs", entry=pair, cells={"time": "1:40:00"}, by=people["referee"],
        idempotency_key="p",
    )  # fmt: skip
    with pytest.raises(Refused, match="the competitor does not confirm the result"):
        result_agree(result=result, by=people["referee"])


def test_a_final_round_refuses_every_write_until_it_is_reopened(final: Any) -> None:
    event, people, anna, bohdan = final
    ref, head, org = people["referee"], people["head"], people["organizer"]
    a = result_record(
        event=event, stage=FINAL, entry=anna, cells={"time": "1:02:03"}, by=ref,
        idempotency_key="a", now=at(10, 0),
    )  # fmt: skip
    result_confirm(result=a, by=head, now=at(10, 1))
    publication_set(event=event, stage=FINAL, state="preliminary", by=org, now=at(10, 2))
    publication_set(event=event, stage=FINAL, state="final", by=org, now=at(10, 3))
    with pytest.raises(Refused, match="These results are final"):
        result_record(
            event=event, stage=FINAL, entry=bohdan, cells={"time": "1:05:00"}, by=ref,
            idempotency_key="b", now=at(10, 4),
        )  # fmt: skip
    with pytest.raises(Refused, match="These results are final"):
        result_correct(
            result=a, cells={"time": "1:00:00"}, by=head, reason="r", idempotency_key="c",
            now=at(10, 4),
        )  # fmt: skip
    publication_set(
        event=event, stage=FINAL, state="preliminary", by=org, reason="Bohdan's sheet found",
        now=at(10, 5),
    )  # fmt: skip
    result_record(
        event=event, stage=FINAL, entry=bohdan, cells={"time": "1:05:00"}, by=ref,
        idempotency_key="b", now=at(10, 6),
    )  # fmt: skip
    assert Result.objects.count() == 2


def test_battles_and_questions_are_items_never_entries(
    make_event: Any, staff: Any, add_entry: Any
) -> None:
    event = make_event("deti-kolomny")
    people = staff(event, referee="roman")
    sova = add_entry(event, 1, "Сова", country="RU", category="teams")
    with pytest.raises(Refused, match="belongs to a battle or a question"):
        result_record(
            event=event, stage="brainball", entry=sova, cells={}, by=people["referee"],
            idempotency_key="x",
        )  # fmt: skip
    with pytest.raises(Refused, match="belongs to an entry"):
        result_record(
            event=event, stage="chgk-tour", item="q1", cells={}, by=people["referee"],
            idempotency_key="y",
        )  # fmt: skip
    with pytest.raises(Refused, match="not on the calendar"):
        result_record(
            event=event, stage="chgk-tour", entry=sova, round=2, cells={"mask": "1" * 15},
            by=people["referee"], idempotency_key="z",
        )  # fmt: skip
    assert not Result.objects.exists()
