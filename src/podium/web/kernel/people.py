"""Matching a person: whether what someone typed names a person entered before, and the other
teams of an event a person plays for. Registration, rosters and discipline all match people
here, so a ban or a breach found on one page is found on every other.

Vocabulary:
- the same person: the same first and last name (case aside) and the same birth date. Typed
  data without a birth date match only the record they already are (the registrant's own): two
  people of one name are two people until a birth date says otherwise.
- other team: an entry of the event, not cancelled, with the person on its roster, besides the
  one at hand (the lowest number first). ``scored_only``: only teams in the competition — the
  one-team-per-person rule of a registration counts those, as players outside the competition
  may form teams of their own; a breach of that rule names whichever team the player was on.
"""

from __future__ import annotations

import datetime as dt

from podium.web.models import Entry, Event, Person


def same_person(
    person: Person, first_name: str, last_name: str, birth_date: dt.date | None
) -> bool:
    """The record matches the typed names, and the birth date where one was typed (a record
    without one matches any)."""
    typed = (first_name.strip().casefold(), last_name.strip().casefold())
    if (person.first_name.casefold(), person.last_name.casefold()) != typed:
        return False
    return birth_date is None or person.birth_date in (None, birth_date)


def find_person(
    first_name: str, last_name: str, birth_date: dt.date | None, *, own: Person | None = None
) -> Person | None:
    """The person these data describe, if entered before (``own``: the record the typist
    already is); ``None`` means a new person."""
    if own is not None and same_person(own, first_name, last_name, birth_date):
        return own
    if birth_date is None:
        return None
    # Compared here, not by the database: SQLite folds the case of ASCII letters only, and
    # "NOVÁ" or "ИВАНОВ" must find Nová and Иванов on every database. People born on one day
    # are few, so this reads a handful of rows.
    born = Person.objects.filter(birth_date=birth_date).order_by("id")
    return next((p for p in born if same_person(p, first_name, last_name, birth_date)), None)


def other_team(
    event: Event, person: Person, *, besides: Entry | None = None, scored_only: bool
) -> Entry | None:
    """Another team of the event the person is on the roster of (see the vocabulary)."""
    others = Entry.objects.filter(event=event, members__person=person).exclude(
        status=Entry.Status.CANCELLED
    )
    if scored_only:
        others = others.filter(scored=True)
    if besides is not None:
        others = others.exclude(pk=besides.pk)
    return others.order_by("number").first()
