"""The rulebook workshop: a dry run of one stage on made-up but plausible entrants.

Vocabulary:
- simulation: ``runs`` fields of ``entrants`` each, made from one seed (``random.Random``, never
  the global generator), ranked by the engine exactly as real results would be.
- field: one run's entrants and their raw rows (``podium.engine.workshop.fields``).
- finding: something the rules had to decide in a run, with its clause
  (``podium.engine.workshop.findings``).
- report: every finding with the number of runs it happened in and how often in all, and the
  standings of the first run as a preview.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from podium.engine.compute import compute_standings
from podium.engine.messages import Message, _, ngettext
from podium.engine.standings import Standings
from podium.engine.workshop.fields import field_rows, registrations
from podium.engine.workshop.findings import Finding, Tally, read_table
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import Stage

DEFAULT_ENTRANTS = 60
CLAUSE = _("clause")  # the label before a finding's clause in the text report
DEFAULT_TEAMS = 16  # a club's league: every team meets every other
DEFAULT_RUNS = 10
FIELD_MAX = {"head-to-head": 20, "superfinal": 2}
MAX_ENTRANTS = 1000
MAX_RUNS = 200


@dataclass(frozen=True, slots=True)
class Report:
    rulebook: str
    stage: str
    entrants: int
    seed: int
    runs: int
    findings: tuple[Finding, ...]
    preview: Standings

    def clauses(self) -> list[str]:
        """Every clause the report cites, once each."""
        return list(dict.fromkeys(f.clause for f in self.findings if f.clause))


def simulate(
    rulebook: Rulebook,
    stage_key: str,
    *,
    entrants: int | None = None,
    seed: int = 0,
    runs: int = DEFAULT_RUNS,
) -> Report:
    """The dry run of one stage; raises ``InputError`` for an unknown stage (as standings do)
    and ``ValueError`` for counts out of bounds. ``entrants``: by default the cap of the
    stage's category (the field the rulebook plans for), else ``DEFAULT_ENTRANTS``."""
    stage = next((s for s in rulebook.stages if s.key == stage_key), None)
    if stage is None:
        compute_standings(rulebook, stage_key, [])  # says which stages there are
        raise AssertionError("unreachable")
    if entrants is None:
        entrants = default_entrants(rulebook, stage)
    if not 2 <= entrants <= MAX_ENTRANTS:
        raise ValueError(f"entrants must be 2–{MAX_ENTRANTS}")
    if not 1 <= runs <= MAX_RUNS:
        raise ValueError(f"runs must be 1–{MAX_RUNS}")
    # Only so many can play: a league plays every pair (a club's size), a superfinal two teams.
    entrants = min(entrants, FIELD_MAX.get(stage.format, entrants))
    rng = random.Random(seed)
    tally = Tally()
    preview: Standings | None = None
    for run in range(runs):
        field = registrations(rulebook, stage, entrants, rng, tally, run)
        rows = field_rows(rulebook, stage, field, rng, tally, run)
        standings = compute_standings(rulebook, stage_key, rows)
        for table in standings.tables:
            read_table(stage, table, tally, run)
        if preview is None:
            preview = standings
    assert preview is not None
    return Report(rulebook.key, stage_key, entrants, seed, runs, tally.findings(), preview)


def default_entrants(rulebook: Rulebook, stage: Stage) -> int:
    """The cap of the stage's category or of the registration, else ``DEFAULT_TEAMS`` for
    teams and ``DEFAULT_ENTRANTS`` for the rest; never more than the format lets play."""
    category = rulebook.category(stage.category) if stage.category else None
    caps = [c for c in (rulebook.registration.cap, category.cap if category else None) if c]
    teams = category is not None and category.entrants.kind == "team"
    planned = min(caps) if caps else DEFAULT_TEAMS if teams else DEFAULT_ENTRANTS
    return min(planned, FIELD_MAX.get(stage.format, planned))


def as_data(report: Report, render: Callable[[Message], str] = str) -> dict[str, object]:
    """The report as JSON data; ``render`` writes each message (English by default)."""
    return {
        "rulebook": report.rulebook,
        "stage": report.stage,
        "entrants": report.entrants,
        "seed": report.seed,
        "runs": report.runs,
        "findings": [
            {
                "kind": f.kind,
                "runs": f.runs,
                "times": f.times,
                "text": render(f.message),
                "clause": f.clause,
            }
            for f in report.findings
        ],
    }


def describe(report: Report, render: Callable[[Message], str] = str) -> list[str]:
    """The report as lines of text (what the CLI prints)."""
    lines = [
        render(_("%(rulebook)s, stage %(stage)s: %(runs)s runs of %(entrants)s entrants, seed "
                 "%(seed)s", rulebook=report.rulebook, stage=report.stage, runs=report.runs,
                 entrants=report.entrants, seed=report.seed))
    ]  # fmt: skip
    if not report.findings:
        lines.append(render(_("Nothing the rules had to decide: no ties at a cut, no unfilled "
                              "quota, no play-off, no one refused")))  # fmt: skip
    for f in report.findings:
        counted = ngettext("in %(runs)s of %(all)s runs, once in all",
                           "in %(runs)s of %(all)s runs, %(n)s times in all", f.times,
                           runs=f.runs, all=report.runs)  # fmt: skip
        lines.append(f"- {render(f.message)} — {render(counted)}")
        if f.clause:
            lines.append(f"  {render(CLAUSE)}: {' '.join(f.clause.split())}")
    return lines
