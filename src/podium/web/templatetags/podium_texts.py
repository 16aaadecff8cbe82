"""Template filters for the rulebook's own texts, in the reader's language (loaded everywhere).

Vocabulary:
- preset text: see ``podium.web.selectors.texts``; ``rt`` shows one in the active language.
- table title: the title of one table of a stage: the stage itself, one of its groups, or a
  division (whose title is a preset text too).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from podium.rules.schema import Stage
from podium.web.selectors.texts import rt as _rt

register = template.Library()


@register.filter
def rt(text: str | None) -> str:
    return _rt(text)


@register.filter
def table_title(table: Any, stage: Stage) -> str:
    """A standings table's title in the reader's language (a live table or a frozen one)."""
    key = table["key"] if isinstance(table, dict) else table.key
    title = table["title"] if isinstance(table, dict) else table.title
    if key in stage.groups:
        return _("%(stage)s — group %(group)s") % {"stage": _rt(stage.title), "group": key}
    if key == "all":
        return _rt(stage.title)
    return _rt(title)
