"""``podium publish`` (``podium.web.files.publish``): the public rounds as static files — the
page, its polled table and the API's JSON, byte for byte what the site serves anonymously, with
an as-of line — written atomically and only when they change; a folder that cannot be written
keeps its last copy and gets the next version when it can be written again."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from tests.web.live.test_polls import QUALI, record
from typer.testing import CliRunner

from podium.cli.main import app
from podium.web.files.publish import MANIFEST, publish, watch
from podium.web.standings.services.publication import publication_set

ROUND = f"cs/standings/cz-jigsaw/{QUALI}/1"  # the event's language names its addresses
TABLE = f"cs/standings/cz-jigsaw/{QUALI}/table/index.html"  # where round 1 is polled
API = f"api/events/cz-jigsaw/stages/{QUALI}/rounds/1/standings.json"


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any) -> Any:
    """A Czech event: Anna's result recorded and published preliminary, Bohdan's not yet."""
    event = make_event("cz-jigsaw", language="cs")
    people = staff(event, organizer="olga", referee="rudolf")
    names = enumerate(("Anna Nová", "Bohdan Malý"), 1)
    entries = [add_entry(event, number, name, group="A") for number, name in names]
    record(event, people, entries[0], "1:10:00")
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"])
    return event, people, entries[1]


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_copy_is_what_the_site_serves_with_its_as_of_time(cz: Any, tmp_path: Path) -> None:
    done = publish(tmp_path)
    assert done.failed == []
    written = files(tmp_path)
    assert set(done.written) == set(written) - {MANIFEST}
    assert {f"{ROUND}/index.html", TABLE, API,
            "api/events/cz-jigsaw/stages.json"} <= set(written)  # fmt: skip
    # The API's JSON, byte for byte.
    served = Client().get(f"/api/events/cz-jigsaw/stages/{QUALI}/rounds/1/standings")
    assert written[API] == served.content
    rows = json.loads(written[API])["tables"][0]["rows"]
    assert [row["name"] for row in rows[:1]] == ["Anna Nová"]
    # The page and its table: the site's, with the time they were made (in the event's
    # language), so a copy kept after the line drops says how old it is.
    table = written[TABLE].decode()
    assert table.startswith('<section id="standings"')
    assert re.search(r'class="as-of" role="status">[^<]*2\d\d\d', table)
    assert "Anna Nová" in table
    # No result: at the foot of the table as not started, without a place (issue 21).
    assert re.search(r'Bohdan Malý</bdi></td>\s*<td class="score status">', table)
    page = written[f"{ROUND}/index.html"].decode()
    assert f'hx-get="/{TABLE.removesuffix("index.html")}"' in page  # it polls the copied table
    manifest = json.loads(written[MANIFEST])["events"]["cz-jigsaw"]
    assert set(manifest["tags"]) == {
        QUALI, "individual-final", "pair-qualification", "pair-final", "team",
    }  # fmt: skip
    assert not list(tmp_path.rglob(".publish-*"))  # no temporary file left


def test_only_a_new_version_is_written_and_only_what_changed(cz: Any, tmp_path: Path) -> None:
    event, people, bohdan = cz
    publish(tmp_path)
    again = publish(tmp_path)
    assert (again.written, again.unchanged, again.failed) == ([], 0, [])  # not even asked
    stages = (tmp_path / "api/events/cz-jigsaw/stages.json").stat().st_mtime_ns
    record(event, people, bohdan, "1:05:00")
    changed = publish(tmp_path)
    assert sorted(changed.written) == sorted([API, f"{ROUND}/index.html",
                                              TABLE])  # fmt: skip
    assert changed.unchanged >= 1
    assert (tmp_path / "api/events/cz-jigsaw/stages.json").stat().st_mtime_ns == stages
    rows = json.loads((tmp_path / API).read_bytes())["tables"][0]["rows"]
    assert [row["name"] for row in rows[:2]] == ["Bohdan Malý", "Anna Nová"]


def test_a_dropped_line_keeps_the_last_copy_and_the_next_goes_out_after(
    cz: Any, tmp_path: Path
) -> None:
    event, people, bohdan = cz
    mount, folder = tmp_path / "bucket", tmp_path / "public"
    mount.mkdir()
    folder.symlink_to(mount)
    publish(folder)
    kept = files(mount)
    mount.rename(tmp_path / "away")  # the line drops: the folder cannot be written
    mount.write_text("not a folder")
    record(event, people, bohdan, "1:05:00")
    dropped = publish(folder)
    assert dropped.written == []
    assert [f.split(":")[0] for f in dropped.failed] == ["cz-jigsaw"]
    assert files(tmp_path / "away") == kept  # the spectators keep the last version
    mount.unlink()
    (tmp_path / "away").rename(mount)  # the line is back
    back = publish(folder)
    assert back.failed == []
    assert API in back.written
    assert b"Bohdan Mal" in (mount / TABLE).read_bytes()


def test_a_write_that_fails_half_way_leaves_every_file_whole(
    cz: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    event, people, bohdan = cz
    publish(tmp_path)
    before = files(tmp_path)
    record(event, people, bohdan, "1:05:00")
    replaced = []

    def replace_once(source: str, target: Path) -> None:
        if replaced:
            raise OSError(28, "No space left on device")
        replaced.append(target)
        os.rename(source, target)

    monkeypatch.setattr("podium.web.files.publish.os.replace", replace_once)
    failed = publish(tmp_path)
    assert len(failed.written) == 1
    assert "No space left on device" in failed.failed[0]
    after = files(tmp_path)
    assert set(after) == set(before)  # no temporary file left, nothing missing
    assert after[MANIFEST] == before[MANIFEST]  # still the old version: tried again
    monkeypatch.undo()
    assert len(publish(tmp_path).written) == 2  # the two files the failed turn did not write


def test_drafts_stay_out_of_the_copy(cz: Any, tmp_path: Path, make_event: Any) -> None:
    make_event("cz-jigsaw", slug="secret", status="draft")
    publish(tmp_path)
    written = files(tmp_path)
    assert not [p for p in written if "secret" in p]
    assert not [p for p in written if "individual-final/1" in p]  # a round not yet public


def test_watch_publishes_each_new_version(cz: Any, tmp_path: Path) -> None:
    event, people, bohdan = cz
    turns: list[list[str]] = []

    def between(_seconds: float) -> None:
        if len(turns) == 1:
            record(event, people, bohdan, "1:05:00")

    watch(tmp_path, ["cz-jigsaw"], 3.0, 3, lambda done: turns.append(done.written), between)
    assert len(turns) == 3
    assert API in turns[0]
    assert API in turns[1]  # the result recorded after the first turn
    assert turns[2] == []


def test_the_command_publishes_once_and_names_what_it_wrote(cz: Any, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["publish", str(tmp_path / "out"), "--event", "cz-jigsaw"])
    assert result.exit_code == 0, result.output
    assert f"written {API}" in result.output
    assert (tmp_path / "out" / API).exists()
    refused = CliRunner().invoke(app, ["publish", str(tmp_path / "out" / API)])
    assert refused.exit_code == 2
    assert "is not a folder" in refused.output
