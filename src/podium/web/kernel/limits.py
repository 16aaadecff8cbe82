"""How much a visitor may send: request bodies, uploads per kind, and JSON nesting.

Vocabulary:
- body cap: the largest request body Podium reads (``PODIUM_MAX_BODY_BYTES``, 3 MB by
  default: the largest upload and its form around it), and a smaller one for the API's JSON
  (``API_MAX_BYTES``). Checked against ``Content-Length`` before anything reads the body;
  under WSGI Django never reads past ``Content-Length``, so a body without one is read as
  empty, never whole.
- upload cap: the largest file of one kind (a rulebook, an entrants or results table, a ChGK
  JSON file, an event archive), checked against the upload's declared size before it is read.
- form caps: Django's own, on a form's fields without files (``DATA_UPLOAD_MAX_MEMORY_SIZE``),
  how many fields and how many files; their refusals get a page naming the cap
  (``form_limit_page``) instead of a bare "bad request".
- refusal: 413 with a page (or, under ``/api/``, the API's error body) in the visitor's
  language that names the limit; nothing is read further and nothing is written.
- JSON depth: how deeply arrays and objects nest. Python's decoder recurses once per level and
  fails with ``RecursionError`` past about a thousand, so the depth is measured first by a
  linear scan of the bytes (``json_depth``) and a document deeper than ``JSON_MAX_DEPTH`` is
  refused before it is decoded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

MB = 1024 * 1024
BODY_MAX_BYTES = 3 * MB
API_MAX_BYTES = 1 * MB
# The demo's largest archive is 0.4 MB; a larger file costs its nesting scan about 0.1 s a MB.
ARCHIVE_MAX_BYTES = 16 * MB
# The rating site's results nest 4 levels, an API body 3; an archive's frozen tables up to 17.
JSON_MAX_DEPTH = 32
ARCHIVE_MAX_DEPTH = 64

# Strings go first, so that a bracket inside a name does not count; what is left of the text
# is only its brackets, one byte each, walked once. An unclosed string runs to the end (the
# closing quote is optional), so the pattern never fails and restarts: linear, even for
# '"\' repeated a million times.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")


class TooDeep(ValueError):
    """A JSON document nested deeper than allowed."""

    def __init__(self, depth: int) -> None:
        self.depth = depth
        super().__init__(f"arrays and objects nested deeper than {depth} levels")


def json_depth(data: bytes, limit: int = JSON_MAX_DEPTH) -> int:
    """The deepest nesting of arrays and objects in ``data``, counting stops past ``limit``."""
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKET)
    depth = deepest = 0
    for byte in brackets:
        if byte in b"[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        else:
            depth -= 1
    return deepest


def loads(data: bytes, limit: int = JSON_MAX_DEPTH) -> Any:
    """``json.loads`` of UTF-8 bytes (a byte-order mark allowed), refusing a document nested
    deeper than ``limit`` before decoding it (``TooDeep``); ``UnicodeDecodeError`` and
    ``json.JSONDecodeError`` as ``json.loads`` raises them."""
    text = data.decode("utf-8-sig")
    if json_depth(data, limit) > limit:
        raise TooDeep(limit)
    return json.loads(text)


def body_cap(request: HttpRequest) -> int:
    if request.path.startswith("/api/"):
        return int(getattr(settings, "PODIUM_API_MAX_BODY_BYTES", API_MAX_BYTES))
    return int(getattr(settings, "PODIUM_MAX_BODY_BYTES", BODY_MAX_BYTES))


def megabytes(size: int) -> str:
    return f"{size / MB:.1f}".removesuffix(".0")


def _language(request: HttpRequest) -> str:
    # Refused before LocaleMiddleware runs: the language its way (address prefix, cookie,
    # Accept-Language).
    return translation.get_language_from_request(request, check_path=True)


def _too_large(request: HttpRequest, size: int, cap: int) -> HttpResponse:
    from podium.web.kernel.errors import body, page

    with translation.override(_language(request)):
        message = _(
            "The request is %(size)s MB; Podium accepts at most %(max)s MB here. Nothing was "
            "read or saved."
        ) % {"size": megabytes(size), "max": megabytes(cap)}
        if request.path.startswith("/api/"):
            return JsonResponse(body("too-large", message), status=413)
        return page(413, _("Too large"), message)


def _too_deep(request: HttpRequest) -> HttpResponse:
    from podium.web.kernel.errors import body

    with translation.override(_language(request)):
        message = _(
            "The JSON body nests arrays and objects more than %(max)d levels deep; Podium "
            "refuses it unread."
        ) % {"max": JSON_MAX_DEPTH}
        return JsonResponse(body("bad-request", message, {"request": message}), status=400)


def form_limit_page(exception: Any) -> HttpResponse | None:
    """The page for Django's refusal of a form over one of its caps (fields without files,
    how many fields, how many files), naming the cap; None for any other bad request."""
    from podium.web.kernel.errors import page

    if isinstance(exception, RequestDataTooBig):
        cap = int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        message = _(
            "The form's fields (without its files) are larger than %(max)s MB, the most Podium "
            "accepts. Nothing was saved."
        ) % {"max": megabytes(cap)}
        return page(413, _("Too large"), message)
    if isinstance(exception, TooManyFieldsSent):
        message = _(
            "The form sends more than %(max)d fields, the most Podium accepts. Nothing was saved."
        ) % {"max": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}
        return page(400, _("Too large"), message)
    if isinstance(exception, TooManyFilesSent):
        message = _(
            "The form sends more than %(max)d files, the most Podium accepts. Nothing was saved."
        ) % {"max": settings.DATA_UPLOAD_MAX_NUMBER_FILES}
        return page(400, _("Too large"), message)
    return None


def body_limits(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[..., Any]:
    """Middleware: a body over its cap answers 413 before it is read; an API JSON body nested
    too deeply answers 400 before it is decoded (see the vocabulary)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            size = 0
        cap = body_cap(request)
        if size > cap:
            return _too_large(request, size, cap)
        # Every API body, whatever its declared type: the API decodes any body as JSON.
        if size and request.path.startswith("/api/") and json_depth(request.body) > JSON_MAX_DEPTH:
            return _too_deep(request)
        return get_response(request)

    return middleware
