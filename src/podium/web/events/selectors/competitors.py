"""A competitor's page: their entries and results in this event and in earlier ones.

Vocabulary:
- query words, a match: see ``podium.web.registration.selectors.search``.
- competitor: an entry of the event (an individual, a pair or a team) and the people in it.
- the same person in another event: the same person record (a participant's account has one
  record, reused for every entry they make), or a record with the same first and last name
  (case aside), the same country and the same birth year, both years known. A name and a
  country alone are not enough: two Jan Nováks from Czechia are two people until their birth
  years say otherwise.
- result: a stage's round where the entry stands in the table — its place, position, score
  and marks as the final (frozen) version published them; a round that is not final yet is
  listed with its state and a link to its live standings, where the place may still change.
  Only public events count, and only their published rounds.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from podium.rules.schema.stages import Stage
from podium.web.files.selectors.printout import marks_text
from podium.web.kernel.texts import reason_text, rt, score_text, table_title
from podium.web.live import versions
from podium.web.models import Entry, Event, Person, Publication, Result
from podium.web.registration.selectors.entries import roster
from podium.web.standings.selectors.live import live_round


@dataclass
class StageResult:
    stage: str  # key
    title: str
    round: int
    state: str  # "final" or "preliminary"
    table: str = ""
    place: str = ""
    position: str = ""
    score: str = ""
    marks: str = ""
    outlook: str = ""  # a live round's: the places it can still reach
    needs: str = ""  # a live round's: what it takes in the round left


@dataclass
class EventEntry:
    event: Event
    entry: Entry
    results: list[StageResult] = field(default_factory=list)


@dataclass
class Competitor:
    entry: Entry
    people: list[Person]
    here: EventEntry
    others: list[EventEntry]  # the same people's other entries, here and elsewhere, newest first


def _same_people(people: list[Person]) -> Q:
    """The people records of the same persons (see the vocabulary)."""
    same = Q(pk__in=[p.pk for p in people])
    for person in people:
        if person.birth_date is not None and person.country:
            same |= Q(
                first_name__iexact=person.first_name,
                last_name__iexact=person.last_name,
                country__iexact=person.country,
                birth_date__year=person.birth_date.year,
            )
    return same


def _span(first: Any, last: Any, dot: bool = True) -> str:
    if not first:
        return "—"
    end = "." if dot else ""
    return f"{first}–{last}{end}" if last not in (None, first) else f"{first}{end}"


def _row_of(table: dict[str, Any], number: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    numbers = table.get("numbers", {})
    for shown in table.get("tables", []):
        for row in shown["rows"]:
            if str(numbers.get(row["id"], row["id"])) == str(number):
                return shown, row
    return None


def _newest(latest: dict[tuple[str, int], Publication], stage: str, round: int) -> bool:
    return round == max(r for s, r in latest if s == stage)


def _live_outlook(event: Event, stage: Stage, round: int, entry: Entry) -> tuple[str, str]:
    """The places the entry can still reach in the live round, and what it needs, in the
    visitor's language ("" where the round has no outlook for it)."""
    tag = versions.stage_tag(event.slug, stage)
    view = live_round(event, stage, round, False, tag)
    for table in view.tables:
        for row in table["rows"]:
            if str(row.get("number") or row["id"]) == str(entry.number) and row.get("outlook"):
                o = row["outlook"]
                places = _("can finish %(best)s–%(worst)s") % {
                    "best": o["best"],
                    "worst": o["worst"],
                }
                needs = reason_text(o["needs"]) if o.get("needs") else ""
                return places, needs
    return "", ""


def _results(
    event: Event,
    entry: Entry,
    latest: dict[tuple[str, int], Publication],
    recorded: set[tuple[int, str, int]],
    live: bool = False,
) -> list[StageResult]:
    """The entry's place in every published round of the event (see the vocabulary); ``live``:
    a round not final yet says where the entry can still finish and what it needs (only the
    newest round of each stage, so the page reads as many tables whatever the rounds)."""
    found = []
    for (key, round), publication in sorted(
        latest.items(), key=lambda kv: (kv[1].changed_at, kv[0])
    ):
        try:
            stage = event.rulebook.stage(key)
        except KeyError:
            continue
        title = rt(stage.title)
        if publication.state != Publication.State.FINAL:
            if (
                publication.state == Publication.State.PRELIMINARY
                and (entry.pk, key, round) in recorded
            ):
                result = StageResult(key, title, round, publication.state)
                if live and _newest(latest, key, round):
                    result.outlook, result.needs = _live_outlook(event, stage, round, entry)
                found.append(result)
            continue
        located = _row_of(publication.table or {}, entry.number)
        if located is None:
            continue
        table, row = located
        found.append(
            StageResult(
                key, title, round, publication.state,
                table=table_title(table, stage),
                place=_span(row.get("official_rank"), row.get("official_rank_to")),
                position=_span(row.get("rank"), row.get("rank_to")),
                score=score_text(row),
                marks=marks_text(row),
            )
        )  # fmt: skip
    return found


def competitor(event: Event, number: int) -> Competitor | None:
    """The entry numbered ``number`` of the event (confirmed) with its results here and the
    other entries and results of the same people (here and in other public events); ``None``
    if there is no such entry. Five queries, and the live table of each stage's newest round
    not final yet (computed once per version), whatever the number of entries, events or
    rounds."""
    entry = (
        Entry.objects.filter(event=event, number=number, status=Entry.Status.CONFIRMED)
        .prefetch_related(roster())
        .first()
    )
    if entry is None:
        return None
    people = [m.person for m in entry.members.all()]
    others = list(
        Entry.objects.filter(members__person__in=Person.objects.filter(_same_people(people)))
        .filter(status=Entry.Status.CONFIRMED)
        .exclude(event__status=Event.Status.DRAFT)
        .exclude(pk=entry.pk)
        .select_related("event")
        .distinct()
    )
    events = {event.pk: event} | {e.event_id: e.event for e in others}
    latest: dict[int, dict[tuple[str, int], Publication]] = defaultdict(dict)
    for publication in Publication.objects.filter(event__in=list(events)).order_by(
        "changed_at", "id"
    ):
        latest[publication.event_id][(publication.stage, publication.round)] = publication
    recorded = set(
        Result.objects.filter(entry__in=[entry, *others]).values_list("entry_id", "stage", "round")
    )

    def of(one: Entry, in_event: Event, live: bool = False) -> EventEntry:
        found = _results(in_event, one, latest[in_event.pk], recorded, live)
        return EventEntry(in_event, one, found)

    ordered = sorted(
        others, key=lambda e: (e.event.starts_at, e.event.slug, e.number), reverse=True
    )
    return Competitor(entry, people, of(entry, event, True), [of(o, o.event) for o in ordered])
