"""E-mail to the entrants of a stage's round when its results are published, preliminary or final
(a final table also tells each entry its place). How a message is composed, in whose language,
and sent: ``podium.web.kernel.mail``.

Vocabulary:
- the entries of a round: those with results in it (a season: in its tours; battles and
  questions: the teams they name)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.urls import reverse

from podium.rules.schema.stages import ChgkSeasonStage, Stage
from podium.web.kernel.mail import send, site_url
from podium.web.kernel.texts import rt
from podium.web.models import Entry, Event, Result
from podium.web.results.selectors.publication import publication_current
from podium.web.results.selectors.rows import ITEM_FORMATS, labels_by_number


def stage_entries(event: Event, stage: Stage, round: int) -> list[Entry]:
    """The entries a round of ``stage`` ranks: those with results in it (a season: in its
    tours; battles and questions: the teams they name)."""
    if isinstance(stage, ChgkSeasonStage):
        results = Result.objects.filter(event=event, stage=stage.tour)
    else:
        results = Result.objects.filter(event=event, stage=stage.key, round=round)
    ids = set(results.exclude(entry=None).values_list("entry_id", flat=True))
    numbers = labels_by_number(event, stage) if stage.format in ITEM_FORMATS else {}
    found = Entry.objects.filter(event=event).exclude(status=Entry.Status.CANCELLED)
    chosen = found.filter(Q(pk__in=ids) | Q(number__in=list(numbers)))
    return list(chosen.select_related("event", "registered_by").order_by("number"))


def _span(low: Any, high: Any) -> str:
    return str(low) if high in (None, low) else f"{low}–{high}"


def final_places(event: Event, stage: Stage, round: int) -> dict[int, dict[str, str]]:
    """Each entry's place in the round's frozen final table, by entry number: ``place`` (its
    official place, shared as ``2–3``) or ``position`` (outside the competition)."""
    current = publication_current(event, stage.key, round)
    table = (current.table if current is not None else None) or {}
    numbers = table.get("numbers", {})
    places: dict[int, dict[str, str]] = {}
    for part in table.get("tables", []):
        for row in part.get("rows", []):
            number = numbers.get(row["id"]) or (int(row["id"]) if row["id"].isdigit() else None)
            if number is None:
                continue
            if row.get("official_rank") is not None:
                places[number] = {"place": _span(row["official_rank"], row["official_rank_to"])}
            else:
                places[number] = {"position": _span(row["rank"], row["rank_to"])}
    return places


def results(event: Event, stage: Stage, round: int, *, final: bool, rounds: int) -> None:
    """``rounds``: how many rounds the stage has (a round is named only when there are more);
    a final table also tells each entry its place."""
    places: dict[int, dict[str, str]] = {}

    def entries() -> list[Entry]:
        places.update(final_places(event, stage, round) if final else {})
        return stage_entries(event, stage, round)

    def context(entry: Entry) -> dict[str, Any]:
        path = reverse("standings:round", args=[event.slug, stage.key, round])
        return {
            "stage": rt(stage.title),
            "round": round if rounds > 1 else None,
            "final": final,
            "standings": site_url(path),
            **places.get(entry.number, {}),
        }

    send("results", entries, context)
