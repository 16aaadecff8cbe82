"""The command line refuses hostile rulebooks and archives: exit status 2, one line on stderr,
quickly and in bounded memory, and nothing written to the database."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from podium.cli.main import app
from podium.rules.loader import preset_text
from podium.web.files.archive import dumps, export_event
from podium.web.models import AuditEntry, Entry, Event
from podium.web.models import Result as ResultRow

VALID = preset_text("it-puzzle-party")


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def one_line(done: Result) -> str:
    assert done.exit_code == 2, done.output
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def laughs() -> str:
    lines, previous = ["z: &z [lol]"], "z"
    for name in "abcdefghi":
        lines.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]")
        previous = name
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (laughs() + VALID, ":6: more than 50,000 settings and values once its aliases"),
        ("x: " + "[" * 50_000 + "]" * 50_000 + "\n" + VALID, ":1: nested deeper than 50 levels"),
        ("- " * 50_000 + "x\n", ":1: nested deeper than 50 levels"),
        ("a: &a [*a]\n" + VALID, ":1: an alias refers to the value that contains it"),
    ],
    ids=["billion-laughs", "deep-flow", "deep-block", "cycle"],
)
def test_rulebook_check_refuses_hostile_yaml(
    text: str, said: str, tmp_path: Path, bounded: Any
) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    done = bounded(lambda: run("rulebook", "check", str(path)))
    assert one_line(done).startswith(f"{path}{said}")


def test_rulebook_check_refuses_a_50_mb_file_unread(tmp_path: Path, bounded: Any) -> None:
    path = tmp_path / "huge.yaml"
    path.write_bytes(VALID.encode() + b"# " + b"x" * (50 * 1024 * 1024) + b"\n")
    done = bounded(lambda: run("rulebook", "check", str(path)), megabytes=10)
    assert one_line(done) == (
        f"{path}: the rulebook is 51,205 KB; Podium reads rulebooks of up to 256 KB"
    )


@pytest.fixture
def archive(db: None, tmp_path: Path) -> dict[str, Any]:
    """A small real archive: an event with one entry and one result."""
    event = Event.objects.create(
        slug="puzzle", title="Puzzle", rulebook_key="it-puzzle-party",
        rulebook_text=VALID, starts_at=dt.datetime(2026, 6, 20, 9, 0, tzinfo=dt.UTC),
    )  # fmt: skip
    stage = event.rulebook.stages[0]
    entry = Entry.objects.create(
        event=event, category=event.rulebook.categories[0].key, number=1, name="Anna",
        status=Entry.Status.CONFIRMED,
    )  # fmt: skip
    ResultRow.objects.create(
        event=event, stage=stage.key, entry=entry, cells={"time": "1:02:03"},
        recorded_at=event.starts_at, idempotency_key="k1",
    )  # fmt: skip
    document: dict[str, Any] = json.loads(dumps(export_event(event)))
    return document


def counts() -> tuple[int, int, int, int]:
    return (
        Event.objects.count(),
        Entry.objects.count(),
        ResultRow.objects.count(),
        AuditEntry.objects.count(),
    )


def refused_import(path: Path, bounded: Any) -> str:
    before = counts()
    done = bounded(lambda: run("import-event", str(path), "--slug", "copy"))
    assert counts() == before
    return one_line(done)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda d: d["results"][0].update(cells="abc"),
            "results[0].cells: expected an object of texts",
        ),
        (
            lambda d: d["results"][0].update(cells={"time": ["1:02:03"]}),
            "results[0].cells: expected an object of texts",
        ),
        (
            lambda d: d["results"][0].update(cells={"time": 3723}),
            "results[0].cells: expected an object of texts",
        ),
        (lambda d: d.update(results="abc"), "results: expected a list"),
        (lambda d: d["results"].append(5), "results[1]: expected an object"),
        (lambda d: d["entries"][0].update(number="one"), "entries[0].number: expected a whole"),
        (lambda d: d["entries"][0].update(number=2**40), "entries[0].number: expected a whole"),
        (lambda d: d["entries"][0].update(status="maybe"), "entries[0].status: expected one of"),
        (
            lambda d: d["results"][0].update(recorded_at="yesterday"),
            "results[0].recorded_at: expected an ISO date and time",
        ),
        (lambda d: d["results"][0].update(entry="Anna"), "results[0].entry: expected a row key"),
        (lambda d: d["event"].update(rulebook_text=None), "event.rulebook_text: expected a value"),
    ],
    ids=[
        "cells-string", "cells-nested", "cells-number", "kind-string", "row-number", "int-text",
        "int-huge", "choice", "date", "reference", "rulebook-null",
    ],
)  # fmt: skip
def test_import_event_refuses_a_wrong_shape_by_its_path(
    archive: dict[str, Any], change: Any, said: str, tmp_path: Path, bounded: Any
) -> None:
    change(archive)
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    line = refused_import(path, bounded)
    assert line.startswith(f"podium: {path}: {said}"), line


def test_import_event_refuses_arrays_nested_200000_deep(
    archive: dict[str, Any], tmp_path: Path, bounded: Any
) -> None:
    path = tmp_path / "deep.json"
    text = json.dumps(archive)
    path.write_text(text[:-1] + ', "x": ' + "[" * 200_000 + "]" * 200_000 + "}", "utf-8")
    assert refused_import(path, bounded) == (
        f"podium: {path}: cannot read the archive: arrays and objects nested deeper than 64 levels"
    )


def test_import_event_refuses_a_file_over_its_cap_unread(
    archive: dict[str, Any], tmp_path: Path, bounded: Any
) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.write(json.dumps(archive).encode())
        file.seek(17 * 1024 * 1024)
        file.write(b" ")
    assert refused_import(path, bounded) == (
        f"podium: {path}: cannot read the archive: larger than 16 MB, the most Podium reads"
    )


@pytest.mark.parametrize("time", ["1:02:03", "abc", None])
def test_a_sound_archive_imports_and_its_standings_answer(
    archive: dict[str, Any], time: str | None, tmp_path: Path
) -> None:
    """Text a referee could have typed, even text the engine cannot read, is a problem the
    standings show, never a 500."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from podium.web.models import EventRole

    archive["results"][0]["cells"] = {"time": time}
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    done = run("import-event", str(path), "--slug", "copy")
    assert done.exit_code == 0, done.output
    copy = Event.objects.get(slug="copy")
    assert ResultRow.objects.get(event=copy).cells == {"time": time}
    head = get_user_model().objects.create_user("head")
    EventRole.objects.create(event=copy, user=head, role=EventRole.Role.ORGANIZER)
    client = Client()
    client.force_login(head)
    stage = copy.rulebook.stages[0].key
    assert client.get(f"/standings/copy/{stage}/").status_code == 200
    assert client.get(f"/export/copy/standings/{stage}/1.csv").status_code == 200


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda d: d["entries"].append({"oops": [1, 2]}),
            "entries[1]: oops: not a field of entries",
        ),
        (
            lambda d: d["entries"].append({"name": "Nobody"}),
            "entries[1]: number",
        ),
    ],
    ids=["unknown-field", "required-missing"],
)
def test_import_event_names_the_row_of_an_entry_it_cannot_make(
    archive: dict[str, Any], change: Any, said: str, tmp_path: Path, bounded: Any
) -> None:
    change(archive)
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    line = refused_import(path, bounded)
    assert line.startswith(f"podium: {path}: {said}"), line
    assert not Event.objects.filter(slug="copy").exists()


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ('"number": ' + "9" * 5000, "a number of 5000 digits; Podium reads numbers of at most 40"),
        ('"name": "\\ud800"', "$.entries[0].name holds a lone surrogate"),
    ],
    ids=["5000-digits", "lone-surrogate"],
)
def test_import_event_refuses_a_huge_integer_or_a_lone_surrogate_unwritten(
    archive: dict[str, Any], raw: str, said: str, tmp_path: Path, bounded: Any
) -> None:
    key = raw.split(":")[0].strip('"')
    archive["entries"][0][key] = "PLACEHOLDER"
    text = json.dumps(archive).replace(f'"{key}": "PLACEHOLDER"', raw, 1)
    path = tmp_path / "archive.json"
    path.write_text(text, encoding="utf-8")
    line = refused_import(path, bounded)
    assert line.startswith(f"podium: {path}: cannot read the archive: {said}"), line
    assert not Event.objects.filter(slug="copy").exists()
