"""One file with everything about an event, to move it to another machine or to keep it.

Vocabulary:
- archive: a JSON document — ``format``, ``version``, when it was written, the event (with its
  rulebook text) and one list of rows per kind: roles, people, squads, entries and their
  members, money, presence, draws, rounds and their signals, results with their agreements,
  second entries and verifications, publications with their frozen tables, table steps,
  advancements, appeals with their verdicts (and the teams credited) and further appeals,
  sanctions, bans, withdrawals, the host teams' question submissions with their questions, and
  the audit trail.
- key: a row's place in its list, from 1, in the order the rows were made; a reference to
  another row is that row's key, a reference to a user is the user's name. So an archive says
  nothing about the database it came from, and exporting an imported event gives the same
  file again (but for the slug and the time it was written).
- kind: one list of the archive and the model it holds, in an order where every reference
  points to an earlier kind or to a row of the same kind (a correction to the result it
  replaces; a question to the later one handed in to replace it, set once all are made).
- version: 2 added the appeals, discipline and question kinds; a version 1 archive is read
  with none of them.
- user: referred to by name only. Importing finds a user of that name or makes one without a
  password (who can be given one by an administrator); roles come with them. A person who is a
  user's own profile is the same person on the new machine; other people are made anew.
- shape: before anything is written, every row is checked against its model: references are
  keys (or user names), numbers fit their columns, dates parse, choices are known, and the
  JSON fields hold what the engine reads (``results[].cells`` an object of texts); the first
  row that does not is refused by its path, e.g. ``results[3].cells: expected an object of
  texts``. The archive file itself is read with the limits of
  ``podium.web.kernel.limits`` (its size, and its nesting before it is decoded).
- copy: an archive imported under another address than its own (``--slug``) beside the
  event it copies: a draft until an organizer publishes it, so the public list and a player's
  *My entries* do not show the same event twice (a move keeps the event's status).
- left out: API tokens (secrets belong to one installation) and the club's question database
  imported from earlier packets (it belongs to the club, not to one event); everything else is
  kept.
- typed text: a text value is refused, naming its kind, row and field, where the database
  column cannot hold it or a person should not have typed it (``podium.web.kernel.text``): longer
  than the column, or with a control or text-direction character.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

from podium.rules.loader import RulebookError, parse
from podium.web.kernel.text import text_problem
from podium.web.models import (
    Advancement,
    Agreement,
    Appeal,
    AuditEntry,
    Ban,
    Cancellation,
    CheckIn,
    Draw,
    Entry,
    EntryMember,
    Event,
    EventRole,
    FurtherAppeal,
    Payment,
    Person,
    Publication,
    Question,
    QuestionSubmission,
    Result,
    Round,
    Sanction,
    SeatOffer,
    SecondEntry,
    Signal,
    Squad,
    TableStep,
    Verdict,
    Verification,
    Withdrawal,
)

FORMAT = "podium-event"
VERSION = 2
READS = (1, 2)
SINCE_2 = frozenset(
    {"appeals", "verdicts", "further_appeals", "sanctions", "bans", "withdrawals",
     "submissions", "questions"}
)  # fmt: skip

# (kind, model, the filters that find the event's rows: a row matching any of them)
KINDS: tuple[tuple[str, type[models.Model], tuple[str, ...]], ...] = (
    ("roles", EventRole, ("event",)),
    ("people", Person, ("memberships__entry__event", "sanctions__event", "bans__event")),
    ("squads", Squad, ("event",)),
    ("entries", Entry, ("event",)),
    ("members", EntryMember, ("entry__event",)),
    ("payments", Payment, ("entry__event",)),
    ("cancellations", Cancellation, ("entry__event",)),
    ("check_ins", CheckIn, ("entry__event",)),
    ("seat_offers", SeatOffer, ("absent__event",)),
    ("draws", Draw, ("event",)),
    ("rounds", Round, ("event",)),
    ("signals", Signal, ("event",)),
    ("results", Result, ("event",)),
    ("agreements", Agreement, ("result__event",)),
    ("second_entries", SecondEntry, ("result__event",)),
    ("verifications", Verification, ("result__event",)),
    ("publications", Publication, ("event",)),
    ("table_steps", TableStep, ("event",)),
    ("advancements", Advancement, ("event",)),
    ("appeals", Appeal, ("event",)),
    ("verdicts", Verdict, ("appeal__event",)),
    ("further_appeals", FurtherAppeal, ("appeal__event",)),
    ("sanctions", Sanction, ("event",)),
    ("bans", Ban, ("event",)),
    ("withdrawals", Withdrawal, ("entry__event",)),
    ("submissions", QuestionSubmission, ("event",)),
    ("questions", Question, ("submission__event",)),
    ("audit", AuditEntry, ("event",)),
)
KIND_OF = {model: kind for kind, model, _ in KINDS}
EVENT_FIELDS = (
    "slug", "title", "rulebook_key", "rulebook_text", "starts_at", "timezone", "venue",
    "language", "status", "created_at",
)  # fmt: skip


class ArchiveError(ValueError):
    """An archive that cannot be imported, with the reason."""


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _rows(event: Event, model: type[models.Model], paths: tuple[str, ...]) -> list[models.Model]:
    found = Q()
    for path in paths:
        found |= Q(**{path: event})
    return list(model.objects.filter(found).distinct().order_by("pk"))  # type: ignore[attr-defined]


def _many(model: type[models.Model]) -> list[models.ManyToManyField[Any, Any]]:
    return list(model._meta.many_to_many)  # type: ignore[arg-type]


def export_event(event: Event) -> dict[str, Any]:
    """The archive of ``event`` (see the vocabulary)."""
    keys: dict[type[models.Model], dict[int, int]] = {}
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "event": {name: _plain(getattr(event, name)) for name in EVENT_FIELDS},
    }
    for kind, model, path in KINDS:
        rows = _rows(event, model, path)
        keys[model] = {row.pk: n for n, row in enumerate(rows, 1)}
        out = []
        for row in rows:
            data: dict[str, Any] = {}
            for field in _fields(model):
                value = getattr(row, field.attname)
                if field.is_relation and value is not None:
                    target = field.related_model
                    if target is Event:
                        continue
                    if target is get_user_model():
                        value = getattr(row, field.name).get_username()
                    else:
                        value = keys[target][value]  # type: ignore[index]
                elif field.is_relation and field.related_model is Event:
                    continue
                data[field.name] = _plain(value)
            for many in _many(model):
                linked = keys[many.related_model]  # type: ignore[index]
                data[many.name] = sorted(linked[pk] for pk in _linked(row, many))
            out.append(data)
        document[kind] = out
    return document


def _linked(row: models.Model, many: models.ManyToManyField[Any, Any]) -> list[int]:
    return list(getattr(row, many.name).values_list("pk", flat=True))


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True)


@contextmanager
def _kept_times(model: type[models.Model]) -> Iterator[None]:
    """Lets rows keep the times they were made at (``auto_now_add`` would set "now")."""
    stamped = [f for f in _fields(model) if getattr(f, "auto_now_add", False)]
    for field in stamped:
        field.auto_now_add = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for field in stamped:
            field.auto_now_add = True  # type: ignore[attr-defined]


def _value(field: models.Field[Any, Any], value: Any) -> Any:
    if value is None:
        return None
    if isinstance(field, models.DateTimeField):
        return dt.datetime.fromisoformat(value)
    if isinstance(field, models.DateField):
        return dt.date.fromisoformat(value)
    if isinstance(field, models.DecimalField):
        return Decimal(value)
    return value


def _check_texts(
    where: str, fields: dict[str, models.Field[Any, Any]], data: dict[str, Any]
) -> None:
    """Refuses a text value that cannot be saved as it is (see ``typed text``)."""
    for name, value in data.items():
        field = fields.get(name)
        if isinstance(value, str) and isinstance(field, models.CharField | models.TextField):
            multiline = isinstance(field, models.TextField)
            problem = text_problem(value, most=field.max_length, multiline=multiline)
            if problem is not None:
                raise ArchiveError(f"{where}, {name}: {problem}")


def _user(name: str, users: dict[str, Any]) -> Any:
    if name not in users:
        model = get_user_model()
        user = model.objects.filter(username=name).first()
        if user is None:
            user = model.objects.create_user(name)
            user.set_unusable_password()
            user.save(update_fields=["password"])
        users[name] = user
    return users[name]


def _check(document: Any) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ArchiveError("this is not a Podium event archive")
    version = document.get("version")
    if version not in READS:
        raise ArchiveError(
            f"archive version {version!r}; this Podium reads versions {', '.join(map(str, READS))}"
        )
    needed = [kind for kind, _, _ in KINDS if version >= 2 or kind not in SINCE_2]
    missing = [k for k in ("event", *needed) if k not in document]
    if missing:
        raise ArchiveError(f"the archive has no {', '.join(missing)}")


# The JSON fields and what each holds (the engine reads them as such after an import).
# A result's cells are texts as typed (the engine parses them; a number or a boolean there
# would fail the standings).
JSON_SHAPES: dict[tuple[str, str], tuple[str, Any]] = {
    ("results", "cells"): ("an object of texts", lambda v: _texts(v)),
    ("second_entries", "cells"): ("an object of texts", lambda v: _texts(v)),
    ("results", "detail"): ("an object", lambda v: isinstance(v, dict)),
    ("second_entries", "differences"): ("a list", lambda v: isinstance(v, list)),
    ("draws", "result"): ("an object", lambda v: isinstance(v, dict)),
    ("audit", "data"): ("an object", lambda v: isinstance(v, dict)),
    ("sanctions", "items"): ("a list", lambda v: isinstance(v, list)),
    ("publications", "table"): ("an object or null", lambda v: v is None or isinstance(v, dict)),
}
INTEGER_RANGE = (-(2**63), 2**63 - 1)  # the widest column; narrower ones are checked below


def _texts(value: Any) -> bool:
    return isinstance(value, dict) and all(v is None or isinstance(v, str) for v in value.values())


def _expected(kind: str, field: models.Field[Any, Any], value: Any) -> str | None:
    """What ``value`` should be for ``field`` of a row of ``kind``, when it is not that."""
    if value is None:
        return None if field.null or isinstance(field, models.JSONField) else "a value, not null"
    if field.is_relation:
        if field.related_model is get_user_model():
            return None if isinstance(value, str) else "a user name"
        return None if isinstance(value, int) and not isinstance(value, bool) else "a row key"
    if isinstance(field, models.JSONField):
        shape = JSON_SHAPES.get((kind, field.name))
        return None if shape is None or shape[1](value) else shape[0]
    if isinstance(field, models.BooleanField):
        return None if isinstance(value, bool) else "true or false"
    if isinstance(field, models.IntegerField):
        low, high = INTEGER_RANGE
        if isinstance(field, models.PositiveIntegerField | models.PositiveSmallIntegerField):
            low = 0
        if isinstance(field, models.SmallIntegerField | models.PositiveSmallIntegerField):
            high = 32767
        elif not isinstance(field, models.BigIntegerField):
            high = 2**31 - 1
        ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        return None if ok else f"a whole number from {low} to {high}"
    if isinstance(field, models.DateTimeField | models.DateField):
        parse = dt.datetime if isinstance(field, models.DateTimeField) else dt.date
        try:
            parse.fromisoformat(value)
        except (TypeError, ValueError):
            return "an ISO date" + (" and time" if parse is dt.datetime else "")
        return None
    if isinstance(field, models.DecimalField):
        try:
            number = Decimal(str(value)) if isinstance(value, str | int) else None
        except ArithmeticError:
            number = None
        if number is None or not number.is_finite() or len(number.as_tuple().digits) > 30:
            return "a decimal number as text"
        return None
    if isinstance(field, models.CharField | models.TextField):
        if not isinstance(value, str):
            return "text"
        known = {str(k) for k, _label in field.flatchoices}
        if field.choices and value not in known and not (field.blank and value == ""):
            return "one of " + ", ".join(sorted(known))
    return None


def _check_rows(document: dict[str, Any]) -> None:
    """Every list and row of the archive has the shape its model needs, before anything is
    written: the first that does not is named by its path (``results[3].cells``)."""
    if not isinstance(document["event"], dict):
        raise ArchiveError("event: expected an object")
    event_fields = {f.name: f for f in _fields(Event)}
    for name in EVENT_FIELDS:
        if name in event_fields and (
            found := _expected("event", event_fields[name], document["event"].get(name))
        ):
            raise ArchiveError(f"event.{name}: expected {found}")
    for kind, model, _paths in KINDS:
        rows = document.get(kind, [])
        if not isinstance(rows, list):
            raise ArchiveError(f"{kind}: expected a list")
        by_name = {f.name: f for f in _fields(model)}
        many = [m.name for m in _many(model)]
        needed = [f.name for f in by_name.values() if _needed(f)]
        for n, row in enumerate(rows):
            if not isinstance(row, dict):
                raise ArchiveError(f"{kind}[{n}]: expected an object")
            unknown = [str(k)[:40] for k in row if k not in by_name and k not in many]
            if unknown:
                raise ArchiveError(f"{kind}[{n}]: {', '.join(unknown)}: not a field of {kind}")
            missing = [name for name in needed if row.get(name) is None]
            if missing:
                raise ArchiveError(f"{kind}[{n}]: {', '.join(missing)}: missing")
            for name, value in row.items():
                field = by_name.get(name)
                if field is not None and (found := _expected(kind, field, value)):
                    raise ArchiveError(f"{kind}[{n}].{name}: expected {found}")
                if name in many and not (
                    isinstance(value, list) and all(isinstance(k, int) for k in value)
                ):
                    raise ArchiveError(f"{kind}[{n}].{name}: expected a list of row keys")


def _needed(field: models.Field[Any, Any]) -> bool:
    """A field a row cannot be made without: no default, no null, not a text (Django stores
    an empty one), and not the event itself."""
    if field.null or field.has_default() or field.auto_created or field.empty_strings_allowed:
        return False
    if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
        return False
    return not (field.is_relation and field.related_model is Event)


def import_event(document: dict[str, Any], *, slug: str | None = None) -> Event:
    """Creates the event of an archive, all or nothing; ``slug`` gives it another address."""
    _check(document)
    _check_rows(document)
    fields = dict(document["event"])
    if slug and slug != fields["slug"]:  # a copy: a draft until published
        fields["status"] = Event.Status.DRAFT
    fields["slug"] = slug or fields["slug"]
    if Event.objects.filter(slug=fields["slug"]).exists():
        raise ArchiveError(f"an event '{fields['slug']}' exists already: import it under --slug")
    try:
        parse(fields["rulebook_text"], f"archive:{fields['slug']}")
    except RulebookError as exc:
        raise ArchiveError(f"its rulebook does not load: {exc}") from None
    users: dict[str, Any] = {}
    made: dict[type[models.Model], dict[int, models.Model]] = {}
    with transaction.atomic():
        event_fields = {f.name: f for f in _fields(Event)}
        _check_texts("event", event_fields, fields)
        with _kept_times(Event):
            event = Event.objects.create(
                **{k: _value(event_fields[k], v) for k, v in fields.items()}
            )
        for kind, model, _paths in KINDS:
            made[model] = {}
            by_name = {f.name: f for f in _fields(model)}
            later: list[tuple[models.Model, str, int]] = []
            rows = document.get(kind, [])
            with _kept_times(model):
                for n, data in enumerate(rows, 1):
                    _check_texts(f"{kind} row {n}", by_name, data)
                    made[model][n] = _row(model, by_name, data, event, made, users, later)
            for row, name, key in later:
                setattr(row, name, _made(model, name, key, made))
                row.save(update_fields=[name])
            for many in _many(model):
                for n, data in enumerate(rows, 1):
                    targets = [
                        _made(model, many.name, key, made) for key in data.get(many.name, [])
                    ]
                    getattr(made[model][n], many.name).set(targets)
    return event


def _made(
    model: type[models.Model],
    name: str,
    key: Any,
    made: dict[type[models.Model], dict[int, models.Model]],
) -> models.Model:
    field = model._meta.get_field(name)
    try:
        return made[field.related_model][key]  # type: ignore[index]
    except (KeyError, TypeError):
        raise ArchiveError(
            f"{KIND_OF[model]}: {name} refers to a row the archive does not hold"
        ) from None


def _row(
    model: type[models.Model],
    fields: dict[str, models.Field[Any, Any]],
    data: dict[str, Any],
    event: Event,
    made: dict[type[models.Model], dict[int, models.Model]],
    users: dict[str, Any],
    later: list[tuple[models.Model, str, int]],
) -> models.Model:
    """One row of ``model``; a reference to a row of its own kind not yet made goes to ``later``."""
    forward: list[tuple[str, int]] = []
    values: dict[str, Any] = {}
    for name, field in fields.items():
        if field.is_relation and field.related_model is Event:
            values[name] = event
            continue
        if name not in data:
            continue
        value = data[name]
        if field.is_relation and value is not None:
            if field.related_model is get_user_model():
                values[name] = _user(value, users)
            elif field.related_model is model and value not in made[model]:
                forward.append((name, value))
            else:
                values[name] = _made(model, name, value, made)
        else:
            values[name] = _value(field, value)
    if model is Person and values.get("user") is not None:
        own = Person.objects.filter(user=values["user"]).first()
        if own is not None:
            return own  # a user's own profile: the same person on this machine
    row = model.objects.create(**values)  # type: ignore[attr-defined]
    later.extend((row, name, key) for name, key in forward)
    return row
