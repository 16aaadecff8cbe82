"""The organizer's guide to rulebooks (docs/rulebooks.md) cannot rot.

Vocabulary:
- YAML block: a fenced block marked ``yaml`` in the guide; each is a complete rulebook.
- key: a field of any block of the rulebook schema (``unfinished``, ``time_limit_min``…); the
  guide explains each one, written as inline code.
"""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

from podium.engine.validate import check_rulebook
from podium.rules.loader import load, parse
from podium.rules.schema import Rulebook

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "rulebooks.md"
BLOCK = re.compile(r"^```yaml\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks() -> list[str]:
    return BLOCK.findall(GUIDE.read_text(encoding="utf-8"))


def test_the_guide_has_its_worked_examples() -> None:
    # The WJPC pairs, the WJPC pairs and teams, and a stage grown with quotas and prizes.
    assert len(blocks()) == 3


@pytest.mark.parametrize("text", blocks(), ids=lambda t: t.split("\n", 1)[0])
def test_every_yaml_block_is_a_rulebook_that_checks_clean(text: str) -> None:
    rulebook = parse(text, "docs/rulebooks.md")
    assert check_rulebook(rulebook) == []


def test_the_worked_team_rulebook_is_the_example_file() -> None:
    # The example file's results are ranked in tests/engine/formats/test_team_solve.py: the
    # guide's block must say the same rules.
    guide = parse(blocks()[1])
    example = load(ROOT / "examples" / "rulebooks" / "wjpc-2024.yaml")
    assert (guide.categories, guide.stages) == (example.categories, example.stages)


def schema_keys() -> set[str]:
    keys: set[str] = set()
    seen: set[type[BaseModel]] = set()

    def models(annotation: object) -> list[type[BaseModel]]:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return [annotation]
        return [m for arg in typing.get_args(annotation) for m in models(arg)]

    def walk(model: type[BaseModel]) -> None:
        if model in seen:
            return
        seen.add(model)
        for name, field in model.model_fields.items():
            keys.add(name)
            for sub in models(field.annotation):
                walk(sub)

    walk(Rulebook)
    return keys


def test_every_key_of_the_schema_is_explained() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    missing = sorted(k for k in schema_keys() if f"`{k}" not in text)
    assert missing == [], "explain these keys in docs/rulebooks.md, each with an example"


def test_the_readme_links_the_guide() -> None:
    assert "(docs/rulebooks.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
