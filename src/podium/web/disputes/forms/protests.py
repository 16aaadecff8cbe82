"""The protest desk's forms: a player's written protest with its deposit, the organizing
committee's decision (with a corrected game), the further appeal and its outcome, and a player's
warning, expulsion or its lifting.

Vocabulary:
- protest, deposit, decision, further appeal: see ``podium.web.disputes.views.protests``.
- submission token: a fresh hidden value per protest form, so a double tap files one protest
  (the view remembers the tokens it has filed in the session).
- seen result: the id of the result whose games the decision form showed; a decision on games
  that changed meanwhile is refused, never applied to values nobody saw.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from podium.web.kernel.text import TextForm, limit
from podium.web.models import FurtherAppeal, Payment

UPHELD, REJECTED = "upheld", "rejected"


def _text(label: Any, *, rows: int = 3, required: bool = False, **kwargs: Any) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=required,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": rows}),
        **kwargs,
    )


class ProtestForm(TextForm):
    """A player's written protest to the head referee, with the deposit as received."""

    token = forms.CharField(widget=forms.HiddenInput, max_length=64)
    stage = forms.ChoiceField(label=_("Stage"))
    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    statement = _text(
        _("The protest as written by the player"),
        rows=5,
        help_text=_("What rule was broken, in which game, and what the player asks for."),
    )
    method = forms.ChoiceField(
        label=_("Deposit received"),
        required=False,
        choices=[("", _("— not received —")), *Payment.Method.choices],
    )

    def __init__(
        self,
        *args: Any,
        players: Sequence[tuple[int, str]],
        stages: Sequence[tuple[str, str]],
        **kwargs: Any,
    ) -> None:
        initial = kwargs.pop("initial", None) or {}
        initial.setdefault("token", uuid.uuid4().hex)
        if stages:
            initial.setdefault("stage", stages[0][0])
        super().__init__(*args, initial=initial, **kwargs)
        self.fields["player"].choices = [("", _("— choose the player —")), *players]
        self.fields["stage"].choices = list(stages)
        if len(stages) < 2:
            self.fields["stage"].widget = forms.HiddenInput()


class DecisionForm(TextForm):
    """The organizing committee's decision, recorded by the head referee; the games of the
    protested player, prefilled, so that only a changed game is edited."""

    decision = forms.ChoiceField(
        label=_("The committee's decision"),
        choices=[
            (UPHELD, _("Upheld: deposit returned")),
            (REJECTED, _("Rejected: deposit forfeited")),
        ],
        widget=forms.RadioSelect,
    )
    reasons = _text(_("Reasons"), rows=3)
    action = forms.CharField(
        label=_("Corrective action"),
        required=False,
        max_length=500,
        help_text=_("What the committee does about it; a corrected game is described for you."),
    )
    result = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(
        self, *args: Any, columns: Sequence[str] = (), current: Any = None, **kwargs: Any
    ) -> None:
        initial = kwargs.pop("initial", None) or {}
        if current is not None:
            initial.setdefault("result", current.pk)
            for column in columns:
                initial.setdefault(column, current.cells.get(column, ""))
        super().__init__(*args, initial=initial, **kwargs)
        self.columns = tuple(columns)
        for column in self.columns:
            self.fields[column] = forms.CharField(
                label=_("Game %(n)d") % {"n": int(column[1:])},
                required=False,
                max_length=10,
                widget=forms.TextInput(
                    attrs={"inputmode": "numeric", "autocomplete": "off", "size": 4,
                           "class": "game"}
                ),
            )  # fmt: skip

    @property
    def upheld(self) -> bool:
        return self.cleaned_data.get("decision") == UPHELD

    def game_fields(self) -> list[forms.BoundField]:
        return [self[c] for c in self.columns]

    def changed_games(self, cells: Mapping[str, str]) -> dict[str, tuple[str, str]]:
        """The games whose value differs from ``cells``: column → (was, now)."""
        changed = {}
        for column in self.columns:
            now = (self.cleaned_data.get(column) or "").strip()
            was = cells.get(column, "")
            if now != was:
                changed[column] = (was, now)
        return changed


class FurtherAppealForm(TextForm):
    body = forms.CharField(
        label=_("Appealed to"),
        max_length=limit(FurtherAppeal, "body"),
        required=False,
        help_text=_("The body the rulebook names; keep the one the player appealed to."),
    )


class OutcomeForm(TextForm):
    outcome = _text(_("Outcome of the further appeal"), rows=2)


class SanctionForm(TextForm):
    """A warning or an expulsion of one player, with what happened."""

    effect = forms.ChoiceField(
        label=_("Sanction"),
        choices=[("warning", _("Warning")), ("expulsion", _("Expulsion"))],
        widget=forms.RadioSelect,
        initial="warning",
    )
    reason = forms.CharField(
        label=_("What happened"), max_length=500, required=False,
        help_text=_("The duty the player did not respect."),
    )  # fmt: skip


class LiftForm(TextForm):
    reason = forms.CharField(label=_("Why it is lifted"), max_length=500, required=False)
