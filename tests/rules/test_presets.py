"""The four shipped presets: valid, and citing a clause for every setting. What each one says
of its seed rulebook is tested in ``test_preset_<name>.py``, with the helpers here."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import yaml
from pydantic import BaseModel

from podium.engine.validate import check_rulebook
from podium.rules import loader
from podium.rules.schema import Rulebook
from podium.rules.schema.common import Rule
from podium.rules.schema.stages import TimedSolveStage

SEEDS = {
    "cz-jigsaw": ("000_4bcc9d180ce15ff5.txt", "cs"),
    "it-puzzle-party": ("001_dfc5fdda43f24c3c.txt", "it"),
    "cba-qualifier": ("002_360f9fd7a5f09551.txt", "cs"),
    "deti-kolomny": ("004_6d73bc1530028260.txt", "ru"),
}


def book(name: str) -> Rulebook:
    return loader.load(name)


def timed(name: str, key: str) -> TimedSolveStage:
    stage = book(name).stage(key)
    assert isinstance(stage, TimedSolveStage)
    return stage


def rules(node: object, path: str, covered: bool) -> Iterator[tuple[str, Rule, bool]]:
    """Every Rule written in the YAML, with whether it or a setting above it cites a clause."""
    if isinstance(node, Rule):
        if not node.model_fields_set:
            return  # a default the preset never wrote
        covered = covered or bool(node.clause or node.interpretation)
        yield path, node, covered
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            yield from rules(getattr(node, name), f"{path}.{name}", covered)
    elif isinstance(node, tuple | list):
        for i, item in enumerate(node):
            yield from rules(item, f"{path}[{i}]", covered)
    elif isinstance(node, dict):
        for key, item in node.items():
            yield from rules(item, f"{path}.{key}", covered)


def texts(node: object, suffix: str) -> Iterator[str]:
    """Every string setting whose name ends with ``suffix`` (clause, interpretation…)."""
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            value = getattr(node, name)
            if name.endswith(suffix) and isinstance(value, str):
                yield value
            else:
                yield from texts(value, suffix)
    elif isinstance(node, tuple | list):
        for item in node:
            yield from texts(item, suffix)
    elif isinstance(node, dict):
        for item in node.values():
            yield from texts(item, suffix)


# --- All presets ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", loader.PRESETS)
def test_preset_loads_and_passes_the_engine_checks(name: str) -> None:
    rulebook = book(name)
    assert rulebook.key == name
    assert check_rulebook(rulebook) == []


@pytest.mark.parametrize("name", loader.PRESETS)
def test_source_names_the_seed_and_language_is_the_originals(name: str) -> None:
    seed, language = SEEDS[name]
    rulebook = book(name)
    assert rulebook.source.startswith(f"seeds/{seed} — ")
    assert rulebook.language == language


@pytest.mark.parametrize("name", loader.PRESETS)
def test_shipped_text_is_what_load_reads(name: str) -> None:
    text = loader.preset_text(name)
    assert loader.parse(text, "copy.yaml") == book(name)
    assert yaml.safe_load(text)["key"] == name


def uncovered(rulebook: Rulebook) -> list[str]:
    """Settings written without a clause or an interpretation, on them or on a setting above."""
    return [
        path
        for field in type(rulebook).model_fields
        for path, _, covered in rules(getattr(rulebook, field), field, False)
        if not covered
    ]


@pytest.mark.parametrize("name", loader.PRESETS)
def test_every_setting_cites_a_clause_or_says_it_is_our_interpretation(name: str) -> None:
    assert uncovered(book(name)) == []


def test_a_setting_without_clause_is_found() -> None:
    text = loader.preset_text("it-puzzle-party").replace(
        '  clause: "Art. 6: I posti possono essere riassegnati dopo 10 minuti dall’inizio."\n', ""
    )
    assert uncovered(loader.parse(text, "it.yaml")) == ["no_show"]


@pytest.mark.parametrize("name", loader.PRESETS)
def test_clauses_and_interpretations_are_never_blank(name: str) -> None:
    rulebook = book(name)
    clauses = list(texts(rulebook, "clause"))
    assert len(clauses) > 15
    assert all(c.strip() for c in clauses)
    assert all(i.strip() for i in texts(rulebook, "interpretation"))
    assert all(note.clause or note.interpretation for note in rulebook.notes)


@pytest.mark.parametrize(
    ("name", "prefix"),
    [("it-puzzle-party", "Art. "), ("cba-qualifier", "§ "), ("deti-kolomny", "п. ")],
)
def test_clauses_of_numbered_originals_start_with_their_paragraph(name: str, prefix: str) -> None:
    clauses = list(texts(book(name), "clause"))
    assert [c for c in clauses if not c.startswith(prefix)] == []
