"""Making draws: groups, tables, ČBA lanes and ChGK host teams, from a recorded seed.

Vocabulary:
- draw: see ``podium.web.models.draws``. Its ``result`` stores the algorithm, the inputs (the
  entrants as the engine saw them) and the outcome, so ``draw_rerun`` can recompute it from the
  seed alone and show that it comes out the same.
- final entries: a draw is made only from a final list of entrants. Our rule: the event's
  registration must be closed (status ``closed``) and no entry of the category drawn may still
  be awaiting approval; only confirmed entries take part.
- applying: a group draw sets ``Entry.group``, a table draw ``Entry.table_number``; lanes and
  hosts live in the draw's result only (printed on the lane sheet and the draws page).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from podium.engine import draws as engine
from podium.engine.classification import is_domestic
from podium.engine.draws.groups import Entrant, number_tables, split_groups
from podium.engine.draws.lanes import american_schedule, lane_pairs
from podium.engine.draws.leagues import battle_schedule, tour_hosts
from podium.rules.schema.stages import ChgkTourStage, GamesStage, Stage
from podium.web.kernel.audit import Actor, audit
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.texts import error_text
from podium.web.models import Draw, Entry, Event, Squad
from podium.web.registration.selectors.entries import roster

KINDS = ("groups", "tables", "lanes", "tour-hosts")
SEED_MAX = 64


def new_seed() -> str:
    """A fresh seed from the operating system's secure generator: 16 hex digits."""
    return secrets.token_hex(8)


def parse_lane_pairs(text: str) -> list[tuple[int, int]]:
    """``"1-2, 3-4 5-6"`` → ``[(1, 2), (3, 4), (5, 6)]``."""
    pairs: list[tuple[int, int]] = []
    for chunk in text.replace(",", " ").split():
        left, sep, right = chunk.partition("-")
        if not sep or not left.isdigit() or not right.isdigit():
            raise Refused(
                _("Write lane pairs as 1-2, 3-4, …; “%(chunk)s” is not a pair.") % {"chunk": chunk},
                field="lane_pairs",
            )
        pairs.append((int(left), int(right)))
    if not pairs:
        raise Refused(_("Give at least one lane pair, e.g. 1-2, 3-4."), field="lane_pairs")
    return pairs


def _entrants(event: Event, stage: Stage, squad: Squad | None = None) -> list[Entry]:
    entries = Entry.objects.filter(event=event)
    if stage.category:
        entries = entries.filter(category=stage.category)
    if squad is not None:
        entries = entries.filter(squad=squad)
    if entries.filter(status=Entry.Status.PENDING).exists():
        raise Refused(
            _("Some entries still await approval: approve or refuse them before the draw.")
        )
    return list(
        entries.filter(status=Entry.Status.CONFIRMED).prefetch_related(roster()).order_by("id")
    )


def _domestic(event: Event, entry: Entry) -> bool:
    rule = event.rulebook.classification.domestic
    if rule is None:
        return True
    countries = [m.person.country.upper() for m in entry.members.all()]
    return bool(countries) and is_domestic(countries, rule.country, rule.team_rule)


def compute(kind: str, seed: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """The outcome of a draw from its stored inputs: pure, so a rerun gives the same answer."""
    outcome: dict[str, Any]
    if kind == "groups":
        people = [
            Entrant(
                id=e["id"],
                domestic=e["domestic"],
                rating=Decimal(e["rating"]) if e.get("rating") is not None else None,
            )
            for e in inputs["entrants"]
        ]
        groups = split_groups(people, inputs["groups"], seed, inputs["balance_by"])
        outcome = {"groups": {g: list(groups.members(g)) for g in groups.groups}}
    elif kind == "tables":
        tables = number_tables(inputs["entrants"], seed, start=inputs["start"])
        outcome = {"tables": [[t, e] for t, e in tables.tables]}
    elif kind == "lanes":
        pairs = [(p[0], p[1]) for p in inputs["lane_pairs"]]
        lanes = lane_pairs(inputs["entrants"], pairs, seed, per_pair=inputs["per_pair"])
        schedule = american_schedule(lanes, inputs["blocks"])
        outcome = {
            "seats": [[s.entrant, s.pair, s.side, s.order] for s in lanes.seats],
            "blocks": [
                {
                    "number": b.number,
                    "games": list(b.games),
                    "pairs": [
                        {"lanes": list(p.lanes), "left": list(p.left), "right": list(p.right)}
                        for p in b.pairs
                    ],
                }
                for b in schedule.blocks
            ],
        }
    elif kind == "tour-hosts":
        hosts = tour_hosts(inputs["entrants"], inputs["tours"], seed)
        outcome = {"hosts": [[tour, team] for tour, team in hosts.hosts]}
    elif kind == "battles":
        schedule = battle_schedule(
            inputs["teams"], seed, rounds=inputs["rounds"], stages=inputs["stages"]
        )
        fields = ("round", "day", "slot", "stage", "team1", "team2")
        outcome = {"bouts": [{f: getattr(b, f) for f in fields} for b in schedule.bouts]}
    else:
        raise Refused(_("Unknown kind of draw."), field="kind")
    return {"algorithm": engine.ALGORITHM, "inputs": inputs, "outcome": outcome}


def _inputs(
    *,
    event: Event,
    kind: str,
    stage: Stage,
    squad: Squad | None,
    lane_pairs: Sequence[tuple[int, int]] | None,
    per_pair: int | None,
    tours: int | None,
) -> dict[str, Any]:
    if kind == "groups":
        if not stage.groups:
            raise Refused(_("This stage has no groups to draw."), field="stage")
        entries = _entrants(event, stage)
        balance_by = ["domestic"] if event.rulebook.classification.domestic else []
        return {
            "groups": list(stage.groups),
            "balance_by": balance_by,
            "entrants": [
                {"id": e.id, "domestic": _domestic(event, e), "rating": None} for e in entries
            ],
        }
    if kind == "tables":
        return {"start": 1, "entrants": [e.id for e in _entrants(event, stage)]}
    if kind == "lanes":
        if not isinstance(stage, GamesStage):
            raise Refused(_("Lanes are drawn only for a stage of bowling games."), field="stage")
        if squad is None:
            raise Refused(_("Choose the squad whose lanes to draw."), field="squad")
        if not lane_pairs:
            raise Refused(_("Give at least one lane pair, e.g. 1-2, 3-4."), field="lane_pairs")
        return {
            "squad": squad.pk,
            "lane_pairs": [list(p) for p in lane_pairs],
            "per_pair": per_pair or 6,
            "blocks": list(stage.blocks or (stage.games,)),
            "entrants": [e.id for e in _entrants(event, stage, squad)],
        }
    if kind == "tour-hosts":
        if not isinstance(stage, ChgkTourStage):
            raise Refused(_("Host teams are drawn only for a ChGK tour stage."), field="stage")
        if not tours or tours < 1:
            raise Refused(_("Give the number of tours."), field="tours")
        entries = [e for e in _entrants(event, stage) if e.scored]
        return {
            "tours": [str(n) for n in range(1, tours + 1)],
            "entrants": [e.id for e in entries],
        }
    raise Refused(_("Unknown kind of draw."), field="kind")


def _apply(event: Event, kind: str, stage: Stage, outcome: dict[str, Any]) -> None:
    if kind == "groups":
        for group, ids in outcome["groups"].items():
            Entry.objects.filter(event=event, id__in=ids).update(group=group)
    elif kind == "tables":
        ids = [entrant for _, entrant in outcome["tables"]]
        # Clear first: table numbers are unique per category and are about to move around.
        Entry.objects.filter(event=event, id__in=ids).update(table_number=None)
        for table, entrant in outcome["tables"]:
            Entry.objects.filter(event=event, id=entrant).update(table_number=table)


@transaction.atomic
def draw_make(
    *,
    event: Event,
    kind: str,
    stage: str,
    seed: str | None = None,
    by: Actor,
    squad: Squad | None = None,
    lane_pairs: Sequence[tuple[int, int]] | None = None,
    per_pair: int | None = None,
    tours: int | None = None,
) -> Draw:
    """Make a draw, store it with its seed and inputs, apply it to the entries and log it."""
    if not is_organizer(by, event):
        raise Refused(_("Only an organizer of this event may make its draws."))
    if event.status != Event.Status.CLOSED:
        raise Refused(
            _("Draws are made from the final list of entrants: close registration first.")
        )
    if kind not in KINDS:
        raise Refused(_("Unknown kind of draw."), field="kind")
    try:
        the_stage = event.rulebook.stage(stage)
    except KeyError:
        the_stage = None
    if the_stage is None:
        raise Refused(_("This event has no such stage."), field="stage")
    if squad is not None and squad.event_id != event.pk:
        raise Refused(_("This squad belongs to another event."), field="squad")
    seed = (seed or "").strip() or new_seed()
    if len(seed) > SEED_MAX:
        raise Refused(
            _("A seed is at most %(count)d characters.") % {"count": SEED_MAX}, field="seed"
        )
    inputs = _inputs(
        event=event,
        kind=kind,
        stage=the_stage,
        squad=squad,
        lane_pairs=lane_pairs,
        per_pair=per_pair,
        tours=tours,
    )
    if not inputs["entrants"]:
        raise Refused(_("There are no confirmed entries to draw."))
    draw = draw_store(
        event=event, kind=kind, stage=stage, seed=seed, by=by,
        made=lambda: _jsonable(compute(kind, seed, inputs)),
    )  # fmt: skip
    _apply(event, kind, the_stage, draw.result["outcome"])
    audit(
        event=event,
        actor=by,
        action="draw.make",
        target=draw,
        kind=kind,
        stage=stage,
        seed=seed,
        squad=squad.pk if squad else None,
    )
    return draw


def draw_store(
    *,
    event: Event,
    kind: str,
    stage: str,
    seed: str,
    by: Actor,
    made: Callable[[], dict[str, Any]],
) -> Draw:
    """Stores the draw that ``made`` computes from ``seed``; the engine's refusal of it (too
    many players for the lanes…) is the service's, in the reader's language."""
    try:
        result = made()
    except engine.DrawError as error:
        raise Refused(error_text(error)) from error
    return Draw.objects.create(
        event=event,
        kind=kind,
        stage=stage,
        seed=seed,
        result=result,
        made_by=by if by is not None and by.is_authenticated else None,
    )


def _jsonable(value: dict[str, Any]) -> dict[str, Any]:
    """As the database will give it back: tuples become lists, keys strings."""
    loaded: dict[str, Any] = json.loads(json.dumps(value))
    return loaded


@dataclass(frozen=True)
class Rerun:
    """A draw computed again from its stored seed and inputs."""

    result: dict[str, Any]
    same_algorithm: bool
    reproduced: bool


def draw_rerun(*, draw: Draw) -> Rerun:
    """Recompute a draw from its seed and the inputs stored with it; it must come out the same.

    Read-only: it changes nothing, so anyone may run it.
    """
    again = _jsonable(compute(draw.kind, draw.seed, draw.result["inputs"]))
    return Rerun(
        result=again,
        same_algorithm=again["algorithm"] == draw.result.get("algorithm"),
        reproduced=again["outcome"] == draw.result.get("outcome"),
    )
