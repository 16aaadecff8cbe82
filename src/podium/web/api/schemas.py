"""The shapes the API reads and answers (its OpenAPI components).

Vocabulary:
- page: a slice of a long list — ``count`` (all of them), ``limit``, ``offset`` and ``items``.
- standings row: one row of the CLI's JSON (DESIGN §3, ``podium.engine.document.row_data``):
  places, points, class, score, metrics and reasons with their clauses; plus what the public
  table shows besides — ``number`` (the entry number; battles and superfinals name teams by
  label), ``next`` (the quota it is next for) and ``unverified``.
- cells: a result's columns as the CLI's results file names them (``time``, ``missing``,
  ``g1``…``g6``, ``questions``, ``mask``…), each as text.
- rolls: one bowling game as the scoresheet gives it (``X 7 / 9 - …``); the ten-pin scorer
  (``podium.engine.tenpin``) judges every roll and its total becomes the game's cell.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from ninja import Field, Schema
from pydantic import ConfigDict

MAX_NUMBER = 1_000_000


# No control characters in what is stored: a NUL cannot be stored in PostgreSQL text, and the
# others are typing slips. In the schema, so that clients (and schemathesis) know.
PRINTABLE = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"
Text = Annotated[str, Field(pattern=PRINTABLE)]
Cell = Annotated[str, Field(pattern=PRINTABLE, max_length=200)] | int | None
EntryNumber = Annotated[int, Field(ge=1, le=MAX_NUMBER)]


class Error(Schema):
    code: str = Field(examples=["refused"])
    message: str
    fields: dict[str, str] = Field(default_factory=dict)
    clause: str | None = None


# --- Reads -------------------------------------------------------------------------------------


class CategoryOut(Schema):
    key: str
    title: str


class EventOut(Schema):
    slug: str
    title: str
    rulebook: str
    status: str
    starts_at: dt.datetime
    timezone: str
    venue: str
    language: str
    categories: list[CategoryOut]


class EventPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[EventOut]


class RoundOut(Schema):
    number: int
    title: str
    starts_at: dt.datetime | None
    questions: int | None = Field(
        description="a ChGK tour's number of questions; null for a round of another stage"
    )
    state: str = Field(description="draft, preliminary or final")
    visible: bool = Field(description="whether the caller may read its standings")
    version: int | None = Field(description="the newest final version, when final")


class StageOut(Schema):
    key: str
    title: str
    format: str
    category: str | None
    groups: list[str]
    rounds: list[RoundOut]


class EntryOut(Schema):
    number: int
    name: str
    category: str
    group: str
    division: str
    squad: str | None
    table_number: int | None
    members: list[str]
    countries: list[str]


class EntryPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[EntryOut]


class ReasonOut(Schema):
    clause: str | None
    text: str


class OutlookOut(Schema):
    best: int = Field(description="the best final place (rank) still reachable")
    worst: int = Field(description="the worst final place (rank) still reachable")
    advances: str | None = Field(description="certain, open or out; null without advancement")
    exact: bool = Field(description="false where best and worst are bounds")
    needs: ReasonOut | None = Field(description="what it takes in the round left, if open")
    reasons: list[ReasonOut]


class StandingsRow(Schema):
    # The CLI's row keys exactly (``class`` too); any key a later engine adds is kept.
    model_config = ConfigDict(extra="allow", populate_by_name=True)

    id: str
    name: str
    table: str = ""
    rank: int
    rank_to: int
    official_rank: int | None = None
    official_rank_to: int | None = None
    points: int | float | None = None
    advances: bool = False
    pool: str | None = None
    playoff: bool = False
    prize: bool = False
    official: bool = True
    klass: str = Field("official", alias="class")
    score: str = ""
    metrics: dict[str, int | float | None] = Field(default_factory=dict)
    reasons: list[ReasonOut] = Field(default_factory=list)
    number: str = Field("", description="the entry number (teams of battles are named by label)")
    next: str = Field("", description="the advancement quota it is next for, if any")
    unverified: bool = False
    outlook: OutlookOut | None = Field(
        None, description="what can still happen to the row (live rounds; see podium --outlook)"
    )


class AbsentOut(Schema):
    """An entrant of the round without a result, at the foot of its table; it has no place."""

    id: str
    name: str
    table: str = ""
    status: Literal["dns", "dnf", "absent"] = Field(
        description="dns: did not start, dnf: did not finish, absent: did not come"
    )
    reasons: list[ReasonOut] = Field(
        default_factory=list,
        description="the clause that governs it (null: the rulebook is silent, Podium's default)",
    )


class TableOut(Schema):
    key: str
    title: str
    rows: list[StandingsRow]
    absent: list[AbsentOut] = Field(default_factory=list)


class VersionOut(Schema):
    version: int
    changed_at: dt.datetime
    reason: str


class StandingsOut(Schema):
    event: str
    rulebook: str
    stage: str
    round: int
    state: str = Field(description="draft (staff only), preliminary or final")
    version: int | None = Field(description="the frozen final version shown, when final")
    as_of: dt.datetime | None = Field(description="the moment a frozen table is as of")
    versions: list[VersionOut]
    tables: list[TableOut]
    problems: list[str] = Field(
        default_factory=list, description="why recorded results do not rank (token holders)"
    )
    draft_tours: list[int] = Field(
        default_factory=list, description="tours of a season table still in draft (staff)"
    )


# --- Writes ------------------------------------------------------------------------------------


class GameRolls(Schema):
    game: int = Field(ge=1, le=99, description="the game's number: 3 is column g3")
    rolls: Annotated[Text, Field(min_length=1, max_length=200, examples=["X 7 / 9 - X X X"])]


class ResultIn(Schema):
    """A result of an entry: its first record, or the next step (fills in empty columns)."""

    entry: EntryNumber = Field(description="the entry number")
    cells: dict[str, Cell] = Field(
        default_factory=dict, max_length=50, examples=[{"g1": "201", "g2": "187"}]
    )
    game: int | None = Field(None, ge=1, le=99, description="bowling: the game of ``rolls``")
    rolls: Annotated[Text, Field(max_length=200)] | None = None
    games: list[GameRolls] = Field(default_factory=list, max_length=20)


class CorrectionIn(Schema):
    """A changed value of the current result of an entry or an item, with a reason."""

    entry: EntryNumber | None = None
    item: Annotated[Text, Field(max_length=60, examples=["b1-3-7"])] | None = None
    cells: dict[str, Cell] = Field(default_factory=dict, max_length=50)
    game: int | None = Field(None, ge=1, le=99)
    rolls: Annotated[Text, Field(max_length=200)] | None = None
    games: list[GameRolls] = Field(default_factory=list, max_length=20)
    reason: Annotated[Text, Field(max_length=500)] = ""
    replaces: int | None = Field(
        None, ge=1, le=2**62, description="the result the client saw (refused if stale)"
    )


class FinishIn(Schema):
    """One tap "finished": the time is read off the round's clock now."""

    entry: EntryNumber
    missing: Annotated[Text, Field(max_length=20)] = ""
    compensation: Annotated[Text, Field(max_length=20)] = ""
    compensation_reason: Annotated[Text, Field(max_length=500)] = ""


class BattleIn(Schema):
    """A Brainball battle: the league round, the two teams by entry number, the score."""

    round: int = Field(ge=1, le=99, description="the round of the league")
    team1: EntryNumber
    team2: EntryNumber
    score1: Annotated[Text, Field(max_length=10)] | int
    score2: Annotated[Text, Field(max_length=10)] | int


class ResultOut(Schema):
    id: int
    stage: str
    round: int
    entry: int | None = Field(description="the entry number (null for a battle or question)")
    item: str
    kind: str = Field(description="record, progress or correction")
    cells: dict[str, str]
    detail: dict[str, Any]
    recorded_at: dt.datetime
    recorded_by: str | None
    corrects: int | None
    reason: str
    verified: bool


class ResultPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[ResultOut]
