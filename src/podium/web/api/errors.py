"""API errors: every refusal and failure answered as JSON with a code, a message and the fields.

Vocabulary:
- error body: ``{"code", "message", "fields": {field: message}, "clause"}`` — ``code`` is stable
  for programs, ``message`` is for people (in the request's language), ``fields`` names what is
  wrong per request field (``entry``, ``games.0.rolls``, ``Idempotency-Key``) or result column
  (``g1``, ``time``), ``clause`` the rulebook clause behind a refusal.
- codes: ``invalid`` (the request does not fit the schema), ``refused`` (the rules or the state
  do not allow it), ``bad-request`` (a body that is not JSON), ``unauthorized``,
  ``token-unknown``, ``token-revoked``, ``token-inactive`` (401), ``wrong-event``,
  ``not-staff`` (403), ``not-found``, ``idempotency-conflict`` (409), ``rate-limited`` (429,
  with ``Retry-After``), ``unavailable`` (503 with ``Retry-After``: the database does not
  answer), ``server-error`` (500, logged).
- refusal: a service's ``Refused`` (422); a key used again for another submission is a conflict
  (409), because the request itself is fine and only clashes with what was stored.
- method not allowed: Ninja answers a method a path does not take with a plain-text 405 before
  any handler runs; ``json_errors`` (a middleware on ``/api/``) gives it the error body, with
  the ``Allow`` header kept (``method-not-allowed``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from podium.engine.errors import InputError
from podium.web.kernel.errors import RETRY_S, body
from podium.web.kernel.refusals import Refused
from podium.web.kernel.texts import problem_text

logger = logging.getLogger("podium.api")

# A refusal about the submission key (the service's ``field``) is a clash with a stored one.
KEY_FIELD = "idempotency_key"
KEY_HEADER = "Idempotency-Key"
BEARER_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="podium"'}

CODES = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    409: "conflict",
    422: "invalid",
    429: "rate-limited",
}


class ApiError(Exception):
    """An answer other than success, raised anywhere below an API operation."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        fields: dict[str, str] | None = None,
        clause: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields or {}
        self.clause = clause
        self.headers = headers or {}
        super().__init__(message)


def invalid(field: str, message: str) -> ApiError:
    """A request field that is wrong (422), named as the request names it."""
    return ApiError(422, "invalid", message, fields={field: message})


def _answer(api: NinjaAPI, request: HttpRequest, error: ApiError) -> HttpResponse:
    response = api.create_response(
        request, body(error.code, error.message, error.fields, error.clause), status=error.status
    )
    for name, value in error.headers.items():
        response[name] = value
    return response


def _field_name(loc: tuple[Any, ...] | list[Any]) -> str:
    """``("body", "payload", "cells", "g1")`` → ``cells.g1``; a header or query by its name."""
    parts = [str(p) for p in loc]
    if parts and parts[0] == "body":
        parts = parts[2:] if len(parts) > 2 else parts[1:]
    elif parts and parts[0] in ("query", "path", "header", "cookie"):
        parts = parts[1:]
    return ".".join(parts) or "request"


def refused_error(refused: Refused) -> ApiError:
    message = refused.message
    if refused.clause:
        message = f"{message} ({_('rulebook')}: {refused.clause})"
    if refused.field == KEY_FIELD:
        return ApiError(409, "idempotency-conflict", message, fields={KEY_HEADER: refused.message})
    fields = {refused.field: refused.message} if refused.field else {}
    return ApiError(422, "refused", message, fields=fields, clause=refused.clause)


def input_error(exc: InputError, field: str) -> ApiError:
    """The engine's problems (a roll that cannot happen…) as a refusal of ``field``."""
    text = "; ".join(problem_text(p) for p in exc.problems)
    return ApiError(422, "refused", text, fields={field: text})


def json_errors(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[..., Any]:
    """Middleware: an API 405 (see the vocabulary) as an error body."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if (
            response.status_code == 405
            and request.path.startswith("/api/")
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            allowed = response.get("Allow", "")
            message = _("%(method)s is not allowed here; this path takes %(allowed)s.") % {
                "method": request.method,
                "allowed": allowed,
            }
            answer = JsonResponse(body("method-not-allowed", message), status=405)
            answer["Allow"] = allowed
            return answer
        return response

    return middleware


def install(api: NinjaAPI) -> None:
    """Answers every exception an operation raises with an error body."""

    def api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
        return _answer(api, request, exc)

    def refused(request: HttpRequest, exc: Refused) -> HttpResponse:
        return _answer(api, request, refused_error(exc))

    def validation(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        fields: dict[str, str] = {}
        for error in exc.errors:
            fields.setdefault(_field_name(error.get("loc", ())), str(error.get("msg", "")))
        message = _("The request is not valid: %(problems)s") % {
            "problems": "; ".join(f"{f}: {m}" for f, m in fields.items())
        }
        return _answer(api, request, ApiError(422, "invalid", message, fields=fields))

    def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return _answer(api, request, ApiError(404, "not-found", _("Not found.")))

    def unauthorized(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        message = _("This needs an API token of the event: Authorization: Bearer <token>.")
        return _answer(
            api, request, ApiError(401, "unauthorized", message, headers=BEARER_CHALLENGE)
        )

    def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        code = CODES.get(exc.status_code, "error")
        return _answer(api, request, ApiError(exc.status_code, code, str(exc)))

    def engine_input(request: HttpRequest, exc: InputError) -> HttpResponse:
        return _answer(api, request, input_error(exc, "request"))

    def unavailable(request: HttpRequest, exc: Exception) -> HttpResponse:
        # The database down is no fault of the request: said so, and when to come back.
        logger.warning("API unavailable, the database does not answer: %s", request.path)
        message = _("The service is unavailable for a moment: try again in %(wait)d s.") % {
            "wait": RETRY_S
        }
        error = ApiError(503, "unavailable", message, headers={"Retry-After": str(RETRY_S)})
        return _answer(api, request, error)

    def failure(request: HttpRequest, exc: Exception) -> HttpResponse:
        logger.exception("API request failed: %s %s", request.method, request.path)
        message = _("Something went wrong on the server; the request was not completed.")
        return _answer(api, request, ApiError(500, "server-error", message))

    api.add_exception_handler(ApiError, api_error)
    api.add_exception_handler(Refused, refused)
    api.add_exception_handler(ValidationError, validation)
    api.add_exception_handler(Http404, not_found)
    api.add_exception_handler(AuthenticationError, unauthorized)
    api.add_exception_handler(HttpError, http_error)
    api.add_exception_handler(InputError, engine_input)
    api.add_exception_handler(OperationalError, unavailable)
    api.add_exception_handler(InterfaceError, unavailable)
    api.add_exception_handler(Exception, failure)
