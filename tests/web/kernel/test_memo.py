"""Reads shared within one rendering (``podium.web.kernel.memo``): made once inside a block,
every time outside one, nothing kept past the outermost block."""

from __future__ import annotations

from collections.abc import Callable

from podium.web.kernel.memo import shared, shared_reads, shared_value


def counter() -> tuple[list[int], Callable[[], int]]:
    made: list[int] = []

    def make() -> int:
        made.append(1)
        return len(made)

    return made, make


def test_a_value_is_made_once_inside_a_block_and_every_time_outside() -> None:
    made, make = counter()
    assert shared(("round", 1), make) == 1
    assert shared(("round", 1), make) == 2
    with shared_reads():
        assert shared(("round", 1), make) == 3
        assert shared(("round", 1), make) == 3
        assert shared(("round", 2), make) == 4  # another key: another read
        assert shared_value(("round", 1)) == 3
    assert shared_value(("round", 1)) is None
    assert len(made) == 4


def test_an_inner_block_joins_the_outer_and_nothing_outlives_the_outermost() -> None:
    made, make = counter()
    with shared_reads():
        shared("k", make)
        with shared_reads():
            assert shared("k", make) == 1
        assert shared_value("k") == 1  # the inner block's end keeps the outer's values
    with shared_reads():
        assert shared_value("k") is None
        assert shared("k", make) == 2
    assert len(made) == 2
