"""Bowling protests at the head referee's desk (ČBA supplementary qualifier, ``cba-qualifier``:
§ 14.2 protests with a 500 CZK deposit), and the footnotes the protests and the § 12 g warnings
and expulsion leave in the standings; the warnings and expulsion at the desk are in
``test_expulsions.py``.

Hand-worked case (master men, six games each; the rulebook ranks by the total, § 9):

    #1 Adam    200 190 187 210 200 195   = 1182, high 210
    #2 Bohuš   190 200 210 190 200 200   = 1190, high 210
    #3 Cyril   180 200 200 200 200 195   = 1175, high 200
    #4 David   210 180 190 200 190 200   = 1170, high 210

Table before any protest: Bohuš 1190, Adam 1182, Cyril 1175, David 1170. Adam protests game 3
(the pinsetter left a pin standing: 187 should be 207); the committee upholds it and corrects
game 3 to 207: Adam 1182 − 187 + 207 = 1202 and goes from 2nd to 1st, ahead of Bohuš's 1190
(Cyril and David keep 3rd and 4th). The table as of a moment before the verdict still reads
Bohuš 1st, Adam 2nd with 1182.

Receipts are one series per event: Bohuš's entry fee (600 CZK) is receipt 1, so Adam's deposit
is receipt 2. When Cyril's protest (deposit by transfer: receipt 1 in that event) is rejected,
its deposit is forfeited with cash receipt 2, and the next payment (David's entry fee) is
receipt 3 — a forfeited deposit's cash receipt never shares its number with a payment.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from podium.engine.entries import Reason
from podium.web.disputes.services.discipline import sanction_impose
from podium.web.disputes.services.protests import protest_decide, protest_file
from podium.web.models import (
    Appeal,
    Entry,
    Event,
    FurtherAppeal,
    Payment,
    Result,
    Squad,
    Verdict,
)
from podium.web.registration.services.payments import payment_record
from podium.web.results.selectors.rows import current_results, standings_as_of
from podium.web.results.services.results import result_progress, result_record
from podium.web.standings.services.publication import publication_set

STAGE = "qualification"
SERIES = {
    1: ("Adam", [200, 190, 187, 210, 200, 195]),
    2: ("Bohuš", [190, 200, 210, 190, 200, 200]),
    3: ("Cyril", [180, 200, 200, 200, 200, 195]),
    4: ("David", [210, 180, 190, 200, 190, 200]),
}
PROTEST_CLAUSE = (
    "§ 14.2 … mohou jej podat jen hráči. Protest se podává písemně k rukám hlavního rozhodčího, "
    "včetně kauce 500 Kč. … V případě zamítavého stanoviska se hráč může odvolat k STK ČBA "
    "případně k VV ČBA."
)
WARNING_CLAUSE = "§ 12 g) … může hlavní rozhodčí udělit napomenutí"
EXPULSION_CLAUSE = "§ 12 g) … v případě opakovaného provinění je oprávněn hráče … vyloučit"
NBSP = "\N{NO-BREAK SPACE}"
# The hand-worked tables (see above): before Adam's protest, and with game 3 corrected.
TABLE_BEFORE = [
    ("Bohuš", 1, "1190 (210 high)"),
    ("Adam", 2, "1182 (210 high)"),
    ("Cyril", 3, "1175 (200 high)"),
    ("David", 4, "1170 (210 high)"),
]
TABLE_UPHELD = [
    ("Adam", 1, "1202 (210 high)"),
    ("Bohuš", 2, "1190 (210 high)"),
    ("Cyril", 3, "1175 (200 high)"),
    ("David", 4, "1170 (210 high)"),
]


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def games(values: list[int]) -> dict[str, str]:
    return {f"g{n}": str(v) for n, v in enumerate(values, start=1)}


@pytest.fixture
def bowled(make_user: Any, make_event: Any, add_entry: Any, staff: Any) -> dict[str, Any]:
    """Four master men who have bowled their six games, recorded by the lane referee."""
    org = make_user("olga")
    event = make_event("cba-qualifier", organizer=org, status=Event.Status.CLOSED)
    users = staff(event, referee="rudolf", head="hana")
    squad = Squad.objects.create(event=event, name="Squad A", starts_at=event.starts_at, capacity=8)
    players = {}
    for number, (name, series) in SERIES.items():
        players[number] = add_entry(event, number, name, division="master-men", squad=squad)
        result_record(
            event=event, stage=STAGE, entry=players[number], cells=games(series),
            by=users["referee"], idempotency_key=f"six-{number}",
        )  # fmt: skip
    return {"event": event, "org": org, "squad": squad, "players": players, **users}


def url(name: str, event: Event, *args: Any) -> str:
    return reverse(f"protests:{name}", args=[event.slug, *args])


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{re.escape(name)}" value="([^"]*)"', html)
    assert found is not None, name
    return found.group(1)


def current(entry: Entry) -> Result:
    return next(r for r in current_results(entry.event, STAGE) if r.entry_id == entry.pk)


def table(event: Event, at: Any = None) -> list[tuple[str, int, str]]:
    standings = standings_as_of(event, STAGE, at=at)
    rows = next(t for t in standings.tables if t.key == "master-men").rows
    return [(r.entry.name, r.rank, r.entry.score_text) for r in rows]


def reasons_of(event: Event, name: str) -> list[Reason]:
    standings = standings_as_of(event, STAGE)
    rows = next(t for t in standings.tables if t.key == "master-men").rows
    return list(next(r for r in rows if r.entry.name == name).reasons)


def protest_data(client: Client, event: Event, entry: Entry, **data: str) -> dict[str, str]:
    """The protest form's fields as the page renders them (its token), filled with ``data``."""
    page = client.get(url("index", event)).content.decode()
    return {"token": hidden(page, "token"), "stage": STAGE, "player": str(entry.pk),
            "statement": "", "method": "", **data}  # fmt: skip


def file_protest(client: Client, event: Event, entry: Entry, **data: str) -> Any:
    """Fills the protest form as the page renders it and sends it."""
    return client.post(url("file", event), protest_data(client, event, entry, **data))


def decision_data(client: Client, event: Event, number: int, **data: str) -> dict[str, str]:
    """The decision form's fields as rendered (the current games prefilled), changed by ``data``."""
    page = client.get(url("detail", event, number)).content.decode()
    form = {"result": hidden(page, "result")}
    for n in range(1, 7):
        form[f"g{n}"] = hidden(page, f"g{n}")
    return {**form, **data}


def decide(client: Client, event: Event, number: int, **data: str) -> Any:
    """Sends the decision form as rendered, changed by ``data``."""
    return client.post(url("decide", event, number), decision_data(client, event, number, **data))


def check_confirmation(html: str) -> None:
    """The printed confirmation of Adam's deposit: protest 1, receipt 2, 500 CZK, his games as
    protested, the rule's clause, and a page made for printing."""
    assert "Confirmation of the protest deposit" in html
    assert '<dd class="protest-number">1</dd>' in html
    assert '<dd class="player">#1 <bdi>Adam</bdi></dd>' in html
    assert f'<dd class="amount">500.00{NBSP}CZK</dd>' in html
    assert '<dd class="receipt-number">2</dd>' in html
    assert "200 · 190 · 187 · 210 · 200 · 195" in html
    assert "@media print" in html
    assert "včetně kauce 500 Kč" in html


# --- an upheld protest ------------------------------------------------------------------------


def test_an_upheld_protest_corrects_game_3_and_moves_the_player_up(
    bowled: dict[str, Any],
) -> None:
    event, players = bowled["event"], bowled["players"]
    adam = players[1]
    payment_record(entry=players[2], fee_key="entry", amount="600", method="cash",
                   by=bowled["head"])  # fmt: skip
    head = client_for(bowled["head"])
    protested = current(adam)
    assert table(event) == TABLE_BEFORE

    index = head.get(url("index", event)).content.decode()
    assert f'<option value="{adam.pk}">#1 Adam — 200 190 187 210 200 195 (1182)</option>' in index
    statement = "Game 3, frame 7: the pinsetter left a pin standing; the score is 187, not 207."
    data = protest_data(head, event, adam, statement=statement, method="cash")
    filed = head.post(url("file", event), data)
    assert filed.status_code == 302
    assert filed["Location"] == url("confirmation", event, 1)
    again = head.post(url("file", event), data)  # a double tap: one protest
    assert again["Location"] == url("confirmation", event, 1)
    appeal = Appeal.objects.get()
    assert (appeal.number, appeal.kind, appeal.rule, appeal.entry, appeal.result) == (
        1, "protest", "protest", adam, protested,
    )  # fmt: skip
    deposit = appeal.fee
    assert deposit is not None
    assert (deposit.fee_key, deposit.amount, deposit.currency, deposit.method) == (
        "appeal:protest", Decimal("500.00"), "CZK", "cash",
    )  # fmt: skip
    assert deposit.receipt_number == 2  # after Bohuš's entry fee, receipt 1
    assert Payment.objects.count() == 2

    check_confirmation(head.get(url("confirmation", event, 1)).content.decode())
    assert head.get(url("receipt", event, 1)).status_code == 404  # nothing forfeited

    # a lane referee may file, but the committee's decision is recorded by the head referee
    referee = client_for(bowled["referee"])
    refused = decide(referee, event, 1, decision="upheld", reasons="Pinsetter fault", g3="207")
    assert refused.status_code == 400
    assert "The head referee records the organizing committee&#x27;s decision." in (
        refused.content.decode()
    )
    assert not Verdict.objects.exists()
    assert Result.objects.filter(entry=adam).count() == 1

    detail = head.get(url("detail", event, 1)).content.decode()
    assert 'name="g3" value="187"' in detail
    before = timezone.now()
    reasons = "The video shows the pin left standing by the pinsetter."
    data = decision_data(head, event, 1, decision="upheld", g3="207", reasons=reasons)
    decided = head.post(url("decide", event, 1), data)
    assert decided.status_code == 302, decided.content.decode()

    verdict = Verdict.objects.get()
    assert (verdict.upheld, verdict.fee, verdict.forfeit_receipt) == (True, "refunded", None)
    assert verdict.action == "game 3 corrected 187 → 207"
    fixed = verdict.correction
    assert fixed is not None
    assert (fixed.kind, fixed.corrects, fixed.cells) == (
        "correction", protested, games([200, 190, 207, 210, 200, 195]),
    )  # fmt: skip
    assert fixed.reason.startswith("Protest 1 upheld: The video shows")
    assert protested.cells["g3"] == "187"  # the old version stays as it was
    assert table(event) == TABLE_UPHELD
    assert table(event, at=before) == TABLE_BEFORE
    assert Reason(PROTEST_CLAUSE, "Protest 1 upheld — game 3 corrected 187 → 207") in (
        reasons_of(event, "Adam")
    )

    detail = head.get(url("detail", event, 1)).content.decode()
    assert "returned to the player" in detail
    assert "game 3: 187 → 207" in detail
    assert "total 1202" in detail
    assert "Record the committee" not in detail  # decided once
    second = head.post(url("decide", event, 1), {**data, "decision": "rejected"})
    assert second.status_code == 400
    assert "Appeal 1 is already decided." in second.content.decode()
    assert Verdict.objects.count() == 1


def test_a_decision_on_games_changed_meanwhile_is_refused(bowled: dict[str, Any]) -> None:
    event, adam = bowled["event"], bowled["players"][1]
    head = client_for(bowled["head"])
    file_protest(head, event, adam, statement="Game 3 was mis-scored.", method="card")
    data = decision_data(head, event, 1, decision="upheld", reasons="Mis-scored", g3="207")
    from podium.web.results.services.results import result_correct

    result_correct(result=current(adam), cells=games([200, 190, 187, 210, 200, 196]),
                   by=bowled["head"], reason="g6 typo", idempotency_key="typo")  # fmt: skip
    stale = head.post(url("decide", event, 1), data)
    assert stale.status_code == 400
    page = stale.content.decode()
    assert "The games of #1 were changed meanwhile; check the games shown now." in page
    assert 'name="g6" value="196"' in page
    assert not Verdict.objects.exists()
    assert current(adam).cells["g3"] == "187"


def test_a_protest_filed_mid_squad_is_decided_after_the_last_block(
    bowled: dict[str, Any], add_entry: Any
) -> None:
    """Emil protests game 3 after block 2 (180 170 | 187 200) and bowls block 3 (210 190) while
    the committee meets: the correction applies to his six games, 1137 − 187 + 207 = 1157."""
    event, referee = bowled["event"], bowled["referee"]
    emil = add_entry(event, 5, "Emil", division="master-men", squad=bowled["squad"])
    first = result_record(event=event, stage=STAGE, entry=emil, by=referee,
                          cells={"g1": "180", "g2": "170", "g3": "187", "g4": "200"},
                          idempotency_key="emil-1-2")  # fmt: skip
    head = client_for(bowled["head"])
    assert file_protest(head, event, emil, statement="Game 3: a pin left standing.",
                        method="cash").status_code == 302  # fmt: skip
    assert Appeal.objects.get().result == first
    result_progress(result=first, cells=games([180, 170, 187, 200, 210, 190]), by=referee,
                    idempotency_key="emil-3")  # fmt: skip
    data = decision_data(head, event, 1, decision="upheld", reasons="Pinsetter fault", g3="207")
    assert (data["g5"], data["g6"]) == ("210", "190")
    assert head.post(url("decide", event, 1), data).status_code == 302
    assert current(emil).cells == games([180, 170, 207, 200, 210, 190])
    assert ("Emil", 5, "1157 (210 high)") in table(event)


# --- a rejected protest, the cash receipt, the further appeal ------------------------------------


def test_a_rejected_protest_forfeits_the_deposit_with_a_cash_receipt_and_goes_further(
    bowled: dict[str, Any],
) -> None:
    event, players = bowled["event"], bowled["players"]
    cyril = players[3]
    head = client_for(bowled["head"])
    filed = file_protest(head, event, cyril, method="transfer",
                         statement="Lane 5 was oiled differently from lane 6.")  # fmt: skip
    assert filed.status_code == 302
    appeal = Appeal.objects.get()
    assert appeal.fee is not None
    assert appeal.fee.receipt_number == 1

    # a rejected protest corrects nothing
    wrong = head.post(url("decide", event, 1), decision_data(
        head, event, 1, decision="rejected", reasons="Lanes checked", g6="215"))  # fmt: skip
    assert wrong.status_code == 400
    assert "Only an upheld protest on a recorded result corrects it." in wrong.content.decode()
    assert not Verdict.objects.exists()
    assert Result.objects.filter(entry=cyril).count() == 1

    no_reasons = head.post(url("decide", event, 1), decision_data(
        head, event, 1, decision="rejected", reasons=" "))  # fmt: skip
    assert "A verdict gives its reasons." in no_reasons.content.decode()
    assert not Verdict.objects.exists()

    reasons = "The lane conditions were checked by the STK delegate: the same on both lanes."
    done = head.post(url("decide", event, 1), decision_data(
        head, event, 1, decision="rejected", reasons=reasons))  # fmt: skip
    assert done.status_code == 302
    verdict = Verdict.objects.get()
    assert (verdict.upheld, verdict.fee, verdict.forfeit_receipt, verdict.correction) == (
        False, "forfeited", 2, None,
    )  # fmt: skip
    assert table(event)[2] == ("Cyril", 3, "1175 (200 high)")
    assert Reason(PROTEST_CLAUSE, "Protest 1 rejected") in reasons_of(event, "Cyril")

    receipt = head.get(url("receipt", event, 1)).content.decode()
    assert "Cash receipt 2" in receipt
    assert '<dd class="receipt-number">2</dd>' in receipt
    assert '<dd class="player">#3 <bdi>Cyril</bdi></dd>' in receipt
    assert f'<dd class="amount">500.00{NBSP}CZK</dd>' in receipt
    assert "the deposit of protest 1 (receipt 1), forfeited: the protest was rejected" in receipt
    assert "@media print" in receipt
    detail = head.get(url("detail", event, 1)).content.decode()
    assert "forfeited · cash receipt 2" in detail

    # the next payment takes the next number after the cash receipt, never the same one
    fee = payment_record(entry=players[4], fee_key="entry", amount="600", method="cash",
                         by=bowled["head"])  # fmt: skip
    assert fee.receipt_number == 3

    assert 'name="body" value="STK ČBA, or VV ČBA"' in detail
    further = head.post(url("further", event, 1), {"body": "STK ČBA"})
    assert further.status_code == 302
    taken = FurtherAppeal.objects.get()
    assert (taken.appeal, taken.body, taken.decided_at) == (appeal, "STK ČBA", None)
    twice = head.post(url("further", event, 1), {"body": "VV ČBA"})
    assert twice.status_code == 400
    assert "This protest was already taken further." in twice.content.decode()
    assert FurtherAppeal.objects.count() == 1

    empty = head.post(url("outcome", event, 1), {"outcome": ""})
    assert "Write the outcome." in empty.content.decode()
    outcome = head.post(url("outcome", event, 1), {"outcome": "STK ČBA upheld the committee."})
    assert outcome.status_code == 302
    taken.refresh_from_db()
    assert taken.outcome == "STK ČBA upheld the committee."
    assert taken.decided_at is not None
    detail = head.get(url("detail", event, 1)).content.decode()
    assert "Appealed to STK ČBA on" in detail
    assert "STK ČBA upheld the committee." in detail


# --- bad input ----------------------------------------------------------------------------------


def test_a_protest_without_a_deposit_or_text_is_refused_and_nothing_is_stored(
    bowled: dict[str, Any], make_user: Any, add_entry: Any
) -> None:
    event, players = bowled["event"], bowled["players"]
    head = client_for(bowled["head"])
    no_deposit = file_protest(head, event, players[1], statement="Game 3 was mis-scored.")
    assert no_deposit.status_code == 400
    page = no_deposit.content.decode()
    assert "Protest needs the deposit of 500 CZK, paid when filed." in page
    assert "včetně kauce 500 Kč" in page  # the clause comes with the refusal
    no_text = file_protest(head, event, players[1], method="cash", statement="  ")
    assert "An appeal is made in writing: enter its text." in no_text.content.decode()
    emil = add_entry(event, 5, "Emil", division="master-men", squad=bowled["squad"])
    not_bowled = file_protest(head, event, emil, method="cash", statement="Lane 3 was oily.")
    assert "#5 Emil has no result in this round to appeal." in not_bowled.content.decode()
    assert Appeal.objects.count() == 0
    assert Payment.objects.count() == 0

    outsider = client_for(make_user("oscar"))
    assert outsider.get(url("index", event)).status_code == 404
    assert outsider.post(url("file", event), {}).status_code == 404
    assert Appeal.objects.count() == 0


# --- footnotes in the standings -----------------------------------------------------------------


def test_the_public_standings_show_the_protest_and_the_sanctions_with_their_clauses(
    bowled: dict[str, Any], why: Any
) -> None:
    event, players, head = bowled["event"], bowled["players"], bowled["head"]
    adam, david = players[1], players[4]
    appeal = protest_file(event=event, rule="protest", stage=STAGE, entry=adam, by=head,
                          statement="Game 3 mis-scored", result=current(adam),
                          method="cash")  # fmt: skip
    protest_decide(appeal=appeal, upheld=True, reasons="Pinsetter fault", by=head,
                   action="game 3 corrected 187 → 207",
                   corrected_cells=games([200, 190, 207, 210, 200, 195]))  # fmt: skip
    sanction_impose(event=event, key="breach-of-duties", by=head, entry=david, effect="warning",
                    reason="Open drink in the playing area")  # fmt: skip
    before_expulsion = timezone.now()
    sanction_impose(event=event, key="breach-of-duties", by=head, entry=david,
                    effect="expulsion", reason="Phone on the approach after a warning")  # fmt: skip

    assert reasons_of(event, "Adam")[-1] == Reason(
        PROTEST_CLAUSE, "Protest 1 upheld — game 3 corrected 187 → 207"
    )
    notes = reasons_of(event, "David")
    assert Reason(WARNING_CLAUSE, "Warning: Open drink in the playing area") in notes
    assert Reason(EXPULSION_CLAUSE, "Expelled: Phone on the approach after a warning") in notes
    rows = standings_as_of(event, STAGE, at=before_expulsion).tables[0].rows
    david_then = next(r for r in rows if r.entry.name == "David")
    assert not any(r.text.startswith("Expelled") for r in david_then.reasons)

    publication_set(event=event, stage=STAGE, state="preliminary", by=bowled["org"])
    public = Client().get(reverse("standings:stage", args=[event.slug, STAGE]))
    assert public.status_code == 200
    html = public.content.decode()
    row = html[html.index('id="row-master-men-1"') :]
    row = row[: row.index("</tr>")]
    assert "1202 (210 high)" in row
    page = reverse("standings:stage", args=[event.slug, STAGE])
    row = why(page, "master-men", 1)
    assert "Protest 1 upheld — game 3 corrected 187 → 207" in row
    assert "včetně kauce 500 Kč" in row
    row = why(page, "master-men", 4)
    assert "Warning: Open drink in the playing area" in row
    assert f'<q class="clause">{WARNING_CLAUSE}</q>' in row
    assert "Expelled: Phone on the approach after a warning" in row
    assert f'<q class="clause">{EXPULSION_CLAUSE}</q>' in row
