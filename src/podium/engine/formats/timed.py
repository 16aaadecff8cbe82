"""Timed puzzle solving: one puzzle (``timed-solve``) or several in turn (``team-solve``).

Vocabulary:
- recorded time: the clock time the referee wrote when the puzzle was finished.
- missing piece: a piece absent at completion; each adds the rulebook's penalty to the time.
- finisher: completed the puzzle within the limit; ranked by recorded time plus penalties.
- non-finisher: ranked by counted pieces (more is better), after every finisher.
- counted pieces: the pieces that count on an unfinished puzzle; under the "groups of at least
  3" rule, the sum of the sizes of the joined groups that are large enough (``count_pieces``).
- compensation: time lost through no fault of the competitor (a faulty puzzle replaced), taken
  off the recorded time where the rulebook allows it (``compensation`` with its
  ``compensation_reason``); penalties are added to the compensated time.
- puzzles done: for a team stage, how many of its puzzles were finished; ``time`` is when the
  last puzzle was done, and ``pieces`` are counted on the puzzle in progress.
- pieces summed: the other way a team stage may measure an unfinished team (the WJPC team
  event): the pieces placed on all its puzzles together, finished ones included.
- unfinished team: one that did not finish every puzzle; no criterion reads its time, so the
  time of a non-final puzzle is optional (checked against the limit when given).
"""

from __future__ import annotations

from collections.abc import Sequence

from podium.engine.defaults import PIECE_COUNTING, by_default, is_default
from podium.engine.entries import Reason
from podium.engine.formats.common import Scored, ScoreRow, single_result_tables
from podium.engine.inputs import Competitor, RawRow, Reader
from podium.engine.messages import Joined, MessageError, Value, _, ngettext
from podium.engine.standings import Table
from podium.engine.timing import format_clock, parse_clock
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import Stage, TeamSolveStage, TimedSolveStage


def count_pieces(group_sizes: Sequence[int], min_group: int) -> int:
    """Pieces that count: those in joined groups of at least ``min_group`` pieces."""
    if any(size < 1 for size in group_sizes):
        raise MessageError(_("a group has at least one piece"))
    return sum(size for size in group_sizes if size >= min_group)


def tables(rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow]) -> list[Table]:
    if isinstance(stage, TimedSolveStage):
        return single_result_tables(rulebook, stage, rows, ["time"], _solo_scorer(stage))
    if isinstance(stage, TeamSolveStage):
        if stage.unfinished.method == "pieces-summed":
            return single_result_tables(rulebook, stage, rows, [], _summed_team_scorer(stage))
        return single_result_tables(rulebook, stage, rows, ["done"], _team_scorer(stage))
    raise TypeError(f"not a timed stage: {stage.format}")


def _time(row: RawRow, reader: Reader, limit_min: int, extra_ms: int = 0) -> int | None:
    """The recorded time; over the limit only by the time compensated (``extra_ms``)."""
    millis = reader.typed(row, "time", parse_clock)
    if millis is not None and millis > limit_min * 60_000 + extra_ms:
        known: dict[str, Value] = {"time": format_clock(millis), "limit": limit_min}
        over = (
            _("%(time)s is over the %(limit)s-minute limit of this stage plus %(extra)s "
              "compensated", extra=format_clock(extra_ms), **known)
            if extra_ms
            else _("%(time)s is over the %(limit)s-minute limit of this stage", **known)
        )  # fmt: skip
        reader.problems.add(reader.where(row, "time"), over)
        return None
    return millis


def _compensation(row: RawRow, reader: Reader, stage: TimedSolveStage) -> int | None:
    """The time to take off (ms), checked against the rulebook and the row; ``None`` if none."""
    text = reader.text(row, "compensation")
    reason = reader.text(row, "compensation_reason")
    if not text:
        if reason:
            reader.problems.add(
                reader.where(row, "compensation_reason"), _("a reason without a compensated time")
            )
        return None
    if stage.compensation is None:
        reader.problems.add(
            reader.where(row, "compensation"),
            _("this stage's rulebook allows no time compensation"),
        )
        return None
    millis = reader.typed(row, "compensation", parse_clock)
    if millis is not None and not reason:
        reader.problems.add(
            reader.where(row, "compensation_reason"), _("a compensated time needs its reason")
        )
        return None
    if millis is not None and not reader.text(row, "time"):
        reader.problems.add(
            reader.where(row, "compensation"),
            _("time is compensated only for a finished puzzle (this row has no time)"),
        )
        return None
    return millis


def _penalty(
    millis: int,
    missing: int,
    stage: TimedSolveStage | TeamSolveStage,
    compensated: tuple[int, str] | None = None,
) -> tuple[int, Value, tuple[Reason, ...]]:
    """Time with compensation and penalties, its score text, and the notes explaining them."""
    notes: list[Reason] = []
    base = millis
    if compensated is not None and isinstance(stage, TimedSolveStage):
        lost, why = compensated
        base = millis - lost
        clause = stage.compensation.clause if stage.compensation else None
        text = _(
            "Recorded %(recorded)s − %(lost)s compensated (%(why)s) = %(time)s",
            recorded=format_clock(millis),
            lost=format_clock(lost),
            why=why,
            time=format_clock(base),
        )
        notes.append(Reason(clause, text))
    penalty_s = missing * stage.missing_piece_penalty_s
    total = base + penalty_s * 1000
    if not penalty_s:
        return total, format_clock(total), tuple(notes)
    known: dict[str, Value] = {"time": format_clock(base), "penalty": stage.missing_piece_penalty_s,
                               "total": format_clock(total)}  # fmt: skip
    text = (
        ngettext(
            "Compensated %(time)s + %(n)s missing piece × %(penalty)s s = %(total)s",
            "Compensated %(time)s + %(n)s missing pieces × %(penalty)s s = %(total)s",
            missing,
            **known,
        )
        if compensated
        else ngettext(
            "Recorded %(time)s + %(n)s missing piece × %(penalty)s s = %(total)s",
            "Recorded %(time)s + %(n)s missing pieces × %(penalty)s s = %(total)s",
            missing,
            **known,
        )
    )
    notes.append(Reason(stage.penalty_clause, text))
    score = _("%(time)s (+%(penalty)s s)", time=format_clock(total), penalty=penalty_s)
    return total, score, tuple(notes)


def _counting_note(stage: TimedSolveStage | TeamSolveStage, pieces: int) -> Reason:
    rule = stage.piece_counting
    text = (
        _("Not finished: %(pieces)s pieces counted (in joined groups of at least %(size)s)",
          pieces=pieces, size=rule.size)
        if rule.method == "groups-of-at-least"
        else _("Not finished: %(pieces)s pieces counted (joined to at least %(size)s others)",
               pieces=pieces, size=rule.size)
    )  # fmt: skip
    if is_default(stage, "piece_counting"):
        return Reason(None, by_default(text, PIECE_COUNTING))
    return Reason(rule.clause, text)


def _solo_scorer(stage: TimedSolveStage) -> ScoreRow:
    def score(row: RawRow, reader: Reader, competitor: Competitor | None) -> Scored | None:
        problems = reader.problems
        before = len(problems)
        lost = _compensation(row, reader, stage)
        millis = _time(row, reader, stage.time_limit_min, lost or 0)
        missing = reader.count(row, "missing", maximum=stage.pieces, what=_("number of pieces"))
        pieces = reader.count(row, "pieces", maximum=stage.pieces, what=_("number of pieces"))
        finished = bool(reader.text(row, "time"))
        if lost is not None and millis is not None and lost >= millis:
            problems.add(
                reader.where(row, "compensation"),
                _(
                    "%(lost)s compensated is not less than the recorded %(time)s",
                    lost=format_clock(lost),
                    time=format_clock(millis),
                ),
            )
        if finished and pieces is not None and pieces != stage.pieces:
            problems.add(
                reader.where(row, "pieces"),
                _("pieces are counted only for an unfinished puzzle, but this row has a time"),
            )
        if not finished:
            if missing:
                problems.add(
                    reader.where(row, "missing"),
                    _("missing pieces count only for a finished puzzle (this row has no time)"),
                )
            if pieces is None and not reader.text(row, "pieces"):
                problems.add(
                    reader.where(row, "pieces"),
                    _("a row without a time needs the number of pieces placed"),
                )
        if len(problems) > before:
            return None
        if finished and millis is not None:
            why = (lost, reader.text(row, "compensation_reason")) if lost is not None else None
            total, text, notes = _penalty(millis, missing or 0, stage, why)
            return Scored({"finished": 1, "time_ms": total, "pieces": None}, text, notes)
        assert pieces is not None
        note = _counting_note(stage, pieces)
        counted = _("%(n)s pcs", n=pieces)
        return Scored({"finished": 0, "time_ms": None, "pieces": pieces}, counted, (note,))

    return score


def _team_scorer(stage: TeamSolveStage) -> ScoreRow:
    n = len(stage.puzzles)
    biggest = max(stage.puzzles)

    def score(row: RawRow, reader: Reader, competitor: Competitor | None) -> Scored | None:
        problems = reader.problems
        before = len(problems)
        done = reader.count(row, "done", maximum=n, what=_("number of puzzles"))
        millis = _time(row, reader, stage.time_limit_min)
        pieces = reader.count(row, "pieces", maximum=biggest, what=_("number of pieces"))
        missing = reader.count(
            row, "missing", maximum=sum(stage.puzzles), what=_("number of pieces")
        )
        if done is None and not reader.text(row, "done"):
            asked = _("how many puzzles were finished (0–%(n)s)", n=n)
            problems.add(reader.where(row, "done"), asked)
        # Only a team that finished every puzzle is ranked by time (an unfinished one by its
        # pieces), so the time of a non-final puzzle is optional.
        if done == n and millis is None and not reader.text(row, "time"):
            problems.add(
                reader.where(row, "time"), _("a finished puzzle needs the time it was done")
            )
        if done is not None and done < n and pieces is None and not reader.text(row, "pieces"):
            problems.add(
                reader.where(row, "pieces"), _("the puzzle in progress needs its counted pieces")
            )
        if done == 0 and reader.text(row, "time"):
            problems.add(reader.where(row, "time"), _("no puzzle is finished, so there is no time"))
        if done is not None and done < n and missing:
            problems.add(
                reader.where(row, "missing"),
                _("missing pieces count only when all %(n)s puzzles are finished", n=n),
            )
        if done == n and pieces:
            problems.add(
                reader.where(row, "pieces"),
                _("every puzzle is finished, so there are no pieces to count"),
            )
        if len(problems) > before or done is None:
            return None
        notes: list[Reason] = []
        said = _(
            "Team ranking (our interpretation): puzzles finished, then the time of the last "
            "one if all %(n)s are done, else the pieces counted on the unfinished one",
            n=n,
        )
        interpretation = Reason(stage.unfinished.clause or stage.ranking.clause, said)
        notes.append(interpretation)
        if done == n and millis is not None:
            total, text, penalty = _penalty(millis, missing or 0, stage)
            notes.extend(penalty)
            return Scored(
                {"done": done, "time_ms": total, "pieces": None},
                Joined((f"{n}/{n}", text), " "),
                tuple(notes),
            )
        assert pieces is not None
        notes.append(_counting_note(stage, pieces))
        score = Joined((f"{done}/{n} +", _("%(n)s pcs", n=pieces)), " ")
        return Scored({"done": done, "time_ms": None, "pieces": pieces}, score, tuple(notes))

    return score


def _summed_team_scorer(stage: TeamSolveStage) -> ScoreRow:
    """A team stage under ``unfinished: {method: pieces-summed}`` (the WJPC team event)."""
    n = len(stage.puzzles)
    total_pieces = sum(stage.puzzles)
    rule = Reason(
        stage.unfinished.clause or stage.ranking.clause,
        _(
            "Team ranking: teams that finished all %(n)s puzzles by time, the others by the "
            "pieces placed on all %(n)s puzzles together (at most %(total)s)",
            n=n,
            total=total_pieces,
        ),
    )

    def score(row: RawRow, reader: Reader, competitor: Competitor | None) -> Scored | None:
        problems = reader.problems
        before = len(problems)
        done = reader.count(row, "done", maximum=n, what=_("number of puzzles"))
        millis = _time(row, reader, stage.time_limit_min)
        pieces = reader.count(row, "pieces", maximum=total_pieces, what=_("number of pieces"))
        missing = reader.count(row, "missing", maximum=total_pieces, what=_("number of pieces"))
        # Without ``done`` a time means every puzzle was finished; with it, ``done`` decides.
        finished = done == n if done is not None else bool(reader.text(row, "time"))
        if finished and millis is None and not reader.text(row, "time"):
            problems.add(
                reader.where(row, "time"), _("a finished puzzle needs the time it was done")
            )
        complete = None
        if finished and pieces == total_pieces:
            # Every piece of every puzzle: the figure agrees with a finished team.
            complete = Reason(None, _(
                "pieces %(pieces)s: every piece of the %(n)s puzzles, as a finished team has; "
                "ranked by its time", pieces=pieces, n=n))  # fmt: skip
        elif finished and pieces:
            problems.add(
                reader.where(row, "pieces"),
                _("every puzzle is finished, so there are no pieces to count"),
            )
        if not finished:
            if pieces is None and not reader.text(row, "pieces"):
                problems.add(
                    reader.where(row, "pieces"),
                    _("an unfinished team needs the pieces placed on all %(n)s puzzles", n=n),
                )
            if missing:
                problems.add(
                    reader.where(row, "missing"),
                    _("missing pieces count only when all %(n)s puzzles are finished", n=n),
                )
            # The finished puzzles' pieces are part of the sum: it cannot be less than the
            # smallest puzzles that many finished puzzles could be.
            least = sum(sorted(stage.puzzles)[:done]) if done else 0
            if done and pieces is not None and pieces < least:
                problems.add(
                    reader.where(row, "pieces"),
                    _(
                        "%(pieces)s pieces is less than the %(least)s of the %(done)s finished "
                        "puzzles (the pieces are summed over all puzzles)",
                        pieces=pieces,
                        least=least,
                        done=done,
                    ),
                )
        if len(problems) > before:
            return None
        if finished:
            assert millis is not None
            total, text, penalty = _penalty(millis, missing or 0, stage)
            metrics = {"finished": 1, "time_ms": total, "pieces": None}
            said = (complete,) if complete else ()
            return Scored(metrics, Joined((f"{n}/{n}", text), " "), (rule, *penalty, *said))
        assert pieces is not None
        note = _counting_note(stage, pieces)
        counted = _("%(n)s pcs", n=pieces)
        score = Joined((f"{done}/{n} +", counted), " ") if done is not None else counted
        return Scored({"finished": 0, "time_ms": None, "pieces": pieces}, score, (rule, note))

    return score
