"""Events: creating one from a rulebook, appointing its staff, its squads and its status.

Vocabulary:
- rulebook source: a preset (by key) or the text of an uploaded YAML document; exactly one.
- rulebook problems: every problem the loader and the engine found in an uploaded rulebook, each
  with its line and field path; an event is created only from a rulebook with none.
- appointment: a role (organizer, head referee, referee, jury) given to a user for ONE event,
  by one of its organizers.
- squad: a bowling round with its own start and capacity (ČBA).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from podium.engine.validate import check_rulebook
from podium.rules.loader import PRESETS, RulebookError, RulebookProblem, parse, preset_text
from podium.web.models import Event, EventRole, Squad
from podium.web.selectors.accounts import may_create_events
from podium.web.selectors.roles import is_organizer
from podium.web.selectors.texts import shown_value
from podium.web.services.base import Refused, audit


class RulebookRefused(Refused):
    """An uploaded rulebook with problems; ``problems`` lists every one of them."""

    def __init__(self, problems: list[RulebookProblem]) -> None:
        self.problems = problems
        super().__init__(
            _("The rulebook has %(count)d problem(s); nothing was created.")
            % {"count": len(problems)},
            field="rulebook_file",
        )


def creation_refusal(user: Any) -> str:
    """Why ``user`` may not create an event here, and how to ask for it."""
    return _(
        "On this site only accounts approved by an administrator may create events. Ask the "
        "site's administrator to approve your account “%(name)s” (in the administration, "
        "Users → select the account → “Approve to create events”), then come back here."
    ) % {"name": user.get_username()}


def _rulebook_text(preset: str | None, rulebook_text: str | None) -> tuple[str, str]:
    if bool(preset) == bool(rulebook_text):
        raise Refused(_("Choose a preset or upload a rulebook, not both."), field="preset")
    if preset:
        if preset not in PRESETS:
            raise Refused(_("Unknown preset “%(preset)s”.") % {"preset": preset}, field="preset")
        return preset_text(preset), f"preset:{preset}"
    return rulebook_text or "", "rulebook.yaml"


def event_create(
    *,
    organizer: Any,
    title: str,
    slug: str,
    preset: str | None = None,
    rulebook_text: str | None = None,
    starts_at: dt.datetime,
    timezone: str,
    venue: str = "",
    language: str = "en",
) -> Event:
    if organizer is None or not organizer.is_authenticated:
        raise Refused(_("Log in to create an event."))
    if not may_create_events(organizer):
        raise Refused(creation_refusal(organizer))
    if not title.strip():
        raise Refused(_("An event needs a title."), field="title")
    if not slug or slugify(slug) != slug:
        raise Refused(_("Use lower-case letters, digits and hyphens in the address."), field="slug")
    if Event.objects.filter(slug=slug).exists():
        raise Refused(_("An event with this address already exists."), field="slug")
    try:
        zoneinfo.ZoneInfo(timezone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise Refused(
            _("Unknown time zone “%(zone)s”.") % {"zone": timezone}, field="timezone"
        ) from None
    if language not in dict(settings.LANGUAGES):
        raise Refused(_("Unknown language."), field="language")
    if starts_at.tzinfo is None:
        raise Refused(_("The start needs a time zone."), field="starts_at")
    text, filename = _rulebook_text(preset, rulebook_text)
    try:
        rulebook = parse(text, filename)
    except RulebookError as exc:
        raise RulebookRefused(list(exc.problems)) from None
    engine_problems = check_rulebook(rulebook)
    if engine_problems:
        raise RulebookRefused(
            [
                RulebookProblem(filename, None, p.where, shown_value(p.message))
                for p in engine_problems
            ]
        )
    with transaction.atomic():
        event = Event.objects.create(
            slug=slug,
            title=title.strip(),
            rulebook_key=rulebook.key,
            rulebook_text=text,
            starts_at=starts_at,
            timezone=timezone,
            venue=venue.strip(),
            language=language,
        )
        EventRole.objects.create(event=event, user=organizer, role=EventRole.Role.ORGANIZER)
        audit(
            event=event,
            actor=organizer,
            action="event.create",
            target=event,
            rulebook=rulebook.key,
            source=filename,
        )
    return event


def role_appoint(*, event: Event, by: Any, user: Any, role: str) -> EventRole:
    with transaction.atomic():
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer of this event may appoint its staff."))
        if role not in EventRole.Role.values:
            raise Refused(_("Unknown role."), field="role")
        if user is None:
            raise Refused(_("No such user."), field="username")
        if EventRole.objects.filter(event=event, user=user, role=role).exists():
            raise Refused(
                _("%(user)s already has this role.") % {"user": user.get_username()},
                field="username",
            )
        appointed = EventRole.objects.create(event=event, user=user, role=role)
        audit(
            event=event,
            actor=by,
            action="role.appoint",
            target=appointed,
            user=user.get_username(),
            role=role,
        )
    return appointed


def user_named(username: str) -> Any:
    return get_user_model().objects.filter(username=username).first()


def squad_create(
    *, event: Event, by: Any, name: str, starts_at: dt.datetime, capacity: int
) -> Squad:
    with transaction.atomic():
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer of this event may add squads."))
        if not name.strip():
            raise Refused(_("A squad needs a name."), field="name")
        if event.squads.filter(name=name.strip()).exists():
            raise Refused(_("A squad with this name already exists."), field="name")
        if capacity < 1:
            raise Refused(_("A squad has room for at least one player."), field="capacity")
        if starts_at.tzinfo is None:
            raise Refused(_("The start needs a time zone."), field="starts_at")
        squad = Squad.objects.create(
            event=event, name=name.strip(), starts_at=starts_at, capacity=capacity
        )
        audit(
            event=event,
            actor=by,
            action="squad.create",
            target=squad,
            starts_at=starts_at,
            capacity=capacity,
        )
    return squad


def event_set_status(*, event: Event, by: Any, status: str) -> Event:
    with transaction.atomic():
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer of this event may change its status."))
        if status not in Event.Status.values:
            raise Refused(_("Unknown status."), field="status")
        before = event.status
        event.status = status
        event.save(update_fields=["status"])
        audit(
            event=event, actor=by, action="event.status", target=event, before=before, after=status
        )
    return event
