"""The whole-event archive: export → import → export gives the same file, and the same tables.

The demo events hold one of nearly everything: entries of individuals, pairs and teams, draws,
clock signals, results with corrections, agreements, second entries with a mismatch,
verifications, frozen final versions, advancements and the audit trail.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from typer.testing import CliRunner

from podium.cli.main import app
from podium.engine.document import standings_data
from podium.web.demo import load_demo
from podium.web.files.archive import KINDS, SINCE_2, ArchiveError, dumps, export_event, import_event
from podium.web.kernel.stages import round_numbers
from podium.web.models import Account, ApiToken, Event, EventRole, Question, Result, Verdict
from podium.web.results.selectors.rows import standings_as_of

pytestmark = pytest.mark.django_db


def comparable(document: dict[str, Any]) -> dict[str, Any]:
    """The archive without what differs by design: when it was written, the address, and the
    status (a copy is a draft until published)."""
    document = json.loads(dumps(document))
    document.pop("exported_at")
    document["event"].pop("slug")
    document["event"].pop("status")
    return document


def tables(event: Event) -> dict[tuple[str, int], Any]:
    """Every stage's every round as the engine ranks it now (a round with no result: None)."""
    found = {}
    for stage in event.rulebook.stages:
        for number in round_numbers(event, stage) or [1]:
            try:
                found[(stage.key, number)] = standings_data(
                    standings_as_of(event, stage.key, number)
                )
            except Exception:  # no rows yet: the engine says so; both events must agree
                found[(stage.key, number)] = None
    return found


@pytest.mark.parametrize("slug", ["cz-jigsaw-2027", "deti-kolomny-xv", "cba-kvalifikace-2012"])
def test_an_event_survives_the_round_trip(slug: str) -> None:
    load_demo()
    event = Event.objects.get(slug=slug)
    first = export_event(event)
    assert first["results"]
    copy = import_event(json.loads(dumps(first)), slug=f"{slug}-copy")
    assert comparable(export_event(copy)) == comparable(first)
    assert tables(copy) == tables(event)
    assert Result.objects.filter(event=copy).count() == Result.objects.filter(event=event).count()
    assert copy.created_at == event.created_at  # times are kept, not reset to the import


def test_the_chgk_archive_keeps_the_history_and_the_checks() -> None:
    load_demo()
    event = Event.objects.get(slug="deti-kolomny-xv")
    document = export_event(event)
    assert len(document["rounds"]) == 6
    assert any(s["differences"] for s in document["second_entries"])  # the mismatch of tour 3
    finals = [p for p in document["publications"] if p["state"] == "final"]
    assert {p["round"] for p in finals} == {1, 2}
    assert all(p["table"]["tables"] for p in finals)
    copy = import_event(document, slug="dk-copy")
    frozen = copy.publications.filter(state="final").order_by("round")
    assert [p.table for p in frozen] == [p["table"] for p in finals]


def test_the_chgk_archive_keeps_the_rulings_and_the_questions() -> None:
    load_demo()
    event = Event.objects.get(slug="deti-kolomny-xv")
    document = export_event(event)
    credited = [v["credited"] for v in document["verdicts"] if v["upheld"]]
    assert credited == [[credited[0][0]]]  # the accepted answer's second team
    assert [s["key"] for s in document["sanctions"]] == [
        "ineligible-player", "withdrawal-before-middle-tour"
    ]  # fmt: skip
    assert len(document["withdrawals"]) == 1
    assert {b["reason"] for b in document["bans"]} >= {document["sanctions"][0]["reason"]}
    replaced = [q for q in document["questions"] if q["replaced_by"]]
    assert len(replaced) == 1
    assert replaced[0]["replaced_by"] > document["questions"].index(replaced[0]) + 1  # later
    copy = import_event(json.loads(dumps(document)), slug="dk-rulings")
    verdict = Verdict.objects.get(appeal__event=copy, upheld=True)
    original = Verdict.objects.get(appeal__event=event, upheld=True)
    assert [e.name for e in verdict.credited.all()] == [e.name for e in original.credited.all()]
    retold = Question.objects.get(submission__event=copy, status=Question.Status.REPLACE)
    assert retold.replaced_by is not None
    assert retold.replaced_by.answer == "керамика"
    assert retold.replaced_by.submission.event == copy


def test_every_model_but_api_tokens_is_archived() -> None:
    archived = {model for _kind, model, _paths in KINDS} | {Event}  # the event is the header
    # An account (its language, its approval to create events) is the site's, not an event's.
    assert set(apps.get_app_config("podium").get_models()) - archived == {ApiToken, Account}


def test_a_version_1_archive_is_read_without_the_rulings() -> None:
    load_demo()
    document = export_event(Event.objects.get(slug="cz-jigsaw-2027"))
    document["version"] = 1
    for kind in SINCE_2:
        document.pop(kind)
    copy = import_event(document, slug="cz-old")
    assert copy.results.count() == Result.objects.filter(event__slug="cz-jigsaw-2027").count()
    document["version"] = 2
    with pytest.raises(ArchiveError, match="the archive has no appeals"):
        import_event(document, slug="cz-old-2")


def test_users_are_found_or_made_by_name() -> None:
    load_demo()
    document = export_event(Event.objects.get(slug="cz-jigsaw-2027"))
    # On another machine there is no "referee": the archive makes one, with no password.
    user_fields = {"user", "recorded_by", "verified_by", "on_device_of", "actor", "given_by"}
    for kind, rows in document.items():
        if isinstance(rows, list) and kind != "people":
            for row in rows:
                for field in user_fields & set(row):
                    if row[field] == "referee":
                        row[field] = "referee-from-prague"
    copy = import_event(document, slug="elsewhere")
    role = EventRole.objects.get(event=copy, role="referee", user__username="referee-from-prague")
    assert not role.user.has_usable_password()
    assert copy.results.filter(recorded_by=role.user).exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="something"), "this is not a Podium event archive"),
        (lambda d: d.update(version=99), "archive version 99; this Podium reads versions 1, 2"),
        (lambda d: d.pop("results"), "the archive has no results"),
        (lambda d: d["event"].update(rulebook_text="key: [broken"), "its rulebook does not load"),
        (lambda d: d["members"][0].update(entry=9999), "members: entry refers to a row"),
    ],
)
def test_a_bad_archive_is_refused_and_nothing_is_made(change: Any, message: str) -> None:
    load_demo()
    document = export_event(Event.objects.get(slug="cz-jigsaw-2027"))
    change(document)
    before = (Event.objects.count(), Result.objects.count())
    with pytest.raises(ArchiveError, match=message):
        import_event(document, slug="broken")
    assert (Event.objects.count(), Result.objects.count()) == before


def test_the_commands_write_and_read_one_file(tmp_path: Path) -> None:
    load_demo()
    runner = CliRunner()
    archive = tmp_path / "cz.json"
    done = runner.invoke(app, ["export-event", "cz-jigsaw-2027", "--output", str(archive)])
    assert done.exit_code == 0, done.output
    assert json.loads(archive.read_text(encoding="utf-8"))["format"] == "podium-event"
    taken = runner.invoke(app, ["import-event", str(archive)])
    assert taken.exit_code == 2
    assert "an event 'cz-jigsaw-2027' exists already: import it under --slug" in taken.output
    done = runner.invoke(app, ["import-event", str(archive), "--slug", "cz-moved"])
    assert done.exit_code == 0, done.output
    assert "cz-moved: imported" in done.output
    assert "as a draft (publish it from its dashboard's status)" in done.output
    assert Event.objects.filter(slug="cz-moved").exists()
    missing = runner.invoke(app, ["export-event", "no-such-event"])
    assert missing.exit_code == 2
    assert "no event 'no-such-event'" in missing.output
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    bad = runner.invoke(app, ["import-event", str(tmp_path / "bad.json")])
    assert bad.exit_code == 2
    assert "cannot read the archive" in bad.output


def test_an_archive_copy_is_a_draft_and_adds_nothing_to_my_entries() -> None:
    """``podium import-event cz.json --slug cz-jigsaw-2027-archive`` beside the event: the copy
    is not listed publicly and the player's *My entries* shows each entry once."""
    from django.test import Client

    from podium.web.kernel.lookup import public_events

    load_demo()
    event = Event.objects.get(slug="cz-jigsaw-2027")
    player = get_user_model().objects.get(username="player")
    client = Client()
    client.force_login(player)
    before = client.get("/me/entries/").content.decode()
    copy = import_event(export_event(event), slug="cz-jigsaw-2027-archive")
    assert copy.status == Event.Status.DRAFT
    assert event.status != Event.Status.DRAFT
    assert not public_events().filter(slug=copy.slug).exists()
    assert copy.entries.filter(registered_by=player).exists()  # the copy holds them all
    after = client.get("/me/entries/").content.decode()
    assert after.count('id="entry-') == before.count('id="entry-') > 0
    assert "/organize/cz-jigsaw-2027-archive/" not in after
