"""Who may keep an answer: the one place that sets ``Cache-Control`` and ``Vary`` of every page,
so a reverse proxy or a CDN can serve the spectators and never anybody's own page.

Vocabulary:
- public kind: a URL whose answer is the same for every anonymous visitor — the standings pages,
  their polled fragments, the projector, the frozen versions, the entry lists, the draws and the
  API's reads (``PUBLIC`` names them). ``live`` ones change with the results; ``frozen`` ones (a
  published final version) never do.
- anonymous: ``podium.web.live.polls.anonymous`` — no session cookie, no pending messages, no
  ``Authorization``. Anyone else sees an answer rendered for them (their name, their forms), even
  on a public page.
- shared answer: a public kind, asked anonymously with GET or HEAD, answered without setting a
  cookie: ``public, max-age=<poll interval − 1 s>, stale-while-revalidate, stale-if-error``
  (frozen: a day), its ETag kept. It varies on ``Accept-Encoding`` alone when the address names its
  language (``/cs/…``); an unprefixed address speaks the visitor's chosen language
  (``podium.web.kernel.languages``), so it also varies on ``Accept-Language`` and ``Cookie``.
- private answer: everything else, marked ``private`` on top of what the view said — a shared
  cache never keeps it.
- stale-if-error: how long a cache may keep showing the last version while the venue is
  unreachable (a dropped line): the spectators keep the last table rather than an error.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers

from podium.web.live.polls import anonymous

LIVE, FROZEN = "live", "frozen"
API_READS = (
    "events_list", "event_get", "stages_list", "stage_get", "entries_list",
    "stage_entries_list", "standings_get",
)  # fmt: skip
LIVE_PAGES = ("stages", "stage", "table", "projector", "projector-table", "round", "round-table")
PUBLIC: dict[str, str] = {
    **{f"standings:{name}": LIVE for name in LIVE_PAGES},
    "standings:version": FROZEN,
    "event-entries": LIVE,
    "draws:public": LIVE,
    "draws:verify": FROZEN,
    **{f"api:{name}": LIVE for name in API_READS},
}
SHAREABLE_STATUS = frozenset({200, 301, 304, 404, 410})


def poll_seconds() -> int:
    return int(settings.PODIUM_POLL_SECONDS)


@lru_cache(maxsize=4096)
def public_kind(path: str) -> str | None:
    """The public kind of a path (see the vocabulary), or ``None``."""
    language = translation.get_language_from_path(path)
    if language is not None:
        path = path.removeprefix(f"/{language}") or "/"
    # Resolved as an unprefixed (English) address: the same view in every language.
    with translation.override(settings.LANGUAGE_CODE):
        try:
            match = resolve(path)
        except Resolver404:
            return None
    return PUBLIC.get(match.view_name)


def _kind(request: HttpRequest) -> str | None:
    if request.method not in ("GET", "HEAD"):
        return None
    kind = public_kind(request.path_info)
    if (
        kind == LIVE
        and request.path_info.startswith("/api/")
        and "version=" in request.META.get("QUERY_STRING", "")
    ):
        return FROZEN  # a published final version of the API's standings
    return kind


def shared_control(kind: str) -> str:
    """The ``Cache-Control`` of a shared answer of ``kind``."""
    if kind == FROZEN:
        age = int(settings.PODIUM_FROZEN_MAX_AGE)
        return f"public, max-age={age}, stale-if-error={age}"
    poll = poll_seconds()
    # A second under the poll interval: a browser's next poll always asks again (its own copy
    # is stale by then), and a shared cache's copy is never older than one interval.
    age = max(1, poll - 1)
    stale = int(settings.PODIUM_STALE_IF_ERROR)
    return f"public, max-age={age}, stale-while-revalidate={poll}, stale-if-error={stale}"


def _vary(request: HttpRequest) -> str:
    if translation.get_language_from_path(request.path_info) is not None:
        return "Accept-Encoding"
    return "Accept-Encoding, Accept-Language, Cookie"


def shared(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Whether a shared cache may keep this answer (see the vocabulary)."""
    kind = _kind(request)
    return (
        kind is not None
        and anonymous(request)
        and not response.cookies
        and response.status_code in SHAREABLE_STATUS
        and "no-store" not in response.get("Cache-Control", "")
        and "private" not in response.get("Cache-Control", "")
    )


def mark(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """Sets who may keep the answer (see the vocabulary)."""
    if request.path_info.startswith(settings.STATIC_URL):
        return response  # the static files keep their own long, public headers
    kind = _kind(request)
    if kind is not None and shared(request, response):
        response["Cache-Control"] = shared_control(kind)
        response["Vary"] = _vary(request)
        return response
    control = response.get("Cache-Control", "")
    if "no-store" in control:
        return response  # kept by nobody already
    if "public" in control or ("max-age" in control and "private" not in control):
        del response["Cache-Control"]
    patch_cache_control(response, private=True)
    if kind is not None:
        patch_cache_control(response, no_cache=True)  # revalidated at every poll
    patch_vary_headers(response, ("Cookie",))
    return response


class CacheHeaders:
    """The outermost middleware: every answer, whoever made it (the poll gate, a view, an
    error page), leaves with the headers of ``mark``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return mark(request, self.get_response(request))
