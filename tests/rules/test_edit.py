"""Changing single settings of a rulebook's YAML: in place where the value stands alone, a line
inserted or removed where a block mapping allows it, the whole document written again
otherwise — and the result always reads back with the new values."""

from __future__ import annotations

import datetime as dt
import difflib
from decimal import Decimal

from podium.rules.edit import with_settings
from podium.rules.loader import parse, preset_text


def changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def test_a_value_changes_in_place_and_nothing_else() -> None:
    text = preset_text("it-puzzle-party")
    after = with_settings(
        text, {("categories", 0, "cap"): 45, ("registration", "opens"): dt.date(2026, 4, 1)}
    )
    assert changed_lines(text, after) == [
        "-    cap: 50",
        "+    cap: 45",
        "-  opens: 2026-04-23",
        "+  opens: 2026-04-01",
    ]
    book = parse(after)
    assert (book.categories[0].cap, book.registration.opens) == (45, dt.date(2026, 4, 1))


def test_a_price_in_a_flow_mapping_changes_in_place() -> None:
    text = preset_text("cba-qualifier")
    after = with_settings(text, {("fees", 0, "price", "amount"): Decimal("650.50")})
    assert changed_lines(text, after) == [
        "-    price: {amount: 600, currency: CZK}",
        "+    price: {amount: 650.5, currency: CZK}",
    ]
    assert parse(after).fees[0].price.amount == Decimal("650.5")


def test_an_absent_setting_gets_its_own_line_even_in_a_list_item() -> None:
    text = preset_text("deti-kolomny")
    after = with_settings(text, {("categories", 0, "cap"): 30, ("registration", "cap"): 40})
    assert changed_lines(text, after) == ["+    cap: 30", "+  cap: 40"]
    assert after.startswith("# ")  # the comments stay
    book = parse(after)
    assert (book.categories[0].cap, book.registration.cap) == (30, 40)


def test_a_removed_setting_loses_its_line() -> None:
    text = preset_text("cz-jigsaw")
    after = with_settings(text, {("categories", 1, "cap"): None, ("registration", "opens"): None})
    assert changed_lines(text, after) == ["-    cap: 120"]
    assert parse(after).categories[1].cap is None


def test_a_setting_shared_through_an_alias_is_written_again_with_both_uses() -> None:
    text = "\n".join(
        [
            "# a comment the rewrite cannot keep",
            "key: tiny",
            "title: Tiny",
            "language: en",
            "source: test",
            "categories:",
            "  - key: solo",
            "    title: Solo",
            "    entrants: {kind: individual}",
            "    cap: &cap 10",
            "stages:",
            "  - key: final",
            "    title: Final",
            "    format: timed-solve",
            "    time_limit_min: 60",
            "    pieces: 500",
            "    ranking:",
            "      criteria: [{key: finished}, {key: time}]",
            "registration:",
            "  cap: *cap",
            "",
        ]
    )
    assert parse(text).registration.cap == 10
    after = with_settings(text, {("categories", 0, "cap"): 12})
    book = parse(after)
    assert (book.categories[0].cap, book.registration.cap) == (12, 10)
    assert "# a comment" not in after  # written again: the values kept, the comment lost


def test_no_change_is_the_same_text() -> None:
    text = preset_text("cz-jigsaw")
    assert with_settings(text, {}) is text
    assert with_settings(text, {("registration", "cap"): None}) == text  # absent already
