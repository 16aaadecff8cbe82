"""The rulebook workshop: a dry run of a stage, deterministic for its seed, citing real clauses."""

from __future__ import annotations

import time
from typing import Any

import pytest

from podium.engine import workshop
from podium.engine.errors import InputError
from podium.engine.validate import check_rulebook
from podium.rules import loader
from podium.rules.schema import Rulebook

PRESET_STAGES = [
    (preset, stage.key) for preset in loader.PRESETS for stage in loader.load(preset).stages
]


def strings_in(value: Any) -> set[str]:
    """Every text anywhere in a rulebook's data: its clauses among them."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize(("preset", "stage"), PRESET_STAGES)
def test_every_preset_stage_runs_in_bounded_time_citing_its_own_clauses(
    preset: str, stage: str
) -> None:
    rulebook = loader.load(preset)
    started = time.process_time()  # CPU time: a busy machine stretches the wall clock
    report = workshop.simulate(rulebook, stage, seed=7)
    cpu = time.process_time() - started
    assert cpu < 2.0, f"{preset}/{stage} took {cpu:.2f} s of CPU time"
    assert report.runs == workshop.DEFAULT_RUNS
    assert report.entrants == workshop.default_entrants(rulebook, rulebook.stage(stage))
    assert report.preview.stage == stage
    assert report.preview.tables
    assert all(table.rows for table in report.preview.tables)
    known = strings_in(rulebook.model_dump())
    for clause in report.clauses():
        assert clause in known, f"{preset}/{stage} cites a clause not in the rulebook: {clause}"
    for finding in report.findings:
        assert 1 <= finding.runs <= report.runs
        assert finding.times >= finding.runs


def test_the_same_seed_gives_the_same_report_and_another_seed_another() -> None:
    rulebook = loader.load("cz-jigsaw")
    first = workshop.as_data(workshop.simulate(rulebook, "individual-qualification", seed=3))
    again = workshop.as_data(workshop.simulate(rulebook, "individual-qualification", seed=3))
    other = workshop.as_data(workshop.simulate(rulebook, "individual-qualification", seed=4))
    assert first == again
    assert first != other
    team = workshop.describe(workshop.simulate(rulebook, "team", seed=3))
    assert team == workshop.describe(workshop.simulate(rulebook, "team", seed=3))


def test_the_default_field_is_the_category_cap_and_the_report_names_the_stage() -> None:
    rulebook = loader.load("cz-jigsaw")
    report = workshop.simulate(rulebook, "pair-qualification", seed=1, runs=2)
    assert report.entrants == 120  # the pairs' cap of 120
    lines = workshop.describe(report)
    assert lines[0] == "cz-jigsaw, stage pair-qualification: 2 runs of 120 entrants, seed 1"
    foreign = [f for f in report.findings if f.kind == "outside"]
    assert foreign
    assert foreign[0].clause == rulebook.classification.domestic.clause


TIGHT = """\
key: tight
title: A three-question tour
language: en
source: a test
registration:
  cap: 20
  clause: "R1: at most 20 teams"
categories:
  - key: teams
    title: Teams
    entrants: {kind: team, min_size: 1, max_size: 6}
stages:
  - key: tour
    title: Tour
    format: chgk-tour
    category: teams
    questions: 3
    ranking:
      clause: "R2: more questions rank higher"
      criteria: [{key: questions}]
    advancement:
      to: next
      ties_at_cut: organizer-decides
      ties_clause: "R3: on a tie at the cut the organizer decides"
      pools:
        - {key: best, label: best teams, classes: [official], count: 4, clause: "R4: four go on"}
        - {key: many, label: many teams, classes: [official], count: 50, clause: "R5: fifty"}
  - key: next
    title: Next tour
    format: chgk-tour
    category: teams
    questions: 3
    ranking:
      criteria: [{key: questions}]
"""


def tight() -> Rulebook:
    rulebook = loader.parse(TIGHT, "tight.yaml")
    assert check_rulebook(rulebook) == []
    return rulebook


def test_a_tie_at_the_cut_a_full_registration_and_an_unfilled_quota_are_counted() -> None:
    report = workshop.simulate(tight(), "tour", entrants=25, seed=5, runs=4)
    found = {f.kind: f for f in report.findings}
    # 25 register, 20 fit: 5 each run past the cap.
    assert found["waiting-list"].clause == "R1: at most 20 teams"
    assert (found["waiting-list"].runs, found["waiting-list"].times) == (4, 20)
    assert str(found["waiting-list"].message) == (
        "Registration full at 20: later entrants wait or are turned away"
    )
    # Twenty teams on three questions: the 4th place is always shared.
    tie = found["tie-at-cut"]
    assert tie.clause == "R3: on a tie at the cut the organizer decides"
    assert tie.runs == 4
    assert str(tie.message) == "A tie crossed the cut of best teams (Tour): the organizer decides"
    quota = found["quota-unfilled"]
    assert (quota.clause, quota.runs, quota.times) == ("R5: fifty", 4, 4)
    assert str(quota.message) == "The quota of 50 many teams (Tour) could not be filled"
    assert report.clauses()
    assert set(report.clauses()) <= strings_in(tight().model_dump())


def test_an_unknown_stage_or_a_field_out_of_bounds_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        workshop.simulate(tight(), "final")
    assert str(caught.value.problems[0]) == "--stage: unknown stage 'final' in tight (tour, next)"
    with pytest.raises(ValueError, match="entrants must be 2–1000"):
        workshop.simulate(tight(), "tour", entrants=5000)
    with pytest.raises(ValueError, match="runs must be 1–200"):
        workshop.simulate(tight(), "tour", runs=0)


def test_the_largest_simulation_stays_bounded() -> None:
    rulebook = loader.load("cz-jigsaw")
    started = time.process_time()
    workshop.simulate(rulebook, "individual-qualification", entrants=workshop.MAX_ENTRANTS, runs=20)
    cpu = time.process_time() - started
    assert cpu < 10.0, f"took {cpu:.2f} s of CPU time"


def test_a_league_and_a_superfinal_take_only_as_many_as_can_play() -> None:
    rulebook = loader.load("deti-kolomny")
    league = workshop.simulate(rulebook, "brainball", entrants=50, seed=2, runs=1)
    assert league.entrants == 20
    assert len(league.preview.tables[0].rows) == 20
    final = workshop.simulate(rulebook, "superfinal", seed=2, runs=1)
    assert final.entrants == 2
    assert len(final.preview.tables[0].rows) == 2
