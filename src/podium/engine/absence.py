"""Absent entrants: the entrants of a round without a result, listed at the foot of its table.

Vocabulary:
- status: what a row's ``status`` column says of an entrant without a result: ``dns`` (did not
  start), ``dnf`` (did not finish: started, no result), ``absent`` (did not come: not checked
  in); empty: a result, ranked as usual.
- absentee: such an entrant; never ranked, so it moves no ranked row's place, points, prize or
  advancement. Its results columns are not read.
- governing clause: the rulebook clause that says what absence means in the stage — a ChGK
  season's clause on a team absent from a tour (for the tour and the season over it), the
  no-show rule for one who did not come; where the rulebook is silent the reason says so
  ("no clause: Podium's default").
- foot: where the absentees of a table are listed, after its ranked rows: the table of their
  group (or division), else the stage's one table, else the first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from podium.engine.entries import Reason
from podium.engine.errors import InputError, Problem
from podium.engine.inputs import RawRow
from podium.engine.messages import Message, _
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import ChgkSeasonStage, Stage

STATUSES = ("dns", "dnf", "absent")
MAX_STATUS = 16  # longer than any status: read no further


class Absentee(NamedTuple):
    id: str
    name: str
    table: str  # the key of the table at whose foot it stands
    status: str  # one of STATUSES
    reason: Reason

    @property
    def reasons(self) -> tuple[Reason, ...]:
        return (self.reason,)


def status_label(status: str) -> Message:
    """The status in words (``did not start``…)."""
    return {
        "dns": _("did not start"),
        "dnf": _("did not finish"),
    }.get(status, _("absent"))


def split_absent(rows: Sequence[RawRow]) -> tuple[list[RawRow], list[RawRow]]:
    """The rows with a result and the rows of absentees (see the vocabulary); a status that
    is none of the three is a problem naming its row and column."""
    ranked: list[RawRow] = []
    absent: list[RawRow] = []
    problems: list[Problem] = []
    for row in rows:
        status = row.cells.get("status", "")[:MAX_STATUS].strip().lower()
        if not status:
            ranked.append(row)
        elif status in STATUSES:
            absent.append(row)
        else:
            problems.append(
                Problem(
                    f"row {row.line}, column status",
                    _("unknown status '%(status)s' (DNS, DNF, absent or empty)", status=status),
                )
            )
    if problems:
        raise InputError(problems)
    return ranked, absent


def _tour_clause(rulebook: Rulebook, stage: Stage) -> str | None:
    """The season's clause on a team absent from a tour, for a tour stage or its season."""
    for season in rulebook.stages:
        if isinstance(season, ChgkSeasonStage) and stage.key in (season.key, season.tour):
            return season.absent_clause
    return None


def absence_reason(rulebook: Rulebook, stage: Stage, status: str) -> Reason:
    """Why an absentee stands at the foot, under the clause that governs it (see the
    vocabulary)."""
    if stage.format in ("chgk-tour", "chgk-season"):
        clause = _tour_clause(rulebook, stage)
        if clause is not None:
            return Reason(
                clause,
                _("Absent from this tour: no place and no points in it; the season counts the "
                  "team after the last official team"),
            )  # fmt: skip
    no_show = rulebook.no_show
    if status == "absent" and no_show is not None:
        return Reason(
            no_show.clause,
            _("Did not come: no place and no points; the seat may be given to someone else "
              "%(minutes)s minutes after the start", minutes=no_show.after_start_min),
        )  # fmt: skip
    default = {
        "dns": _("Did not start: no place and no points (no clause: Podium's default)"),
        "dnf": _("Did not finish: no place and no points (no clause: Podium's default)"),
    }
    return Reason(
        None, default.get(status, _("Absent: no place and no points (no clause: Podium's default)"))
    )


def absentees(
    rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow], tables: Sequence[str]
) -> list[Absentee]:
    """The absentees of ``rows`` (rows with a status), each at the foot of one of ``tables``
    (the keys of the stage's tables, in order)."""
    made = []
    for row in rows:
        cells = row.cells
        status = cells.get("status", "").strip().lower()
        made.append(
            Absentee(
                cells.get("id", "").strip(),
                cells.get("name", "").strip() or cells.get("id", "").strip(),
                _foot(cells, tables),
                status,
                absence_reason(rulebook, stage, status),
            )
        )
    return made


def _foot(cells: Mapping[str, str], tables: Sequence[str]) -> str:
    for column in ("division", "group"):
        key = cells.get(column, "").strip()
        if key and key in tables:
            return key
    return "all" if "all" in tables or not tables else tables[0]
