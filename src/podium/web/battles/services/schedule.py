"""Drawing the Brainball battle schedule: a double round-robin on two stages at once.

Vocabulary:
- schedule: a ``Draw`` of kind ``battles`` for the head-to-head stage. Its ``result`` holds the
  algorithm, the inputs (the teams by entry number, the rounds of the league, the stages played
  at once) and the outcome (the bouts), so ``schedule_compute`` gives it again from the seed.
- bout: one battle of the schedule — round of the league, matchday, time slot of the day,
  stage (1 or 2) and the two teams (``podium.engine.draws.leagues.Bout``).
- re-draw: a new schedule replacing the current one (the newest draw is current). Allowed
  only while no battle of the stage is recorded, since a recorded battle was played to the
  current schedule.
- teams: the scored teams of the stage's entry list. Our rule: teams outside the competition
  play ChGK tours only (п. 10 lets players not in a team join up "вне зачета" for ChGK), so
  they get no battles.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.rules.schema.stages import HeadToHeadStage
from podium.web.draws.services import SEED_MAX, compute, draw_store, new_seed
from podium.web.kernel.audit import Actor, audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.stages import stage_entries
from podium.web.models import Draw, Event, Result

KIND = "battles"
STAGES = 2  # п. 6: "боев «Брейнбола» из 6 вопросов на двух площадках"


def schedule_compute(seed: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """The schedule from its stored inputs, as every draw is computed (and rerun)."""
    loaded: dict[str, Any] = json.loads(json.dumps(compute("battles", seed, inputs)))
    return loaded


def _league(event: Event, stage: str) -> HeadToHeadStage:
    try:
        found = event.rulebook.stage(stage)
    except KeyError:
        found = None
    if not isinstance(found, HeadToHeadStage):
        raise Refused(_("This event has no such league of battles."), field="stage")
    return found


def schedule_make(
    *,
    event: Event,
    stage: str,
    by: Actor,
    seed: str | None = None,
) -> Draw:
    """Draws the battle schedule of the league from a seed (a fresh one if none is given),
    stores it with its inputs and logs it; a re-draw is refused once a battle is recorded."""
    with transaction.atomic():
        event = locked_event(event.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer of this event may draw the battle schedule."))
        league = _league(event, stage)
        seed = (seed or "").strip() or new_seed()
        if len(seed) > SEED_MAX:
            raise Refused(
                _("A seed is at most %(count)d characters.") % {"count": SEED_MAX}, field="seed"
            )
        earlier = Draw.objects.filter(event=event, kind=KIND, stage=stage).first()
        played = Result.objects.filter(event=event, stage=stage).count()
        if earlier is not None and played:
            raise Refused(
                ngettext(
                    "%(count)d battle is already recorded against the schedule drawn with seed "
                    "%(seed)s, so it can no longer be drawn again.",
                    "%(count)d battles are already recorded against the schedule drawn with "
                    "seed %(seed)s, so it can no longer be drawn again.",
                    played,
                )
                % {"count": played, "seed": earlier.seed}
            )
        teams = [e.number for e in stage_entries(event, league) if e.scored]
        if len(teams) < 2:
            raise Refused(_("A league needs at least two teams on its entry list."))
        inputs = {"teams": teams, "rounds": league.rounds, "stages": STAGES}
        draw = draw_store(
            event=event, kind=KIND, stage=stage, seed=seed, by=by,
            made=lambda: schedule_compute(seed, inputs),
        )  # fmt: skip
        audit(
            event=event, actor=by, action="draw.make", target=draw, kind=KIND, stage=stage,
            seed=seed, teams=len(teams), battles=len(draw.result["outcome"]["bouts"]),
            replaces=earlier.pk if earlier else None,
        )  # fmt: skip
    return draw
