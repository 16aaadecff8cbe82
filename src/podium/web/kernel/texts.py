"""Texts shown on public pages: the presets' English phrases and the engine's reasons in the
visitor's language, places and money.

Vocabulary:
- preset text: a title, label or phrase of a shipped rulebook, marked for translation in
  ``podium.web.kernel.preset_texts`` (written from the presets by ``podium manage
  preset_texts``), so its pages read in the visitor's language; a custom rulebook's texts show
  as written.
- reason data: a reason as a page row keeps it — ``clause``, ``text`` (English) and, when the
  reason is an engine message, ``message`` (see ``podium.engine.messages``), which is shown in
  the active language; rows without one (older frozen tables) show their text as written.
- score data: likewise ``score_message`` beside a row's ``score`` when the score has words.
- problem: the engine's ``where`` (``row 3, column time``, ``roll 4``: English for programs)
  and message, both shown in the active language by ``problem_text``.
- place ordinal: ``1st`` / ``1.`` / ``1-е`` / ``1°``, or a span of them for a shared place.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django.utils import formats
from django.utils.translation import get_language, gettext_noop, ngettext
from django.utils.translation import gettext as _

from podium.engine.absence import Absentee, status_label
from podium.engine.document import absent_data, row_data
from podium.engine.entries import Reason
from podium.engine.errors import Problem
from podium.engine.messages import Message, Value, from_data, ordinal, reason_of, render, to_data
from podium.engine.standings import Row, points_decimals
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import Stage


def rt(text: str | None) -> str:
    """A text from the rulebook, in the active language when it is one of the presets' texts
    (``podium.web.kernel.preset_texts``); looked up with its lines joined, as YAML may fold
    them."""
    if not text:
        return ""
    key = " ".join(text.split())
    translated = _(key)
    return translated if translated != key else text


ORDINALS = {"cs": "{}.", "it": "{}°", "ru": "{}-е"}


def place_ordinal(first: int, last: int, language: str | None = None) -> str:
    """A place or a shared span in the language's ordinals (see the vocabulary)."""
    code = (language or get_language() or "en").split("-")[0]
    if code == "ru":  # the ending goes once, after the span: 2–3-е
        numbers = str(first) if first == last else f"{first}–{last}"
        return ORDINALS["ru"].format(numbers)
    pattern = ORDINALS.get(code)

    def one(n: int) -> str:
        return pattern.format(n) if pattern else ordinal(n)

    return one(first) if first == last else f"{one(first)}–{one(last)}"


class ActiveLanguage:
    """The engine's messages in the active language; a phrase not in the catalogue (a custom
    rulebook's) stays as written."""

    def gettext(self, text: str) -> str:
        return _(text) if text else text

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return ngettext(singular, plural, n)

    def span(self, first: int, last: int) -> str:
        return place_ordinal(first, last)

    def number(self, value: Decimal) -> str:
        exponent = value.as_tuple().exponent
        places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
        return formats.number_format(value, decimal_pos=places, use_l10n=True)


ACTIVE = ActiveLanguage()


def shown(reason: Reason) -> str:
    """An engine reason's text in the active language."""
    return shown_value(reason.message)


def shown_value(value: Value) -> str:
    """An engine message (or a score) in the active language."""
    return render(value, ACTIVE)


_WHERE = (
    (re.compile(r"^row (\d+), column (.+)$"), gettext_noop("row %(n)s, column %(column)s")),
    (re.compile(r"^row (\d+)$"), gettext_noop("row %(n)s")),
    (re.compile(r"^column (.+)$"), gettext_noop("column %(column)s")),
    (re.compile(r"^roll (\d+)$"), gettext_noop("roll %(n)s")),
)


def where_text(where: str) -> str:
    """The engine's ``where`` of a problem in the active language (as written if unknown)."""
    for pattern, template in _WHERE:
        match = pattern.match(where)
        if match:
            names = ("column",) if "%(n)s" not in template else ("n", "column")
            return _(template) % dict(zip(names, match.groups(), strict=False))
    return where


def error_text(error: ValueError) -> str:
    """What an engine ``ValueError`` (a clock's, a draw's…) says, in the active language."""
    return shown_value(reason_of(error))


def problem_text(problem: Problem) -> str:
    """``where: what`` of an engine problem, in the active language."""
    what = shown_value(problem.message)
    return f"{where_text(problem.where)}: {what}" if problem.where else what


def score_data(score: Value) -> dict[str, Any]:
    """What a page row keeps of a score besides its English text (see ``score_text``)."""
    return {} if isinstance(score, str) else {"score_message": to_data(score)}


def score_text(row: dict[str, Any]) -> str:
    """A page row's score in the active language."""
    message = row.get("score_message")
    return render(from_data(message), ACTIVE) if message is not None else str(row.get("score", ""))


def reason_data(reason: Reason) -> dict[str, Any]:
    data: dict[str, Any] = {"clause": reason.clause, "text": reason.text}
    if isinstance(reason.message, Message):
        data["message"] = to_data(reason.message)
    return data


def page_row(row: Row, table: str) -> dict[str, Any]:
    """A standings row as pages and frozen tables keep it: the engine's JSON row with the data
    of its reasons' and score's messages."""
    return row_data(row, table, reason_data) | score_data(row.entry.score)


def page_absent(absentee: Absentee) -> dict[str, Any]:
    """An absentee as pages and frozen tables keep it (its reason with its message's data)."""
    return absent_data(absentee, reason_data)


def status_text(status: str) -> str:
    """An absentee's status (``dns``, ``dnf``, ``absent``) in the active language."""
    return render(status_label(status), ACTIVE)


def reason_text(data: dict[str, Any]) -> str:
    """A page row's reason (see the vocabulary) in the active language."""
    message = data.get("message")
    return render(from_data(message), ACTIVE) if message is not None else str(data["text"])


def division_reason(entry: Any) -> str:
    """Why an entry is in its division, with the clause on a line of its own, in the active
    language (as written for an entry registered before the message was kept)."""
    data = entry.division_message
    if not data:
        return str(entry.division_reason)
    text = reason_text(data)
    return f"{text}\n{data['clause']}" if data.get("clause") else text


def table_title(table: Any, stage: Stage) -> str:
    """The title of one table of a stage (the stage, one of its groups, or a division) in the
    active language; ``table`` is the engine's or a frozen document's (a dict)."""
    key = table["key"] if isinstance(table, dict) else table.key
    title = table["title"] if isinstance(table, dict) else table.title
    if key in stage.groups:
        return _("%(stage)s — group %(group)s") % {"stage": rt(stage.title), "group": key}
    if key == "all":
        return rt(stage.title)
    return rt(title)


# --- The event page --------------------------------------------------------------------------


def money(amount: Decimal, currency: str) -> str:
    """An amount in the active locale's number format, with its currency code."""
    places = 0 if amount == amount.to_integral_value() else 2
    number = formats.number_format(amount, decimal_pos=places, use_l10n=True, force_grouping=True)
    return f"{number}\xa0{currency}"


def points_shown(rulebook: Rulebook, stage: Stage) -> dict[str, Any]:
    """A table's Points column: shown where its rows stand on points (``points_decimals``:
    place points, a season's sum, a league's match points), with the ``floatformat`` argument
    of their decimals."""
    decimals = points_decimals(rulebook, stage)
    return {
        "points": decimals is not None,
        "points_format": f"-{decimals}" if decimals is not None else "",
    }
