"""ChGK forms: a tour added to the calendar, and the tour sheet of every team's mask.

Vocabulary:
- tour form: the date and time of a tour in the event's time zone, an optional title, the
  host team (one of the stage's entry list) and, where the rulebook lets tours vary, its number
  of questions; the tour length form changes that number later.
- sheet form: one text field per team holding its mask (``mask-<entry id>``); the grid script
  turns them into a keyboard grid, and without it they stay plain text fields. A first-entry
  sheet also carries each team's seen result (``seen-<entry id>``) and a reason for changing a
  recorded mask; a check sheet carries neither.
- idempotency key: a fresh ``uuid4`` per rendered sheet, so a sheet sent twice is stored once.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from podium.web.kernel.keyed import KeyedForm
from podium.web.kernel.text import TextForm, limit
from podium.web.models import Entry, Result, Round


class TourForm(TextForm):
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    time = forms.TimeField(
        label=_("Time"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    title = forms.CharField(
        label=_("Title (optional)"), required=False, max_length=limit(Round, "title")
    )
    host = forms.ModelChoiceField(
        label=_("Host team (optional)"),
        queryset=Entry.objects.none(),
        required=False,
        empty_label=_("— no host yet —"),
    )

    def __init__(
        self,
        entries: QuerySet[Entry],
        *args: Any,
        max_questions: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["host"].queryset = entries
        if max_questions is not None:  # the rulebook lets each tour have its own length
            self.fields["questions"] = questions_field(max_questions)

    def starts_at(self, zone: zoneinfo.ZoneInfo) -> dt.datetime:
        """The tour's start: the date and time given, read in the event's time zone."""
        return dt.datetime.combine(
            self.cleaned_data["date"], self.cleaned_data["time"], tzinfo=zone
        )


def questions_field(max_questions: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=_("Questions"),
        min_value=1,
        max_value=max_questions,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class TourLengthForm(forms.Form):
    """A tour's number of questions, changed on the calendar."""

    def __init__(self, *args: Any, number: int, max_questions: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = questions_field(max_questions)
        field.widget.attrs["aria-label"] = _("Questions of tour %(number)d") % {"number": number}
        self.fields["questions"] = field


def mask_field(entry: Entry) -> str:
    return f"mask-{entry.pk}"


def seen_field(entry: Entry) -> str:
    return f"seen-{entry.pk}"


class SheetForm(KeyedForm):
    reason = forms.CharField(
        label=_("Reason for changing a recorded mask"), required=False, max_length=500
    )

    def __init__(
        self,
        entries: Iterable[Entry],
        *args: Any,
        current: Mapping[int, Result] | None = None,
        check: bool = False,
        **kwargs: Any,
    ) -> None:
        initial = kwargs.pop("initial", None) or {}
        current = {} if check else dict(current or {})
        self.entries = list(entries)
        for entry in self.entries:
            result = current.get(entry.pk)
            if result is not None:
                initial.setdefault(mask_field(entry), result.cells.get("mask", ""))
                initial.setdefault(seen_field(entry), result.pk)
        super().__init__(*args, initial=initial, **kwargs)
        self.is_check = check
        if check:
            del self.fields["reason"]
        for entry in self.entries:
            self.fields[mask_field(entry)] = forms.CharField(
                label=f"#{entry.number} {entry.name}",
                required=False,
                max_length=200,
                widget=forms.TextInput(
                    attrs={
                        "autocomplete": "off",
                        "spellcheck": "false",
                        "autocapitalize": "characters",
                        "class": "mask",
                    }
                ),
            )
            if not check:
                self.fields[seen_field(entry)] = forms.IntegerField(
                    widget=forms.HiddenInput, required=False
                )

    def masks(self) -> dict[Entry, str]:
        """The teams whose mask was filled in, with it (a blank field is not on the sheet)."""
        data = self.cleaned_data
        return {e: data[mask_field(e)] for e in self.entries if data.get(mask_field(e), "").strip()}

    def seen_ids(self) -> dict[Entry, int | None]:
        return {e: self.cleaned_data.get(seen_field(e)) for e in self.entries}
