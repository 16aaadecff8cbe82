"""The members of an entry: what a form says about each, the rules each member meets, and the
person each becomes. Registering, a ChGK roster and the entrant import
(``podium.web.files.services.imports``) check their people here, so a rule or a ban is met the
same way on every path.

Vocabulary:
- person data: what a form says about one member; it becomes a ``Person`` once and is reused
  (the signed-in user's own person, or an earlier person with the same name and birth date).
- member field: the form field of one member's datum, ``m<slot>_<name>`` (``m0_last_name``),
  so a refusal points at the member it is about.
- saved as typed: the texts kept as they are typed (names, e-mail, a team's name, the
  accompanying adult); each must fit its database column and hold no character no one types.
- verdict: the rulebook's eligibility of one member on the event's day (``engine.eligibility``).
- registrant: the user who registered an entry; they may cancel it and add to its roster.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Model
from django.utils.translation import gettext as _

from podium.engine import eligibility
from podium.engine.entries import Reason
from podium.web.disputes.services.discipline import ban_refusal
from podium.web.kernel.audit import Actor
from podium.web.kernel.people import find_person, other_team
from podium.web.kernel.refusals import Refused
from podium.web.kernel.text import limit as column_limit
from podium.web.kernel.text import text_problem
from podium.web.kernel.texts import shown
from podium.web.models import Entry, Event, Person

# The texts saved as they are typed, each with the model whose column holds it.
SAVED_AS_TYPED: dict[str, type[Model]] = {
    "first_name": Person,
    "last_name": Person,
    "email": Person,
    "name": Entry,
    "accompanying_adult": Entry,
}


@dataclass(frozen=True, slots=True)
class PersonData:
    first_name: str
    last_name: str
    birth_date: dt.date | None = None
    country: str = ""
    gender: str = ""
    ladder_average: Decimal | None = None
    email: str = ""

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


def member_field(index: int, name: str) -> str:
    return f"m{index}_{name}"


def is_registrant(user: Actor, entry: Entry) -> bool:
    return bool(user is not None and user.is_authenticated and entry.registered_by_id == user.pk)


# --- texts -----------------------------------------------------------------------------------


def typed_problem(name: str, text: str) -> str | None:
    """What keeps a text from being saved as typed (``podium.web.kernel.text``); a text that is
    read into something else (a date, a country…) has no column of its own to fit."""
    model = SAVED_AS_TYPED.get(name)
    return text_problem(text, most=column_limit(model, name) if model else None)


def person_refusal(data: PersonData, index: int | None) -> Refused | None:
    """A member's name or e-mail that the database cannot hold or that no one should type;
    ``index``: the member's slot in a registration form."""
    for name in ("first_name", "last_name", "email"):
        problem = typed_problem(name, getattr(data, name).strip())
        if problem is not None:
            field = name if index is None else member_field(index, name)
            return Refused(problem, field=field)
    return None


# --- eligibility -----------------------------------------------------------------------------


def member_verdict(
    event: Event, birth_date: dt.date | None, *, accompanied: bool
) -> eligibility.Verdict:
    """The rulebook's eligibility of a member born on ``birth_date``, on the event's day."""
    return eligibility.check(
        event.rulebook.registration.eligibility,
        birth_date=birth_date,
        event_date=event.local_start.date(),
        accompanied=accompanied,
    )


def ineligible(data: PersonData, failure: Reason, field: str) -> Refused:
    return Refused(
        _("%(name)s may not enter: %(reason)s.")
        % {"name": data.full_name, "reason": shown(failure)},
        field=field,
        clause=failure.clause,
    )


# --- bans and teams --------------------------------------------------------------------------


def check_not_banned(
    event: Event, *, person: Person | None = None, team_name: str | None = None, field: str
) -> None:
    """Refuses a person or a team barred from the event (``disputes``' discipline)."""
    banned = ban_refusal(event, person, team_name, field)
    if banned is not None:
        raise banned


def check_one_team(
    event: Event,
    data: PersonData,
    person: Person,
    *,
    field: str,
    clause: str | None,
    besides: Entry | None = None,
) -> None:
    """Refuses a player already on another team of the event in the competition."""
    other = other_team(event, person, besides=besides, scored_only=True)
    if other is not None:
        raise Refused(
            _("%(name)s already plays for %(team)s; a player plays for one team.")
            % {"name": data.full_name, "team": other.name},
            field=field,
            clause=clause,
        )


# --- people ----------------------------------------------------------------------------------


def find_member(data: PersonData, own: Person | None) -> Person | None:
    return find_person(data.first_name, data.last_name, data.birth_date, own=own)


def save_person(data: PersonData, found: Person | None, user: Actor | None) -> Person:
    """Creates the person or fills in what was missing; data entered once is kept."""
    fields = {
        "first_name": data.first_name.strip(),
        "last_name": data.last_name.strip(),
        "birth_date": data.birth_date,
        "country": data.country.upper(),
        "gender": data.gender,
        "ladder_average": data.ladder_average,
        "email": data.email,
    }
    if found is None:
        return Person.objects.create(user=user, **fields)
    changed = []
    for name, value in fields.items():
        if value not in (None, "") and getattr(found, name) in (None, ""):
            setattr(found, name, value)
            changed.append(name)
    if changed:
        found.save(update_fields=changed)
    return found
