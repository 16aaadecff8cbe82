"""The command line's JSON text: the standard library's indented JSON, written row by row."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from podium.cli import jsontext
from podium.cli.csvfile import read_rows
from podium.cli.render import write_json
from podium.engine.compute import compute_standings
from podium.engine.document import standings_data
from podium.rules.loader import load

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and the infinities too: json writes them as NaN and Infinity
    | st.text()  # any character: quotes, backslashes, control characters, non-Latin letters
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


def standard(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def written(value: Any) -> str:
    parts: list[str] = []
    jsontext.write(value, parts.append)
    return "".join(parts)


def lazy(value: Any) -> Any:
    """``value`` with every list an iterator (a lazy list), at every depth."""
    if isinstance(value, list):
        return iter([lazy(v) for v in value])
    if isinstance(value, dict):
        return {k: lazy(v) for k, v in value.items()}
    return value


@given(values)
def test_the_text_is_the_standard_librarys_to_the_byte(value: Any) -> None:
    assert jsontext.dumps(value) == standard(value)
    assert written(value) == standard(value)


@given(values)
def test_lazy_lists_are_written_as_lists(value: Any) -> None:
    assert written(lazy(value)) == standard(value)
    assert jsontext.dumps(lazy(value)) == standard(value)


@pytest.mark.parametrize(
    "value",
    [
        {1: "a", None: [True], 2.5: {}},  # keys that json turns into strings
        {"outer": {3: (1, 2)}, "tuple": (1, [2, {"x": ()}])},  # tuples are lists to json
        [{}, [], {"a": []}, [[]]],
        "",
        -0.0,
        10**30,
    ],
)
def test_values_it_does_not_write_itself_are_written_by_json(value: Any) -> None:
    assert jsontext.dumps(value) == standard(value)
    assert written(value) == standard(value)


def test_an_empty_lazy_list_is_an_empty_list() -> None:
    assert written({"rows": iter(())}) == '{\n  "rows": []\n}'


def test_a_lazy_list_is_made_and_written_a_batch_at_a_time() -> None:
    made: list[int] = []
    written: list[int] = []  # how many items had been made at each write

    def rows() -> Iterator[dict[str, int]]:
        for n in range(2 * jsontext.BATCH + 1):
            made.append(n)
            yield {"n": n}

    parts: list[str] = []

    def out(text: str) -> None:
        written.append(len(made))
        parts.append(text)

    jsontext.write({"rows": rows()}, out)
    assert "".join(parts) == standard({"rows": [{"n": n} for n in range(2 * jsontext.BATCH + 1)]})
    # The opening, a batch, the next batch, then the last item with the closings.
    assert written == [
        0,
        jsontext.BATCH,
        2 * jsontext.BATCH,
        2 * jsontext.BATCH + 1,
        2 * jsontext.BATCH + 1,
    ]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*/*.csv")), ids=lambda p: p.stem)
def test_every_example_prints_what_json_dumps_printed(path: Path) -> None:
    standings = compute_standings(load(path.parent.name), path.stem, read_rows(path))
    out = io.StringIO()
    write_json(standings, out)
    assert out.getvalue() == standard(standings_data(standings)) + "\n"
