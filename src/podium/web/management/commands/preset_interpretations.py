"""``podium manage preset_interpretations``: writes the module that marks every interpretation
of the shipped presets for translation (``make catalogues`` runs it before collecting messages).

Vocabulary:
- interpretation: what we decided where a preset's rulebook is silent or ambiguous (the
  ``interpretation:`` of a setting); the rules page shows it in the reader's language.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from django.core.management.base import BaseCommand

from podium.rules.loader import PRESETS, preset_text

MODULE = Path(__file__).resolve().parents[2] / "selectors" / "interpretations.py"

HEADER = '''"""The presets' interpretations, marked for translation (see ``texts.rt``).

Written by ``podium manage preset_interpretations`` from the presets (``make catalogues`` runs
it); ``tests/web/test_i18n.py`` checks that it is current. Do not edit by hand.
"""

from django.utils.translation import gettext_noop

INTERPRETATIONS = (
'''


def _found(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "interpretation" and isinstance(value, str):
                yield " ".join(value.split())
            else:
                yield from _found(value)
    elif isinstance(node, list):
        for item in node:
            yield from _found(item)


def interpretations() -> list[str]:
    """Every preset's interpretations, in the order of the presets' files, each once."""
    texts = (t for name in PRESETS for t in _found(yaml.safe_load(preset_text(name))))
    return list(dict.fromkeys(texts))


def module_text() -> str:
    lines = [
        f"    gettext_noop({json.dumps(text, ensure_ascii=False)})," for text in interpretations()
    ]
    return HEADER + "\n".join(lines) + "\n)\n"


class Command(BaseCommand):
    help = "Writes podium/web/selectors/interpretations.py from the shipped presets."

    def handle(self, *args: Any, **options: Any) -> None:
        MODULE.write_text(module_text(), encoding="utf-8")
        self.stdout.write(f"{len(interpretations())} interpretations written to {MODULE}")
