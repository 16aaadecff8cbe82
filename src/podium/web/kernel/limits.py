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
- query parameters: each given once (no page or operation reads a list from the address), and
  none holding a control character (NUL among them: PostgreSQL refuses it in text), else 400
  naming the parameter, before any view reads them (``query_problem``).
- JSON integers and strings: an integer of more than ``JSON_MAX_DIGITS`` digits (Python
  refuses to convert over 4,300 with a ``ValueError`` that would answer 500) and a string with
  a lone surrogate (``"\\ud800"``, which no database or page can store or show) are refused
  when the document is decoded (``Unreadable``), naming where.
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


JSON_MAX_DIGITS = 40  # more than any number Podium reads (an id, a count, a time in ms)
# The escape of a surrogate half: only then can the decoded text hold a lone one.
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


class Unreadable(ValueError):
    """A JSON document Podium refuses although it is JSON: ``message`` says where and why."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > JSON_MAX_DIGITS:
        raise Unreadable(
            _("a number of %(n)d digits; Podium reads numbers of at most %(max)d digits")
            % {"n": len(text.lstrip("-")), "max": JSON_MAX_DIGITS}
        )
    return int(text)


def _lone_surrogate(value: Any, where: str) -> str | None:
    """The path of the first string (or key) holding a lone surrogate, or None."""
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if any("\ud800" <= c <= "\udfff" for c in item):
                return path
        elif isinstance(item, dict):
            for key, member in item.items():
                if any("\ud800" <= c <= "\udfff" for c in key):
                    return f"{path}.{key.encode('utf-8', 'replace').decode()}"
                stack.append((member, f"{path}.{key}"))
        elif isinstance(item, list):
            stack.extend((member, f"{path}[{i}]") for i, member in enumerate(item))
    return None


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
    deeper than ``limit`` before decoding it (``TooDeep``), and a too long integer or a lone
    surrogate (``Unreadable``); ``UnicodeDecodeError`` and ``json.JSONDecodeError`` as
    ``json.loads`` raises them."""
    text = data.decode("utf-8-sig")
    if json_depth(data, limit) > limit:
        raise TooDeep(limit)
    parsed = json.loads(text, parse_int=_bounded_int)
    if _SURROGATE.search(data):  # only then can a decoded string hold a lone surrogate
        path = _lone_surrogate(parsed, "$")
        if path is not None:
            raise Unreadable(
                _("%(where)s holds a lone surrogate (\\ud800–\\udfff), which is no character")
                % {"where": path}
            )
    return parsed


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


_LONG_DIGITS = re.compile(rb"\d{%d}" % (JSON_MAX_DIGITS + 1))


def unreadable_json(data: bytes) -> str | None:
    """Why ``loads`` would refuse ``data`` although it is JSON (see ``Unreadable``), or None;
    decoded only when a long run of digits or a surrogate's escape is in it."""
    if not (_LONG_DIGITS.search(data) or _SURROGATE.search(data)):
        return None
    try:
        loads(data)
    except Unreadable as exc:
        return exc.message
    except (ValueError, TooDeep):
        return None  # not JSON at all: the API's own reading names that
    return None


def _unreadable(request: HttpRequest, problem: str) -> HttpResponse:
    from podium.web.kernel.errors import body

    with translation.override(_language(request)):
        message = _("The JSON body cannot be read: %(problem)s. Nothing was saved.") % {
            "problem": problem
        }
        return JsonResponse(body("bad-request", message, {"request": message}), status=400)


def query_problem(request: HttpRequest) -> tuple[str, str] | None:
    """The first query parameter given more than once or holding a control character, and
    what is wrong with it (in the request's language); None when every one is plain."""
    for name, values in request.GET.lists():
        if _CONTROL.search(name) or any(_CONTROL.search(v) for v in values):
            shown = _CONTROL.sub("", name)[:40]
            return shown, _("The parameter “%(name)s” holds a control character (NUL or "
                            "another); Podium reads none.") % {"name": shown}  # fmt: skip
        if len(values) > 1:
            return name[:40], _("The parameter “%(name)s” is given %(n)d times; give it once.") % {
                "name": name[:40],
                "n": len(values),
            }
    return None


def _bad_query(request: HttpRequest, name: str, problem: str) -> HttpResponse:
    from podium.web.kernel.errors import body, page

    with translation.override(_language(request)):
        message = problem
        if request.path.startswith("/api/"):
            return JsonResponse(body("bad-request", message, {name: message}), status=400)
        return page(400, _("Bad request"), message)


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
        if size and request.path.startswith("/api/"):
            if json_depth(request.body) > JSON_MAX_DEPTH:
                return _too_deep(request)
            with translation.override(_language(request)):
                unreadable = unreadable_json(request.body)
            if unreadable is not None:
                return _unreadable(request, unreadable)
        if request.META.get("QUERY_STRING"):
            problem = query_problem(request)
            if problem is not None:
                return _bad_query(request, *problem)
        return get_response(request)

    return middleware
