"""Problems with input, collected rather than raised one at a time.

Vocabulary:
- problem: one thing wrong with the input, with *where* it is (a row and column, a roll, a field
  path: ``row 3, column time``, kept in English for programs to read) and *what* is wrong,
  phrased for the person who typed it (a message, see ``podium.engine.messages``).
- input error: an exception carrying every problem found, so a user fixes a file in one pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from podium.engine.messages import Value, render

_ROW = re.compile(r"row (\d+)")


@dataclass(frozen=True)
class Problem:
    where: str
    message: Value

    @property
    def text(self) -> str:
        """What is wrong, in English."""
        return render(self.message)

    def __str__(self) -> str:
        return f"{self.where}: {self.text}" if self.where else self.text


class InputError(ValueError):
    """One or more problems with input; nothing was computed from it."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class Problems:
    """Collects problems while a whole input is checked, then raises them together."""

    def __init__(self) -> None:
        self._items: list[Problem] = []

    def add(self, where: str, message: Value) -> None:
        self._items.append(Problem(where, message))

    def extend(self, error: InputError) -> None:
        self._items.extend(error.problems)

    @property
    def items(self) -> tuple[Problem, ...]:
        return tuple(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def raise_if_any(self) -> None:
        """Raise every problem, in the order of the rows they are on (checks run in passes)."""
        if self._items:
            raise InputError(sorted(self._items, key=_row_number))


def _row_number(problem: Problem) -> int:
    match = _ROW.match(problem.where)
    return int(match.group(1)) if match else 0
