"""Messages: English by default, any language through its catalogue, and kept as JSON."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import ClassVar

import pytest

from podium.engine.entries import Reason
from podium.engine.messages import ENGLISH, Joined, Message, Span, _, from_data, ngettext, to_data


class Pirate:
    """A language with a tiny catalogue, its own plural rule and its own ordinals."""

    catalogue: ClassVar[dict[str, str]] = {
        "Shares places %(places)s: equal on %(criteria)s": "%(criteria)s be equal: %(places)s",
        "time": "clock",
        "%(n)s piece": "%(n)s doubloon",
    }

    def gettext(self, text: str) -> str:
        return self.catalogue.get(text, text)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return "%(n)s doubloon" if n < 3 else "%(n)s doubloons aplenty"

    def span(self, first: int, last: int) -> str:
        return f"#{first}" if first == last else f"#{first} to #{last}"

    def number(self, value: Decimal) -> str:
        return format(value, "f").replace(".", "·")


SHARES = _(
    "Shares places %(places)s: equal on %(criteria)s",
    places=Span(3, 5),
    criteria=Joined((_("time"), _("pieces placed"))),
)


def test_english_is_the_template_filled_in() -> None:
    assert str(SHARES) == "Shares places 3rd–5th: equal on time, pieces placed"
    assert str(_("First: %(leads)s", leads=Span(1, 1))) == "First: 1st"
    assert ENGLISH.span(11, 13) == "11th–13th"
    assert ENGLISH.span(21, 22) == "21st–22nd"


def test_another_language_translates_every_part_and_writes_its_own_places() -> None:
    assert SHARES.render(Pirate()) == "clock, pieces placed be equal: #3 to #5"


def test_plurals_follow_the_count_in_each_language() -> None:
    one = ngettext("%(n)s piece", "%(n)s pieces", 1)
    five = ngettext("%(n)s piece", "%(n)s pieces", 5)
    assert (str(one), str(five)) == ("1 piece", "5 pieces")
    assert five.render(Pirate()) == "5 doubloons aplenty"
    assert ngettext("%(n)s piece", "%(n)s pieces", 2).render(Pirate()) == "2 doubloon"


def test_a_template_without_fields_keeps_a_percent_sign() -> None:
    assert str(_("100% taken")) == "100% taken"


def test_json_round_trip_keeps_the_message_whole() -> None:
    message = _(
        "%(who)s: %(what)s",
        who="Anna",
        what=ngettext("%(n)s piece", "%(n)s pieces", 7, extra=Span(2, 2)),
    )
    data = json.loads(json.dumps(to_data(message)))
    back = from_data(data)
    assert back == message
    assert isinstance(back, Message)
    assert back.render(Pirate()) == "Anna: 7 doubloons aplenty"
    assert from_data(to_data(SHARES)) == SHARES


def test_decimals_keep_their_places_and_take_the_languages_decimal_sign() -> None:
    points = _("%(points)s pts", points=Decimal("10.330"))
    assert str(points) == "10.330 pts"
    assert points.render(Pirate()) == "10·330 pts"
    assert str(_("%(n)s", n=Decimal("12.5000").normalize())) == "12.5"
    assert str(_("%(n)s", n=Decimal("10").normalize())) == "10"  # 1E+1 written out
    assert from_data(json.loads(json.dumps(to_data(points)))) == points


def test_unknown_data_is_refused() -> None:
    with pytest.raises(ValueError, match="not a message value"):
        from_data([1, 2])


def test_reasons_are_equal_when_they_say_the_same_under_the_same_clause() -> None:
    assert Reason("§ 9", SHARES) == Reason(
        "§ 9", "Shares places 3rd–5th: equal on time, pieces placed"
    )
    assert Reason("§ 9", SHARES) != Reason("§ 10", SHARES)
    assert len({Reason(None, SHARES), Reason(None, str(SHARES))}) == 1
    assert "equal on time" in repr(Reason(None, SHARES))
