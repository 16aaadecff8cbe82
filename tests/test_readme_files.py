"""Every file the README names exists: the paths it gives under the repository's folders, and
each bare file name it mentions is either in ``examples/``, written by a command it shows
(``--output X``, ``> X``), or the reader's own placeholder (``my-…``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FOLDERS = r"(?:examples|docs|bench|tests|src|\.ci)"


def test_every_path_the_readme_gives_exists() -> None:
    paths = set(re.findall(rf"(?<![\w/.:-])({FOLDERS}/[\w./@-]*\w)", README))
    assert "examples/deti-kolomny/tournament.xlsx" in paths
    assert [p for p in sorted(paths) if not (ROOT / p).exists()] == []


def test_every_file_name_the_readme_mentions_is_in_the_examples_or_made_by_a_command() -> None:
    names = set(re.findall(r"(?<![\w/.-])([\w-]+\.(?:xlsx|csv|yaml|json))\b", README))
    written = set(re.findall(r"(?:--output|>)\s+([\w.-]+)", README))
    shipped = {p.name for p in (ROOT / "examples").rglob("*") if p.is_file()}
    missing = [n for n in sorted(names - written) if n not in shipped and not n.startswith("my-")]
    assert missing == []
