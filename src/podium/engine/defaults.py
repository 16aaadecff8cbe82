"""The defaults a rulebook relies on: settings it leaves out, which Podium fills in itself.

Vocabulary:
- default: a setting with a value of Podium's own because the rulebook does not write it (a
  stage without ``piece_counting`` counts pieces in joined groups of at least 3). A reason that
  comes from one says so (``by_default``) instead of citing a clause the rulebook does not
  have, and ``rulebook check`` lists every default a rulebook relies on (``relied_on``).
- topic: what a default decides, in words (``piece counting``).
"""

from __future__ import annotations

from dataclasses import dataclass

from podium.engine.messages import Message, Value, _
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import (
    ChgkSeasonStage,
    HeadToHeadStage,
    Stage,
    TeamSolveStage,
    TimedSolveStage,
)

PIECE_COUNTING = _("piece counting")
MATCH_POINTS = _("match points")
ABSENT = _("the place of a team absent from a tour")


@dataclass(frozen=True, slots=True)
class Default:
    where: str  # the setting's path, as problems name it: ``stages[0].piece_counting``
    topic: Message
    value: Value  # what Podium uses


def is_default(stage: Stage, setting: str) -> bool:
    """Whether the stage leaves ``setting`` out, so Podium's default applies. (A team stage's
    ``unfinished`` is no default: the criteria the rulebook writes name its method.)"""
    return setting not in stage.model_fields_set


def by_default(text: Value, topic: Message) -> Message:
    """A reason that comes from Podium's default, saying so."""
    return _("%(reason)s (Podium's default; this rulebook has no clause on %(topic)s)",
             reason=text, topic=topic)  # fmt: skip


def _stage_defaults(i: int, stage: Stage) -> list[Default]:
    found: list[Default] = []
    where = f"stages[{i}]"
    if isinstance(stage, TimedSolveStage | TeamSolveStage) and is_default(stage, "piece_counting"):
        rule = stage.piece_counting
        written: Value = f"{rule.method} {rule.size}"  # as the rulebook would write it
        found.append(Default(f"{where}.piece_counting", PIECE_COUNTING, written))
    if isinstance(stage, HeadToHeadStage):
        unset = [k for k in ("win", "draw", "loss") if k not in stage.match.model_fields_set]
        if unset:
            m = stage.match
            value = _("win %(win)s, draw %(draw)s, loss %(loss)s", win=m.win.normalize(),
                      draw=m.draw.normalize(), loss=m.loss.normalize())  # fmt: skip
            found.append(Default(f"{where}.match", MATCH_POINTS, value))
    if (
        isinstance(stage, ChgkSeasonStage)
        and is_default(stage, "absent_place")
        and (stage.absent_clause is None)
    ):
        found.append(Default(f"{where}.absent_place", ABSENT, stage.absent_place))
    return found


def relied_on(rulebook: Rulebook) -> list[Default]:
    """Every default the rulebook's stages rely on, stage by stage."""
    return [d for i, stage in enumerate(rulebook.stages) for d in _stage_defaults(i, stage)]


def described(default: Default) -> Message:
    """One default in words, as ``rulebook check`` lists it."""
    return _("Podium's default on %(topic)s: %(value)s; this rulebook has no clause on it",
             topic=default.topic, value=default.value)  # fmt: skip
