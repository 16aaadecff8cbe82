"""The season page's forms: drawing the battle schedule, a tied team's play-off match, and one
extra question for the teams still tied.

Vocabulary:
- schedule, play-off match, extra question, still tied: see
  ``podium.web.battles.services.schedule``, ``podium.web.battles.services.playoffs`` and
  ``podium.web.battles.services.extra_questions``.
- idempotency key: a fresh ``uuid4`` per rendered form, so a form sent twice is stored once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from podium.web.draws.services import SEED_MAX
from podium.web.kernel.keyed import KeyedForm
from podium.web.kernel.text import TextForm
from podium.web.models import Entry

ANSWERS = [("1", _("taken")), ("0", _("not taken"))]


class ScheduleForm(TextForm):
    seed = forms.CharField(
        label=_("Seed"),
        max_length=SEED_MAX,
        required=False,
        help_text=_("Leave empty for a fresh random seed."),
    )


class MatchForm(KeyedForm):
    """A tied team's play-off match: the questions it took of the 6 (the service judges it)."""

    playoff = forms.CharField(
        label=_("Questions taken in the match"),
        max_length=40,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "size": 3}),
    )


class PlayoffCorrectionForm(KeyedForm):
    """A team's whole play-off typed again (the match, then each extra question) with the
    reason; ``result`` is the play-off result the staff member is looking at."""

    result = forms.IntegerField(widget=forms.HiddenInput)
    playoff = forms.CharField(
        label=_("Play-off as it should be"),
        help_text=_("The match, then each extra question: 4 1 0"),
        max_length=40,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "size": 8}),
    )
    reason = forms.CharField(label=_("Reason for the correction"), max_length=500)


class PlayoffAnnulForm(KeyedForm):
    """Annuls the play-off result the staff member is looking at (``result``), with the reason."""

    result = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Why it no longer counts"), max_length=500)


def taken_field(entry: Entry) -> str:
    return f"taken-{entry.number}"


class ExtraForm(KeyedForm):
    """One extra question for the teams still tied: taken or not, per team (one field each,
    ``taken-<entry number>``); a team left out reaches the service, which refuses it."""

    def __init__(self, teams: Sequence[Entry], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.teams = list(teams)
        for entry in self.teams:
            self.fields[taken_field(entry)] = forms.ChoiceField(
                label=f"#{entry.number} {entry.name}",
                choices=ANSWERS,
                widget=forms.RadioSelect,
                required=False,
            )

    def rows(self) -> list[tuple[Entry, forms.BoundField]]:
        return [(e, self[taken_field(e)]) for e in self.teams]

    def answers(self) -> dict[Entry, bool]:
        """The teams answered, each taken or not (unanswered ones left out)."""
        data = self.cleaned_data
        return {e: data[taken_field(e)] == "1" for e in self.teams if data.get(taken_field(e))}
