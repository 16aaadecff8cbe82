"""The demo: four events, one per preset, with generated people, for a newcomer to click through.

Everything comes from fixed seeds, so every run builds the same people. Loading is idempotent:
an event whose slug exists is left alone, and the demo's accounts (``accounts``) are created
only when missing. One module per event:

- ``cz-jigsaw`` (``jigsaw``): registration closed, individuals full with a waiting list, Czech
  entrants with foreigners from the neighbouring countries, groups A/B drawn by the draws service.
- ``it-puzzle-party`` (``puzzle_party``): registration open (the window is moved around the day
  the demo is first loaded, so that a newcomer can register), pairs approved with their tables
  and some pending.
- ``cba-qualifier`` (``bowling``): registration closed, three squads, men and women with ladder
  averages, each in the division the rulebook gives for the average (or the lowest when not on
  the ladder).
- ``deti-kolomny`` (``club``): registration open all season, scored teams and two teams outside
  the competition.

Their people come from ``people``, their events and entries are made with ``building``. Each
event also has most of a round's results already in, and a few left for a newcomer to record
live (``podium.web.demo.results``).

- reset: the four demo events wiped — everything they hold, and the generated people nobody
  else refers to — and loaded again as new (``podium serve --demo --reset``); never in
  production, where a slug like the demo's may be a real event.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from django.db import transaction

from podium.web.demo import bowling, club, jigsaw, puzzle_party
from podium.web.demo.accounts import load_accounts
from podium.web.demo.building import Summary
from podium.web.models import Event, Person

LOADERS: tuple[tuple[str, Callable[[dict[str, Any], Summary], Event]], ...] = (
    ("cz-jigsaw-2027", jigsaw.load_cz_jigsaw),
    ("puzzle-party", puzzle_party.load_it_puzzle_party),
    ("cba-kvalifikace-2012", bowling.load_cba_qualifier),
    ("deti-kolomny-xv", club.load_deti_kolomny),
)


class DemoRefused(RuntimeError):
    """The demo may not be reset here (a production server)."""


def _wipe(event: Event) -> None:
    """Deletes the event and everything it holds, the rows that point at others first."""
    from django.db.models import Q

    from podium.web.files.archive import KINDS

    rows = {}
    for _kind, model, paths in KINDS:
        where = Q()
        for path in paths:
            where |= Q(**{path: event})
        rows[model] = model.objects.filter(where).distinct()
    people = set(rows[Person].filter(user__isnull=True).values_list("pk", flat=True))
    for _kind, model, _paths in reversed(KINDS):
        if model is Person:
            continue
        # pks first: a filter across the rows being deleted would lose its own trail.
        pks = list(rows[model].values_list("pk", flat=True))
        left = model.objects.filter(pk__in=pks)
        # A row may name another of its kind (PROTECT): a correction the result it replaces, a
        # question its replacement. Delete those nobody names first, until none is left.
        links = [
            f.attname
            for f in model._meta.concrete_fields
            if f.is_relation and f.related_model is model
        ]
        while left.exists():
            named = {pk for name in links for pk in left.values_list(name, flat=True) if pk}
            left.exclude(pk__in=named).delete()
    event.delete()
    Person.objects.filter(
        pk__in=people, memberships__isnull=True, sanctions__isnull=True, bans__isnull=True
    ).delete()


@transaction.atomic
def reset_demo() -> Summary:
    """Wipes the four demo events and loads them again (see the vocabulary)."""
    from django.conf import settings

    if getattr(settings, "PRODUCTION", False):
        raise DemoRefused(
            "the demo is never reset on a production server: its events' slugs may be real ones"
        )
    for event in Event.objects.filter(slug__in=[slug for slug, _loader in LOADERS]):
        _wipe(event)
    return load_demo()


@transaction.atomic
def load_demo(only: Collection[str] = ()) -> Summary:
    """Create what is missing of the demo (of the events ``only`` names, when given); leave
    everything that exists as it is."""
    summary = Summary()
    accounts = load_accounts()
    for slug, loader in LOADERS:
        if only and slug not in only:
            continue
        if Event.objects.filter(slug=slug).exists():
            summary.skipped.append(slug)
            continue
        loader(accounts, summary)
        summary.created.append(slug)
    return summary
