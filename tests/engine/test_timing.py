"""Clock text as referees write it, and back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from podium.engine.timing import format_clock, parse_clock


@pytest.mark.parametrize(
    ("text", "millis"),
    [
        ("1:02:03", 3_723_000),
        ("0:37:58", 2_278_000),
        ("00:34:01", 2_041_000),
        ("0:59", 59_000),
        ("89:59", 5_399_000),  # M:SS past an hour, as some sheets write it
        ("45:30.5", 2_730_500),
        ("1:02:03,25", 3_723_250),
        (" 1:00:00 ", 3_600_000),
    ],
)
def test_parse_clock(text: str, millis: int) -> None:
    assert parse_clock(text) == millis


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1:2", "'1:2' is not a time"),
        ("1:75:00", "minutes go up to 59"),
        ("0:60", "'0:60' is not a time"),
        ("abc", "'abc' is not a time"),
        ("-1:00", "'-1:00' is not a time"),
        ("1.5", "'1.5' is not a time"),
    ],
)
def test_parse_clock_refuses(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_clock(text)


@pytest.mark.parametrize(
    ("millis", "text"),
    [(3_723_000, "1:02:03"), (59_000, "0:00:59"), (2_730_500, "0:45:30.5"), (10_250, "0:00:10.25")],
)
def test_format_clock(millis: int, text: str) -> None:
    assert format_clock(millis) == text


@given(st.integers(min_value=0, max_value=100 * 3_600_000))
def test_format_then_parse_is_identity(millis: int) -> None:
    assert parse_clock(format_clock(millis)) == millis
