"""The CSV injection rule (``podium.engine.formulas``), without a database."""

from __future__ import annotations

import pytest

from podium.engine.formulas import csv_safe, formula_like


@pytest.mark.parametrize(
    "text",
    ['=HYPERLINK("http://x","y")', "+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"],
)
def test_text_a_spreadsheet_would_run_is_escaped(text: str) -> None:
    assert formula_like(text)
    assert csv_safe(text) == "'" + text


@pytest.mark.parametrize("text", ["Sovy", "", " =x", "1:02:03", "'=already", "Иван"])
def test_other_text_is_written_as_it_is(text: str) -> None:
    assert not formula_like(text)
    assert csv_safe(text) == text
