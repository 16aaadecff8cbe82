"""The referee console's result form: the fields of one stage's format for one entry.

Vocabulary:
- format fields: the stage's result columns (``format_columns``); they stay plain text here,
  because the engine checks them and refuses with its own message and clause.
- idempotency key: a fresh ``uuid4`` per rendered form; a form sent twice (a dropped
  connection, a double tap) carries the same key and is recorded once.
- current result: the id of the result the referee saw when the form was rendered; a
  correction of it that someone else has meanwhile corrected is refused as stale.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from podium.rules.schema.stages import Stage
from podium.web.kernel.keyed import KeyedForm
from podium.web.kernel.text import TextForm, limit
from podium.web.models import Signal
from podium.web.results.selectors.rows import format_columns


def _text(label: Any, help_text: Any = "", **attrs: Any) -> forms.CharField:
    return forms.CharField(
        label=label,
        help_text=help_text,
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off", **attrs}),
    )


def _format_field(stage: Stage, column: str) -> forms.CharField:
    if column == "time":
        return _text(_("Time"), _("H:MM:SS"), placeholder="H:MM:SS", inputmode="numeric")
    if column == "missing":
        return _text(_("Missing pieces"), _("+10 s each"), inputmode="numeric")
    if column == "pieces":
        if getattr(getattr(stage, "unfinished", None), "method", None) == "pieces-summed":
            # The WJPC team rule: the referee gives the pieces on every puzzle together.
            return _text(_("Pieces on all puzzles (not finished)"), inputmode="numeric")
        return _text(_("Pieces (not finished)"), inputmode="numeric")
    if column == "done":
        return _text(_("Puzzles finished"), inputmode="numeric")
    if column == "mask":
        n = getattr(stage, "questions", 0)
        return _text(
            _("Question mask"),
            _("%(n)d characters: 1 right, 0 wrong, X void, ? unknown") % {"n": n},
            spellcheck="false",
            autocapitalize="characters",
            style="font-family: monospace; letter-spacing: .15em",
        )
    if column == "questions":
        return _text(_("…or questions answered"), inputmode="numeric")
    if column == "compensation":
        return _text(_("Time compensated"), _("M:SS given back"), placeholder="M:SS")
    if column == "compensation_reason":
        return _text(_("Reason for the compensation"))
    if column.startswith("g") and column[1:].isdigit():
        return _text(_("Game %(n)s") % {"n": column[1:]}, inputmode="numeric")
    return _text(column)


class ResultForm(KeyedForm):
    """One entry's result in a stage: record it, or correct the current one with a reason."""

    result = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, stage: Stage, *args: Any, current: Any = None, **kwargs: Any) -> None:
        initial = kwargs.pop("initial", None) or {}
        if current is not None:
            initial.setdefault("result", current.pk)
            for column, value in current.cells.items():
                initial.setdefault(column, value)
        super().__init__(*args, initial=initial, **kwargs)
        self.stage = stage
        self.columns = format_columns(stage)
        self.correcting = current is not None or bool(self.data.get(self.add_prefix("result")))
        for column in self.columns:
            self.fields[column] = _format_field(stage, column)
        if self.correcting:
            self.fields["reason"] = forms.CharField(
                label=_("Reason for the correction"), max_length=500, required=False
            )

    def cells(self) -> dict[str, str]:
        data = self.cleaned_data
        return {c: (data.get(c) or "").strip() for c in self.columns}

    def format_fields(self) -> list[forms.BoundField]:
        return [self[c] for c in self.columns]


def _count(label: Any, **attrs: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off", **attrs}),
    )


class FinishForm(KeyedForm):
    """One tap "finished"; missing pieces and time given back may go with it."""

    missing = _count(_("Missing pieces"), placeholder="0")
    compensation = forms.CharField(
        label=_("Time compensated"), required=False, max_length=12,
        widget=forms.TextInput(attrs={"placeholder": "M:SS", "inputmode": "numeric"}),
    )  # fmt: skip
    compensation_reason = forms.CharField(
        label=_("Reason for the compensation"), required=False, max_length=200
    )


class MissingForm(KeyedForm):
    """Missing pieces found at the check, added to a recorded finish."""

    missing = _count(_("Missing pieces"))

    def clean_missing(self) -> int:
        value = self.cleaned_data.get("missing")
        if value is None:
            raise forms.ValidationError(_("How many pieces are missing?"))
        return int(value)


class PiecesForm(KeyedForm):
    """Pieces counted on an unfinished puzzle at the limit: the count, or the groups' sizes."""

    pieces = _count(_("Pieces counted"))
    groups = forms.CharField(
        label=_("Sizes of the joined groups"),
        help_text=_("e.g. 120 45 12 3 2 — Podium adds up the groups large enough"),
        required=False,
        max_length=2000,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def clean_groups(self) -> list[int]:
        text = self.cleaned_data.get("groups", "").replace(",", " ").replace("+", " ")
        sizes = []
        for part in text.split():
            if not part.isdigit() or int(part) < 1:
                raise forms.ValidationError(
                    _("“%(part)s” is not the size of a group (a whole number of pieces).")
                    % {"part": part}
                )
            sizes.append(int(part))
        return sizes

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("pieces") is None and not data.get("groups"):
            raise forms.ValidationError(_("Give the pieces counted, or the sizes of the groups."))
        return data


class StepForm(KeyedForm):
    """One step at a team's table: a puzzle started, switched to, or finished."""

    kind = forms.ChoiceField(
        choices=[("start", "start"), ("switch", "switch"), ("finish", "finish")]
    )
    puzzle = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)
    taken_apart = forms.BooleanField(required=False)
    missing = _count(_("Missing pieces"), placeholder="0")


class ClockForm(TextForm):
    """The organizer's start or end signal for a group (empty: every group at once)."""

    action = forms.ChoiceField(choices=[("start", "start"), ("end", "end")])
    group = forms.CharField(required=False, max_length=limit(Signal, "group"))
    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)


class ChoiceOfTables(TextForm):
    """The tables (or entry numbers) a referee watches."""

    tables = forms.CharField(
        label=_("My tables"), required=False, max_length=200,
        help_text=_("Numbers or ranges, e.g. 1-10, 15; empty shows everybody"),
    )  # fmt: skip
