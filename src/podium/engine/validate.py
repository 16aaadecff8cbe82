"""Checks of a rulebook that need the engine: do the criteria it names exist and fit the format?

Vocabulary: a *format* (``timed-solve``, ``games``…) computes certain metrics for each entry; a
criterion can rank a stage only if the stage's format computes the metric it reads.
"""

from __future__ import annotations

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.errors import Problem
from podium.engine.messages import _
from podium.engine.ranking import REGISTRY
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import TeamSolveStage

FORMAT_CRITERIA: dict[str, frozenset[str]] = {
    "timed-solve": frozenset({"finished", "time", "pieces"}),
    "team-solve": frozenset({"puzzles-done", "time", "pieces"}),
    # A team stage whose unfinished teams are measured by the pieces summed over all puzzles.
    "team-solve/pieces-summed": frozenset({"finished", "time", "pieces"}),
    "games": frozenset(
        {"total", "high-game", "low-game", "high-game-2", "low-game-2", "high-game-3", "low-game-3"}
    ),
    "chgk-tour": frozenset({"questions", "question-rating"}),
    "chgk-season": frozenset({"points", "season-questions", "season-place-sum"}),
    "head-to-head": frozenset({"match-points", "head-to-head", "question-difference"}),
    "superfinal": frozenset({"questions"}),
}
# The formats that rank each of a stage's groups as a table of its own; the others rank one
# table, so groups on them would be ignored and are refused.
GROUPED_FORMATS = frozenset({"timed-solve", "team-solve", "games", "head-to-head"})


def check_rulebook(rulebook: Rulebook) -> list[Problem]:
    problems: list[Problem] = []
    for i, stage in enumerate(rulebook.stages):
        kind: str = stage.format
        if isinstance(stage, TeamSolveStage) and stage.unfinished.method == "pieces-summed":
            kind = "team-solve/pieces-summed"
        allowed = FORMAT_CRITERIA[kind]
        if stage.groups and stage.format not in GROUPED_FORMATS:
            fits = ", ".join(sorted(GROUPED_FORMATS))
            text = _("format '%(format)s' ranks one table for the whole stage, so its groups "
                     "would be ignored; groups are ranked apart in: %(fits)s",
                     format=stage.format, fits=fits)  # fmt: skip
            problems.append(Problem(f"stages[{i}].groups", text))
        for j, ref in enumerate(stage.ranking.criteria):
            where = f"stages[{i}].ranking.criteria[{j}]"
            if ref.key not in REGISTRY:
                known = ", ".join(sorted(REGISTRY))
                text = _("unknown criterion '%(key)s'; known: %(known)s", key=ref.key, known=known)
                problems.append(Problem(where, text))
            elif ref.key not in allowed:
                fits = ", ".join(sorted(allowed))
                problems.append(
                    Problem(
                        where,
                        _(
                            "criterion '%(key)s' does not apply to format '%(format)s' "
                            "(it takes: %(fits)s)",
                            key=ref.key,
                            format=kind.replace("/", " with unfinished: "),
                            fits=fits,
                        ),
                    )
                )
    return problems
