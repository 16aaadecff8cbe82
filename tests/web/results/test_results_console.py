"""The referee console through its views: the one-tap finish and the competitor's agreement,
missing pieces, pieces at the limit with the group helper, the team table, typing a result by
hand, corrections with a reason, stale corrections, the head referee's confirmation, my tables,
and who may see it.

Hand-worked (cz-jigsaw individual qualification, group A started 62 minutes before the tap):
- Anna's tap → 1:02:0x; 2 missing pieces found at the check → 1:02:2x (+20 s); she agrees.
- At the end of the round Bohdan has groups of 120, 45, 12, 3 and 2 pieces: the groups of at
  least 3 count → 180 pieces.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from podium.engine.timing import format_clock, parse_clock
from podium.web.models import Agreement, Result, Signal, TableStep, Verification
from podium.web.results.services.clock import round_start
from podium.web.results.services.results import result_correct, result_record

QUALI = "individual-qualification"
FINAL = "individual-final"


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def round_url(event: Any, stage: str = QUALI, round: int = 1) -> str:
    return reverse("results:round", kwargs={"slug": event.slug, "stage": stage, "round": round})


def action_url(event: Any, name: str, stage: str = QUALI, **kwargs: Any) -> str:
    return reverse(
        f"results:{name}", kwargs={"slug": event.slug, "stage": stage, "round": 1, **kwargs}
    )


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{re.escape(name)}" value="([^"]*)"', html)
    assert found is not None, name
    return found.group(1)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cz-jigsaw")
    people = staff(event, organizer="olga", head="renata", referee="rudolf")
    anna = add_entry(event, 1, "Anna Nová", group="A")
    bohdan = add_entry(event, 2, "Bohdan Malý", group="A")
    return event, people, anna, bohdan


def start(event: Any, by: Any, minutes_ago: float, stage: str = QUALI, group: str = "A") -> None:
    now = timezone.now()
    round_start(
        event=event, stage=stage, group=group, by=by, now=now - dt.timedelta(minutes=minutes_ago)
    )


def test_the_index_and_a_round_before_the_start(cz: Any) -> None:
    event, people, _anna, _bohdan = cz
    client = client_for(people["referee"])
    index = client.get(reverse("results:index", kwargs={"slug": event.slug})).content.decode()
    assert round_url(event) in index
    assert round_url(event, "team") in index
    redirect = client.get(reverse("results:console", kwargs={"slug": event.slug, "stage": QUALI}))
    assert redirect["Location"] == round_url(event)
    html = client.get(round_url(event)).content.decode()
    assert "#1 <bdi>Anna Nová</bdi>" in html
    assert "The round has not started." in text(html)
    assert 'class="tap"' not in html  # nothing to tap before the start signal
    assert "Start the clock" not in html  # a referee does not give the signals
    head = client_for(people["head"]).get(round_url(event)).content.decode()
    assert "Start the clock" in head


def test_the_head_referee_starts_the_clock_of_a_group(cz: Any) -> None:
    event, people, _anna, _bohdan = cz
    client = client_for(people["head"])
    response = client.post(
        action_url(event, "clock"), {"action": "start", "group": "A"}, follow=True
    )
    assert "A: the clock is running." in response.content.decode()
    (signal,) = Signal.objects.all()
    assert (signal.group, signal.kind, signal.given_by) == ("A", "start", people["head"])
    html = client.get(round_url(event)).content.decode()
    assert 'data-clock data-started="' in html
    refused = client.post(
        action_url(event, "clock"), {"action": "start", "group": "A"}, follow=True
    )
    assert "a restart needs a reason" in refused.content.decode()
    assert Signal.objects.count() == 1


def test_tap_finished_add_missing_pieces_then_the_competitor_agrees(cz: Any) -> None:
    event, people, anna, _bohdan = cz
    start(event, people["head"], 62)
    client = client_for(people["referee"])
    html = client.get(round_url(event)).content.decode()
    key = hidden(html, f"e{anna.pk}-finish-idempotency_key")
    tap = client.post(
        action_url(event, "finish", entry_id=anna.pk), {f"e{anna.pk}-finish-idempotency_key": key}
    )
    assert tap.status_code == 302
    assert tap["Location"].endswith(f"#entry-{anna.number}")
    again = client.post(  # the phone lost the connection and sent the tap again
        action_url(event, "finish", entry_id=anna.pk), {f"e{anna.pk}-finish-idempotency_key": key}
    )
    assert again.status_code == 302
    (result,) = Result.objects.all()
    assert re.fullmatch(r"1:02:0\d", result.cells["time"])
    html = client.get(round_url(event)).content.decode()
    assert "Competitor agrees: " + result.cells["time"] in html
    missing = client.post(
        action_url(event, "missing", result_id=result.pk),
        {
            f"e{anna.pk}-missing-idempotency_key": hidden(
                html, f"e{anna.pk}-missing-idempotency_key"
            ),
            f"e{anna.pk}-missing-missing": "2",
        },
        follow=True,
    )
    assert "#1: 2 missing pieces added." in missing.content.decode()
    current = Result.objects.get(corrects=result)
    assert (current.kind, current.cells["missing"]) == ("progress", "2")
    html = missing.content.decode()
    penalised = format_clock(parse_clock(current.cells["time"]) + 20_000)
    assert f"Competitor agrees: {penalised} (+20 s)" in html
    agreed = client.post(action_url(event, "agree", result_id=current.pk), follow=True)
    assert "#1 Anna Nová agreed" in agreed.content.decode()
    assert Agreement.objects.get().result == current
    after = agreed.content.decode()
    assert "only the head referee may correct it" in after
    assert "Competitor agrees" not in after


def test_pieces_at_the_limit_add_up_the_groups_large_enough(cz: Any) -> None:
    event, people, _anna, bohdan = cz
    start(event, people["head"], 91)  # the 90 minutes have run out
    client = client_for(people["referee"])
    html = client.get(round_url(event)).content.decode()
    assert "Not finished at the limit: count the pieces." in html
    assert "počítají se pouze skupiny minimálně 3 dílků" in html
    prefix = f"e{bohdan.pk}-pieces"
    key = hidden(html, f"{prefix}-idempotency_key")
    bad = client.post(
        action_url(event, "pieces", entry_id=bohdan.pk),
        {f"{prefix}-idempotency_key": key, f"{prefix}-groups": "120 forty"},
    )
    assert bad.status_code == 400
    assert "“forty” is not the size of a group" in bad.content.decode()
    done = client.post(
        action_url(event, "pieces", entry_id=bohdan.pk),
        {f"{prefix}-idempotency_key": key, f"{prefix}-groups": "120 45 12 3 2"},
        follow=True,
    )
    assert "#2 Bohdan Malý recorded: pieces 180" in done.content.decode()
    result = Result.objects.get()
    assert (result.cells["pieces"], result.detail["groups"]) == ("180", [120, 45, 12, 3, 2])
    assert "180 pcs" in done.content.decode()


def test_the_team_table_on_the_console(make_event: Any, staff: Any, add_entry: Any) -> None:
    event = make_event("cz-jigsaw")
    people = staff(event, head="renata", referee="rudolf")
    team = add_entry(event, 5, "Sovy", country="CZ/CZ/CZ", category="teams")
    start(event, people["head"], 70, stage="team", group="")
    client = client_for(people["referee"])
    prefix = f"e{team.pk}-step"

    def step(**data: str) -> Any:
        html = client.get(round_url(event, "team")).content.decode()
        form = {f"{prefix}-idempotency_key": hidden(html, f"{prefix}-idempotency_key")}
        form.update({f"{prefix}-{k}": v for k, v in data.items()})
        return client.post(action_url(event, "step", "team", entry_id=team.pk), form, follow=True)

    assert "Start puzzle 1 (1000)" in client.get(round_url(event, "team")).content.decode()
    on_table = step(kind="start", puzzle="0").content.decode()
    assert "On the table: puzzle 1 (1000 pieces)" in on_table
    assert "Switch to puzzle 2 (500)" in on_table
    refused = step(kind="switch", puzzle="1")
    assert refused.status_code == 400
    assert "must be taken apart completely" in refused.content.decode()
    step(kind="finish", missing="1")
    html = client.get(round_url(event, "team")).content.decode()
    assert re.search(r"Puzzle 1 \(1000\) finished at 1:10:0\d, 1 piece missing", text(html))
    assert [s.kind for s in TableStep.objects.order_by("id")] == ["start", "finish"]
    assert not Result.objects.exists()  # whole only once puzzle 2 is done or the time is up


def test_a_bad_time_typed_by_hand_is_refused_on_the_field(cz: Any, put_in_stage: Any) -> None:
    event, people, anna, _bohdan = cz
    put_in_stage(event, FINAL, anna, source=QUALI)
    client = client_for(people["referee"])
    html = client.get(round_url(event, FINAL)).content.decode()
    data = {
        f"e{anna.pk}-idempotency_key": hidden(html, f"e{anna.pk}-idempotency_key"),
        f"e{anna.pk}-time": "9:99",
    }
    response = client.post(action_url(event, "record", FINAL, entry_id=anna.pk), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "column time: &#x27;9:99&#x27; is not a time: write H:MM:SS or M:SS" in page
    label = re.search(r"<label>[^<]*Time<input[^>]*>.*?</label>", page, re.S)
    assert label is not None
    assert "is not a time" in label.group(0)
    assert not Result.objects.exists()
    data[f"e{anna.pk}-time"] = "1:10:00"
    client.post(action_url(event, "record", FINAL, entry_id=anna.pk), data)
    client.post(action_url(event, "record", FINAL, entry_id=anna.pk), data)  # sent twice
    assert Result.objects.count() == 1


def test_the_refusal_reads_in_the_referees_language(cz: Any, put_in_stage: Any) -> None:
    event, people, anna, _bohdan = cz
    put_in_stage(event, FINAL, anna, source=QUALI)
    client = client_for(people["referee"])
    url, record = round_url(event, FINAL), action_url(event, "record", FINAL, entry_id=anna.pk)
    html = client.get(f"/cs{url}").content.decode()
    data = {
        f"e{anna.pk}-idempotency_key": hidden(html, f"e{anna.pk}-idempotency_key"),
        f"e{anna.pk}-time": "9:99",
    }
    page = client.post(f"/cs{record}", data).content.decode()
    assert "sloupec time: &#x27;9:99&#x27; není čas: pište H:MM:SS nebo M:SS" in page
    assert "is not a time" not in page
    assert not Result.objects.exists()


def test_corrections_need_a_reason_and_a_stale_one_is_refused(cz: Any, put_in_stage: Any) -> None:
    event, people, anna, _bohdan = cz
    put_in_stage(event, FINAL, anna, source=QUALI)
    first = result_record(
        event=event, stage=FINAL, entry=anna, cells={"time": "1:10:00"}, by=people["referee"],
        idempotency_key="a",
    )  # fmt: skip
    client = client_for(people["head"])
    html = client.get(round_url(event, FINAL)).content.decode()
    data = {
        f"e{anna.pk}-idempotency_key": hidden(html, f"e{anna.pk}-idempotency_key"),
        f"e{anna.pk}-result": str(first.pk),
        f"e{anna.pk}-time": "1:02:00",
    }
    url = action_url(event, "record", FINAL, entry_id=anna.pk)
    assert "A correction needs a reason." in client.post(url, data).content.decode()
    result_correct(  # meanwhile someone else corrects it
        result=first, cells={"time": "1:01:00"}, by=people["organizer"], reason="r1",
        idempotency_key="b",
    )  # fmt: skip
    data[f"e{anna.pk}-reason"] = "misread the clock"
    stale = client.post(url, data)
    assert stale.status_code == 400
    assert "it is now “time 1:01:00”" in stale.content.decode()
    assert "you changed “time 1:10:00”" in stale.content.decode()
    assert Result.objects.count() == 2


def test_the_head_referee_confirms_what_a_referee_recorded(cz: Any, put_in_stage: Any) -> None:
    event, people, anna, _bohdan = cz
    put_in_stage(event, FINAL, anna, source=QUALI)
    result = result_record(
        event=event, stage=FINAL, entry=anna, cells={"time": "1:10:00"}, by=people["referee"],
        idempotency_key="a",
    )  # fmt: skip
    url = action_url(event, "confirm", FINAL, result_id=result.pk)
    referee = client_for(people["referee"])
    assert url not in referee.get(round_url(event, FINAL)).content.decode()
    refused = referee.post(url, follow=True).content.decode()
    assert "Only these confirm the results of" in refused
    assert "head referee or organizer." in refused
    head = client_for(people["head"])
    assert url in head.get(round_url(event, FINAL)).content.decode()
    html = head.post(url, follow=True).content.decode()
    assert "#1 Anna Nová confirmed: time 1:10:00" in html
    assert "confirmed by the head referee (renata)" in html
    assert Verification.objects.get().verified_by == people["head"]


def test_my_tables_show_just_the_tables_a_referee_watches(cz: Any) -> None:
    event, people, _anna, _bohdan = cz
    client = client_for(people["referee"])
    client.post(action_url(event, "tables"), {"tables": "2-4"})
    html = client.get(round_url(event)).content.decode()
    assert "#2 <bdi>Bohdan Malý</bdi>" in html
    assert "#1 Anna Nová" not in html
    bad = client.post(action_url(event, "tables"), {"tables": "two"}, follow=True)
    assert "Write table numbers as 1-10, 15." in bad.content.decode()


def test_only_the_events_staff_see_the_console(cz: Any, make_user: Any, make_event: Any) -> None:
    event, _people, anna, _bohdan = cz
    other_ref = make_user("otto")
    other = make_event("cz-jigsaw", slug="other")
    other.roles.create(user=other_ref, role="referee")
    client = client_for(other_ref)
    for url in (reverse("results:index", kwargs={"slug": event.slug}), round_url(event)):
        assert client.get(url).status_code == 404
        response = Client().get(url)
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]
    assert client.post(action_url(event, "finish", entry_id=anna.pk), {}).status_code == 404
    assert client.get(round_url(other, "no-such-stage")).status_code == 404
    assert client.get(round_url(other, QUALI, 2)).status_code == 404  # it sits once
    assert not Result.objects.exists()
