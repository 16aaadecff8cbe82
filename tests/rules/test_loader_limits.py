"""The rulebook loader refuses hostile YAML quickly, in bounded memory, with one clear line.

Each case of issue 12 (nested aliases, a huge document, deep nesting) and its near variants;
every refusal names the rule and, where it has one, the line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from podium.rules import loader

VALID = loader.preset_text("it-puzzle-party")


def laughs(levels: int = 9, width: int = 9) -> str:
    """The "billion laughs": each anchor a list of ``width`` aliases of the one before."""
    names = [chr(ord("a") + i) for i in range(levels)]
    lines = ["z: &z [lol]"]
    previous = "z"
    for name in names:
        lines.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * width)}]")
        previous = name
    return "\n".join(lines) + "\n"


def refusal(text: str) -> str:
    with pytest.raises(loader.RulebookError) as caught:
        loader.parse(text, "hostile.yaml")
    assert len(caught.value.problems) == 1
    return str(caught.value.problems[0])


def test_nine_levels_of_nested_aliases_are_refused_at_once(bounded: Any) -> None:
    text = laughs() + VALID
    assert len(text.encode()) < 8 * 1024  # the 5.7 KB attack, before a valid preset
    outcome = bounded(lambda: loader.parse(text, "hostile.yaml"), seconds=0.5, megabytes=20)
    assert isinstance(outcome, loader.RulebookError)
    assert str(outcome) == (
        "hostile.yaml:6: more than 50,000 settings and values once its aliases are expanded; "
        "a rulebook needs far fewer (write repeated values out instead of nesting aliases)"
    )


@pytest.mark.parametrize(("levels", "width"), [(4, 100), (2, 300), (20, 2)])
def test_other_alias_bombs_are_refused_too(levels: int, width: int, bounded: Any) -> None:
    text = laughs(levels, width) + VALID
    outcome = bounded(lambda: loader.parse(text, "hostile.yaml"), seconds=0.5)
    assert isinstance(outcome, loader.RulebookError)
    assert "once its aliases are expanded" in str(outcome)


def test_a_few_aliases_are_still_fine() -> None:
    text = VALID + "\n# a comment\n"
    with_alias = text.replace("title:", "x-note: &n note\ntitle:", 1)
    assert "&n" in with_alias
    # Unknown settings are refused by the schema, not by the limits: aliases themselves pass.
    with pytest.raises(loader.RulebookError) as caught:
        loader.parse(with_alias)
    assert "unknown setting" in str(caught.value)
    assert "aliases" not in str(caught.value)
    assert loader.parse(text).key == "it-puzzle-party"


def test_an_alias_that_contains_itself_is_refused() -> None:
    assert refusal("a: &a [1, *a]\n" + VALID) == (
        "hostile.yaml:1: an alias refers to the value that contains it (a cycle)"
    )


@pytest.mark.parametrize(
    "text",
    [
        "x: " + "[" * 50_000 + "]" * 50_000 + "\n",  # the 50,000 levels (flow)
        "x: " + "{a: " * 50_000,  # flow mappings, never closed
        "- " * 50_000 + "x\n",  # block sequences on one line
        "".join(" " * i + f"k{i}:\n" for i in range(60)) + " " * 60 + "v\n",  # indented keys
    ],
    ids=["flow-lists", "flow-maps", "block-lists", "block-maps"],
)
def test_deep_nesting_is_refused_before_recursion(text: str, bounded: Any) -> None:
    outcome = bounded(lambda: loader.parse(text + VALID, "hostile.yaml"))
    assert isinstance(outcome, loader.RulebookError)  # never RecursionError
    assert len(outcome.problems) == 1
    assert str(outcome.problems[0]).endswith(
        "nested deeper than 50 levels; a rulebook needs far fewer"
    )
    assert outcome.problems[0].line is not None


def test_nesting_as_deep_as_allowed_is_read() -> None:
    # 50 levels reach the schema (which refuses the unknown setting), not the depth limit.
    text = VALID + "x-deep: " + "[" * 48 + "]" * 48 + "\n"
    with pytest.raises(loader.RulebookError) as caught:
        loader.parse(text)
    assert "unknown setting" in str(caught.value)
    assert "nested deeper" not in str(caught.value)


def test_a_document_over_256_kb_is_refused_unparsed(bounded: Any) -> None:
    text = "# " + "x" * (50 * 1024 * 1024) + "\n" + VALID  # the 50 MB YAML
    outcome = bounded(lambda: loader.parse(text, "big.yaml"), seconds=0.5, megabytes=5)
    assert str(outcome) == (
        "big.yaml: the rulebook is 51,205 KB; Podium reads rulebooks of up to 256 KB"
    )
    just_over = "# " + "x" * (256 * 1024) + "\n"
    assert "Podium reads rulebooks of up to 256 KB" in refusal(just_over)


def test_a_large_file_is_refused_without_reading_it_whole(tmp_path: Path, bounded: Any) -> None:
    path = tmp_path / "big.yaml"
    with path.open("wb") as file:
        file.write(b"# ")
        file.seek(50 * 1024 * 1024)
        file.write(b"\n")
    outcome = bounded(lambda: loader.load(path), seconds=0.5, megabytes=5)
    assert str(outcome) == (
        f"{path}: the rulebook is 51,200 KB; Podium reads rulebooks of up to 256 KB"
    )


def test_thousands_of_unknown_settings_list_fifty(bounded: Any) -> None:
    text = VALID + "".join(f"x{i}: 1\n" for i in range(5000))
    outcome = bounded(lambda: loader.parse(text, "many.yaml"))
    assert len(outcome.problems) == loader.MAX_PROBLEMS + 1
    assert str(outcome.problems[-1]) == "many.yaml: and 4950 more problems not listed"


def test_a_document_at_the_size_cap_is_done_with_quickly(bounded: Any) -> None:
    # LibYAML scans it; Python's scanner took 1.7 s for these 244 KB.
    text = VALID + "".join(f"x{i}: 1\n" for i in range(25_000))
    assert 230 * 1024 < len(text) < loader.MAX_BYTES
    outcome = bounded(lambda: loader.parse(text, "keys.yaml"))
    assert str(outcome).startswith("keys.yaml:25036: more than 50,000 settings and values")
