"""Events: creating one from a rulebook, appointing its staff, its squads and its status.

Vocabulary:
- rulebook source: a preset (by key) or the text of an uploaded YAML document; exactly one.
- rulebook problems: every problem the loader and the engine found in an uploaded rulebook, each
  with its line and field path; an event is created only from a rulebook with none.
- appointment: a role (organizer, head referee, referee, jury) given to a user for ONE event,
  by one of its organizers.
- squad: a bowling round with its own start and capacity (ČBA).
- edit: after creation the organizers change the event's title, start, time zone, venue and
  language, and settings of its rulebook — the registration window and cap, each category's
  cap, each fee's price — checked like an upload (the loader, then the engine). The whole
  rulebook may be replaced only while the event is a draft. Once entries exist, a cap may not
  fall below the entries already approved, a fee with payments recorded keeps its price, and a
  replacement keeps every category that has entries.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from podium.engine.validate import check_rulebook
from podium.rules.edit import SettingPath, Value, with_settings
from podium.rules.loader import PRESETS, RulebookError, RulebookProblem, parse, preset_text
from podium.rules.moving import moved_to
from podium.rules.schema import Rulebook
from podium.web.events.selectors.accounts import may_create_events
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.texts import rt, shown_value
from podium.web.models import Entry, Event, EventRole, Payment, Squad


class RulebookRefused(Refused):
    """An uploaded rulebook with problems; ``problems`` lists every one of them."""

    def __init__(self, problems: list[RulebookProblem], *, field: str = "rulebook_file") -> None:
        self.problems = problems
        super().__init__(
            _("The rulebook has %(count)d problem(s); nothing was created.")
            % {"count": len(problems)}
            if field == "rulebook_file"
            else _("The rulebook has %(count)d problem(s); nothing was changed.")
            % {"count": len(problems)},
            field=field,
        )


def checked_rulebook(text: str, filename: str, *, field: str = "rulebook_file") -> Rulebook:
    """The rulebook of ``text`` read and checked as an upload is: by the loader, then by the
    engine; every problem refused at once, with its line and field path."""
    try:
        rulebook = parse(text, filename)
    except RulebookError as exc:
        raise RulebookRefused(list(exc.problems), field=field) from None
    engine_problems = check_rulebook(rulebook)
    if engine_problems:
        raise RulebookRefused(
            [
                RulebookProblem(filename, None, p.where, shown_value(p.message))
                for p in engine_problems
            ],
            field=field,
        )
    return rulebook


def _check_basics(*, title: str, timezone: str, language: str, starts_at: dt.datetime) -> None:
    """What creating and editing an event check alike."""
    if not title.strip():
        raise Refused(_("An event needs a title."), field="title")
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
    _check_basics(title=title, timezone=timezone, language=language, starts_at=starts_at)
    if not slug or slugify(slug) != slug:
        raise Refused(_("Use lower-case letters, digits and hyphens in the address."), field="slug")
    if Event.objects.filter(slug=slug).exists():
        raise Refused(_("An event with this address already exists."), field="slug")
    text, filename = _rulebook_text(preset, rulebook_text)
    checked_rulebook(text, filename)
    if preset:  # a preset's dates were written for its own year's event: moved to this one's
        text = moved_to(text, starts_at.astimezone(zoneinfo.ZoneInfo(timezone)).date())
    rulebook = checked_rulebook(text, filename)
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


def _approved(event: Event) -> dict[str, int]:
    """The approved (confirmed) entries per category, in one query."""
    counts: dict[str, int] = {}
    for category in event.entries.filter(status=Entry.Status.CONFIRMED).values_list(
        "category", flat=True
    ):
        counts[category] = counts.get(category, 0) + 1
    return counts


def _setting_changes(
    before: Rulebook,
    after: Rulebook,
    *,
    registration_opens: dt.date | None,
    registration_closes: dt.date | None,
    registration_cap: int | None,
    caps: Mapping[str, int | None],
    fees: Mapping[str, Decimal],
) -> dict[SettingPath, Value]:
    """The settings typed differently from ``before`` (what the form showed), as changes of
    ``after`` (the same rulebook, or its replacement while a draft)."""
    changes: dict[SettingPath, Value] = {}
    if registration_opens != before.registration.opens:
        changes[("registration", "opens")] = registration_opens
    if registration_closes != before.registration.closes:
        changes[("registration", "closes")] = registration_closes
    if registration_cap != before.registration.cap:
        changes[("registration", "cap")] = registration_cap
    keys = [c.key for c in after.categories]
    for key, cap in caps.items():
        if cap == before.category(key).cap and any(c.key == key for c in before.categories):
            continue
        if key not in keys:
            raise Refused(_("Unknown category “%(key)s”.") % {"key": key}, field=f"cap_{key}")
        changes[("categories", keys.index(key), "cap")] = cap
    old_prices = {f.key: f.price.amount for f in before.fees}
    fee_keys = [f.key for f in after.fees]
    for key, amount in fees.items():
        if old_prices.get(key) == amount:
            continue
        if key not in fee_keys:
            raise Refused(_("Unknown fee “%(key)s”.") % {"key": key}, field=f"fee_{key}")
        changes[("fees", fee_keys.index(key), "price", "amount")] = amount
    return changes


def _check_settings(
    *,
    registration_opens: dt.date | None,
    registration_closes: dt.date | None,
    registration_cap: int | None,
    caps: Mapping[str, int | None],
    fees: Mapping[str, Decimal],
) -> None:
    """The typed settings, each refused on its own field before the rulebook is read again."""
    if registration_opens and registration_closes and registration_opens > registration_closes:
        raise Refused(
            _("Registration would close (%(closes)s) before it opens (%(opens)s).")
            % {"closes": registration_closes.isoformat(), "opens": registration_opens.isoformat()},
            field="registration_closes",
        )
    for field, cap in [("registration_cap", registration_cap)] + [
        (f"cap_{key}", cap) for key, cap in caps.items()
    ]:
        if cap is not None and cap < 1:
            raise Refused(_("A cap is at least 1 (leave it empty for none)."), field=field)
    for key, amount in fees.items():
        if amount < 0:
            raise Refused(_("A price cannot be negative."), field=f"fee_{key}")


def _check_entries(event: Event, before: Rulebook, after: Rulebook) -> None:
    """What cannot change once entries exist (see the vocabulary)."""
    approved = _approved(event)
    used = set(event.entries.values_list("category", flat=True).distinct())
    keys = {c.key for c in after.categories}
    for key in sorted(used - keys):
        raise Refused(
            _("Entries exist in the category “%(key)s”; the new rulebook must keep it.")
            % {"key": key},
            field="rulebook_text",
        )
    for category in after.categories:
        cap = category.cap if category.cap is not None else after.registration.cap
        count = approved.get(category.key, 0)
        if cap is not None and cap < count:
            field = f"cap_{category.key}" if category.cap is not None else "registration_cap"
            raise Refused(
                _(
                    "%(category)s: %(count)d entries are already approved; the cap cannot be "
                    "lower than %(count)d."
                )
                % {"category": rt(category.title), "count": count},
                field=field,
            )
    old_prices = {f.key: f.price for f in before.fees}
    changed = [f.key for f in after.fees if f.key in old_prices and old_prices[f.key] != f.price]
    paid = set(
        Payment.objects.filter(entry__event=event, fee_key__in=changed)
        .values_list("fee_key", flat=True)
        .distinct()
    )
    for fee in after.fees:
        if fee.key in paid:
            raise Refused(
                _("Payments of “%(fee)s” are recorded; its price cannot change any more.")
                % {"fee": rt(fee.title)},
                field=f"fee_{fee.key}",
            )


def _new_text(event: Event, rulebook_text: str | None) -> tuple[str, bool]:
    """The rulebook text the edit starts from, and whether it replaces the event's own (only a
    draft's may be replaced)."""
    text = event.rulebook_text
    replaced = rulebook_text is not None and rulebook_text.strip() != text.strip()
    if replaced:
        if event.status != Event.Status.DRAFT:
            raise Refused(
                _(
                    "The rulebook can be replaced only while the event is a draft; it is "
                    "“%(status)s”. Its dates, caps and fees can still be changed here."
                )
                % {"status": event.get_status_display()},
                field="rulebook_text",
            )
        text = (rulebook_text or "").rstrip("\n") + "\n"  # a form strips the last newline
    return text, replaced


def _save_changes(event: Event, fields: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """Saves the fields whose value changes; answers each of them, (before, after)."""
    changed = {
        name: (getattr(event, name), value)
        for name, value in fields.items()
        if getattr(event, name) != value
    }
    if not changed:
        return changed
    for name, (_before, value) in changed.items():
        setattr(event, name, value)
    event.save(update_fields=list(changed))
    event.__dict__.pop("rulebook", None)  # read again from the new text
    return changed


def event_update(
    *,
    event: Event,
    by: Any,
    title: str,
    starts_at: dt.datetime,
    timezone: str,
    venue: str,
    language: str,
    registration_opens: dt.date | None,
    registration_closes: dt.date | None,
    registration_cap: int | None,
    caps: Mapping[str, int | None],
    fees: Mapping[str, Decimal],
    rulebook_text: str | None = None,
) -> Event:
    """Edits the event (see the vocabulary); the audit entry lists each change, before and
    after. Nothing is saved when anything is refused."""
    with transaction.atomic():
        event = locked_event(event.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer of this event may edit it."))
        _check_basics(title=title, timezone=timezone, language=language, starts_at=starts_at)
        _check_settings(
            registration_opens=registration_opens,
            registration_closes=registration_closes,
            registration_cap=registration_cap,
            caps=caps,
            fees=fees,
        )
        before = event.rulebook
        text, replaced = _new_text(event, rulebook_text)
        base = checked_rulebook(text, "rulebook.yaml", field="rulebook_text")
        changes = _setting_changes(
            before,
            base,
            registration_opens=registration_opens,
            registration_closes=registration_closes,
            registration_cap=registration_cap,
            caps=caps,
            fees=fees,
        )
        day = starts_at.astimezone(zoneinfo.ZoneInfo(timezone)).date()
        if base.event_date is not None and base.event_date != day:
            # Ages and the rules page count on the rulebook's event day: the event's own.
            changes[("event_date",)] = day
        text = with_settings(text, changes)
        after = checked_rulebook(text, "rulebook.yaml", field="rulebook_text")
        _check_entries(event, before, after)
        fields = {
            "title": title.strip(),
            "starts_at": starts_at,
            "timezone": timezone,
            "venue": venue.strip(),
            "language": language,
            "rulebook_text": text,
            "rulebook_key": after.key,
        }
        changed = _save_changes(event, fields)
        if not changed:
            return event
        shown = {
            name: [str(old), str(new)]
            for name, (old, new) in changed.items()
            if name != "rulebook_text"
        }
        audit(
            event=event,
            actor=by,
            action="event.update",
            target=event,
            changes=shown,
            settings={".".join(map(str, p)): str(v) for p, v in changes.items()},
            rulebook="replaced" if replaced else "kept" if not changes else "settings changed",
        )
    return event
