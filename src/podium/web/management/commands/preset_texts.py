"""``podium manage preset_texts``: writes the module that marks every phrase of the shipped
presets for translation (``make catalogues`` runs it before collecting messages).

Vocabulary:
- preset phrase: a text of a shipped rulebook written for people — a title, a quota's label,
  what a duty or sanction says (``when``, ``scope``, ``who``, ``what``…), a play-off method,
  and every interpretation (what we decided where the rulebook is silent or ambiguous). The
  public pages show it in the reader's language (``podium.web.kernel.texts.rt``); a custom
  rulebook's phrases show as written. Codes (``kind``, ``format``, ``method: groups-of-…``)
  and the quoted clauses are not phrases.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from django.core.management.base import BaseCommand

from podium.rules.loader import PRESETS, preset_text

MODULE = Path(__file__).resolve().parents[2] / "kernel" / "preset_texts.py"

# The keys whose text is a phrase for people; ``method`` is one only when it is words.
PHRASES = frozenset(
    {
        "title", "label", "interpretation", "when", "scope", "due", "filed_with", "until",
        "who", "what", "further_appeal_to", "middle_tour", "method",
    }
)  # fmt: skip

HEADER = '''"""The presets' phrases, marked for translation (see ``texts.rt``).

Written by ``podium manage preset_texts`` from the presets (``make catalogues`` runs it);
``tests/web/test_i18n.py`` checks that it is current. Do not edit by hand.
"""

from django.utils.translation import gettext_noop

PRESET_TEXTS = (
'''


def _found(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in PHRASES and isinstance(value, str):
                if key != "method" or " " in value.strip():
                    yield " ".join(value.split())
            else:
                yield from _found(value)
    elif isinstance(node, list):
        for item in node:
            yield from _found(item)


def phrases() -> list[str]:
    """Every preset's phrases, in the order of the presets' files, each once."""
    texts = (t for name in PRESETS for t in _found(yaml.safe_load(preset_text(name))))
    return list(dict.fromkeys(texts))


def module_text() -> str:
    lines = [f"    gettext_noop({json.dumps(text, ensure_ascii=False)})," for text in phrases()]
    return HEADER + "\n".join(lines) + "\n)\n"


class Command(BaseCommand):
    help = "Writes podium/web/kernel/preset_texts.py from the shipped presets."

    def handle(self, *args: Any, **options: Any) -> None:
        MODULE.write_text(module_text(), encoding="utf-8")
        self.stdout.write(f"{len(phrases())} preset phrases written to {MODULE}")
