"""A bowling player's warnings and expulsion at the head referee's desk (ČBA supplementary
qualifier, ``cba-qualifier``: § 12 g), with the four bowlers of ``test_protests.py``.

#5 Emil has bowled block 1 (180 170). An expulsion without an earlier warning is refused; after
a warning, the expulsion is stored, and neither a first result nor his next block is recorded;
lifting the expulsion (with a reason) lets block 2 in again.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from tests.web.disputes import test_protests
from tests.web.disputes.test_protests import STAGE, client_for, url

from podium.web.kernel.refusals import Refused
from podium.web.models import Entry, Event, Result, Sanction
from podium.web.results.services.results import result_progress, result_record

bowled = test_protests.bowled  # the same fixture: four master men who have bowled six games


def impose(client: Client, event: Event, entry: Entry, effect: str, reason: str) -> Any:
    prefix = f"s{entry.pk}-"
    return client.post(
        url("impose", event, entry.pk), {prefix + "effect": effect, prefix + "reason": reason}
    )


def test_expulsion_needs_a_warning_and_then_no_further_games_are_recorded(
    bowled: dict[str, Any], add_entry: Any
) -> None:
    event, squad = bowled["event"], bowled["squad"]
    emil = add_entry(event, 5, "Emil", division="master-men", squad=squad)
    referee = bowled["referee"]
    block1 = result_record(event=event, stage=STAGE, entry=emil, cells={"g1": "180", "g2": "170"},
                           by=referee, idempotency_key="emil-1")  # fmt: skip
    head = client_for(bowled["head"])

    early = impose(head, event, emil, "expulsion", "Phone on the approach")
    assert early.status_code == 400
    page = early.content.decode()
    assert "Expulsion is for a repeated breach: a warning comes first." in page
    assert "v případě opakovaného provinění je oprávněn hráče z další účasti" in page
    assert Sanction.objects.count() == 0
    no_reason = impose(head, event, emil, "warning", "")
    assert "Say what happened: a sanction gives its reason." in no_reason.content.decode()
    assert Sanction.objects.count() == 0
    lane = client_for(referee)
    assert impose(lane, event, emil, "warning", "Smoking").status_code == 400
    assert Sanction.objects.count() == 0  # a lane referee does not sanction

    assert impose(head, event, emil, "warning", "Smoking in the bowling hall").status_code == 302
    expelled = impose(head, event, emil, "expulsion", "Phone on the approach after a warning")
    assert expelled.status_code == 302
    assert expelled["Location"].endswith("#player-5")
    assert [(s.key, s.effect, s.entry, s.reason) for s in Sanction.objects.order_by("id")] == [
        ("breach-of-duties", "warning", emil, "Smoking in the bowling hall"),
        ("breach-of-duties", "expulsion", emil, "Phone on the approach after a warning"),
    ]
    page = head.get(url("players", event)).content.decode()
    card = page[page.index('id="player-5"') :]
    assert "expelled" in card[:400]
    assert "the results desk records no further games for this player" in card
    assert "Smoking in the bowling hall" in card

    # the results desk: neither the next block nor a first result
    refusal = "#5 may not play on: Phone on the approach after a warning."
    with pytest.raises(Refused, match=re.escape(refusal)):
        result_progress(result=block1, cells={"g1": "180", "g2": "170", "g3": "190", "g4": "200"},
                        by=referee, idempotency_key="emil-2")  # fmt: skip
    with pytest.raises(Refused, match=re.escape(refusal)):
        result_record(event=event, stage=STAGE, entry=emil, cells={"g1": "180"}, by=referee,
                      idempotency_key="emil-again")  # fmt: skip
    sheet = client_for(referee).post(
        reverse("bowling:block", kwargs={"slug": event.slug, "stage": STAGE, "entry_id": emil.pk,
                                         "number": 2}),
        {f"e{emil.pk}-idempotency_key": uuid.uuid4().hex, f"e{emil.pk}-result": block1.pk,
         f"e{emil.pk}-g3": "190", f"e{emil.pk}-g4": "200"},
    )  # fmt: skip
    assert sheet.status_code == 400
    assert refusal in sheet.content.decode()
    assert Result.objects.filter(entry=emil).count() == 1

    expulsion = Sanction.objects.get(effect="expulsion")
    lift_url = url("lift", event, expulsion.pk)
    no_why = head.post(lift_url, {f"l{expulsion.pk}-reason": ""})
    assert "Say why the sanction is lifted." in no_why.content.decode()
    lifted = head.post(lift_url, {f"l{expulsion.pk}-reason": "The phone was the referee's."})
    assert lifted.status_code == 302
    expulsion.refresh_from_db()
    assert expulsion.lifted_reason == "The phone was the referee's."
    block2 = result_progress(result=block1, cells={"g1": "180", "g2": "170", "g3": "190",
                             "g4": "200"}, by=referee, idempotency_key="emil-2")  # fmt: skip
    assert block2.cells["g4"] == "200"
    page = head.get(url("players", event)).content.decode()
    card = page[page.index('id="player-5"') :]
    assert "Lifted on" in card
    assert "The phone was the referee&#x27;s." in card
