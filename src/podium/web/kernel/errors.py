"""Podium's own error pages: short, in the visitor's language, never a traceback.

Vocabulary:
- error page: drawn from one template with no request context, so it needs neither the
  database nor a session (it must work when they are what failed).
- framed error page: a 400, 403, 404 or a refused form (CSRF) is not a failure of Podium, so
  it keeps the site's top bar (the signed-in person's places, the language); should drawing
  the bar fail, the bare error page is shown.
- database unreachable: an error the database raised while connecting or answering; the page
  says so and asks to try again shortly (``503`` with ``Retry-After``), rather than a bare
  "server error".
"""

from __future__ import annotations

import sys
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from podium.web.kernel.languages import chosen_language, speak

RETRY_S = 30


def page(status: int, title: str, message: str) -> HttpResponse:
    html = render_to_string(
        "podium/errors/page.html", {"status": status, "title": title, "message": message}
    )
    return HttpResponse(html, status=status)


def framed(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    context = {"status": status, "title": title, "message": message}
    try:
        html = render_to_string("podium/errors/framed.html", context, request=request)
    except Exception:  # the top bar reads the session and the database: they may be what failed
        return page(status, title, message)
    return HttpResponse(html, status=status)


def bad_request(request: HttpRequest, exception: Any = None) -> HttpResponse:
    # Django's own caps on a form (kernel.limits has the body's): named, not "bad request".
    from podium.web.kernel.limits import form_limit_page

    return form_limit_page(exception) or framed(
        request, 400, _("Bad request"), _("The address or the form sent could not be read.")
    )


def forbidden(request: HttpRequest, exception: Any = None) -> HttpResponse:
    return framed(request, 403, _("Not allowed"), _("You may not open this page."))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its token, or with a stale one (``CSRF_FAILURE_VIEW``)."""
    return framed(
        request,
        403,
        _("The form has expired"),
        _(
            "The form was sent without its security token or with an old one, often after "
            "a long pause or a log-in in another tab. Go back, reload the page and send it "
            "again."
        ),
    )


def not_found(request: HttpRequest, exception: Any = None) -> HttpResponse:
    # An address that matched no view never reached the language middleware's choice.
    unprefixed = translation.get_language_from_path(request.path_info) is None
    if unprefixed and (chosen := chosen_language(request)) is not None:
        speak(request, chosen)
    return framed(request, 404, _("Page not found"), _("There is no page at this address."))


def server_error(request: HttpRequest) -> HttpResponse:
    failed = sys.exc_info()[1]
    if isinstance(failed, OperationalError | InterfaceError) or (
        isinstance(failed, DatabaseError) and "connect" in str(failed).lower()
    ):
        response = page(
            503,
            _("Results are out of reach for a moment"),
            _(
                "Podium cannot reach its database right now. Nothing you already saved is "
                "lost; please try again in a minute."
            ),
        )
        response["Retry-After"] = str(RETRY_S)
        return response
    return page(
        500,
        _("Something went wrong"),
        _("Podium could not answer this request. The error is logged; please try again."),
    )


def body(
    code: str, message: str, fields: dict[str, str] | None = None, clause: str | None = None
) -> dict[str, Any]:
    return {"code": code, "message": message, "fields": fields or {}, "clause": clause}
