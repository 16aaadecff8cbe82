"""Template filters of the standings and prizes pages.

Vocabulary:
- prize stage: a stage whose rulebook section awards prizes (``prizes:``).
"""

from __future__ import annotations

from django import template

from podium.rules.schema import Rulebook

register = template.Library()


@register.filter
def has_prizes(rulebook: Rulebook) -> bool:
    """Whether any stage of the rulebook awards prizes (the prizes page has something)."""
    return any(stage.prizes for stage in rulebook.stages)
