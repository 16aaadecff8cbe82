"""The rulebook: a typed description of one competition's rules.

Vocabulary:
- rulebook: everything Podium needs to run one competition, as its organizer's document says it;
  ``Rulebook`` checks that its parts name each other rightly (stages, categories, appeals…).
- clause, interpretation, key, class: see ``podium.rules.schema.common``.
- category: a competition of its own within the event (individuals, pairs, teams); see
  ``podium.rules.schema.registration``, with eligibility, fees, cancellation and check-in.
- stage: one ranked table-producing round (a qualification, a final, a ChGK tour, a season); see
  ``podium.rules.schema.stages``, and ``podium.rules.schema.ranking`` for its criteria, points,
  quotas and prizes.
- group / division: the independent tables of one stage; see
  ``podium.rules.schema.classification``, with who is official.
- appeal, sanction, duty: see ``podium.rules.schema.discipline``.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field, model_validator

from podium.rules.schema.classification import Classification, Divisions
from podium.rules.schema.common import Key, Rule
from podium.rules.schema.discipline import Appeal, Duty, Sanction, Season
from podium.rules.schema.registration import (
    Cancellation,
    Category,
    CheckIn,
    Fee,
    NoShow,
    Registration,
)
from podium.rules.schema.stages import ChgkSeasonStage, GamesStage, Stage, SuperfinalStage


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
