"""The rulebook: a typed description of one competition's rules.

Vocabulary:
- rulebook: everything Podium needs to run one competition, as its organizer's document says it.
- clause: the paragraph of the original document a setting encodes, quoted short in its language, so
  every decision Podium makes can cite it. Any setting may carry one.
- interpretation: where the original is silent or ambiguous and we decided; the rulebook says so.
- category: a competition of its own within the event (individuals, pairs, teams).
- stage: one ranked table-producing round (a qualification, a final, a ChGK tour, a season).
- group / division: the independent tables of one stage (qualification groups A and B; bowling
  divisions such as ``master-men``).
- criterion: a named way to order entrants (``time``, ``pieces``, ``total``…); a stage lists them.
- class: why an entrant is in or outside the official competition (``official``, ``foreign``,
  ``already-qualified``, ``unscored``, ``ineligible``); advancement quotas name classes.
- pool: one advancement quota, e.g. "50 fastest Czechs per group".
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Key = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60)]
TableKey = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9-]*$", max_length=60)]
Fraction01 = Annotated[Decimal, Field(ge=0, le=1)]
Currency = Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
Country = Annotated[str, Field(pattern=r"^[A-Z]{2}$")]

CLASSES = ("official", "foreign", "already-qualified", "unscored", "ineligible")
EntrantClass = Literal["official", "foreign", "already-qualified", "unscored", "ineligible"]


class Rule(BaseModel):
    """A setting that may cite its clause and say where it is our interpretation."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    clause: str | None = None
    interpretation: str | None = None


class Money(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    amount: Annotated[Decimal, Field(ge=0)]
    currency: Currency


# --- Who enters -----------------------------------------------------------------------------


class Entrants(Rule):
    """Who one entry is: a person, a pair or a team, and its roster limits."""

    kind: Literal["individual", "pair", "team"]
    min_size: Annotated[int, Field(ge=1)] = 1
    max_size: Annotated[int, Field(ge=1)] = 1
    roster_max: Annotated[int, Field(ge=1)] | None = None
    at_table_max: Annotated[int, Field(ge=1)] | None = None
    players_added_any_time: bool = False
    players_removed: bool = True
    one_team_per_person: bool = False
    substitutions: Literal["none", "between-tours", "any-time"] = "none"

    @model_validator(mode="after")
    def _sizes(self) -> Entrants:
        if self.min_size > self.max_size:
            raise ValueError("min_size is larger than max_size")
        if self.kind == "individual" and self.max_size != 1:
            raise ValueError("an individual entry has exactly one member")
        if self.kind == "pair" and (self.min_size, self.max_size) != (2, 2):
            raise ValueError("a pair has exactly two members (min_size: 2, max_size: 2)")
        return self


class MinAge(Rule):
    kind: Literal["min-age"]
    age: Annotated[int, Field(ge=0, le=120)]
    on: Literal["event-day"] | dt.date = "event-day"


class BornOnOrBefore(Rule):
    kind: Literal["born-on-or-before"]
    date: dt.date


class AccompaniedUnder(Rule):
    """Entrants younger than ``age`` may take part only with an accompanying adult."""

    kind: Literal["accompanied-under"]
    age: Annotated[int, Field(ge=1, le=120)]
    on: Literal["event-day"] | dt.date = "event-day"


Eligibility = Annotated[MinAge | BornOnOrBefore | AccompaniedUnder, Field(discriminator="kind")]


class Registration(Rule):
    cap: Annotated[int, Field(ge=1)] | None = None
    opens: dt.date | None = None
    closes: dt.date | None = None
    late_entries: Literal["no", "while-room"] = "no"
    approval_required: bool = False
    approval_assigns_table: bool = False
    waiting_list: bool = True
    channels: tuple[str, ...] = ()
    eligibility: tuple[Eligibility, ...] = ()

    @model_validator(mode="after")
    def _window(self) -> Registration:
        if self.opens and self.closes and self.opens > self.closes:
            raise ValueError("registration closes before it opens")
        return self


class Category(Rule):
    """A competition of its own within the event, with its own entrants and cap."""

    key: Key
    title: str
    entrants: Entrants
    cap: Annotated[int, Field(ge=1)] | None = None
    prizes: Prizes | None = None


# --- Who is official ------------------------------------------------------------------------


class Domestic(Rule):
    """Only entrants registered at an address in ``country`` compete for the title."""

    country: Country
    team_rule: Literal["all", "any", "majority"] = "all"
    team_rule_clause: str | None = None


class Classification(Rule):
    """Who competes officially; everyone else is shown with an overall position only."""

    domestic: Domestic | None = None
    already_qualified: Rule | None = None
    unscored: Rule | None = None
    ineligible: Rule | None = None


class Division(Rule):
    key: TableKey
    title: str
    gender: Literal["M", "F"] | None = None
    average_min: Decimal | None = None
    average_max: Decimal | None = None
    fallback: bool = False


class Divisions(Rule):
    """Independent tables by gender and by ladder average as of a reference date."""

    reference_date: dt.date | None = None
    items: tuple[Division, ...]
    fallback_clause: str | None = None

    @model_validator(mode="after")
    def _fallbacks(self) -> Divisions:
        keys = [d.key for d in self.items]
        if len(set(keys)) != len(keys):
            raise ValueError("division keys repeat")
        for gender in {d.gender for d in self.items}:
            # An entrant not on the ladder goes to the fallback: each gender needs exactly one.
            if sum(d.fallback for d in self.items if d.gender == gender) != 1:
                raise ValueError(f"gender {gender} needs exactly one fallback division")
        return self


# --- Money, dates and desks -----------------------------------------------------------------


class Fee(Rule):
    key: Key
    title: str
    price: Money
    per: Literal["entry", "player"] = "entry"
    due: str
    payment: Literal["cash-at-check-in", "before-tour", "online", "any"] = "any"
    unpaid: Literal["not-admitted", "owed"] = "owed"


class CancellationTier(Rule):
    """Cancelling at least ``days_before`` days before the start refunds and owes these shares."""

    days_before: Annotated[int, Field(ge=0)]
    refund: Fraction01 = Decimal(0)
    owed: Fraction01 = Decimal(0)


class Cancellation(Rule):
    reference: Literal["event", "squad"] = "event"
    tiers: tuple[CancellationTier, ...]

    @field_validator("tiers")
    @classmethod
    def _tiers(cls, tiers: tuple[CancellationTier, ...]) -> tuple[CancellationTier, ...]:
        days = [t.days_before for t in tiers]
        if days != sorted(days, reverse=True) or len(set(days)) != len(days):
            raise ValueError("tiers must be listed from the most days before to the fewest")
        if not days or days[-1] != 0:
            raise ValueError("the last tier must have days_before: 0 (a cancellation at any time)")
        return tiers


class CheckIn(Rule):
    opens_before_min: Annotated[int, Field(ge=0)] | None = None
    closes_before_min: Annotated[int, Field(ge=0)] | None = None


class NoShow(Rule):
    after_start_min: Annotated[int, Field(ge=0)]
    seat_to: Literal["waiting-list", "organizer"] = "waiting-list"
    refund: bool = False


# --- Ranking and advancement ----------------------------------------------------------------


class CriterionRef(Rule):
    key: Key


class Playoff(Rule):
    """Ties for these places, still equal after ``after``, are settled by a play-off (an extra
    match of ``questions`` questions, where it is one)."""

    places: tuple[Annotated[int, Field(ge=1)], Annotated[int, Field(ge=1)]]
    after: Key
    method: str
    questions: Annotated[int, Field(ge=1)] | None = None


class Ranking(Rule):
    criteria: tuple[CriterionRef, ...] = Field(min_length=1)
    playoff: Playoff | None = None

    @field_validator("criteria", mode="before")
    @classmethod
    def _keys_as_refs(cls, value: object) -> object:
        if isinstance(value, list | tuple):
            return [{"key": v} if isinstance(v, str) else v for v in value]
        return value

    @model_validator(mode="after")
    def _playoff_after_known(self) -> Ranking:
        keys = [c.key for c in self.criteria]
        if len(set(keys)) != len(keys):
            raise ValueError("a criterion is listed twice")
        if self.playoff and self.playoff.after not in keys:
            raise ValueError(f"playoff.after '{self.playoff.after}' is not among the criteria")
        return self


class Points(Rule):
    """Points per official place; places shared by a tie share their points."""

    per_place: tuple[Decimal, ...] = Field(min_length=1)
    decimals: Annotated[int, Field(ge=0, le=6)] = 3


class Pool(Rule):
    """One advancement quota: the best ``count`` entrants of these classes in each table."""

    key: Key
    label: str
    classes: tuple[EntrantClass, ...] = Field(min_length=1)
    count: Annotated[int, Field(ge=0)]


class Advancement(Rule):
    to: str | None = None
    pools: tuple[Pool, ...] = ()
    pools_by_table: dict[TableKey, tuple[Pool, ...]] = {}
    ties_at_cut: Literal["all-advance", "organizer-decides"] = "all-advance"
    ties_clause: str | None = None

    def pools_for(self, table: str) -> tuple[Pool, ...]:
        return self.pools_by_table.get(table, self.pools)


class Prizes(Rule):
    places: Annotated[int, Field(ge=1)]
    official_only: bool = True


# --- Recording and publishing results -------------------------------------------------------


class Recording(Rule):
    """How a result recorded at the table becomes official.

    ``verification`` (its clause is the setting's own): ``second-entry`` — another referee enters
    the same result independently and the two must match (a mismatch goes to the head referee);
    ``head-referee`` — the head referee confirms it. ``competitor_confirms``: the competitor
    agrees with the recorded result on the referee's device; with ``agreed_is_final`` no later
    claim is heard, and only the head referee may still correct it, with a reason.
    """

    verification: Literal["second-entry", "head-referee"] = "head-referee"
    competitor_confirms: bool = False
    agreed_is_final: bool = False
    agreement_clause: str | None = None

    @model_validator(mode="after")
    def _agreement(self) -> Recording:
        if self.agreed_is_final and not self.competitor_confirms:
            raise ValueError("agreed_is_final needs competitor_confirms: true")
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


# --- Disputes and discipline ----------------------------------------------------------------


class Appeal(Rule):
    """A protest or appeal: who may file it, what it costs, and when it is decided."""

    key: Key
    title: str
    kinds: tuple[Key, ...] = ()
    one_kind_per_question: bool = False
    filed_by: Literal["player", "team", "entrant"] = "entrant"
    filed_with: str
    form: Literal["written", "any"] = "written"
    fee: Money | None = None
    fee_is_deposit: bool = False
    refunded_if_upheld: bool = True
    forfeited_if_rejected: bool = True
    file_within_days: Annotated[int, Field(ge=0)] | None = None
    verdict_within_days: Annotated[int, Field(ge=0)] | None = None
    decided_on_site: bool = False
    jury_size: Annotated[int, Field(ge=1)] | None = None
    anonymous: bool = False
    jury_may_play: bool = True
    further_appeal_to: str | None = None
    final: bool = False


class Effect(Rule):
    kind: Literal[
        "tour-result-zero",
        "battle-loss",
        "player-disqualified",
        "team-disqualified",
        "not-admitted",
        "warning",
        "expulsion",
        "fine",
        "results-kept",
        "results-annulled",
    ]
    discipline: Literal["chgk", "brainball"] | None = None
    score: str | None = None
    until: str | None = None
    scope: str | None = None


class Sanction(Rule):
    key: Key
    when: str
    effects: tuple[Effect, ...] = Field(min_length=1)


class Duty(Rule):
    key: Key
    who: str
    what: str
    minimum: Annotated[int, Field(ge=0)] | None = None
    days_before: Annotated[int, Field(ge=0)] | None = None


class Season(Rule):
    starts: str
    ends: str
    middle_tour: str | None = None


# --- The rulebook ---------------------------------------------------------------------------


class Rulebook(Rule):
    key: Key
    title: str
    language: Literal["cs", "it", "ru", "en"]
    source: str
    timezone: str = "UTC"
    event_date: dt.date | None = None
    categories: tuple[Category, ...] = Field(min_length=1)
    registration: Registration = Registration()
    classification: Classification = Classification()
    divisions: Divisions | None = None
    fees: tuple[Fee, ...] = ()
    cancellation: Cancellation | None = None
    check_in: CheckIn | None = None
    no_show: NoShow | None = None
    stages: tuple[Stage, ...] = Field(min_length=1)
    appeals: tuple[Appeal, ...] = ()
    sanctions: tuple[Sanction, ...] = ()
    duties: tuple[Duty, ...] = ()
    season: Season | None = None
    notes: tuple[Rule, ...] = ()

    @model_validator(mode="after")
    def _references(self) -> Rulebook:
        categories = {c.key for c in self.categories}
        stages = [s.key for s in self.stages]
        if len(set(stages)) != len(stages):
            raise ValueError("stage keys repeat")
        if len(categories) != len(self.categories):
            raise ValueError("category keys repeat")
        divisions = {d.key for d in self.divisions.items} if self.divisions else set()
        for stage in self.stages:
            if stage.category is not None and stage.category not in categories:
                raise ValueError(f"stage '{stage.key}': unknown category '{stage.category}'")
            if isinstance(stage, ChgkSeasonStage) and stage.tour not in stages:
                raise ValueError(f"stage '{stage.key}': unknown tour stage '{stage.tour}'")
            if isinstance(stage, SuperfinalStage):
                for key in stage.winners_of:
                    if key not in stages or key == stage.key:
                        raise ValueError(
                            f"stage '{stage.key}': unknown stage '{key}' in winners_of"
                        )
            to = stage.advancement.to if stage.advancement else None
            if to is not None and (to not in stages or to == stage.key):
                raise ValueError(f"stage '{stage.key}': advancement to unknown stage '{to}'")
            appeals = {a.key for a in self.appeals}
            for key in stage.publication.final_after:
                if key not in appeals:
                    raise ValueError(f"stage '{stage.key}': unknown appeal '{key}' in final_after")
            if isinstance(stage, GamesStage) and stage.tables_by == "division" and not divisions:
                raise ValueError(f"stage '{stage.key}' is split by division, but none are defined")
            if stage.advancement:
                known = set(stage.groups) | divisions | {"all"}
                for table in stage.advancement.pools_by_table:
                    if table not in known:
                        raise ValueError(f"stage '{stage.key}': unknown table '{table}' in quotas")
        return self

    def stage(self, key: str) -> Stage:
        for stage in self.stages:
            if stage.key == key:
                return stage
        raise KeyError(key)

    def category(self, key: str | None) -> Category:
        for category in self.categories:
            if category.key == key:
                return category
        return self.categories[0]


Category.model_rebuild()
