"""A second scorer's entry against the first: same meaning, different spelling."""

from __future__ import annotations

from podium.engine.compare import canonical, differences, mask_differences


def test_spellings_of_one_value_are_the_same() -> None:
    assert canonical("time", "1:02:03") == canonical("time", "01:02:03.0")
    assert canonical("time", "62:03") == canonical("time", "1:02:03")
    assert canonical("g1", "07") == canonical("g1", "7")
    assert canonical("mask", " 1x0?") == canonical("mask", "1X0?")
    assert canonical("missing", "") == canonical("missing", "0")
    assert canonical("pieces", "") != canonical("pieces", "0")  # not given is not zero pieces
    assert canonical("time", "soon") == "soon"  # not a time: compared as written


def test_differences_name_the_columns_that_differ_in_meaning() -> None:
    first = {"time": "1:02:03", "missing": "", "pieces": ""}
    assert differences(first, {"time": "1:02:03", "missing": "0", "pieces": ""}) == ()
    assert differences(first, {"time": "1:02:13", "missing": "1", "pieces": ""}) == (
        "time",
        "missing",
    )
    games = {f"g{i}": str(s) for i, s in enumerate((189, 201, 176, 210, 164, 199), 1)}
    assert differences(games, {**games, "g4": "201"}) == ("g4",)
    assert differences({"score1": "4"}, {"score1": "4", "score2": "2"}) == ("score2",)


def test_mask_differences_are_question_numbers() -> None:
    assert mask_differences("110010111000101", "110010111000101") == ()
    assert mask_differences("110010111000101", "110011111000100") == (6, 15)
    assert mask_differences("1100", "110011") == (5, 6)
    assert mask_differences("1x", "1X") == ()
