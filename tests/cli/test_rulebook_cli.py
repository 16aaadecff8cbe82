from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from podium.cli import rulebook
from podium.rules import loader

# Wired as podium.cli.main wires it, so the commands are reached as `podium rulebook ...`.
root = typer.Typer()
root.add_typer(rulebook.app, name="rulebook")


def run(*args: str) -> Result:
    return CliRunner().invoke(root, ["rulebook", *args])


GOOD = """\
key: demo
title: Demo
language: en
source: a test
categories:
  - key: solo
    title: Solo
    entrants:
      kind: individual
stages:
  - key: final
    title: Final
    format: timed-solve
    time_limit_min: 60
    pieces: 500
    ranking:
      criteria: [finished, time, pieces]
"""


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("cz-jigsaw", "ok: cz-jigsaw — Czech Jigsaw Puzzle Championship (5 stages)"),
        ("it-puzzle-party", "ok: it-puzzle-party — Puzzle Party di Ravensburger (1 stages)"),
        (
            "cba-qualifier",
            "ok: cba-qualifier — ČBA supplementary qualification tournament (1 stages)",
        ),
        (
            "deti-kolomny",
            "ok: deti-kolomny — XV open championship of the «Дети Коломны» club (4 stages)",
        ),
    ],
)
def test_check_a_preset(name: str, line: str) -> None:
    result = run("check", name)
    assert (result.exit_code, result.stdout, result.stderr) == (0, line + "\n", "")


def test_check_a_file(tmp_path: Path) -> None:
    path = tmp_path / "demo.yaml"
    path.write_text(GOOD, "utf-8")
    result = run("check", str(path))
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "ok: demo — Demo (1 stages)\n"
        "default: stages[0].piece_counting: Podium's default on piece counting: "
        "groups-of-at-least 3; this rulebook has no clause on it\n",
        "",
    )


def test_check_lists_no_default_once_the_rulebook_writes_the_setting(tmp_path: Path) -> None:
    path = tmp_path / "demo.yaml"
    counted = "    piece_counting: {method: joined-to-at-least, size: 2, clause: 'Rule 4'}\n"
    path.write_text(GOOD.replace("    ranking:\n", counted + "    ranking:\n", 1), "utf-8")
    result = run("check", str(path))
    assert (result.exit_code, result.stdout) == (0, "ok: demo — Demo (1 stages)\n")


def test_check_a_shown_preset_saved_as_a_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(run("show", "cba-qualifier").stdout, "utf-8")
    result = run("check", str(path))
    assert result.exit_code == 0
    assert result.stdout.startswith("ok: cba-qualifier — ")


def test_check_a_bad_file_lists_every_problem_on_stderr(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        GOOD.replace("    title: Solo\n", "    title: Solo\n    kap: 5\n").replace(
            "pieces: 500", "pieces: many"
        ),
        "utf-8",
    )
    result = run("check", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{path}:8: categories[0].kap: unknown setting (check its spelling and where it is placed)",
        f"{path}:16: stages[0].pieces: Input should be a valid integer, unable to parse string as "
        "an integer",
    ]


def test_check_reports_criteria_that_do_not_fit_the_format(tmp_path: Path) -> None:
    path = tmp_path / "misfit.yaml"
    path.write_text(GOOD.replace("[finished, time, pieces]", "[finished, total, fastest]"), "utf-8")
    result = run("check", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == (
        f"{path}:17: stages[0].ranking.criteria[1]: criterion 'total' does not apply to format "
        "'timed-solve' (it takes: finished, pieces, time)"
    )
    assert lines[1].startswith(
        f"{path}:17: stages[0].ranking.criteria[2]: unknown criterion 'fastest'"
    )
    assert len(lines) == 2


def test_check_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    result = run("check", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"{path}: no such file, and not a preset name "
        "(presets: cz-jigsaw, it-puzzle-party, cba-qualifier, deti-kolomny)\n"
    )


def test_check_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "cp1250.yaml"
    path.write_bytes("key: demo\ntitle: Mistrovství\n".encode("cp1250"))
    result = run("check", str(path))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"{path}: not UTF-8 text (byte 27)\n"


def test_check_broken_yaml(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("key: demo\ntitle: Demo: again\n", "utf-8")
    result = run("check", str(path))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"{path}:2: not valid YAML: mapping values are not allowed in this context\n"
    )


@pytest.mark.parametrize("name", loader.PRESETS)
def test_show_prints_the_preset_yaml_as_shipped(name: str) -> None:
    result = run("show", name)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == loader.preset_text(name)
    assert f"\nkey: {name}\n" in result.stdout


def test_show_an_unknown_preset() -> None:
    result = run("show", "world-championship")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "error: unknown preset 'world-championship'; the presets are: "
        "cz-jigsaw, it-puzzle-party, cba-qualifier, deti-kolomny\n"
    )


def test_schema_prints_the_json_schema() -> None:
    result = run("schema")
    assert (result.exit_code, result.stderr) == (0, "")
    schema = json.loads(result.stdout)
    assert schema["title"] == "Podium rulebook"
    assert "stages" in schema["properties"]


def test_check_a_directory(tmp_path: Path) -> None:
    result = run("check", str(tmp_path))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"{tmp_path}: cannot read: Is a directory\n"


def test_simulate_prints_what_the_rules_decided_with_their_clauses() -> None:
    result = run(
        "simulate", "deti-kolomny", "--stage", "chgk-season", "--seed", "1", "--runs", "10"
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "deti-kolomny, stage chgk-season: 10 runs of 16 entrants, seed 1"
    held = lines.index(
        "- A tie for places 2nd–3rd was held for a play-off: an extra match of 6 questions; if "
        "still tied, single extra questions until the tie is broken — in 1 of 10 runs, once in all"
    )
    assert lines[held + 1].startswith("  clause: п. 12: При равенстве очков у команд, делящих")


def test_simulate_is_the_same_for_a_seed_and_writes_json_with_a_preview() -> None:
    args = ("simulate", "cz-jigsaw", "--stage", "team", "--seed", "9", "--runs", "3")
    first, again = run(*args, "--format", "json"), run(*args, "--format", "json")
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout
    data = json.loads(first.stdout)
    assert (data["rulebook"], data["stage"], data["entrants"], data["runs"]) == (
        "cz-jigsaw",
        "team",
        50,
        3,
    )
    kinds = {f["kind"] for f in data["findings"]}
    assert "outside" in kinds
    outside = next(f for f in data["findings"] if f["kind"] == "outside")
    assert outside["clause"].startswith("O titul Czech Jigsaw Puzzle Champion mohou soutěžit")
    rows = data["preview"]["tables"][0]["rows"]
    assert len(rows) <= 50
    assert rows[0]["rank"] == 1


def test_simulate_refuses_an_unknown_stage_and_bad_counts() -> None:
    result = run("simulate", "cz-jigsaw", "--stage", "relay")
    assert result.exit_code == 2
    assert "error: --stage: unknown stage 'relay' in cz-jigsaw" in result.stderr
    result = run("simulate", "cz-jigsaw", "--stage", "team", "--entrants", "100000")
    assert result.exit_code == 2
    result = run("simulate", "cz-jigsaw", "--stage", "team", "--format", "xml")
    assert result.exit_code == 2
    assert "error: --format is text or json, not 'xml'" in result.stderr


def test_check_takes_the_question_rating_and_tours_of_any_length(tmp_path: Path) -> None:
    preset = Path(loader.__file__).parent / "presets" / "deti-kolomny.yaml"
    text = preset.read_text("utf-8")
    text = text.replace("    questions: 15\n", "    questions: 15\n    max_questions: 36\n", 1)
    text = text.replace(
        '          clause: "п. 11: … по количеству взятых командами вопросов."\n',
        '          clause: "п. 11: … по количеству взятых командами вопросов."\n'
        "        - key: question-rating\n",
        1,
    )
    good = tmp_path / "twelve.yaml"
    good.write_text(text, "utf-8")
    result = run("check", str(good))
    assert (result.exit_code, result.stderr) == (0, "")
    misfit = tmp_path / "misfit.yaml"
    misfit.write_text(
        GOOD.replace("[finished, time, pieces]", "[finished, question-rating]"), "utf-8"
    )
    result = run("check", str(misfit))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{misfit}:17: stages[0].ranking.criteria[1]: criterion 'question-rating' does not "
        "apply to format 'timed-solve' (it takes: finished, pieces, time)"
    ]
    shorter = tmp_path / "shorter.yaml"
    shorter.write_text(text.replace("max_questions: 36", "max_questions: 12"), "utf-8")
    result = run("check", str(shorter))
    assert result.exit_code == 2
    assert "max_questions 12 is less than questions 15" in result.stderr
