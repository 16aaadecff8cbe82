"""Who calls the API: a holder of an event's API token, or anyone (reads only, rate-limited).

Vocabulary:
- bearer token: the secret of an API token (``podium.web.models.tokens``) sent as
  ``Authorization: Bearer <secret>``. A request with a secret that is unknown, revoked or whose
  user was deactivated is refused (401), also where anonymous reads are allowed: a program
  should learn that its token no longer works rather than silently see less.
- anonymous: a read without ``Authorization``; it sees what the public pages show, and counts
  against its IP address's limit (``podium.web.api.limits``).
- caller's token: ``request.auth`` — the ``ApiToken``, or ``ANONYMOUS``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja.security import HttpBearer

from podium.web.api.errors import BEARER_CHALLENGE, ApiError
from podium.web.api.limits import count_anonymous, count_token
from podium.web.events.selectors.tokens import token_of_secret
from podium.web.events.services.tokens import token_used
from podium.web.models import ApiToken


class _Anonymous:
    """``request.auth`` of a read without a token (truthy, so Ninja lets it through)."""

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "ANONYMOUS"


ANONYMOUS = _Anonymous()


def _refuse(request: HttpRequest, code: str, message: str) -> ApiError:
    count_anonymous(request)  # a wrong token counts like no token (429 before 401 if over)
    return ApiError(401, code, message, headers=BEARER_CHALLENGE)


class BearerToken(HttpBearer):
    """An event's API token in ``Authorization: Bearer …``; ``optional``: anyone may read."""

    def __init__(self, *, optional: bool = False) -> None:
        super().__init__()
        self.optional = optional

    def __call__(self, request: HttpRequest) -> Any:
        header = (request.headers.get(self.header) or "").strip()
        if not header:
            count_anonymous(request)
            return ANONYMOUS if self.optional else None
        scheme, _space, secret = header.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise _refuse(
                request, "unauthorized", _("Send the token as: Authorization: Bearer <token>.")
            )
        return self.authenticate(request, secret.strip())

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken:
        found = token_of_secret(token)
        if found is None:
            raise _refuse(request, "token-unknown", _("This API token is not known."))
        if found.revoked_at is not None:
            raise _refuse(
                request, "token-revoked", _("This API token was revoked by the organizer.")
            )
        if not found.user.is_active:
            raise _refuse(
                request, "token-inactive", _("The user this API token acts as is deactivated.")
            )
        count_token(found.pk)
        token_used(token=found)
        return found


def caller_token(request: HttpRequest) -> ApiToken | None:
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, ApiToken) else None
