"""Template filters for the rulebook's own texts, in the reader's language (loaded everywhere).

Vocabulary:
- preset text: see ``podium.web.kernel.texts``; ``rt`` shows one in the active language.
- table title: see ``podium.web.kernel.texts.table_title``.
- reason: a page row's reason (its data) or the engine's; ``reason_text`` shows it in the
  active language.
- isolated name: ``bdi`` (see ``podium.web.templatetags.podium_rows``).
- moment: ``moment`` shows a date and time in the event's zone with the zone's label.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template
from django.utils import timezone

from podium.engine.entries import Reason
from podium.rules.schema.stages import Stage
from podium.web.kernel import moments, texts
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


@register.filter
def status_text(status: str) -> str:
    """An absentee's status in words, in the active language."""
    return texts.status_text(status)


@register.filter
def moment(value: Any, fmt: str = "") -> str:
    """A moment in the active zone (the event's: ``base.html`` sets it) with the zone's label;
    a moment already moved by the ``timezone`` filter keeps its zone (see
    ``podium.web.kernel.moments``)."""
    if value in (None, ""):
        return ""
    if isinstance(value, dt.datetime) and getattr(value, "convert_to_local_time", True) is False:
        return moments.moment_text(value, value.tzinfo or timezone.get_current_timezone(), fmt)
    return moments.moment_text(value, timezone.get_current_timezone(), fmt)


@register.filter
def moment_iso(value: Any) -> str:
    """A moment in ISO 8601 with the active zone's offset (for ``<time datetime>`` and scripts)."""
    if not isinstance(value, dt.datetime):
        return ""
    return moments.moment_iso(value, timezone.get_current_timezone()) or ""
