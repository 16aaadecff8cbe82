"""Reading rulebooks: every problem named by file, line and setting path, all at once."""

from __future__ import annotations

import datetime as dt
import json
import textwrap
from pathlib import Path

import pytest

from podium.rules import loader
from podium.rules.schema.registration import MinAge

# Line numbers below count from 1 on this text.
DEMO = textwrap.dedent(
    """\
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
)


def problems(text: str) -> list[str]:
    with pytest.raises(loader.RulebookError) as caught:
        loader.parse(text, "demo.yaml")
    assert str(caught.value) == "\n".join(str(p) for p in caught.value.problems)
    return [str(p) for p in caught.value.problems]


def edit(old: str, new: str) -> str:
    assert DEMO.count(old) == 1
    return DEMO.replace(old, new)


def test_the_demo_is_valid() -> None:
    rulebook = loader.parse(DEMO, "demo.yaml")
    assert (rulebook.key, rulebook.stage("final").format) == ("demo", "timed-solve")


def test_broken_yaml_names_the_line() -> None:
    assert problems("key: demo\ntitle: Demo: again\n") == [
        "demo.yaml:2: not valid YAML: mapping values are not allowed in this context"
    ]


def test_unclosed_list_names_the_line_where_yaml_gave_up() -> None:
    assert problems("key: demo\ntitle: [Demo\nlanguage: en\n") == [
        "demo.yaml:3: not valid YAML: did not find expected ',' or ']'"
    ]


@pytest.mark.parametrize("text", ["- key: demo\n- title: Demo\n", "", "# only a comment\n", "7\n"])
def test_a_rulebook_is_a_mapping(text: str) -> None:
    assert problems(text) == [
        "demo.yaml:1: a rulebook is a mapping of settings (key: value), not empty or a list"
    ]


def test_unknown_setting() -> None:
    text = edit("    title: Solo\n", "    title: Solo\n    kap: 5\n")
    assert problems(text) == [
        "demo.yaml:8: categories[0].kap: unknown setting "
        "(check its spelling and where it is placed)"
    ]


def test_missing_required_setting_points_at_its_parent() -> None:
    text = edit("    time_limit_min: 60\n", "")
    assert problems(text) == ["demo.yaml:11: stages[0].time_limit_min: required setting is missing"]


def test_missing_top_level_settings_are_all_listed() -> None:
    text = edit("title: Demo\nlanguage: en\n", "")
    assert problems(text) == [
        "demo.yaml:1: title: required setting is missing",
        "demo.yaml:1: language: required setting is missing",
    ]


def test_wrong_value_type() -> None:
    text = edit("    pieces: 500\n", "    pieces: many\n")
    assert problems(text) == [
        "demo.yaml:15: stages[0].pieces: Input should be a valid integer, "
        "unable to parse string as an integer"
    ]


def test_wrong_literal_value() -> None:
    text = edit("      kind: individual\n", "      kind: trio\n")
    assert problems(text) == [
        "demo.yaml:9: categories[0].entrants.kind: expected 'individual', 'pair' or 'team'"
    ]


def test_wrong_format_tag() -> None:
    text = edit("format: timed-solve", "format: relay")
    assert problems(text) == [
        "demo.yaml:13: stages[0].format: unknown format 'relay'; expected one of: 'timed-solve', "
        "'team-solve', 'games', 'chgk-tour', 'chgk-season', 'head-to-head', 'superfinal'"
    ]


def test_missing_format_tag() -> None:
    text = edit("    format: timed-solve\n", "")
    assert problems(text) == ["demo.yaml:11: stages[0].format: required setting is missing"]


def test_errors_inside_a_stage_skip_the_format_in_the_path() -> None:
    text = edit("    time_limit_min: 60\n", "    time_limit_min: 0\n")
    assert problems(text) == [
        "demo.yaml:14: stages[0].time_limit_min: Input should be greater than or equal to 1"
    ]


def test_validator_error_names_the_setting_line() -> None:
    text = DEMO + textwrap.dedent(
        """\
        cancellation:
          tiers:
            - days_before: 0
            - days_before: 15
              refund: 1
        """
    )
    assert problems(text) == [
        "demo.yaml:19: cancellation.tiers: tiers must be listed from the most days before to the "
        "fewest"
    ]


def test_validator_error_on_a_whole_section() -> None:
    text = DEMO + "registration:\n  opens: 2026-05-01\n  closes: 2026-04-01\n"
    assert problems(text) == ["demo.yaml:18: registration: registration closes before it opens"]


def test_rulebook_wide_check() -> None:
    text = edit("    title: Final\n", "    title: Final\n    category: duo\n")
    assert problems(text) == ["demo.yaml:1: stage 'final': unknown category 'duo'"]


def test_empty_list_is_too_short() -> None:
    text = edit("criteria: [finished, time, pieces]", "criteria: []")
    assert problems(text) == [
        "demo.yaml:17: stages[0].ranking.criteria: Tuple should have at least 1 item after "
        "validation, not 0"
    ]


def test_all_problems_are_reported_at_once() -> None:
    text = edit("    title: Solo\n", "    title: Solo\n    kap: 5\n").replace(
        "pieces: 500", "pieces: -1"
    )
    assert problems(text) == [
        "demo.yaml:8: categories[0].kap: unknown setting (check its spelling and where it is "
        "placed)",
        "demo.yaml:16: stages[0].pieces: Input should be greater than or equal to 1",
    ]


def test_a_bad_item_is_not_also_reported_as_a_too_short_list() -> None:
    text = edit("    title: Solo\n", "    title: 7\n").replace("key: solo", "key: Solo!")
    assert problems(text) == [
        "demo.yaml:6: categories[0].key: String should match pattern '^[a-z0-9][a-z0-9-]*$'",
        "demo.yaml:7: categories[0].title: Input should be a valid string",
    ]


# --- Bugs this file found in the loader (fixed there) ---------------------------------------


def test_eligibility_errors_keep_the_field_in_the_path() -> None:
    # The eligibility union is tagged by kind:, not by format:; the tag is not a setting.
    text = DEMO + "registration:\n  eligibility:\n    - kind: min-age\n      age: old\n"
    assert problems(text) == [
        "demo.yaml:21: registration.eligibility[0].age: Input should be a valid integer, "
        "unable to parse string as an integer"
    ]


def test_unknown_eligibility_kind() -> None:
    text = DEMO + "registration:\n  eligibility:\n    - kind: max-age\n      age: 99\n"
    assert problems(text) == [
        "demo.yaml:20: registration.eligibility[0].kind: unknown kind 'max-age'; expected one of: "
        "'min-age', 'born-on-or-before', 'accompanied-under'"
    ]


def test_on_is_a_setting_name_not_a_yaml_boolean() -> None:
    text = DEMO + "registration:\n  eligibility:\n    - kind: min-age\n      age: 16\n"
    text += "      on: 2026-05-24\n"
    (rule,) = loader.parse(text, "demo.yaml").registration.eligibility
    assert isinstance(rule, MinAge)
    assert rule.on == dt.date(2026, 5, 24)


def test_yes_is_still_read_as_true_for_a_true_false_setting() -> None:
    text = DEMO + "registration:\n  approval_required: yes\n"
    assert loader.parse(text, "demo.yaml").registration.approval_required is True


def test_a_repeated_setting_is_refused_not_silently_overwritten() -> None:
    text = edit("    pieces: 500\n", "    pieces: 500\n    pieces: 1000\n")
    assert problems(text) == [
        "demo.yaml:16: stages[0].pieces: setting repeated (first at line 15); write it once"
    ]


def test_a_setting_name_must_be_text() -> None:
    assert problems(DEMO + "2026: final\n") == [
        "demo.yaml:18: 2026: a setting's name must be text, not a number or a date"
    ]


# --- Files and presets ----------------------------------------------------------------------


def test_load_a_file_names_it_in_problems(tmp_path: Path) -> None:
    path = tmp_path / "demo.yaml"
    path.write_text(edit("    pieces: 500\n", "    pieces: many\n"), "utf-8")
    with pytest.raises(loader.RulebookError) as caught:
        loader.load(path)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.path) == (str(path), 15, "stages[0].pieces")


def test_load_a_good_file(tmp_path: Path) -> None:
    path = tmp_path / "demo.yaml"
    path.write_text(DEMO, "utf-8")
    assert loader.load(str(path)).key == "demo"


def test_load_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    with pytest.raises(loader.RulebookError) as caught:
        loader.load(str(path))
    assert str(caught.value) == (
        f"{path}: no such file, and not a preset name "
        "(presets: cz-jigsaw, it-puzzle-party, cba-qualifier, deti-kolomny)"
    )


def test_load_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("key: demo\ntitle: Café\n".encode("latin-1"))
    with pytest.raises(loader.RulebookError) as caught:
        loader.load(path)
    assert str(caught.value) == f"{path}: not UTF-8 text (byte 20)"


def test_load_a_directory(tmp_path: Path) -> None:
    with pytest.raises(loader.RulebookError) as caught:
        loader.load(tmp_path)
    assert str(caught.value) == f"{tmp_path}: cannot read: Is a directory"


def test_preset_text_of_unknown_name() -> None:
    with pytest.raises(KeyError):
        loader.preset_text("world-championship")


def test_presets_are_named_by_their_key() -> None:
    assert [loader.load(name).key for name in loader.PRESETS] == list(loader.PRESETS)


def test_json_schema_is_json_for_editors() -> None:
    schema = json.loads(loader.json_schema())
    assert schema["title"] == "Podium rulebook"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {"key", "title", "language", "source", "categories", "stages"} <= set(schema["required"])
    assert schema["additionalProperties"] is False
