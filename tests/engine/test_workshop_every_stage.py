"""``simulate`` runs on every stage of every preset and every example rulebook (issue 23), and
each format's generator makes only results its own format accepts: a property test over seeds
and field sizes, the generated rows ranked by the engine as a results file would be."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from podium.engine import workshop
from podium.engine.compute import compute_standings
from podium.engine.workshop.fields import field_rows, registrations
from podium.engine.workshop.findings import Tally
from podium.rules import loader
from podium.rules.schema import Rulebook

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "rulebooks"
SOURCES = [*loader.PRESETS, *sorted(str(p) for p in EXAMPLES.glob("*.yaml"))]
BOOKS = {source: loader.load(source) for source in SOURCES}
# The club's rulebook with its league in two groups: a format's groups are generated too.
GROUPED = loader.preset_text("deti-kolomny").replace(
    "    format: head-to-head\n", "    format: head-to-head\n    groups: [A, B]\n", 1
)
BOOKS["deti-kolomny-grouped"] = loader.parse(GROUPED)
STAGES = [(source, stage.key) for source, book in BOOKS.items() for stage in book.stages]


def test_the_example_rulebooks_are_among_the_sources() -> None:
    assert any(source.endswith("wjpc-2024.yaml") for source in SOURCES)
    assert {BOOKS[s].stage(k).format for s, k in STAGES} >= {
        "timed-solve", "team-solve", "games", "chgk-tour", "chgk-season", "head-to-head",
        "superfinal",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("source", "stage"), STAGES, ids=[f"{Path(s).stem}/{k}" for s, k in STAGES]
)
def test_simulate_runs_on_every_stage(source: str, stage: str) -> None:
    report = workshop.simulate(BOOKS[source], stage, seed=3, runs=3)
    assert report.stage == stage
    assert report.preview.tables, f"{source}/{stage} ranked nobody"


def _generated(book: Rulebook, key: str, seed: int, entrants: int) -> int:
    """Ranks one generated field of the stage; the number of rows ranked."""
    stage = book.stage(key)
    rng = random.Random(seed)
    tally = Tally()
    size = min(entrants, workshop.FIELD_MAX.get(stage.format, entrants))
    field = registrations(book, stage, size, rng, tally, 0)
    rows = field_rows(book, stage, field, rng, tally, 0)
    standings = compute_standings(book, key, rows)  # an InputError fails the property
    return sum(len(t.rows) for t in standings.tables)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.sampled_from(STAGES),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    entrants=st.integers(min_value=2, max_value=40),
)
def test_every_generator_makes_results_its_format_accepts(
    which: tuple[str, str], seed: int, entrants: int
) -> None:
    source, key = which
    assert _generated(BOOKS[source], key, seed, entrants) > 0


@pytest.mark.parametrize("seed", range(20))
def test_the_wjpc_team_stage_generates_pieces_summed_rows_it_accepts(seed: int) -> None:
    """The stage the issue names: pieces summed over all puzzles, never fewer than the
    finished puzzles hold (it failed with "348 pieces is less than the 1000 of the 1 finished
    puzzles")."""
    book = BOOKS[next(s for s in SOURCES if s.endswith("wjpc-2024.yaml"))]
    assert _generated(book, "team-round", seed, 30) > 0


def test_a_grouped_league_simulates_group_by_group() -> None:
    """A head-to-head stage with groups: the generator plays a league in each group, with the
    battle's group column its format needs."""
    book = BOOKS["deti-kolomny-grouped"]
    report = workshop.simulate(book, "brainball", entrants=8, seed=5, runs=3)
    assert [t.key for t in report.preview.tables] == ["A", "B"]
    assert [len(t.rows) for t in report.preview.tables] == [4, 4]


@pytest.mark.parametrize("entrants", [2, 3])
def test_a_grouped_league_too_small_for_every_group_still_plays(entrants: int) -> None:
    """Two or three teams cannot fill two groups: they play in the first."""
    assert _generated(BOOKS["deti-kolomny-grouped"], "brainball", 1, entrants) == entrants
