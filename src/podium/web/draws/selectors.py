"""Reading draws: the current draw of each kind, stage and squad, and names for the results.

Vocabulary:
- current draw: the newest draw of a kind for a stage (and, for lanes, a squad); older draws of
  the same scope stay listed for the organizer and the audit, but no longer apply.
- battle schedule: the current draw of kind ``battles`` for a head-to-head stage; its outcome
  lists the bouts (``podium.web.battles.services.schedule``).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from podium.web.models import Draw, Entry, Event, EventRole, Squad

SCHEDULE_KIND = "battles"


def organized_event(user: Any, slug: str) -> Event | None:
    """The event, if ``user`` is one of its organizers; ``None`` otherwise (shown as 404)."""
    if user is None or not user.is_authenticated:
        return None
    return Event.objects.filter(
        slug=slug, roles__user=user, roles__role=EventRole.Role.ORGANIZER
    ).first()


def event_draws(event: Event) -> QuerySet[Draw]:
    """Every draw of the event, newest first (each knows its event)."""
    return event.draws.select_related("made_by").order_by("-made_at", "-id")


def draw_scope(draw: Draw) -> tuple[str, str, int | None]:
    return (draw.kind, draw.stage, draw.result.get("inputs", {}).get("squad"))


def current_draws(event: Event) -> list[Draw]:
    seen: set[tuple[str, str, int | None]] = set()
    current: list[Draw] = []
    for draw in event_draws(event):
        if draw_scope(draw) not in seen:
            seen.add(draw_scope(draw))
            current.append(draw)
    return sorted(current, key=lambda d: (d.stage, d.kind, d.id))


def scheduled_bouts(event: Event, stage: str) -> list[dict[str, int]]:
    """The bouts of the stage's current battle schedule (``[]`` when none is drawn): one read."""
    result = (
        Draw.objects.filter(event=event, kind=SCHEDULE_KIND, stage=stage)
        .values_list("result", flat=True)
        .first()
    )
    bouts: list[dict[str, int]] = (result or {}).get("outcome", {}).get("bouts", [])
    return bouts


def lanes_draw(event: Event, squad: Squad) -> Draw | None:
    return lanes_draws(event).get(squad.pk)


def lanes_draws(event: Event) -> dict[int, Draw]:
    """Squad id → its current lanes draw, for every squad with one (one read)."""
    current: dict[int, Draw] = {}
    for draw in event_draws(event).filter(kind="lanes"):
        current.setdefault(draw.result.get("inputs", {}).get("squad"), draw)
    return current


def entry_names(event: Event) -> dict[int, str]:
    return {
        e.id: f"#{e.number} {e.name}"
        for e in Entry.objects.filter(event=event).only("id", "number", "name")
    }


def draw_rows(draw: Draw, names: dict[int, str]) -> list[tuple[str, list[str]]]:
    """A draw's outcome for people: (a group, table, tour or squad label, the entrants' names)."""
    outcome = draw.result.get("outcome", {})

    def name(entry_id: int) -> str:
        return names.get(entry_id, f"#{entry_id}")

    if draw.kind == "groups":
        return [(group, [name(i) for i in ids]) for group, ids in outcome["groups"].items()]
    if draw.kind == "tables":
        return [(str(table), [name(entry)]) for table, entry in outcome["tables"]]
    if draw.kind == "tour-hosts":
        return [(tour, [name(team)]) for tour, team in outcome["hosts"]]
    if draw.kind == "battles":
        # Battles name teams by entry number, as battle items do.
        return [
            (f"{b['round']}.{b['day']} · {b['slot']}",
             [f"#{b['team1']} – #{b['team2']} ({b['stage']})"])
            for b in outcome["bouts"]
        ]  # fmt: skip
    if draw.kind == "lanes":
        first = outcome["blocks"][0]["pairs"] if outcome.get("blocks") else []
        return [
            (f"{p['lanes'][0]}–{p['lanes'][1]}", [name(i) for i in p["left"] + p["right"]])
            for p in first
        ]
    return []


def lane_sheet(draw: Draw, names: dict[int, str]) -> list[dict[str, Any]]:
    """Per block, per lane pair, the players starting on each lane, with names."""
    blocks = []
    for block in draw.result["outcome"]["blocks"]:
        pairs = [
            {
                "left_lane": p["lanes"][0],
                "right_lane": p["lanes"][1],
                "left": [names.get(i, f"#{i}") for i in p["left"]],
                "right": [names.get(i, f"#{i}") for i in p["right"]],
            }
            for p in block["pairs"]
        ]
        blocks.append({"number": block["number"], "games": block["games"], "pairs": pairs})
    return blocks
