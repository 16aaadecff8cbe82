"""Head-to-head leagues (Brainball): battles between two teams, gathered into a league table.

Vocabulary:
- battle: one match of ``stage.match.questions`` questions between two teams; each question is
  won by at most one team, so the two scores add up to no more than the questions asked.
- round: one pass of the round-robin (the season's first and second round are 1 and 2).
- match points: what a battle earns: ``win``, ``draw`` or ``loss`` points from the rulebook.
- league line: one team's played, won, drawn, lost, questions for and against, match points.
- versus: the match points a team earned against each opponent, for the head-to-head criterion.
- question difference: questions won minus questions lost over all battles.
- sanction loss: a battle recorded as lost 0:N by a team that broke the roster rules (п. 8),
  whatever was played (the optional column ``sanctioned`` names that team).
- group: when the stage has ``groups``, each battle's ``group`` column names one of them; a
  team plays in one group only, and each group is ranked as a table of its own, in the
  rulebook's order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from podium.engine.entries import Entry, Reason
from podium.engine.errors import Problems
from podium.engine.inputs import RawRow, Reader, columns_of, require_columns
from podium.engine.messages import Line, Message, MessageError, Value, _
from podium.engine.standings import Table, build_table
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import HeadToHeadStage, Match, Stage

COLUMNS = ("id", "round", "team1", "team2", "score1", "score2")


@dataclass(frozen=True, slots=True)
class Battle:
    id: str
    round: int
    team1: str
    team2: str
    score1: int
    score2: int
    sanctioned: str | None = None  # the team recorded as losing 0:N under a sanction
    group: str | None = None  # the stage's group the battle belongs to, when it has groups


def sanction_loss(battle: Battle, offender: str, questions: int) -> Battle:
    """The battle recorded as a 0:``questions`` loss for ``offender`` (п. 8), as played or not."""
    if offender not in (battle.team1, battle.team2):
        raise MessageError(_("'%(team)s' did not play battle %(battle)s", team=offender,
                             battle=battle.id))  # fmt: skip
    if battle.sanctioned not in (None, offender):
        # The rules give no score for a battle both teams forfeit; a person must decide.
        raise MessageError(_("battle %(battle)s is already recorded as lost by %(team)s",
                             battle=battle.id, team=battle.sanctioned))  # fmt: skip
    first = offender == battle.team1
    return dataclasses.replace(
        battle,
        score1=0 if first else questions,
        score2=questions if first else 0,
        sanctioned=offender,
    )


# --- Reading battles ------------------------------------------------------------------------


def read_battles(
    stage: HeadToHeadStage, rows: Sequence[RawRow], problems: Problems
) -> list[Battle]:
    """Every well-formed battle; each problem is added to ``problems``, naming row and column."""
    reader = Reader(problems)
    ids: dict[str, int] = {}
    meetings: dict[tuple[int, frozenset[str]], int] = {}
    groups: dict[str, tuple[str, int]] = {}  # team → its group and the row that placed it
    battles: list[Battle] = []
    for row in rows:
        before = len(problems)
        battle_id = _battle_id(reader, row, ids)
        round_ = _round(reader, row, stage.rounds)
        team1, team2 = _teams(reader, row)
        score1, score2 = _scores(reader, row, stage.match.questions)
        group = _group(reader, row, stage.groups, (team1, team2), groups)
        if round_ is not None and team1 and team2 and team1 != team2:
            _check_meeting(reader, row, round_, frozenset((team1, team2)), meetings)
        if len(problems) > before or round_ is None or score1 is None or score2 is None:
            continue
        battle = Battle(battle_id, round_, team1, team2, score1, score2, group=group)
        offender = reader.text(row, "sanctioned")
        if offender:
            if offender not in (team1, team2):
                reader.problems.add(
                    reader.where(row, "sanctioned"),
                    _(
                        "'%(team)s' did not play this battle (%(team1)s against %(team2)s)",
                        team=offender,
                        team1=team1,
                        team2=team2,
                    ),
                )
                continue
            battle = sanction_loss(battle, offender, stage.match.questions)
        battles.append(battle)
    return battles


def _group(
    reader: Reader,
    row: RawRow,
    allowed: Sequence[str],
    teams: tuple[str, str],
    seen: dict[str, tuple[str, int]],
) -> str | None:
    """The battle's group when the stage has groups; a problem for a missing or unknown one,
    or a team already placed in another group."""
    if not allowed:
        return None
    group = reader.text(row, "group")
    if group not in allowed:
        known = ", ".join(allowed)
        text = (
            _("'%(group)s' is not a group of this stage (%(known)s)", group=group, known=known)
            if group
            else _("a value is required (the battle's group: %(known)s)", known=known)
        )
        reader.problems.add(reader.where(row, "group"), text)
        return None
    for team in (t for t in teams if t):
        first = seen.setdefault(team, (group, row.line))
        if first[0] != group:
            reader.problems.add(
                reader.where(row, "group"),
                _("'%(team)s' plays in group %(first)s (%(row)s), not in group %(group)s",
                  team=team, first=first[0], row=Line(first[1]), group=group),
            )  # fmt: skip
    return group


def _battle_id(reader: Reader, row: RawRow, ids: dict[str, int]) -> str:
    battle_id = reader.text(row, "id")
    if not battle_id:
        reader.problems.add(reader.where(row, "id"), _("every battle needs an id"))
    elif battle_id in ids:
        reader.problems.add(
            reader.where(row, "id"),
            _(
                "duplicate battle id '%(id)s' (also on %(row)s)",
                id=battle_id,
                row=Line(ids[battle_id]),
            ),
        )
    else:
        ids[battle_id] = row.line
    return battle_id


def _round(reader: Reader, row: RawRow, rounds: int) -> int | None:
    if not reader.text(row, "round"):
        reader.problems.add(reader.where(row, "round"), _("a value is required (the round, 1…)"))
        return None
    value = reader.count(row, "round", what=_("round"))
    if value is None:
        return None
    if not 1 <= value <= rounds:
        reader.problems.add(
            reader.where(row, "round"),
            _(
                "round %(round)s, but the league has rounds 1 to %(rounds)s",
                round=value,
                rounds=rounds,
            ),
        )
        return None
    return value


def _teams(reader: Reader, row: RawRow) -> tuple[str, str]:
    team1, team2 = reader.text(row, "team1"), reader.text(row, "team2")
    for column, team in (("team1", team1), ("team2", team2)):
        if not team:
            reader.problems.add(reader.where(row, column), _("a value is required (a team name)"))
    if team1 and team1 == team2:
        reader.problems.add(reader.where(row, "team2"), _("'%(team)s' cannot play against itself",
                                                          team=team1))  # fmt: skip
    return team1, team2


def _scores(reader: Reader, row: RawRow, questions: int) -> tuple[int | None, int | None]:
    scores: list[int | None] = []
    for column in ("score1", "score2"):
        if not reader.text(row, column):
            reader.problems.add(reader.where(row, column), _("a value is required (questions won)"))
            scores.append(None)
        else:
            scores.append(reader.count(row, column, maximum=questions, what=_("score")))
    score1, score2 = scores
    if score1 is not None and score2 is not None and score1 + score2 > questions:
        reader.problems.add(
            reader.where(row, "score2"),
            _(
                "%(score1)s + %(score2)s questions won, but a battle has %(n)s and each is won "
                "by one team at most",
                score1=score1,
                score2=score2,
                n=questions,
            ),
        )
    return score1, score2


def _check_meeting(
    reader: Reader,
    row: RawRow,
    round_: int,
    pair: frozenset[str],
    meetings: dict[tuple[int, frozenset[str]], int],
) -> None:
    key = (round_, pair)
    if key in meetings:
        a, b = sorted(pair)
        reader.problems.add(
            reader.where(row, "round"),
            _(
                "%(a)s and %(b)s already met in round %(round)s (%(row)s)",
                a=a,
                b=b,
                round=round_,
                row=Line(meetings[key]),
            ),
        )
    else:
        meetings[key] = row.line


# --- The league -----------------------------------------------------------------------------


@dataclass(slots=True)
class LeagueLine:
    """One team's record over its battles."""

    team: str
    won: int = 0
    drawn: int = 0
    lost: int = 0
    questions_for: int = 0
    questions_against: int = 0
    match_points: Decimal = Decimal(0)
    versus: dict[str, Decimal] = field(default_factory=dict)
    battles: list[Battle] = field(default_factory=list)

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def question_difference(self) -> int:
        return self.questions_for - self.questions_against

    def add(self, battle: Battle, match: Match) -> None:
        mine, theirs, opponent = _sides(battle, self.team)
        if mine > theirs:
            self.won, points = self.won + 1, match.win
        elif mine == theirs:
            self.drawn, points = self.drawn + 1, match.draw
        else:
            self.lost, points = self.lost + 1, match.loss
        self.match_points += points
        self.versus[opponent] = self.versus.get(opponent, Decimal(0)) + points
        self.questions_for += mine
        self.questions_against += theirs
        self.battles.append(battle)


def _sides(battle: Battle, team: str) -> tuple[int, int, str]:
    """The team's score, its opponent's score, and the opponent."""
    if team == battle.team1:
        return battle.score1, battle.score2, battle.team2
    return battle.score2, battle.score1, battle.team1


def battle_order(battle: Battle) -> tuple[int, int, int, str]:
    """By round, then by battle id in natural order (``2`` before ``10``)."""
    numeric = battle.id.isdigit()
    return (battle.round, 0 if numeric else 1, int(battle.id) if numeric else 0, battle.id)


def league(battles: Sequence[Battle], match: Match) -> dict[str, LeagueLine]:
    """Each team's league line; the same whatever order the battles come in."""
    lines: dict[str, LeagueLine] = {}
    for battle in sorted(battles, key=battle_order):
        for team in (battle.team1, battle.team2):
            lines.setdefault(team, LeagueLine(team)).add(battle, match)
    return lines


# The two wordings of a league line's score, for the catalogue.
_SCORES = (
    _("%(points)s pt (%(record)s, %(questions)s)"),
    _("%(points)s pts (%(record)s, %(questions)s)"),
)


def _battle_note(
    line: LeagueLine, battle: Battle, clauses: tuple[str | None, str | None]
) -> Reason:
    mine, theirs, opponent = _sides(battle, line.team)
    known: dict[str, Value] = {"round": battle.round, "battle": battle.id, "opponent": opponent,
                               "score": f"{mine}:{theirs}"}  # fmt: skip
    result = (
        _("Round %(round)s, battle %(battle)s: beat %(opponent)s %(score)s", **known)
        if mine > theirs
        else _("Round %(round)s, battle %(battle)s: drew with %(opponent)s %(score)s", **known)
        if mine == theirs
        else _("Round %(round)s, battle %(battle)s: lost to %(opponent)s %(score)s", **known)
    )
    match_clause, sanction_clause = clauses
    if battle.sanctioned is not None:
        text = _("%(result)s, recorded as a loss for %(team)s under a sanction", result=result,
                 team=battle.sanctioned)  # fmt: skip
        return Reason(sanction_clause, text)
    return Reason(match_clause, result)


def _sanction_clause(rulebook: Rulebook) -> str | None:
    kinds = ((s.clause, e.kind) for s in rulebook.sanctions for e in s.effects)
    return next((clause for clause, kind in kinds if kind == "battle-loss"), None)


def league_entry(line: LeagueLine, clauses: tuple[str | None, str | None]) -> Entry:
    record = f"{line.won}–{line.drawn}–{line.lost}"
    return Entry(
        id=line.team,
        name=line.team,
        metrics={
            "match_points": line.match_points,
            "question_difference": line.question_difference,
            "played": line.played,
            "won": line.won,
            "drawn": line.drawn,
            "lost": line.lost,
            "questions_for": line.questions_for,
            "questions_against": line.questions_against,
        },
        score=Message(
            "%(points)s pt (%(record)s, %(questions)s)"
            if line.match_points == 1
            else "%(points)s pts (%(record)s, %(questions)s)",
            {
                "points": line.match_points.normalize(),
                "record": record,
                "questions": f"{line.questions_for}:{line.questions_against}",
            },
        ),
        notes=tuple(_battle_note(line, b, clauses) for b in line.battles),
        versus=dict(line.versus),
        points=line.match_points,
    )


def tables(rulebook: Rulebook, stage: Stage, rows: Sequence[RawRow]) -> list[Table]:
    if not isinstance(stage, HeadToHeadStage):
        raise TypeError(f"stage '{stage.key}' is a {stage.format} stage, not head-to-head")
    problems = Problems()
    require_columns(columns_of(rows), COLUMNS, problems)
    problems.raise_if_any()
    battles = read_battles(stage, rows, problems)
    problems.raise_if_any()
    clauses = (stage.match.clause, _sanction_clause(rulebook))
    if not stage.groups:
        entries = [league_entry(line, clauses) for line in league(battles, stage.match).values()]
        return [build_table("all", stage.title, entries, stage)]
    found = []
    for key in stage.groups:  # each group its own league, in the rulebook's order
        played = [b for b in battles if b.group == key]
        if played:
            lines = league(played, stage.match).values()
            entries = [league_entry(line, clauses) for line in lines]
            found.append(build_table(key, f"{stage.title} — group {key}", entries, stage))
    return found
