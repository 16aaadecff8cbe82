"""Taps from a referee's phone (``podium.web.results.services.taps`` and its JSON endpoints):
a finish timed at the moment it was tapped however late it arrives, replays hours later answered
with the same result and stored once, another device's different value as a conflict with both
values and the audited choice, the same value as already stored, refusals in words, bounded
batches, and a signed-out phone keeping its taps.

Hand-worked (cz-jigsaw qualification, group A started at T0): a finish tapped at T0 + 52 min on
a phone 3 s behind the server (offset +3000 ms), sent at T0 + 62 min → 0:52:00, not 1:02:00.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from podium.web.models import AuditEntry, Publication, Result
from podium.web.results.services.clock import round_start
from podium.web.results.services.results import result_record
from podium.web.results.services.taps import Tap, conflict_resolve, tap_apply

QUALI = "individual-qualification"
T0 = timezone.now().replace(microsecond=0) - dt.timedelta(hours=2)


def ms(moment: dt.datetime) -> int:
    return int(moment.timestamp() * 1000)


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cz-jigsaw")
    people = staff(event, organizer="olga", head="renata", referee="rudolf")
    anna = add_entry(event, 1, "Anna Nová", group="A")
    add_entry(event, 2, "Bohdan Malý", group="A")
    round_start(event=event, stage=QUALI, group="A", by=people["organizer"], now=T0)
    return event, people, anna


def finish(key: str, number: int = 1, minutes: int = 52) -> Tap:
    phone = T0 + dt.timedelta(minutes=minutes) - dt.timedelta(seconds=3)
    return Tap(key=key, number=number, finish=True, at_ms=ms(phone), offset_ms=3000)


def test_a_finish_sent_late_keeps_the_time_it_was_tapped_and_a_replay_hours_later_is_the_same(
    cz: Any,
) -> None:
    event, people, anna = cz
    sent = T0 + dt.timedelta(minutes=62)
    first = tap_apply(
        event=event, stage=QUALI, round=1, tap=finish("k1"), by=people["referee"], now=sent
    )
    assert (first.status, first.cells["time"]) == ("stored", "0:52:00")
    later = sent + dt.timedelta(hours=5)
    again = tap_apply(
        event=event, stage=QUALI, round=1, tap=finish("k1"), by=people["referee"], now=later
    )
    assert (again.status, again.result, again.cells["time"]) == ("already", first.result, "0:52:00")
    stored = Result.objects.get()
    assert (stored.entry, stored.cells["time"], stored.idempotency_key) == (anna, "0:52:00", "k1")
    assert AuditEntry.objects.filter(action="result.record").count() == 1


def test_another_devices_different_value_is_a_conflict_and_the_choice_is_audited(cz: Any) -> None:
    event, people, anna = cz
    theirs = result_record(
        event=event, stage=QUALI, entry=anna, round=1, cells={"time": "0:51:10"},
        by=people["head"], idempotency_key="other-phone",
        now=T0 + dt.timedelta(minutes=51, seconds=30),
    )  # fmt: skip
    now = T0 + dt.timedelta(minutes=60)
    answer = tap_apply(
        event=event, stage=QUALI, round=1, tap=finish("k2"), by=people["referee"], now=now
    )
    assert answer.status == "conflict"
    assert answer.cells["time"] == "0:52:00"
    assert answer.theirs is not None
    assert answer.theirs["cells"]["time"] == "0:51:10"
    assert answer.theirs["by"] == "renata"
    assert answer.theirs["at"] == theirs.recorded_at.isoformat()
    assert Result.objects.count() == 1  # nothing overwritten in silence

    conflict_resolve(
        event=event, stage=QUALI, round=1, result=theirs, keep="theirs", cells=answer.cells,
        by=people["referee"], idempotency_key="k2-choice",
    )  # fmt: skip
    kept = AuditEntry.objects.get(action="result.conflict-theirs")
    assert (kept.data["kept"]["time"], kept.data["dropped"]["time"]) == ("0:51:10", "0:52:00")
    assert Result.objects.count() == 1

    mine = conflict_resolve(
        event=event, stage=QUALI, round=1, result=theirs, keep="mine", cells=answer.cells,
        by=people["referee"], idempotency_key="k2-mine",
    )  # fmt: skip
    assert (mine.cells["time"], mine.corrects_id, mine.kind) == ("0:52:00", theirs.pk, "correction")
    assert "0:51:10" in mine.reason
    assert "renata" in mine.reason
    assert AuditEntry.objects.filter(action="result.correct").count() == 1


def test_the_same_value_from_another_device_is_already_stored(cz: Any) -> None:
    event, people, anna = cz
    result_record(
        event=event, stage=QUALI, entry=anna, round=1, cells={"time": "0:52:00"},
        by=people["head"], idempotency_key="other-phone",
    )  # fmt: skip
    tap = Tap(key="k3", number=1, cells={"time": "0:52:00"})
    answer = tap_apply(event=event, stage=QUALI, round=1, tap=tap, by=people["referee"])
    assert (answer.status, answer.by) == ("already", "renata")
    assert Result.objects.count() == 1


def test_refusals_come_back_in_words(cz: Any) -> None:
    event, people, _anna = cz
    Publication.objects.create(
        event=event, stage=QUALI, round=1, state=Publication.State.FINAL,
        version=1, changed_by=people["organizer"], changed_at=T0, reason="done",
    )  # fmt: skip
    answer = tap_apply(event=event, stage=QUALI, round=1, tap=finish("k4"), by=people["referee"])
    assert answer.status == "refused"
    assert answer.message.startswith("These results are final.")
    unknown = tap_apply(
        event=event, stage=QUALI, round=1, tap=finish("k5", number=99), by=people["referee"]
    )
    assert (unknown.status, unknown.message) == ("refused", "No entrant has the number 99.")
    future = Tap(key="k6", number=2, finish=True, at_ms=ms(timezone.now()) + 60_000)
    ahead = tap_apply(event=event, stage=QUALI, round=1, tap=future, by=people["referee"])
    assert ahead.message == "The tap's time is in the future: check the phone's clock."
    assert not Result.objects.exists()


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def urls(event: Any) -> dict[str, str]:
    kwargs = {"slug": event.slug, "stage": QUALI, "round": 1}
    return {
        name: reverse(f"results:{name}", kwargs=kwargs) for name in ("cards", "taps", "resolve")
    }


def test_the_endpoints_answer_each_tap_and_serve_the_card_list_once_per_version(cz: Any) -> None:
    event, people, _anna = cz
    client = Client()
    client.force_login(people["referee"])
    url = urls(event)
    listed = client.get(url["cards"])
    assert [c["n"] for c in listed.json()["cards"]] == [1, 2]
    assert listed.json()["clocks"]["A"]["start"] == ms(T0)
    assert client.get(url["cards"], HTTP_IF_NONE_MATCH=listed["ETag"]).status_code == 304

    taps = [
        {"key": "a", "number": 1, "cells": {"time": "0:40:00"}},
        {"key": "b", "number": 2, "cells": {"time": "0:41:00"}},
        {"key": "a", "number": 1, "cells": {"time": "0:40:00"}},
    ]
    answers = post(client, url["taps"], {"taps": taps}).json()["answers"]
    assert [a["status"] for a in answers] == ["stored", "stored", "already"]
    assert Result.objects.count() == 2
    changed = client.get(url["cards"], HTTP_IF_NONE_MATCH=listed["ETag"])
    assert changed.status_code == 200
    assert changed.json()["cards"][0]["cells"] == {"time": "0:40:00"}
    assert changed.json()["cards"][0]["by"] == "rudolf"

    choice = {"key": "c", "number": 1, "cells": {"time": "0:40:30"}, "keep": "mine"}
    first = Result.objects.get(entry__number=1)
    done = post(client, url["resolve"], {"taps": [choice | {"result": first.pk}]}).json()
    assert done["answers"][0]["cells"]["time"] == "0:40:30"


def test_a_batch_out_of_bounds_is_refused_whole_naming_the_tap(cz: Any) -> None:
    event, people, _anna = cz
    client = Client()
    client.force_login(people["referee"])
    url = urls(event)["taps"]
    bad = {"taps": [{"key": "a", "number": 1}, {"key": "b", "number": "two"}]}
    answer = post(client, url, bad)
    assert answer.status_code == 400
    assert answer.json()["error"] == "Tap 2: “number” must be a whole number."
    too_many = post(client, url, {"taps": [{"key": str(i), "number": 1} for i in range(201)]})
    assert too_many.json()["error"] == "At most 200 taps in one batch."
    deep = post(client, url, {"taps": [{"cells": {"time": [[["x"]]]}}]})
    assert deep.json()["error"] == "The body is not a JSON object of taps."
    assert not Result.objects.exists()


def test_a_signed_out_phone_is_told_so_in_json_and_nothing_is_stored(cz: Any) -> None:
    event, _people, _anna = cz
    answer = post(Client(), urls(event)["taps"], {"taps": [{"key": "a", "number": 1}]})
    assert answer.status_code == 401
    assert answer.json()["signed_out"] is True
    assert not Result.objects.exists()
