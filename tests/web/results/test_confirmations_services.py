"""Bulk confirmations: everything one referee recorded in a round, a group, a whole superfinal —
one transaction, one audit entry, never one's own, and who confirms as the rulebook says.

Hand-worked (cz-jigsaw, individual final, four entrants): Rudolf recorded #1 and #2, Renata (head
referee) #3, Hana (head referee) #4. Renata confirms "all Rudolf recorded": 2 confirmed, one
audit entry. Renata confirms the rest of the round: #4 confirmed, #3 (hers) left, "1 result you
recorded is left for someone else to confirm (head referee or organizer)". Again: refused, the
same words. Olga (organizer) then confirms #3.

Superfinal (deti-kolomny, Sovy #1 v Filiny #2): the referee taps 24 questions; the head referee
confirms them all in one action; the page shows question 13 as
"Question 13 (Brainball): Sovy 1, Filiny 0".
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.rules.schema.stages import Recording
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, EventRole, Verification
from podium.web.results.selectors.checks import confirm_rows, to_confirm, waiting
from podium.web.results.services.checks import result_confirm
from podium.web.results.services.confirmations import round_confirm
from podium.web.results.services.results import result_record

FINAL = "individual-final"
SUPER = "superfinal"


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any, put_in_stage: Any) -> Any:
    event = make_event("cz-jigsaw", language="en")
    people = staff(event, organizer="olga", referee="rudolf", head="renata", head2="hana")
    names = ("Anna Nová", "Bohdan Malý", "Cyril Dvořák", "Dana Krátká")
    entries = [add_entry(event, n, name, category="individuals") for n, name in enumerate(names, 1)]
    put_in_stage(event, FINAL, *entries)
    by = (people["referee"], people["referee"], people["head"], people["head2"])
    for n, (entry, who) in enumerate(zip(entries, by, strict=True), 1):
        result_record(
            event=event, stage=FINAL, entry=entry, cells={"time": f"1:0{n}:00"}, by=who,
            idempotency_key=f"k{n}",
        )  # fmt: skip
    return event, people


def confirmed() -> set[int]:
    return set(Verification.objects.values_list("result__entry__number", flat=True))


@pytest.mark.django_db
def test_all_one_referee_recorded_then_the_rest_never_ones_own(cz: Any) -> None:
    event, people = cz
    done = round_confirm(
        event=event, stage=FINAL, round=1, by=people["head"], recorded_by=people["referee"].pk
    )
    assert (done.confirmed, done.own) == (2, 0)
    assert done.text == "2 results confirmed."
    assert confirmed() == {1, 2}
    (entry,) = AuditEntry.objects.filter(action="result.confirm-many")
    assert (entry.data["confirmed"], entry.data["subjects"]) == (2, ["#1", "#2"])
    assert entry.actor == people["head"]

    rest = round_confirm(event=event, stage=FINAL, round=1, by=people["head"])
    assert (rest.confirmed, rest.own) == (1, 1)
    assert rest.text == (
        "1 result confirmed. 1 result you recorded is left for someone else to confirm "
        "(head referee or organizer)."
    )
    assert confirmed() == {1, 2, 4}
    with pytest.raises(Refused) as refused:
        round_confirm(event=event, stage=FINAL, round=1, by=people["head"])
    assert "0 results confirmed. 1 result you recorded is left" in str(refused.value)
    assert AuditEntry.objects.filter(action="result.confirm-many").count() == 2

    round_confirm(event=event, stage=FINAL, round=1, by=people["organizer"])
    assert confirmed() == {1, 2, 3, 4}
    with pytest.raises(Refused, match="Nothing is left to confirm"):
        round_confirm(event=event, stage=FINAL, round=1, by=people["organizer"])


@pytest.mark.django_db
def test_a_referee_may_not_confirm_and_nothing_is_written(cz: Any) -> None:
    event, people = cz
    with pytest.raises(Refused) as refused:
        round_confirm(event=event, stage=FINAL, round=1, by=people["referee"])
    assert "head referee or organizer" in str(refused.value)
    assert not Verification.objects.exists()
    assert not AuditEntry.objects.filter(action="result.confirm-many").exists()


@pytest.mark.django_db
def test_a_group_is_confirmed_alone(cz: Any) -> None:
    event, people = cz
    event.entries.filter(number__in=(1, 4)).update(group="A")
    done = round_confirm(event=event, stage=FINAL, round=1, by=people["head"], group="A")
    assert done.confirmed == 2
    assert confirmed() == {1, 4}


@pytest.mark.django_db
def test_the_rulebook_lets_the_jury_confirm_and_the_page_says_so(cz: Any, make_user: Any) -> None:
    event, people = cz
    jury = make_user("julie")
    EventRole.objects.create(event=event, user=jury, role=EventRole.Role.JURY)
    with pytest.raises(Refused):
        round_confirm(event=event, stage=FINAL, round=1, by=jury)
    text = event.rulebook_text.replace(
        "verification: head-referee",
        "verification: head-referee\n      confirmed_by: [jury]\n"
        "      confirmation_clause: 'Art. 9: the jury confirms the final'",
    )
    assert text != event.rulebook_text
    event.rulebook_text = text
    event.save()
    event = type(event).objects.get(pk=event.pk)
    assert event.rulebook.stage(FINAL).recording.confirmed_by == ("jury",)
    (group,) = confirm_rows(event, to_confirm(event, waiting(event)), people["head"])
    assert group.confirmed_by == "jury member"
    assert not group.may_confirm
    assert group.rows[0].blocked == "The results of this stage are confirmed by: jury member."
    assert group.rows[0].who_can == "Who can confirm it: julie (jury member)."
    with pytest.raises(Refused, match="Only these confirm the results of"):
        result_confirm(result=group.rows[0].result, by=people["head"])
    assert round_confirm(event=event, stage=FINAL, round=1, by=jury).confirmed == 4


def test_the_rulebook_names_who_confirms() -> None:
    assert Recording().confirmed_by == ("head-referee", "organizer")
    assert Recording(confirmed_by=("jury", "organizer")).confirmed_by == ("jury", "organizer")
    with pytest.raises(ValueError, match="at least one role"):
        Recording(confirmed_by=())
    with pytest.raises(ValueError, match="twice"):
        Recording(confirmed_by=("jury", "jury"))
    with pytest.raises(ValueError, match="head-referee"):
        Recording(confirmed_by=("referee",))  # type: ignore[arg-type]


@pytest.fixture
def superfinal(make_event: Any, staff: Any, add_entry: Any, put_in_stage: Any) -> Any:
    event = make_event("deti-kolomny", language="en")
    people = staff(event, organizer="olga", referee="rudolf", head="hana")
    sovy, filiny = (
        add_entry(event, n, name, country="RU") for n, name in ((1, "Sovy"), (2, "Filiny"))
    )
    put_in_stage(event, SUPER, sovy, filiny, source="chgk-season")
    for n in range(1, 25):
        cells = {"discipline": "chgk" if n <= 12 else "brainball", "1": str(n % 2), "2": "0"}
        result_record(
            event=event, stage=SUPER, item=f"q{n}", cells=cells, by=people["referee"],
            idempotency_key=f"q{n}",
        )  # fmt: skip
    return event, people


@pytest.mark.django_db
def test_the_whole_superfinal_in_one_action_in_words(superfinal: Any) -> None:
    event, people = superfinal
    (group,) = confirm_rows(event, to_confirm(event, waiting(event)), people["head"])
    words = {r.result.item: r.words for r in group.rows}
    assert words["q13"] == "Question 13 (Brainball): Sovy 1, Filiny 0"
    assert words["q2"] == "Question 2 (ChGK): Sovy 0, Filiny 0"
    assert group.confirmable == 24
    done = round_confirm(event=event, stage=SUPER, round=1, by=people["head"])
    assert done.confirmed == 24
    assert Verification.objects.count() == 24
    assert AuditEntry.objects.filter(action="result.confirm-many").count() == 1


@pytest.mark.django_db
def test_the_superfinal_page_says_who_confirms_its_questions(superfinal: Any) -> None:
    event, people = superfinal
    url = reverse("battles:superfinal", kwargs={"slug": event.slug, "stage": SUPER})
    checks = reverse("checks:index", args=[event.slug])
    for who, link in (("head", True), ("referee", False)):
        client = Client()
        client.force_login(people[who])
        page = client.get(url).content.decode()
        assert (
            "Its questions are confirmed by: head referee or organizer — never by whoever "
            "recorded them — all at once on the checks page."
        ) in page
        assert (f'href="{checks}#confirm-superfinal-1"' in page) is link
