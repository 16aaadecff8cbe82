"""The workshop's reads: a rulebook's problems beside its lines, and a dry run of a stage as
the organizer's page shows it.

Vocabulary:
- problem beside its line: a loader or engine problem with the line it names (an engine problem
  is found after loading: its setting's path gives the line) and that line's text, so the page
  shows the problem under what the organizer typed.
- dry run: ``podium.engine.workshop.simulate`` on the rulebook being edited; its findings in the
  active language, and the first run's standings as page rows (a preview of the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from podium.engine.workshop import simulate
from podium.rules.loader import MAX_PROBLEMS, RulebookProblem, lines_of
from podium.rules.schema import Rulebook
from podium.web.kernel.texts import page_row, points_shown, rt, shown_value

WEB_RUNS = 5  # a page's dry run: enough to show what recurs, quick on every click
WEB_MAX_ENTRANTS = 500


@dataclass(frozen=True, slots=True)
class LineProblem:
    line: int | None
    path: str
    message: str
    source: str  # the text of the line, as typed


def beside_lines(text: str, problems: list[RulebookProblem]) -> list[LineProblem]:
    """Each problem with its line (found from its path when the engine gave none); at most as
    many as the loader lists (its ``MAX_PROBLEMS`` and the line that counts the rest)."""
    shown = problems[: MAX_PROBLEMS + 1]
    unplaced = [p.path for p in shown if p.line is None and p.path]
    found = dict(zip(unplaced, lines_of(text, unplaced), strict=True)) if unplaced else {}
    lines = text.splitlines()
    out = []
    for problem in shown:
        line = problem.line or found.get(problem.path)
        source = lines[line - 1] if line and line <= len(lines) else ""
        out.append(LineProblem(line, problem.path, problem.message, source))
    if len(problems) > len(shown):
        more = _("and %(n)s more problems not listed") % {"n": len(problems) - len(shown)}
        out.append(LineProblem(None, "", more, ""))
    return out


def dry_run(
    rulebook: Rulebook, stage_key: str, *, seed: int, entrants: int | None
) -> dict[str, Any]:
    """The report and the preview of one stage, in the active language."""
    report = simulate(rulebook, stage_key, entrants=entrants, seed=seed, runs=WEB_RUNS)
    stage = rulebook.stage(stage_key)
    findings = [
        {
            "kind": f.kind,
            "text": shown_value(f.message),
            "clause": rt(f.clause),
            "runs": f.runs,
            "times": f.times,
        }
        for f in report.findings
    ]
    tables = [
        {"key": t.key, "title": t.title, "rows": [page_row(row, t.key) for row in t.rows]}
        for t in report.preview.tables
    ]
    return {
        "report": report,
        "findings": findings,
        "tables": tables,
        "stage": stage,
        **points_shown(rulebook, stage),
    }
