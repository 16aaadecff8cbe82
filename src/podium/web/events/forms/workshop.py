"""The workshop's form: the rulebook being edited, and the dry run's stage, seed and field.

Vocabulary: see ``podium.web.events.selectors.workshop``. The text is bounded as the event's edit
form bounds it (the loader's own limit), so checking it as it is typed costs what saving does.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from podium.web.events.forms.events import RULEBOOK_TEXT_MAX
from podium.web.events.selectors.workshop import WEB_MAX_ENTRANTS
from podium.web.kernel.text import TextForm

SEED_MAX = 2**31 - 1


class WorkshopForm(TextForm):
    rulebook_text = forms.CharField(
        widget=forms.Textarea, max_length=RULEBOOK_TEXT_MAX, required=False
    )
    workshop_stage = forms.CharField(label=_("Stage"), max_length=60, required=False)
    workshop_seed = forms.IntegerField(
        label=_("Seed"), min_value=0, max_value=SEED_MAX, required=False
    )
    workshop_entrants = forms.IntegerField(
        label=_("Entrants (empty: the category's cap)"),
        min_value=2,
        max_value=WEB_MAX_ENTRANTS,
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["workshop_seed"] = data.get("workshop_seed") or 0
        return data
