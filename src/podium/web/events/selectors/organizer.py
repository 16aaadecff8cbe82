"""Reads for organizers: who holds which role, what a rulebook implies, and who paid what.

Vocabulary:
- staff: the organizers and referees of ONE event; roles never cross events.
- applicable fee: a rulebook fee that an entry owes. Our decision (the rulebooks do not say it
  in a setting): a fee whose key starts with ``unscored`` is owed by entries outside the
  competition only (ChGK "K × 20 RUB"); every other fee by the scored entries.
- fee line: one applicable fee of one entry, with its amount (per player: × the roster size) and
  the payments made for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from podium.web.models import Event

# What a rulebook's keys mean, for the organizer's outline (the keys stay in the rulebook).
FORMAT_LABELS = {
    "timed-solve": gettext_lazy("timed solve (time, else pieces)"),
    "team-solve": gettext_lazy("team solve of several puzzles"),
    "games": gettext_lazy("games (total pinfall)"),
    "chgk-tour": gettext_lazy("ChGK tour (questions taken)"),
    "chgk-season": gettext_lazy("ChGK season (sum of tour points)"),
    "head-to-head": gettext_lazy("head-to-head battles"),
    "superfinal": gettext_lazy("superfinal"),
}
KIND_LABELS = {
    "individual": gettext_lazy("individuals"),
    "pair": gettext_lazy("pairs"),
    "team": gettext_lazy("teams"),
}


@dataclass
class Outline:
    """What the rulebook implies for the organizer's dashboard."""

    categories: list[dict[str, Any]]
    stages: list[dict[str, Any]]
    divisions: list[dict[str, Any]]
    uses_squads: bool


def outline(event: Event) -> Outline:
    book = event.rulebook
    categories = [
        {
            "key": c.key,
            "title": c.title,
            "kind": KIND_LABELS.get(c.entrants.kind, c.entrants.kind),
            "cap": c.cap or book.registration.cap,
            "clause": c.clause,
        }
        for c in book.categories
    ]
    titles = {c.key: c.title for c in book.categories}
    stages = [
        {
            "key": s.key,
            "title": s.title,
            "format": FORMAT_LABELS.get(s.format, s.format),
            "category": titles.get(s.category or "", s.category or ""),
            "groups": list(s.groups),
            "clause": s.clause,
        }
        for s in book.stages
    ]
    divisions = (
        [
            {
                "key": d.key,
                "title": d.title,
                "gender": d.gender or "",
                "min": d.average_min,
                "max": d.average_max,
                "clause": d.clause,
            }
            for d in book.divisions.items
        ]
        if book.divisions
        else []
    )
    uses_squads = (
        book.cancellation is not None and book.cancellation.reference == "squad"
    ) or event.squads.exists()
    return Outline(categories, stages, divisions, uses_squads)
