"""Appeal forms: filing an appeal on a ChGK question, the jury's verdicts, and the jury itself.

Vocabulary:
- appeal form: the team (one of those the user may file for), the tour (``<stage>:<round>``),
  the question, the kind, the answer (for an accepted answer) and the written statement. A team
  filing itself ticks that it paid the fee (recorded as a bank transfer); the staff recording an
  appeal received by e-mail name how the fee was paid. Whether any of it is allowed is the
  service's to say (``podium.web.disputes.services.appeals``).
- verdict form: upheld or rejected, the reasons, and for an answer to accept the other teams of
  the tour to credit with the same answer (every team of the tour is listed, the appealing team
  among them, so the list does not tell the jury who appealed).
- dispute form: a disputed answer (``?``, named in the URL by an opaque token) accepted or
  not, with reasons.
- appointment form: the username of the jury member to appoint.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from podium.web.kernel.text import TextForm
from podium.web.models import Appeal, Entry, Payment

PAID = "transfer"  # how a fee the team says it paid is recorded

OUTCOMES = (("upheld", _("Upheld")), ("rejected", _("Rejected")))
DISPUTE_OUTCOMES = (("accepted", _("Accept the answer")), ("rejected", _("Do not accept it")))


class TeamChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"#{obj.number} {obj.name}"


class TeamsChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"#{obj.number} {obj.name}"


class _GivenTeams(forms.models.ModelChoiceIterator):
    """The choices of a ``CreditChoice``: the teams it was given, not read again."""

    def __iter__(self) -> Iterator[Any]:
        for team in self.field.teams:
            yield self.choice(team)

    def __len__(self) -> int:
        return len(self.field.teams)

    def __bool__(self) -> bool:
        return bool(self.field.teams)


class CreditChoice(TeamsChoice):
    """Teams to credit, from those given (already read: a page of many verdict forms lists
    them without a query per form); a submitted choice is checked in the database."""

    iterator = _GivenTeams

    def __init__(self, teams: Iterable[Entry], **kwargs: Any) -> None:
        self.teams = sorted(teams, key=lambda t: t.number)
        queryset = Entry.objects.filter(pk__in=[t.pk for t in self.teams]).order_by("number")
        super().__init__(queryset=queryset, **kwargs)


class AppealForm(TextForm):
    entry = TeamChoice(label=_("Team"), queryset=Entry.objects.none(), empty_label=None)
    tour = forms.ChoiceField(label=_("Tour"))
    question = forms.IntegerField(label=_("Question number"), min_value=1)
    kind = forms.ChoiceField(label=_("The appeal asks to"), widget=forms.RadioSelect)
    answer = forms.CharField(
        label=_("The answer to accept (for an accepted answer)"), required=False, max_length=500
    )
    statement = forms.CharField(
        label=_("Written statement"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        max_length=5000,
    )

    def __init__(
        self,
        *args: Any,
        entries: Iterable[Entry],
        tours: Sequence[tuple[str, str]],
        kinds: Sequence[str],
        questions: int,
        staff: bool,
        fee: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = entries
        self.fields["tour"].choices = list(tours)
        self.fields["question"].max_value = questions
        self.fields["question"].widget.attrs.update({"max": questions, "inputmode": "numeric"})
        self.fields["kind"].choices = [(k, Appeal.Kind(k).label) for k in kinds]
        self.staff = staff
        if staff:
            self.fields["method"] = forms.ChoiceField(
                label=_("The fee of %(fee)s was paid by") % {"fee": fee},
                choices=[("", _("— not paid —")), *Payment.Method.choices],
                required=False,
            )
        else:
            self.fields["paid"] = forms.BooleanField(
                label=_("We paid the fee of %(fee)s by bank transfer") % {"fee": fee},
                required=False,
            )

    def stage_and_round(self) -> tuple[str, int]:
        stage, _sep, number = self.cleaned_data["tour"].rpartition(":")
        return stage, int(number)

    def method(self) -> str | None:
        """How the fee was paid, as the service takes it (``None``: not paid)."""
        if self.staff:
            return self.cleaned_data.get("method") or None
        return PAID if self.cleaned_data.get("paid") else None

    def field_of(self, refused_field: str | None) -> str | None:
        """The form field a service refusal concerns (``None``: the form as a whole)."""
        named = {"method": "method" if self.staff else "paid", "stage": "tour", "round": "tour"}
        field = named.get(refused_field or "", refused_field)
        return field if field in self.fields else None


class VerdictForm(TextForm):
    outcome = forms.ChoiceField(label=_("Verdict"), choices=OUTCOMES, widget=forms.RadioSelect)
    reasons = forms.CharField(
        label=_("Reasons"), required=False, widget=forms.Textarea(attrs={"rows": 4})
    )

    def __init__(self, *args: Any, teams: Iterable[Entry] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if teams is not None:
            self.fields["credited"] = CreditChoice(
                teams,
                label=_("Credit the same answer to these teams too"),
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # Checked here, before the appealing team's tick is dropped: the refusal must not
        # depend on which team was ticked.
        if data.get("credited") and data.get("outcome") == "rejected":
            self.add_error(
                "credited", _("Other teams are credited only when an answer is accepted.")
            )
        return data

    @property
    def upheld(self) -> bool:
        return self.cleaned_data["outcome"] == "upheld"


class DisputeForm(TextForm):
    outcome = forms.ChoiceField(
        label=_("Decision"), choices=DISPUTE_OUTCOMES, widget=forms.RadioSelect
    )
    reasons = forms.CharField(
        label=_("Reasons"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )

    @property
    def upheld(self) -> bool:
        return self.cleaned_data["outcome"] == "accepted"


class JuryAppointForm(TextForm):
    username = forms.CharField(label=_("Username"), max_length=150)

    def clean_username(self) -> Any:
        name = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(_("There is no user named “%(name)s”.") % {"name": name})
        return user
