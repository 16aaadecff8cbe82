"""Template filters for the rulebook's own texts, in the reader's language (loaded everywhere).

Vocabulary:
- preset text: see ``podium.web.selectors.texts``; ``rt`` shows one in the active language.
- table title: see ``podium.web.selectors.texts.table_title``.
"""

from __future__ import annotations

from typing import Any

from django import template

from podium.rules.schema import Stage
from podium.web.selectors import texts

register = template.Library()


@register.filter
def rt(text: str | None) -> str:
    return texts.rt(text)


@register.filter
def table_title(table: Any, stage: Stage) -> str:
    return texts.table_title(table, stage)
