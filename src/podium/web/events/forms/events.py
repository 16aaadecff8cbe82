"""Forms of the organizer's pages and the check-in desk: the shape of what is typed in.

Vocabulary:
- local start: a date and time typed in the event's time zone, stored as an aware datetime.
- rulebook file: an uploaded YAML rulebook, the alternative to a preset.
- edit form: the event's own fields and the rulebook's settings an organizer may change after
  creation (one cap per category, one price per fee: ``cap_<key>``, ``fee_<key>``); the whole
  rulebook's text only while the event is a draft.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from podium.rules.loader import MAX_BYTES as RULEBOOK_MAX_BYTES
from podium.rules.loader import PRESETS, preset_text
from podium.web.kernel.text import TextForm, limit
from podium.web.kernel.texts import rt
from podium.web.models import Event, EventRole, Squad
from podium.web.models.events import parsed_rulebook

LOCAL = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def aware(moment: dt.datetime, zone: str) -> dt.datetime:
    return moment.replace(tzinfo=None).replace(tzinfo=zoneinfo.ZoneInfo(zone))


class EventForm(TextForm):
    title = forms.CharField(label=_("Title"), max_length=limit(Event, "title"))
    slug = forms.SlugField(label=_("Address (slug)"), max_length=50)
    preset = forms.ChoiceField(
        label=_("Preset rulebook"),
        choices=[("", _("— upload my own —")), *[(p, p) for p in PRESETS]],
        required=False,
    )
    rulebook_file = forms.FileField(label=_("…or a rulebook YAML file"), required=False)
    starts_at = forms.DateTimeField(
        label=_("Start (local time)"), widget=LOCAL, input_formats=["%Y-%m-%dT%H:%M"]
    )
    timezone = forms.CharField(
        label=_("Time zone"), initial="Europe/Prague", max_length=limit(Event, "timezone")
    )
    venue = forms.CharField(label=_("Venue"), max_length=limit(Event, "venue"), required=False)
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Each preset by its title in the reader's language, its key beside it for the README.
        titled = [
            (name, f"{rt(parsed_rulebook(preset_text(name), f'preset:{name}').title)} ({name})")
            for name in PRESETS
        ]
        self.fields["preset"].choices = [("", _("— upload my own —")), *titled]

    def clean_timezone(self) -> str:
        zone: str = self.cleaned_data["timezone"].strip()
        try:
            zoneinfo.ZoneInfo(zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise forms.ValidationError(_("Unknown time zone.")) from None
        return zone

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("rulebook_file")
        if not data.get("preset") and not upload:
            self.add_error("preset", _("Choose a preset or upload a rulebook."))
        if upload and upload.size > RULEBOOK_MAX_BYTES:
            # Refused by its declared size, before it is read or parsed.
            self.add_error(
                "rulebook_file",
                _("The file is %(size)d KB; Podium reads rulebooks of up to %(max)d KB.")
                % {"size": -(-upload.size // 1024), "max": RULEBOOK_MAX_BYTES // 1024},
            )
        elif upload:
            try:
                data["rulebook_text"] = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                self.add_error("rulebook_file", _("The file is not UTF-8 text."))
        if data.get("starts_at") and "timezone" in data:
            data["starts_at"] = aware(data["starts_at"], data["timezone"])
        return data


RULEBOOK_TEXT_MAX = 256 * 1024  # the loader's bound on a rulebook document
DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class EventEditForm(TextForm):
    title = forms.CharField(label=_("Title"), max_length=limit(Event, "title"))
    starts_at = forms.DateTimeField(
        label=_("Start (local time)"), widget=LOCAL, input_formats=["%Y-%m-%dT%H:%M"]
    )
    timezone = forms.CharField(label=_("Time zone"), max_length=limit(Event, "timezone"))
    venue = forms.CharField(label=_("Venue"), max_length=limit(Event, "venue"), required=False)
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    registration_opens = forms.DateField(label=_("Registration opens"), widget=DATE, required=False)
    registration_closes = forms.DateField(
        label=_("Registration closes"), widget=DATE, required=False
    )
    registration_cap = forms.IntegerField(
        label=_("Cap of every category without its own (empty: none)"), required=False
    )
    rulebook_text = forms.CharField(
        label=_("Rulebook (YAML), while the event is a draft"),
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false"}),
        max_length=RULEBOOK_TEXT_MAX,
        required=False,
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        book = event.rulebook
        initial = {
            "title": event.title,
            "starts_at": event.local_start.replace(tzinfo=None),
            "timezone": event.timezone,
            "venue": event.venue,
            "language": event.language,
            "registration_opens": book.registration.opens,
            "registration_closes": book.registration.closes,
            "registration_cap": book.registration.cap,
            "rulebook_text": event.rulebook_text,
        }
        super().__init__(*args, initial=initial, **kwargs)
        text = self.fields.pop("rulebook_text")  # shown last, after the settings
        self.categories = [c.key for c in book.categories]
        self.fees = [f.key for f in book.fees]
        for category in book.categories:
            self.fields[f"cap_{category.key}"] = forms.IntegerField(
                label=pgettext_lazy("a category's", "Cap: %(category)s")
                % {"category": rt(category.title)},
                required=False,
                initial=category.cap,
            )
        for fee in book.fees:
            self.fields[f"fee_{fee.key}"] = forms.DecimalField(
                label=f"{rt(fee.title)} ({fee.price.currency})",
                max_digits=10,
                decimal_places=2,
                initial=fee.price.amount,
            )
        if event.status == Event.Status.DRAFT:
            self.fields["rulebook_text"] = text

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("starts_at") and data.get("timezone"):
            data["starts_at"] = aware(data["starts_at"], data["timezone"])
        return data

    def caps(self) -> dict[str, int | None]:
        return {key: self.cleaned_data.get(f"cap_{key}") for key in self.categories}

    def prices(self) -> dict[str, Any]:
        return {key: self.cleaned_data[f"fee_{key}"] for key in self.fees}


class RoleForm(TextForm):
    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=EventRole.Role.choices)


class SquadForm(TextForm):
    name = forms.CharField(label=_("Squad"), max_length=limit(Squad, "name"))
    starts_at = forms.DateTimeField(
        label=_("Start (local time)"), widget=LOCAL, input_formats=["%Y-%m-%dT%H:%M"]
    )
    capacity = forms.IntegerField(label=_("Capacity"), min_value=1)


class StatusForm(TextForm):
    status = forms.ChoiceField(label=_("Status"), choices=Event.Status.choices)
