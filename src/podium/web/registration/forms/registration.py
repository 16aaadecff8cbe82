"""Forms of registration: one set of fields per member, shaped by the category's rulebook.

Vocabulary:
- slot: the fields of one member (``m0_first_name``, ``m0_birth_date``…); an entry has as many
  slots as the category allows (a pair two, a CZ team four, a ChGK roster nine); empty slots
  beyond the first are ignored, and the service decides whether the count is right.
- refusal on the field: a service's ``Refused`` names a field of this form, so its message (and
  the rulebook clause) is shown next to what the user typed.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from podium.rules.schema import Rulebook
from podium.rules.schema.registration import AccompaniedUnder, Category
from podium.web.kernel.refusals import Refused
from podium.web.kernel.text import TextForm, limit
from podium.web.models import Entry, Person, Squad
from podium.web.registration.services.members import PersonData

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
MEMBER_FIELDS = ("first_name", "last_name", "birth_date", "country", "gender", "ladder_average")


def slots_for(category: Category, rulebook: Rulebook) -> int:
    entrants = category.entrants
    if rulebook.classification.unscored is not None:
        # A team outside the competition may be of any size; nine slots, more added later.
        return max(entrants.roster_max or entrants.max_size, 9)
    return entrants.roster_max or entrants.max_size


class RegistrationForm(TextForm):
    """Asks for each member, and for what the rulebook needs besides (adult, squad, team name)."""

    def __init__(
        self,
        *args: Any,
        category: Category,
        rulebook: Rulebook,
        squads: list[Squad],
        me: Person | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.category = category
        self.slots = slots_for(category, rulebook)
        self.required_slots = category.entrants.min_size
        with_divisions = rulebook.divisions is not None
        if category.entrants.kind == "team":
            self.fields["name"] = forms.CharField(
                label=_("Team name"), max_length=limit(Entry, "name")
            )
        for i in range(self.slots):
            required = i == 0
            self.fields[f"m{i}_first_name"] = forms.CharField(
                label=_("First name"), max_length=limit(Person, "first_name"), required=required
            )
            self.fields[f"m{i}_last_name"] = forms.CharField(
                label=_("Last name"), max_length=limit(Person, "last_name"), required=required
            )
            self.fields[f"m{i}_birth_date"] = forms.DateField(
                label=_("Birth date"),
                required=False,
                widget=DATE,
                error_messages={"invalid": _("Enter a real date, e.g. 2001-04-23.")},
            )
            self.fields[f"m{i}_country"] = forms.CharField(
                label=_("Country of registered address (2 letters, e.g. CZ)"),
                max_length=2,
                min_length=2,
                required=required,
            )
            if with_divisions:
                self.fields[f"m{i}_gender"] = forms.ChoiceField(
                    label=_("Gender"),
                    choices=[("", "—"), *Person.Gender.choices],
                    required=False,
                )
                self.fields[f"m{i}_ladder_average"] = forms.DecimalField(
                    label=_("Ladder average (empty if not on the ladder)"),
                    required=False,
                    min_value=Decimal(0),
                    max_value=Decimal(300),
                    decimal_places=2,
                )
        if any(isinstance(r, AccompaniedUnder) for r in rulebook.registration.eligibility):
            self.fields["accompanying_adult"] = forms.CharField(
                label=_("Accompanying adult (name), for a member under the age limit"),
                max_length=limit(Entry, "accompanying_adult"),
                required=False,
            )
        if squads:
            self.fields["squad"] = forms.ModelChoiceField(
                label=_("Squad"),
                queryset=Squad.objects.filter(pk__in=[s.pk for s in squads]),
                empty_label=None,
            )
        if rulebook.classification.unscored is not None:
            self.fields["scored"] = forms.BooleanField(
                label=_("Outside the competition (no place, no points)"), required=False
            )
        self.fields["waiting"] = forms.BooleanField(
            label=_("If the category is full, put us on the waiting list"), required=False
        )
        if me is not None:
            for name in MEMBER_FIELDS:
                value = getattr(me, name)
                if value not in (None, "") and f"m0_{name}" in self.fields:
                    self.fields[f"m0_{name}"].initial = value

    def member_rows(self) -> list[list[forms.BoundField]]:
        return [
            [self[f"m{i}_{name}"] for name in MEMBER_FIELDS if f"m{i}_{name}" in self.fields]
            for i in range(self.slots)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for i in range(self.slots):
            first, last = data.get(f"m{i}_first_name"), data.get(f"m{i}_last_name")
            other = any(data.get(f"m{i}_{n}") for n in ("birth_date", "country"))
            if (first or last or (other and i > 0)) and not (first and last):
                self.add_error(f"m{i}_last_name", _("Enter both the first and the last name."))
        return data

    def members(self) -> list[PersonData]:
        data = self.cleaned_data
        people = []
        for i in range(self.slots):
            if not data.get(f"m{i}_last_name"):
                continue
            people.append(
                PersonData(
                    first_name=data[f"m{i}_first_name"],
                    last_name=data[f"m{i}_last_name"],
                    birth_date=data.get(f"m{i}_birth_date"),
                    country=(data.get(f"m{i}_country") or "").upper(),
                    gender=data.get(f"m{i}_gender") or "",
                    ladder_average=data.get(f"m{i}_ladder_average"),
                )
            )
        return people

    def refused(self, refusal: Refused) -> None:
        """Shows a service's refusal on the field it names (or above the form)."""
        add_refusal(self, refusal)


def add_refusal(form: forms.Form, refusal: Refused) -> None:
    message = refusal.message
    if refusal.clause:
        message = f"{message} ({refusal.clause})"
    field = refusal.field if refusal.field in form.fields else None
    form.add_error(field, message)


class PlayerForm(TextForm):
    """One player added to a roster."""

    first_name = forms.CharField(label=_("First name"), max_length=limit(Person, "first_name"))
    last_name = forms.CharField(label=_("Last name"), max_length=limit(Person, "last_name"))
    birth_date = forms.DateField(
        label=_("Birth date"),
        required=False,
        widget=DATE,
        error_messages={"invalid": _("Enter a real date, e.g. 2001-04-23.")},
    )
    country = forms.CharField(label=_("Country (2 letters)"), max_length=2, min_length=2)

    def person(self) -> PersonData:
        d = self.cleaned_data
        return PersonData(
            d["first_name"], d["last_name"], d.get("birth_date"), d["country"].upper()
        )


class ReorderForm(TextForm):
    position = forms.IntegerField(label=_("New position"), min_value=1)
    reason = forms.CharField(label=_("Reason (required)"), max_length=500)


class PromoteForm(TextForm):
    reason = forms.CharField(label=_("Reason (required)"), max_length=500)
