"""The HTTP API (Django Ninja): reads of events, stages, entries and standings for anyone where
they are public, and result writes with an event's API token; OpenAPI at ``/api/openapi.json``,
its documentation at ``/api/docs`` (rendered on the server, no CDN).

Vocabulary:
- operation, error body, API token, idempotency key, anonymous use: see the modules of this
  package (``public`` reads, ``results`` writes, ``errors``, ``auth``, ``limits``).
"""

from __future__ import annotations

from ninja import NinjaAPI

from podium.web.api import public, results
from podium.web.api.docs import PlainDocs
from podium.web.api.errors import install

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
)
install(api)
api.add_router("", public.router)
api.add_router("", results.router)
