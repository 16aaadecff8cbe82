"""Disputes and discipline: appeals, sanctions, the teams' duties and the season they apply in.

Vocabulary (see ``podium.rules.schema`` for the rulebook, ``podium.rules.schema.common`` for
clauses):
- appeal: a protest or appeal, who may file it, what it costs and when it is decided.
- sanction: what a breach of the rules does (its effects), e.g. a tour counted as 0.
- duty: something an entrant must do by a time (a host team hands in its tour's questions).
- season: when a championship of tours runs, and its middle tour (a ban may last until it).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from podium.rules.schema.common import Key, Money, Rule


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
