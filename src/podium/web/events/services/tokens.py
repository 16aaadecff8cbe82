"""Creating and revoking API tokens (organizers only), and noting when one is used.

Vocabulary:
- API token, secret, revoked, last used: see ``podium.web.models.tokens``; holder: see
  ``podium.web.events.selectors.tokens``.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.web.events.selectors.tokens import holders, secret_hash
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.text import limit
from podium.web.models import ApiToken, Event

PREFIX = "podium_"
MAX_NAME = limit(ApiToken, "name")  # the column's length
# Noting every use would make every API request a write; once a minute says enough.
USE_NOTED_EVERY = dt.timedelta(minutes=1)


def new_secret() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def token_create(
    *, event: Event, name: str, user: Any, by: Any, now: dt.datetime | None = None
) -> tuple[ApiToken, str]:
    """A new token of the event acting as ``user``; returns it and its secret (shown once)."""
    now = now or timezone.now()
    name = (name or "").strip()
    with transaction.atomic():
        event = locked_event(event.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer of this event may create API tokens."))
        if not name or len(name) > MAX_NAME:
            raise Refused(
                _("Name the token (1 to %(max)d characters), e.g. “lane 3 scoring machine”.")
                % {"max": MAX_NAME},
                field="name",
            )
        if ApiToken.objects.filter(event=event, name=name, revoked_at__isnull=True).exists():
            raise Refused(
                _("An active token is already named “%(name)s”; choose another name.")
                % {"name": name},
                field="name",
            )
        if user is None or not holders(event, by).filter(pk=user.pk).exists():
            raise Refused(
                _(
                    "A token acts as a referee or head referee of this event, or as you; "
                    "appoint the user first."
                ),
                field="user",
            )
        secret = new_secret()
        token = ApiToken.objects.create(
            event=event, name=name, user=user, secret_hash=secret_hash(secret), created_by=by,
            created_at=now,
        )  # fmt: skip
        audit(
            event=event, actor=by, action="token.create", target=token, token=token.pk,
            name=name, user=user.get_username(),
        )  # fmt: skip
    return token, secret


def token_revoke(*, token: ApiToken, by: Any, now: dt.datetime | None = None) -> ApiToken:
    """Revokes the token from now on; revoking it again changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().select_related("event").get(pk=token.pk)
        if not is_organizer(by, token.event):
            raise Refused(_("Only an organizer of this event may revoke API tokens."))
        if token.revoked_at is not None:
            return token
        token.revoked_at = now
        token.revoked_by = by
        token.save(update_fields=["revoked_at", "revoked_by"])
        audit(
            event=token.event, actor=by, action="token.revoke", target=token, token=token.pk,
            name=token.name,
        )  # fmt: skip
    return token


def token_used(*, token: ApiToken, now: dt.datetime | None = None) -> None:
    """Notes that the token was used (at most once a minute; bookkeeping, not audited)."""
    now = now or timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < USE_NOTED_EVERY:
        return
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    token.last_used_at = now
