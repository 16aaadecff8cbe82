"""Stages: the settings every stage shares, and those of each format.

Vocabulary (see ``podium.rules.schema`` for the rulebook, ``podium.rules.schema.common`` for
clauses):
- stage: one ranked table-producing round (a qualification, a final, a ChGK tour, a season); its
  ``format`` says how it is scored, and picks its settings.
- recording: how a result recorded at the table becomes official.
- publication: when a stage's results may be shown as preliminary, and when they become final.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from podium.rules.schema.common import Key, Rule, TableKey
from podium.rules.schema.ranking import Advancement, Points, Prizes, Ranking

# --- Recording and publishing results -------------------------------------------------------

# Who may confirm a result (``Recording.confirmed_by``): the roles of an event's staff.
Confirmer = Literal["head-referee", "organizer", "jury"]


class Recording(Rule):
    """How a result recorded at the table becomes official.

    ``verification`` (its clause is the setting's own): ``second-entry`` — another referee enters
    the same result independently and the two must match (a mismatch goes to the head referee);
    ``head-referee`` — the head referee confirms it. ``competitor_confirms``: the competitor
    agrees with the recorded result on the referee's device; with ``agreed_is_final`` no later
    claim is heard, and only the head referee may still correct it, with a reason.
    ``confirmed_by``: who may confirm a result under ``head-referee`` verification (never the
    person who recorded it) — head referees, organizers, jury members; the default, where the
    rulebook is silent, is a head referee or an organizer. ``confirmation_clause`` cites where
    the rulebook says so (a live-run superfinal confirmed by the jury, say).
    """

    verification: Literal["second-entry", "head-referee"] = "head-referee"
    competitor_confirms: bool = False
    agreed_is_final: bool = False
    agreement_clause: str | None = None
    confirmed_by: tuple[Confirmer, ...] = ("head-referee", "organizer")
    confirmation_clause: str | None = None

    @model_validator(mode="after")
    def _agreement(self) -> Recording:
        if self.agreed_is_final and not self.competitor_confirms:
            raise ValueError("agreed_is_final needs competitor_confirms: true")
        if not self.confirmed_by:
            raise ValueError("confirmed_by names at least one role")
        if len(set(self.confirmed_by)) != len(self.confirmed_by):
            raise ValueError("confirmed_by names a role twice")
        return self


class PublicationRules(Rule):
    """When a stage's results may be shown as preliminary and when they may become final.

    ``preliminary_after_days``: not before that many calendar days after the day of the round
    (ChGK: the day after the tour). ``final_after``: the keys of the appeals whose filing window
    must have closed (and whose verdicts must all be in) before the results are final.
    """

    preliminary_after_days: Annotated[int, Field(ge=0)] | None = None
    final_after: tuple[Key, ...] = ()


# --- Stages ---------------------------------------------------------------------------------


class StageBase(Rule):
    key: Key
    title: str
    category: Key | None = None
    groups: tuple[TableKey, ...] = ()
    ranking: Ranking
    points: Points | None = None
    advancement: Advancement | None = None
    prizes: Prizes | None = None
    recording: Recording = Recording()
    publication: PublicationRules = PublicationRules()

    @field_validator("groups")
    @classmethod
    def _unique_groups(cls, groups: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(groups)) != len(groups):
            raise ValueError("group keys repeat")
        return groups


class PieceCounting(Rule):
    """How an unfinished puzzle is counted.

    ``groups-of-at-least``: only pieces in joined groups of at least ``size`` pieces count (the
    referee may give the group sizes and Podium adds them up). ``joined-to-at-least``: only pieces
    joined to at least ``size`` other pieces count; the referee gives the count.
    """

    method: Literal["groups-of-at-least", "joined-to-at-least"] = "groups-of-at-least"
    size: Annotated[int, Field(ge=1)] = 3


class TimedSolveStage(StageBase):
    """One puzzle against the clock.

    ``compensation``: when set, time lost through no fault of the competitor (a faulty puzzle
    replaced) may be credited back: a result then carries the time compensated and its reason.
    """

    format: Literal["timed-solve"]
    time_limit_min: Annotated[int, Field(ge=1)]
    pieces: Annotated[int, Field(ge=1)]
    missing_piece_penalty_s: Annotated[int, Field(ge=0)] = 0
    penalty_clause: str | None = None
    piece_counting: PieceCounting = PieceCounting()
    compensation: Rule | None = None


class TeamUnfinished(Rule):
    """How a team that did not finish every puzzle is measured.

    ``puzzles-done``: the row gives how many puzzles were finished (``done``) and the pieces
    counted on the puzzle in progress (at most the biggest puzzle); rank with ``puzzles-done``
    before ``pieces``. ``pieces-summed``: the row gives the pieces placed on all puzzles together
    (at most the puzzles' pieces added up), finished ones included; ``done`` may be left out,
    and ``finished`` ranks the teams that finished every puzzle first. Either way the time of a
    team that did not finish every puzzle is read by no criterion, so it may be left blank.
    """

    method: Literal["puzzles-done", "pieces-summed"] = "puzzles-done"


class TeamSolveStage(StageBase):
    """Several puzzles in an order the team chooses, one in progress at a time."""

    format: Literal["team-solve"]
    time_limit_min: Annotated[int, Field(ge=1)]
    puzzles: tuple[Annotated[int, Field(ge=1)], ...] = Field(min_length=2)
    missing_piece_penalty_s: Annotated[int, Field(ge=0)] = 0
    penalty_clause: str | None = None
    piece_counting: PieceCounting = PieceCounting()
    unfinished: TeamUnfinished = TeamUnfinished()


class GamesStage(StageBase):
    format: Literal["games"]
    games: Annotated[int, Field(ge=1, le=30)]
    blocks: tuple[Annotated[int, Field(ge=1)], ...] = ()
    tables_by: Literal["division", "group", "none"] = "division"
    lanes: Rule | None = None
    re_entry: bool = False

    @model_validator(mode="after")
    def _blocks(self) -> GamesStage:
        if self.blocks and sum(self.blocks) != self.games:
            raise ValueError(f"blocks add up to {sum(self.blocks)}, not to {self.games} games")
        return self


class ChgkTourStage(StageBase):
    """``questions``: a tour's length when its results do not say it. With ``max_questions``
    each tour takes the length of its masks (1 to ``max_questions``), so one rulebook serves
    tournaments of 12-, 15- or 18-question tours; a tour given by counts only is checked
    against ``max_questions``."""

    format: Literal["chgk-tour"]
    questions: Annotated[int, Field(ge=1)]
    max_questions: Annotated[int, Field(ge=1)] | None = None

    @model_validator(mode="after")
    def _longest(self) -> ChgkTourStage:
        if self.max_questions is not None and self.max_questions < self.questions:
            raise ValueError(
                f"max_questions {self.max_questions} is less than questions {self.questions}"
            )
        return self


class ChgkSeasonStage(StageBase):
    format: Literal["chgk-season"]
    tour: Key
    absent_place: Literal["after-last"] = "after-last"
    absent_clause: str | None = None


class Match(Rule):
    questions: Annotated[int, Field(ge=1)]
    win: Decimal = Decimal(2)
    draw: Decimal = Decimal(1)
    loss: Decimal = Decimal(0)


class HeadToHeadStage(StageBase):
    format: Literal["head-to-head"]
    match: Match
    rounds: Annotated[int, Field(ge=1)] = 1


class SuperfinalStage(StageBase):
    """A match between the winners of ``winners_of`` (stage keys), when they are not one team."""

    format: Literal["superfinal"]
    sequence: tuple[tuple[Literal["chgk", "brainball"], Annotated[int, Field(ge=1)]], ...]
    decider: tuple[Literal["chgk", "brainball"], ...] = Field(min_length=1)
    winners_of: tuple[Key, ...] = ()
    winners_clause: str | None = None


Stage = Annotated[
    TimedSolveStage
    | TeamSolveStage
    | GamesStage
    | ChgkTourStage
    | ChgkSeasonStage
    | HeadToHeadStage
    | SuperfinalStage,
    Field(discriminator="format"),
]
