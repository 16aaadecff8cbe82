"""The poll gate: the spectators' polls and anonymous views of standings answered from the shared
cache, before sessions, languages, CSRF and authentication are even looked at.

Vocabulary:
- live part: a round's table fragment (``…/table/``, polled by htmx every few seconds), its
  projector fragment, or the API's standings of a round.
- poll: a GET of a live part with ``If-None-Match``; while the ETag still names the current
  version tag of the stage (``podium.web.live.versions``) the answer is ``304 Not Modified``,
  whoever asks (a 304 shows nothing the asker did not already have).
- snapshot: a whole response of a standings page, fragment or API read for one version tag —
  its body compressed with gzip, its ETag and language — kept in the shared cache and made by
  the view under a single flight (``podium.web.live.flight``). The gate serves anonymous visitors
  the snapshot of the current version (or, while it is being made, the one before it).
- anonymous: no session cookie and no pending messages (for the API: no ``Authorization``):
  every such visitor with the same language key sees the same page.
- language key: the language a page speaks for a visitor — the chosen language of
  ``podium.web.kernel.languages`` (the path's prefix, the cookie, the browser's), or ``-`` for the
  event's own — so every visitor who would get the same page shares one snapshot.
- server time: every answer of a live part says the server's clock (``X-Podium-Now``, in ms)
  so a round's clock on a phone with a wrong time still shows the round's time.
"""

from __future__ import annotations

import gzip
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified

from podium.web.kernel.languages import chosen_language
from podium.web.live import flight, versions

SLUG = r"[-a-zA-Z0-9_]+"
STANDINGS = re.compile(
    rf"^(?:/(?P<lang>[a-z]{{2}}))?/standings/(?P<slug>{SLUG})/(?P<stage>{SLUG})/"
    r"(?:(?P<round>\d{1,6})/)?(?P<view>projector/)?(?P<part>table/)?$"
)
API_STANDINGS = re.compile(
    rf"^/api/events/(?P<slug>{SLUG})/stages/(?P<stage>{SLUG})/rounds/(?P<round>\d{{1,6}})"
    r"/standings$"
)
NOW_HEADER = "X-Podium-Now"
COMPRESS_LEVEL = 6


@dataclass(frozen=True)
class Snapshot:
    etag: str
    body: bytes  # gzip
    content_type: str
    language: str


def etag(tag: str, round: int, view: str, who: str, language: str = "") -> str:
    """The ETag of a live part (``view``: page, projector or api)."""
    return f'"{tag}-r{round}-{view}-{who}-{language}"'


def _asked(request: HttpRequest) -> list[str]:
    return [
        t.strip().removeprefix("W/")
        for t in request.headers.get("If-None-Match", "").split(",")
        if t.strip()
    ]


def still_current(request: HttpRequest, tag: str, round: int, view: str) -> str | None:
    """The ETag of the request's ``If-None-Match`` when it names this version of the part."""
    prefix = f'"{tag}-r{round}-{view}-'
    return next((t for t in _asked(request) if t.startswith(prefix)), None)


def anonymous(request: HttpRequest) -> bool:
    cookies = request.COOKIES
    return (
        settings.SESSION_COOKIE_NAME not in cookies
        and "messages" not in cookies
        and "HTTP_AUTHORIZATION" not in request.META
    )


def language_key(request: HttpRequest) -> str:
    # The page's language is a function of the chosen language alone ("-": the event's).
    return chosen_language(request) or "-"


def subject(request: HttpRequest, who: str) -> str:
    """The snapshot subject of the request's page for ``who`` (``p`` public, ``s`` staff)."""
    return f"podium:snap:{request.path_info}:{who}:{language_key(request)}"


def server_now() -> str:
    return str(int(time.time() * 1000))


def snapshot_of(response: HttpResponse, tag: str) -> Snapshot:
    return Snapshot(
        etag=response.get("ETag") or f'"{tag}"',
        body=gzip.compress(response.content, COMPRESS_LEVEL, mtime=0),
        content_type=response["Content-Type"],
        language=response.get("Content-Language", ""),
    )


def _headers(response: HttpResponseBase, etag: str, language: str) -> HttpResponseBase:
    response["ETag"] = etag  # Cache-Control and Vary: podium.web.live.headers
    response[NOW_HEADER] = server_now()
    if language:
        response["Content-Language"] = language
    response.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
    return response


def not_modified(etag: str, language: str = "") -> HttpResponseBase:
    return _headers(HttpResponseNotModified(), etag, language)


def serve(request: HttpRequest, snapshot: Snapshot) -> HttpResponseBase:
    """The snapshot as the answer: ``304`` when the client has it, compressed when accepted."""
    if snapshot.etag in _asked(request):
        return not_modified(snapshot.etag, snapshot.language)
    if request.method == "HEAD":
        response = HttpResponse(b"", content_type=snapshot.content_type)
    elif "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(snapshot.body, content_type=snapshot.content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(snapshot.body), content_type=snapshot.content_type)
    return _headers(response, snapshot.etag, snapshot.language)


def snapshot(
    request: HttpRequest, who: str, tag: str, render: Callable[[], HttpResponse]
) -> HttpResponseBase:
    """The request's page at ``tag``, made once (single flight) and served as a snapshot."""
    _version, made = flight.once(subject(request, who), tag, lambda: snapshot_of(render(), tag))
    return serve(request, made)


class PollGate:
    """Answers polls and anonymous views of standings from the cache (see the vocabulary);
    anything it cannot answer goes on to Django as usual."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method in ("GET", "HEAD") and not request.META.get("QUERY_STRING"):
            answer = self.answer(request)
            if answer is not None:
                return answer
        return self.get_response(request)

    def answer(self, request: HttpRequest) -> HttpResponseBase | None:
        path = request.path_info
        found = STANDINGS.match(path)
        if found is not None:
            view = "projector" if found["view"] else "page"
            live = found["part"] is not None
        else:
            found = API_STANDINGS.match(path)
            if found is None:
                return None
            view, live = "api", True
        tag = versions.cached_tag(found["slug"], found["stage"])
        if tag is None:
            return None
        if live:
            current = still_current(request, tag, int(found["round"] or 1), view)
            if current is not None:
                return not_modified(current)
        if not anonymous(request):
            return None
        made = flight.peek(subject(request, "p"), tag)
        if made is None or not isinstance(made[1], Snapshot):
            return None
        return serve(request, made[1])
