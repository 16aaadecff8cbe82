"""A team's table in a stage of several puzzles: what is in progress, what is done.

Vocabulary:
- puzzle: one of the stage's puzzles, by its position in the rulebook (0 is the first listed).
- on the table: the one puzzle in progress; only one may be in progress at a time.
- start: the referee lets a puzzle onto the table (the first, or the next after a check).
- finish: the team calls the referee, who checks the puzzle on the table and records the time
  (since the round's start) and its missing pieces; the table is then empty until the next start.
- switch: the team gives up the puzzle in progress for another one; the first must have been
  taken apart completely and put back in its box, and the referee confirms that it was.
- step: one of start, finish or switch, as the referee records them in order.
- cells: the team's result as the ``team-solve`` format reads it: ``done``, ``time`` (when the
  last finished puzzle was done), ``pieces`` (counted on the puzzle in progress at the limit, or
  on all puzzles together where the stage sums them) and
  ``missing`` (all puzzles' missing pieces, once every puzzle is done).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from podium.engine.messages import Message, MessageError, _
from podium.engine.timing import format_clock

Kind = Literal["start", "finish", "switch"]


class FlowError(MessageError):
    """A step the table does not allow now, with a sentence saying why."""


@dataclass(frozen=True, slots=True)
class Step:
    kind: Kind
    puzzle: int | None = None  # start/switch: the puzzle let onto the table
    at_ms: int | None = None  # finish: the time since the round's start
    missing: int = 0  # finish: pieces missing at completion
    taken_apart: bool = False  # switch: the referee saw the first puzzle back in its box


@dataclass(frozen=True, slots=True)
class Finished:
    puzzle: int
    at_ms: int
    missing: int


@dataclass(frozen=True, slots=True)
class TeamTable:
    puzzles: tuple[int, ...]  # the size of each puzzle, in rulebook order
    finished: tuple[Finished, ...] = ()
    on_table: int | None = None

    def name(self, puzzle: int) -> Message:
        return _("puzzle %(n)s (%(pieces)s pieces)", n=puzzle + 1, pieces=self.puzzles[puzzle])

    @property
    def done(self) -> int:
        return len(self.finished)

    @property
    def complete(self) -> bool:
        return self.done == len(self.puzzles)

    @property
    def waiting(self) -> tuple[int, ...]:
        """The puzzles not finished and not on the table, which may be started next."""
        done = {f.puzzle for f in self.finished}
        return tuple(p for p in range(len(self.puzzles)) if p not in done and p != self.on_table)

    def _check_puzzle(self, puzzle: int | None) -> int:
        if puzzle is None or not 0 <= puzzle < len(self.puzzles):
            raise FlowError(_("this stage has puzzles 1 to %(n)s", n=len(self.puzzles)))
        if any(f.puzzle == puzzle for f in self.finished):
            raise FlowError(_("%(puzzle)s is already finished", puzzle=self.name(puzzle)))
        return puzzle

    def apply(self, step: Step) -> TeamTable:
        if step.kind == "start":
            if self.on_table is not None:
                raise FlowError(
                    _(
                        "%(puzzle)s is on the table: only one puzzle may be in progress; finish "
                        "it or switch",
                        puzzle=self.name(self.on_table),
                    )
                )
            return replace(self, on_table=self._check_puzzle(step.puzzle))
        if step.kind == "switch":
            if self.on_table is None:
                raise FlowError(_("no puzzle is on the table to switch from; start one"))
            puzzle = self._check_puzzle(step.puzzle)
            if puzzle == self.on_table:
                raise FlowError(_("%(puzzle)s is already on the table", puzzle=self.name(puzzle)))
            if not step.taken_apart:
                raise FlowError(
                    _(
                        "before the switch, %(puzzle)s must be taken apart completely and put "
                        "back in its box",
                        puzzle=self.name(self.on_table),
                    )
                )
            return replace(self, on_table=puzzle)
        if self.on_table is None:
            raise FlowError(_("no puzzle is on the table to finish"))
        if step.at_ms is None or step.at_ms < 0:
            raise FlowError(_("a finish needs the time since the start"))
        if self.finished and step.at_ms < self.finished[-1].at_ms:
            last = self.finished[-1]
            raise FlowError(
                _(
                    "%(time)s is before %(puzzle)s was finished (%(finished)s)",
                    time=format_clock(step.at_ms),
                    puzzle=self.name(last.puzzle),
                    finished=format_clock(last.at_ms),
                )
            )
        size = self.puzzles[self.on_table]
        if not 0 <= step.missing <= size:
            raise FlowError(
                _("missing pieces are 0 to %(size)s on %(puzzle)s", size=size,
                  puzzle=self.name(self.on_table))
            )  # fmt: skip
        done = Finished(self.on_table, step.at_ms, step.missing)
        return replace(self, finished=(*self.finished, done), on_table=None)

    def cells(self, pieces: int | None = None, *, summed: bool = False) -> dict[str, str]:
        """The team's result so far; ``pieces`` counted on the puzzle in progress, if any.

        ``summed``: the stage measures an unfinished team by the pieces on all its puzzles
        together, so the finished puzzles' pieces (less any missing) are added to the count.
        """
        if pieces is not None:
            if self.on_table is None:
                raise FlowError(_("no puzzle is in progress: there are no pieces to count"))
            size = self.puzzles[self.on_table]
            if not 0 <= pieces <= size:
                raise FlowError(
                    _("%(pieces)s pieces: %(puzzle)s has %(size)s", pieces=pieces,
                      puzzle=self.name(self.on_table), size=size)
                )  # fmt: skip
        last = self.finished[-1].at_ms if self.finished else None
        missing = sum(f.missing for f in self.finished)
        if summed and pieces is not None:
            pieces += sum(self.puzzles[f.puzzle] - f.missing for f in self.finished)
        return {
            "done": str(self.done),
            "time": format_clock(last) if last is not None else "",
            "pieces": "" if pieces is None else str(pieces),
            "missing": str(missing) if self.complete and missing else "",
        }


def replay(puzzles: Iterable[int], steps: Iterable[Step]) -> TeamTable:
    """The table after ``steps`` in order; the first step the table refuses raises."""
    table = TeamTable(tuple(puzzles))
    for step in steps:
        table = table.apply(step)
    return table
