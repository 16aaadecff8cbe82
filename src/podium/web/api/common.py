"""What the API's operations share: finding the event, stage and round a path names, who the
caller is there, paging, and the error answers each operation documents.

Vocabulary:
- visible event: any event not in draft; a draft one only for a token of that event (else 404,
  so nothing about it leaks).
- staff caller: a token of the event whose user is still its organizer, head referee or
  referee; they read what the event's staff read (drafts, the problems of a table).
- page: ``?limit=`` (1 to ``MAX_LIMIT``, ``DEFAULT_LIMIT`` when absent) and ``?offset=``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Schema

from podium.web.api.auth import caller_token
from podium.web.api.errors import ApiError
from podium.web.api.schemas import Error
from podium.web.kernel.roles import is_staff
from podium.web.models import ApiToken, Event

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
MAX_OFFSET = 1_000_000
MAX_ROUND = 999

# 400: a query parameter with a control character or given twice (``kernel.limits``); 503:
# the database does not answer (with Retry-After).
READ_ERRORS: dict[int, Any] = {
    400: Error, 401: Error, 404: Error, 422: Error, 429: Error, 503: Error,
}  # fmt: skip
WRITE_ERRORS: dict[int, Any] = {**READ_ERRORS, 403: Error, 409: Error}
# Reads work without a token too: the empty requirement makes the token optional in OpenAPI.
OPTIONAL_TOKEN = {"security": [{}]}


class Paging(Schema):
    limit: int = Field(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT)
    offset: int = Field(0, ge=0, le=MAX_OFFSET)


def page(items: QuerySet[Any] | list[Any], paging: Paging) -> tuple[int, list[Any]]:
    """The count of all items and the slice ``paging`` asks for."""
    count = items.count() if isinstance(items, QuerySet) else len(items)
    return count, list(items[paging.offset : paging.offset + paging.limit])


def staff_token(token: ApiToken | None, event: Event) -> bool:
    return token is not None and token.event_id == event.pk and is_staff(token.user, event)


def read_event(request: HttpRequest, slug: str) -> tuple[Event, bool]:
    """The event the path names, and whether the caller reads it as its staff."""
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise Http404
    staff = staff_token(caller_token(request), event)
    if event.status == Event.Status.DRAFT and not staff:
        raise Http404
    return event, staff


def write_event(request: HttpRequest, slug: str) -> tuple[Event, ApiToken]:
    """The event the path names, for a write with a token of this event whose user is staff."""
    token = caller_token(request)
    event = Event.objects.filter(slug=slug).first()
    if token is None or event is None:
        raise Http404
    if token.event_id != event.pk:
        if event.status == Event.Status.DRAFT:
            raise Http404
        raise ApiError(403, "wrong-event", _("This API token belongs to another event."))
    if not is_staff(token.user, event):
        raise ApiError(
            403,
            "not-staff",
            _("The user this API token acts as is no longer a referee or organizer here."),
        )
    return event, token
