"""The organizer's form for a new API token: its name and the user it acts as.

Vocabulary:
- API token, holder: see ``podium.web.models.tokens`` and ``podium.web.events.selectors.tokens``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from podium.web.events.services.tokens import MAX_NAME
from podium.web.kernel.text import TextForm


class HolderField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return str(obj.get_username())


class TokenForm(TextForm):
    name = forms.CharField(
        label=_("Name"),
        max_length=MAX_NAME,
        help_text=_("Who holds it, e.g. “lane 3 scoring machine” or “referee Rudolf”."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    user = HolderField(
        label=_("Acts as"),
        queryset=None,
        empty_label=None,
        help_text=_("A referee or head referee of this event, or you."),
    )

    def __init__(self, holders: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["user"].queryset = holders  # type: ignore[attr-defined]
