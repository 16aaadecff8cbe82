"""The Brainball desk's forms: a battle's score, its correction, and one superfinal answer.

Vocabulary:
- battle, round, superfinal question, answer: see ``podium.web.battles.views.battles``.
- idempotency key, current result: see ``podium.web.results.forms``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from podium.web.kernel.keyed import KeyedForm

# An answer to a superfinal question: who took it (ChGK: both may; Brainball: one at most).
ANSWERS = {"both": ("1", "1"), "first": ("1", "0"), "second": ("0", "1"), "none": ("0", "0")}


def _score(label: Any) -> forms.CharField:
    # Plain text: the engine judges the score and refuses it with its own words.
    return forms.CharField(
        label=label,
        required=False,
        max_length=10,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "size": 3}),
    )


class BattleForm(KeyedForm):
    """A battle of the league: the round, the two teams (by entry number) and the score."""

    round = forms.TypedChoiceField(label=_("Round"), coerce=int)
    team1 = forms.TypedChoiceField(label=_("Team 1"), coerce=int)
    team2 = forms.TypedChoiceField(label=_("Team 2"), coerce=int)
    score1 = _score(_("Score 1"))
    score2 = _score(_("Score 2"))

    def __init__(
        self, rounds: int, teams: list[tuple[int, str]], *args: Any, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *((str(n), label) for n, label in teams)]
        self.fields["round"].choices = [(str(r), str(r)) for r in range(1, rounds + 1)]  # type: ignore[attr-defined]
        self.fields["team1"].choices = choices  # type: ignore[attr-defined]
        self.fields["team2"].choices = choices  # type: ignore[attr-defined]

    def cells(self) -> dict[str, str]:
        data = self.cleaned_data
        return {
            "round": str(data["round"]),
            "team1": str(data["team1"]),
            "team2": str(data["team2"]),
            "score1": (data.get("score1") or "").strip(),
            "score2": (data.get("score2") or "").strip(),
        }


class BattleCorrectionForm(KeyedForm):
    """A recorded battle's score, changed with a reason (the round and the teams stay)."""

    score1 = _score(_("Score 1"))
    score2 = _score(_("Score 2"))
    reason = forms.CharField(label=_("Reason for the correction"), max_length=500, required=False)


class AnswerForm(KeyedForm):
    """One superfinal question answered with one tap: which team(s) took it."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    answer = forms.ChoiceField(choices=[(a, a) for a in ANSWERS])
    result = forms.IntegerField(widget=forms.HiddenInput, required=False)
    reason = forms.CharField(label=_("Reason for the correction"), max_length=500, required=False)

    def taken(self) -> tuple[str, str]:
        return ANSWERS[self.cleaned_data["answer"]]
