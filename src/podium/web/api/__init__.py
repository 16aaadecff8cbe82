"""The HTTP API (Django Ninja): reads of events, stages, entries and standings for anyone where
they are public, and result writes with an event's API token; OpenAPI at ``/api/openapi.json``,
its documentation at ``/api/docs`` (rendered on the server, no CDN).

Vocabulary:
- operation, error body, API token, idempotency key, anonymous use: see the modules of this
  package (``public`` reads, ``results`` writes, ``errors``, ``auth``, ``limits``).
"""

from __future__ import annotations

from typing import Any, cast

from django.http import HttpRequest
from ninja import NinjaAPI
from ninja.errors import HttpError
from ninja.parser import Parser

from podium.web.api import public, results
from podium.web.api.docs import PlainDocs
from podium.web.api.errors import install
from podium.web.kernel import limits


class BoundedParser(Parser):
    """JSON bodies read as every JSON reader of Podium's (``podium.web.kernel.limits.loads``):
    a too long integer or a lone surrogate refused with a 400 naming it, at the door."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        try:
            return cast(dict[str, Any], limits.loads(request.body))
        except limits.Unreadable as exc:
            raise HttpError(400, exc.message) from None


api = NinjaAPI(
    title="Podium",
    version="1",
    description=(
        "Events, stages, entry lists and explained standings of competitions run from their "
        "rulebooks; results written by scoring machines and referees with an event's API token."
    ),
    docs=PlainDocs(),
    docs_url="/docs",
    urls_namespace="api",
    parser=BoundedParser(),
)
install(api)
api.add_router("", public.router)
api.add_router("", results.router)
