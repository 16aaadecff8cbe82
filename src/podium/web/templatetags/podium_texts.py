"""Template filters for the rulebook's own texts, in the reader's language (loaded everywhere).

Vocabulary:
- preset text: see ``podium.web.kernel.texts``; ``rt`` shows one in the active language.
- table title: see ``podium.web.kernel.texts.table_title``.
- reason: a page row's reason (its data) or the engine's; ``reason_text`` shows it in the
  active language.
- isolated name: ``bdi`` (see ``podium.web.templatetags.podium_rows``).
"""

from __future__ import annotations

from typing import Any

from django import template

from podium.engine.entries import Reason
from podium.rules.schema.stages import Stage
from podium.web.kernel import texts
from podium.web.templatetags import podium_rows

register = template.Library()
register.filter("bdi", podium_rows.bdi)


@register.filter
def rt(text: str | None) -> str:
    return texts.rt(text)


@register.filter
def table_title(table: Any, stage: Stage) -> str:
    return texts.table_title(table, stage)


@register.filter
def division_reason(entry: Any) -> str:
    return texts.division_reason(entry)


@register.filter
def score_text(row: dict[str, Any]) -> str:
    return texts.score_text(row)


@register.filter
def reason_text(reason: dict[str, Any] | Reason) -> str:
    return texts.shown(reason) if isinstance(reason, Reason) else texts.reason_text(reason)
