"""The head referee's checks page explains each row: who recorded it, whether the competitor
agreed, and why a head referee may not confirm their own entry and who can.

Hand-worked (cz-jigsaw, individual final; a head referee confirms, the competitor agrees):
- #1 Anna Nová 1:10:00, recorded by the referee Rudolf, the competitor agreed;
- #2 Bohdan Malý 1:05:00, recorded by Rudolf, no agreement;
- #3 Cyril Dvořák 1:12:00, recorded by the head referee Renata herself, no agreement.
Renata may confirm #1 and #2, not #3: "You recorded this result…", and the organizer Olga and
the second head referee Hana can. Confirming #2 warns that the competitor did not agree.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from podium.web.models import EventRole, Verification
from podium.web.results.selectors.checks import (
    confirm_rows,
    questions_text,
    round_name,
    to_confirm,
    waiting,
)
from podium.web.results.services.results import result_agree, result_record

FINAL = "individual-final"


@pytest.fixture
def cz(make_user: Any, make_event: Any, put_in_stage: Any, add_entry: Any) -> Any:
    org, ref, head = make_user("olga"), make_user("rudolf"), make_user("renata")
    hana = make_user("hana")
    event = make_event("cz-jigsaw", organizer=org, language="en")
    EventRole.objects.create(event=event, user=ref, role=EventRole.Role.REFEREE)
    EventRole.objects.create(event=event, user=head, role=EventRole.Role.HEAD_REFEREE)
    EventRole.objects.create(event=event, user=hana, role=EventRole.Role.HEAD_REFEREE)
    names = ("Anna Nová", "Bohdan Malý", "Cyril Dvořák")
    people = [add_entry(event, n, name, category="individuals") for n, name in enumerate(names, 1)]
    put_in_stage(event, FINAL, *people)
    results = [
        result_record(event=event, stage=FINAL, entry=e, cells={"time": t}, by=b, idempotency_key=k)
        for e, t, b, k in zip(
            people, ("1:10:00", "1:05:00", "1:12:00"), (ref, ref, head), "abc", strict=True
        )
    ]
    result_agree(result=results[0], by=ref)
    return event, {"org": org, "ref": ref, "head": head, "hana": hana}, results


def page_of(user: Any, event: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("checks:index", args=[event.slug])).content.decode()


@pytest.mark.django_db
def test_each_row_says_who_recorded_it_and_whether_the_competitor_agreed(cz: Any) -> None:
    event, people, results = cz
    (group,) = confirm_rows(event, to_confirm(event, waiting(event)), people["head"])
    rows = {r.result.entry.number: r for r in group.rows}
    assert [rows[n].recorded_by for n in (1, 2, 3)] == ["rudolf", "rudolf", "renata"]
    assert [rows[n].asks_agreement for n in (1, 2, 3)] == [True, True, True]
    assert [rows[n].agreed is not None for n in (1, 2, 3)] == [True, False, False]
    assert (rows[1].blocked, rows[2].blocked) == ("", "")
    assert rows[3].blocked == (
        "You recorded this result, so you cannot confirm it: a second person checks it."
    )
    assert rows[3].who_can == "Who can confirm it: hana (head referee), olga (organizer)."

    html = page_of(people["head"], event)
    assert "Recorded by rudolf at" in html
    assert "the competitor agreed at" in html
    assert html.count("the competitor has not agreed: check it with them before confirming") == 2
    # The reason is in the page itself, not in a tooltip a phone never shows.
    assert "You recorded this result, so you cannot confirm it" in html
    assert "Who can confirm it: hana (head referee), olga (organizer)." in html
    assert 'title="You recorded it"' not in html
    assert f'name="result" value="{results[2].pk}" disabled' in html


@pytest.mark.django_db
def test_a_lone_head_referee_is_told_that_nobody_else_may_confirm_yet(cz: Any) -> None:
    event, people, _results = cz
    EventRole.objects.filter(event=event).exclude(user=people["head"]).delete()
    (group,) = confirm_rows(event, to_confirm(event, waiting(event)), people["head"])
    (mine,) = [r for r in group.rows if r.blocked]
    assert mine.who_can == (
        "Nobody else may confirm it yet (head referee or organizer): an organizer appoints one "
        "under Staff on the event’s organizer page."
    )


@pytest.mark.django_db
def test_the_rows_read_as_much_for_three_results_as_for_one(cz: Any) -> None:
    event, people, results = cz
    pending = to_confirm(event, waiting(event))
    with CaptureQueriesContext(connection) as three:
        confirm_rows(event, pending, people["head"])
    one = [type(pending[0])(pending[0].stage, pending[0].round, results[2:])]
    with CaptureQueriesContext(connection) as single:
        confirm_rows(event, one, people["head"])
    assert len(three) == len(single) == 2  # the agreements, who may confirm


@pytest.mark.django_db
def test_confirming_an_unagreed_result_warns_and_ones_own_is_refused(cz: Any) -> None:
    event, people, results = cz
    client = Client()
    client.force_login(people["head"])
    url = reverse("checks:confirm", args=[event.slug])
    answer = client.post(url, {"result": [r.pk for r in results]}, follow=True)
    html = answer.content.decode()
    assert "2 results confirmed." in html
    assert "Confirmed without the competitor&#x27;s agreement: #2." in html
    assert "#3: Whoever recorded a result cannot confirm it; a second person must check it." in html
    assert set(Verification.objects.values_list("result__entry__number", flat=True)) == {1, 2}


@pytest.mark.django_db
def test_round_and_question_numbers_read_as_numbers_in_the_sports_words(cz: Any) -> None:
    event, _people, _results = cz
    final = event.rulebook.stage(FINAL)
    assert (round_name(final, 1), round_name(final, 2)) == ("", "round 2")
    assert questions_text((7,)) == "Question 7 differs."
    assert questions_text((7, 12)) == "Questions 7, 12 differ."


@pytest.mark.django_db
def test_chgk_rounds_are_tours(make_event: Any) -> None:
    tour = make_event("deti-kolomny").rulebook.stage("chgk-tour")
    assert (round_name(tour, 1), round_name(tour, 3)) == ("tour 1", "tour 3")


@pytest.mark.django_db
def test_one_action_confirms_the_round_and_says_who_confirms_the_rest(cz: Any) -> None:
    event, people, _results = cz
    client = Client()
    client.force_login(people["head"])
    html = page_of(people["head"], event)
    # In words, as the standings show the result; a button per referee and one for the round.
    assert "<strong><bdi>#2 Bohdan Malý</bdi></strong>: <bdi>1:05:00</bdi>" in html
    assert "Confirmed by: head referee or organizer — never by whoever recorded the result." in html
    assert "Confirm all 2 results I may confirm here" in html
    assert "Confirm the 2 results rudolf recorded" in html
    url = reverse("checks:confirm-all", args=[event.slug])
    answer = client.post(url, {"stage": FINAL, "round": "1"}, follow=True).content.decode()
    assert (
        "2 results confirmed. 1 result you recorded is left for someone else to confirm "
        "(head referee or organizer). Who can confirm it: hana (head referee), olga (organizer)."
    ) in answer
    assert set(Verification.objects.values_list("result__entry__number", flat=True)) == {1, 2}
    refused = client.post(url, {"stage": FINAL, "round": "x"}, follow=True).content.decode()
    assert "Choose the round to confirm." in refused
    unknown = client.post(url, {"stage": "nope", "round": "1"}, follow=True).content.decode()
    assert "This event has no such stage." in unknown


@pytest.mark.django_db
def test_a_group_is_confirmed_with_its_own_button(cz: Any) -> None:
    event, people, _results = cz
    event.entries.filter(number=1).update(group="A")
    event.entries.filter(number__in=(2, 3)).update(group="B")
    html = page_of(people["head"], event)
    # Renata may confirm #1 (A) and #2 (B); #3 (B) is hers.
    assert "Confirm group A: 1 result" in html
    assert "Confirm group B: 1 result" in html
    client = Client()
    client.force_login(people["head"])
    url = reverse("checks:confirm-all", args=[event.slug])
    answer = client.post(url, {"stage": FINAL, "round": "1", "group": "A"}, follow=True)
    assert "1 result confirmed." in answer.content.decode()
    assert set(Verification.objects.values_list("result__entry__number", flat=True)) == {1}
