"""Diplomas: one per prize winner of a stage, worded as the event's language needs.

Vocabulary:
- winner: a row of a prize table with the award ``prize``
  (``podium.web.standings.selectors.prizes``): cz-jigsaw gives prizes to Czech entrants only (a
  foreign entrant in the top three gets no diploma), it-puzzle-party to the first three pairs
  whoever they are, deti-kolomny to the season's places 1–3. A tie waiting for its play-off gets no
  diploma until it is played.
- grammatical person: ``male`` or ``female`` for an individual whose ``Person.gender`` is M or
  F, ``plural`` for a pair or a team, ``unknown`` for an individual without a recorded gender.
  Czech and Russian verbs agree with it ("obsadila", "заняли"); English and Italian read the
  same for everyone. It is the ``pgettext`` context of the wording, so each translation says
  it in its own grammar.
- place ordinal: the place as the language writes it before its word for "place": en 1st,
  cs 1., ru 1-е, it 1°; a shared place is a span (2nd–3rd, 2.–3.).
- source: the standings the staff see (``podium.web.standings.selectors.standings.round_tables``):
  the newest final version when final, else live; the state is printed small on the diploma
  unless it is final.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import pgettext

from podium.rules.schema.stages import Stage
from podium.web.kernel.texts import place_ordinal, table_title
from podium.web.models import Entry, Event, Publication
from podium.web.registration.selectors.entries import roster
from podium.web.standings.selectors.prizes import ROUND, prize_table
from podium.web.standings.selectors.standings import round_tables


# How each language writes a place number before its word for "place" (English: 1st).
@dataclass(frozen=True)
class Diploma:
    name: str
    members: list[str]
    person: str
    place: str
    wording: str
    table: str = ""  # the table's title where the stage has several (groups, divisions)


@dataclass(frozen=True)
class DiplomaSet:
    stage: Stage
    state: str
    diplomas: list[Diploma] = field(default_factory=list)

    @property
    def final(self) -> bool:
        return self.state == Publication.State.FINAL

    @property
    def state_label(self) -> str:
        return str(Publication.State(self.state).label)


def wording(person: str, place: str) -> str:
    """ "took 1st place" for the grammatical person (see the module's vocabulary)."""
    values = {"place": place}
    if person == "male":
        return pgettext("male", "took %(place)s place") % values
    if person == "female":
        return pgettext("female", "took %(place)s place") % values
    if person == "plural":
        return pgettext("plural", "took %(place)s place") % values
    return pgettext("unknown gender", "took %(place)s place") % values


def grammatical_person(event: Event, entry: Entry | None) -> str:
    if entry is None:
        return "unknown"
    people = [m.person for m in entry.members.all()]
    if event.rulebook.category(entry.category).entrants.kind != "individual" or len(people) > 1:
        return "plural"
    gender = people[0].gender if people else ""
    return {"M": "male", "F": "female"}.get(gender, "unknown")


def _places(place: str) -> tuple[int, int]:
    first, _, last = place.partition("–")
    return int(first), int(last or first)


def _entries(event: Event, rows: list[dict[str, Any]]) -> dict[str, Entry]:
    numbers = [int(n) for r in rows if (n := str(r.get("number") or r["id"])).isdigit()]
    found = Entry.objects.filter(event=event, number__in=numbers).prefetch_related(roster())
    return {str(e.number): e for e in found}


def diplomas(event: Event, stage: Stage) -> DiplomaSet:
    """A diploma per winner of the stage, in place order (none before any result)."""
    view = round_tables(event, stage, ROUND, staff=True)
    made: list[Diploma] = []
    several = len(view.tables) > 1
    assert stage.prizes is not None
    for table in view.tables:
        winners = [
            p for p in prize_table(table, stage.prizes.official_only).rows if p.award == "prize"
        ]
        entries = _entries(event, [p.row for p in winners])
        for prize in winners:
            row = prize.row
            entry = entries.get(str(row.get("number") or row["id"]))
            person = grammatical_person(event, entry)
            members = [str(m.person) for m in entry.members.all()] if entry else []
            place = place_ordinal(*_places(prize.place))
            made.append(
                Diploma(
                    name=row["name"],
                    members=members if person == "plural" else [],
                    person=person,
                    place=place,
                    wording=wording(person, place),
                    table=table_title(table, stage) if several else "",
                )
            )
    return DiplomaSet(stage, view.state, made)
