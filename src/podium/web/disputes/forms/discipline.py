"""The discipline page's forms: an ineligible player, a team's withdrawal, lifting a sanction.

Vocabulary:
- ineligible player (ChGK п. 8): a player who took part for a team without being on its roster,
  or after playing for another team this championship. The player is either a person on a
  roster of the event (``player``) or a name typed in (first and last name and the birth date,
  by which a later roster recognises them); where: a ChGK tour (``round``) or Brainball battles
  of the team (``items``, its recorded battles).
- what happened: the organizer's account (``details``); the stored reason starts with the
  kind of breach and the player, so the footnote and the ban say it all.
- received: the date and time a withdrawal statement reached the organizers, typed in the
  event's time zone.

The forms check shape only; the rules (a reason given, a battle the team played, a second
withdrawal) are the services', and their refusals are shown on the field they name.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Iterable, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from podium.web.kernel.text import TextForm, limit
from podium.web.models import Entry, Person

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
TIME = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")

NOT_ON_ROSTER = "not-on-roster"
OTHER_TEAM = "other-team"
CHGK = "chgk"
BRAINBALL = "brainball"


class TeamPickForm(TextForm):
    """The first step of an ineligible player: which team it concerns (a plain GET form)."""

    team = forms.TypedChoiceField(label=_("Team"), coerce=int)

    def __init__(self, entries: Iterable[Entry], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *((str(e.number), f"#{e.number} {e.name}") for e in entries)]
        self.fields["team"].choices = choices  # type: ignore[attr-defined]


class IneligibleForm(TextForm):
    """An ineligible player of one team, and the tour or battles it played with them."""

    what = forms.ChoiceField(
        label=_("What happened"),
        widget=forms.RadioSelect,
        choices=[
            (NOT_ON_ROSTER, _("The player was not on the team's roster")),
            (OTHER_TEAM, _("The player had played for another team this championship")),
        ],
    )
    player = forms.TypedChoiceField(
        label=_("Player on a roster"), coerce=int, required=False, empty_value=None
    )
    first_name = forms.CharField(
        label=_("…or first name"), max_length=limit(Person, "first_name"), required=False
    )
    last_name = forms.CharField(
        label=_("Last name"), max_length=limit(Person, "last_name"), required=False
    )
    birth_date = forms.DateField(
        label=_("Birth date"),
        required=False,
        widget=DATE,
        help_text=_("A later roster recognises the barred player by name and birth date."),
        error_messages={"invalid": _("Enter a real date, e.g. 2001-04-23.")},
    )
    where = forms.ChoiceField(
        label=_("Where they played"),
        widget=forms.RadioSelect,
        choices=[
            (CHGK, _("A ChGK tour: the team's tour result counts 0")),
            (BRAINBALL, _("Brainball battles: each is a 0:6 loss for the team")),
        ],
    )
    round = forms.TypedChoiceField(label=_("Tour"), coerce=int, required=False, empty_value=None)
    items = forms.MultipleChoiceField(
        label=_("Battles"), widget=forms.CheckboxSelectMultiple, required=False
    )
    details = forms.CharField(
        label=_("What happened, in your words"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=1000,
        required=False,
    )

    def __init__(
        self,
        players: Sequence[tuple[Person, Entry]],
        tours: Sequence[int],
        battles: Sequence[tuple[str, str]],
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.people = {p.pk: p for p, _entry in players}
        self.fields["player"].choices = [  # type: ignore[attr-defined]
            ("", _("— typed in below —")),
            *((str(p.pk), f"{p} (#{e.number} {e.name})") for p, e in players),
        ]
        self.fields["round"].choices = [  # type: ignore[attr-defined]
            ("", "—"),
            *((str(n), gettext("Tour %(n)d") % {"n": n}) for n in tours),
        ]
        self.fields["items"].choices = list(battles)  # type: ignore[attr-defined]
        where: Any = self.fields["where"]
        offered = {CHGK: bool(tours), BRAINBALL: bool(battles)}
        where.choices = [(key, label) for key, label in where.choices if offered[key]]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("player") is None:
            if (
                not (data.get("first_name") or "").strip()
                or not (data.get("last_name") or "").strip()
            ):
                self.add_error(
                    "first_name",
                    _("Pick the player from a roster, or type the first and last name."),
                )
            elif data.get("birth_date") is None and "birth_date" not in self.errors:
                self.add_error(
                    "birth_date",
                    _("Give the birth date of a player typed in: the ban is checked by it."),
                )
        if data.get("where") == CHGK and data.get("round") is None:
            self.add_error("round", _("Pick the tour the player took part in."))
        return data

    def picked(self) -> Person | None:
        pk = self.cleaned_data.get("player")
        return self.people.get(pk) if pk is not None else None


class WithdrawalForm(TextForm):
    """A team's written withdrawal statement and when it was received."""

    team = forms.ModelChoiceField(label=_("Team"), queryset=Entry.objects.none(), empty_label="—")
    statement = forms.CharField(
        label=_("The statement (as written)"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        required=False,
    )
    date = forms.DateField(label=_("Received on"), widget=DATE)
    time = forms.TimeField(label=_("at"), widget=TIME)

    def __init__(self, entries: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = entries  # type: ignore[attr-defined]
        self.fields["team"].label_from_instance = lambda e: f"#{e.number} {e.name}"  # type: ignore[attr-defined]

    def received_at(self, zone: zoneinfo.ZoneInfo) -> dt.datetime:
        """When the statement was received: the date and time given, in the event's zone."""
        return dt.datetime.combine(
            self.cleaned_data["date"], self.cleaned_data["time"], tzinfo=zone
        )


class LiftForm(TextForm):
    """Why a sanction is lifted (the service refuses it without a reason)."""

    reason = forms.CharField(label=_("Reason for lifting"), max_length=500, required=False)
