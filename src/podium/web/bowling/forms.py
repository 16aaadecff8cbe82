"""The bowling desk's forms: one block of game totals, a correction of the games, and the rolls
of one game frame by frame.

Vocabulary:
- block, next block: see ``podium.web.bowling.selectors``.
- idempotency key, current result: see ``podium.web.results.forms``; every form carries a fresh
  key and the id of the result the referee saw, so a double tap records once and a stale write
  is refused with both values.
- typed rolls: see ``podium.engine.scoresheet``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from podium.web.bowling.selectors import Block
from podium.web.kernel.keyed import KeyedForm


def _game(number: int) -> forms.CharField:
    return forms.CharField(
        label=_("Game %(n)d") % {"n": number},
        required=False,
        max_length=10,
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "size": 4, "class": "game"}
        ),
    )


class _Keyed(KeyedForm):
    result = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, current: Any = None, **kwargs: Any) -> None:
        initial = kwargs.pop("initial", None) or {}
        if current is not None:
            initial.setdefault("result", current.pk)
        super().__init__(*args, initial=initial, **kwargs)


class BlockForm(_Keyed):
    """The game totals of one block of one player."""

    def __init__(self, block: Block, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.block = block
        for column, number in zip(block.columns, block.games, strict=True):
            self.fields[column] = _game(number)

    def games(self) -> dict[str, str]:
        return {c: (self.cleaned_data.get(c) or "").strip() for c in self.block.columns}

    def game_fields(self) -> list[forms.BoundField]:
        return [self[c] for c in self.block.columns]


class CorrectionForm(_Keyed):
    """Every game of a player, changed with a reason."""

    reason = forms.CharField(label=_("Reason for the correction"), max_length=500, required=False)

    def __init__(self, columns: tuple[str, ...], *args: Any, **kwargs: Any) -> None:
        current = kwargs.get("current")
        if current is not None:
            initial = kwargs.setdefault("initial", {})
            for column in columns:
                initial.setdefault(column, current.cells.get(column, ""))
        super().__init__(*args, **kwargs)
        self.columns = columns
        for column in columns:
            self.fields[column] = _game(int(column[1:]))
        self.order_fields([*columns, "reason"])

    def games(self) -> dict[str, str]:
        return {c: (self.cleaned_data.get(c) or "").strip() for c in self.columns}

    def game_fields(self) -> list[forms.BoundField]:
        return [self[c] for c in self.columns]


class FramesForm(_Keyed):
    """The rolls of one game as the referee types them."""

    rolls = forms.CharField(
        label=_("Rolls"),
        max_length=200,
        required=False,
        help_text=_(
            "X strike, / spare, - no pins, F foul, or the pins as a number; separate the rolls "
            "with spaces or run the marks together (X 7/ 9- -8 F9)."
        ),
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "class": "rolls",
            }
        ),
    )
    reason = forms.CharField(label=_("Reason for the correction"), max_length=500, required=False)
