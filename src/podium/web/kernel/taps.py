"""What the desks' JSON endpoints share: reading a batch of taps, answering a person whose
session ended, and the card list served once per version.

Vocabulary:
- batch: ``{"taps": [...]}``, at most ``MAX_TAPS`` taps in the order they were tapped, the body
  at most ``MAX_BYTES``; each tap an object of known fields (``podium.web.results.services.taps``).
  A batch that breaks a bound is refused whole (400, naming the tap and the field), unread past
  the bound, and nothing of it is stored.
- signed out: a session that expired (or a logout) while taps waited on the phone; the
  endpoint answers 401 in JSON, so the phone keeps its taps for the next login of the same
  person, never a login page in place of answers.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.web.kernel.limits import TooDeep, loads
from podium.web.live import polls

MAX_BYTES = 256 * 1024
MAX_TAPS = 200
MAX_DEPTH = 4
DAY_MS = 24 * 3600 * 1000


class BadBatch(ValueError):
    """A batch that breaks a bound; the message names where."""


def server_ms() -> int:
    return int(time.time() * 1000)


def signed_out() -> JsonResponse:
    message = _("You are signed out: log in again and your taps waiting on this phone are sent.")
    return JsonResponse({"error": message, "signed_out": True}, status=401)


def bad(message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=400)


def batch_of(request: HttpRequest) -> list[dict[str, Any]]:
    """The taps of the request's body, bounded before they are read (see the vocabulary)."""
    size = int(request.headers.get("Content-Length") or 0)
    if size > MAX_BYTES:
        raise BadBatch(_("The batch is larger than %(max)d KB.") % {"max": MAX_BYTES // 1024})
    try:
        data = loads(request.body, MAX_DEPTH)
    except (TooDeep, UnicodeDecodeError, json.JSONDecodeError):
        raise BadBatch(_("The body is not a JSON object of taps.")) from None
    taps = data.get("taps") if isinstance(data, dict) else None
    if not isinstance(taps, list) or not all(isinstance(t, dict) for t in taps):
        raise BadBatch(_("The body needs “taps”: a list of objects."))
    if len(taps) > MAX_TAPS:
        raise BadBatch(_("At most %(max)d taps in one batch.") % {"max": MAX_TAPS})
    return taps


def whole(tap: dict[str, Any], name: str, where: int, *, required: bool = True) -> int | None:
    """The tap's field ``name`` as a whole number (a day's milliseconds at most either way for
    an offset), or a refusal naming the tap and the field."""
    value = tap.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 10**15:
        raise BadBatch(
            _("Tap %(n)d: “%(field)s” must be a whole number.") % {"n": where + 1, "field": name}
        )
    if name == "offset_ms" and abs(value) > DAY_MS:
        raise BadBatch(
            _("Tap %(n)d: the phone's clock is off by more than a day.") % {"n": where + 1}
        )
    return value


def text(tap: dict[str, Any], name: str, where: int, longest: int) -> str:
    value = tap.get(name, "")
    if not isinstance(value, str) or len(value) > longest:
        raise BadBatch(
            _("Tap %(n)d: “%(field)s” must be a text of at most %(max)d characters.")
            % {"n": where + 1, "field": name, "max": longest}
        )
    return value


def answered(answers: list[dict[str, Any]]) -> JsonResponse:
    return JsonResponse({"answers": answers, "now": server_ms()})


def versioned(
    request: HttpRequest, tag: str, round: int, view: str, make: Callable[[], dict[str, Any]]
) -> HttpResponseBase:
    """A desk's list served once per version: ``304`` while the phone's ETag names the current
    version for this person and language, else the list with the server's time."""
    language = translation.get_language() or ""
    who = str(request.user.pk)
    asked = polls.still_current(request, tag, round, view)
    etag = polls.etag(tag, round, view, who, language)
    if asked == etag:
        response: HttpResponseBase = HttpResponse(status=304)
    else:
        response = JsonResponse({**make(), "now": server_ms()})
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


def tap_moment(server_ms_at: int, now: dt.datetime) -> dt.datetime:
    """A tap's moment on the server's clock (its phone's time plus the measured offset), kept
    within the last day and never after ``now``."""
    moment = dt.datetime.fromtimestamp(server_ms_at / 1000, tz=dt.UTC)
    return max(min(moment, now), now - dt.timedelta(milliseconds=DAY_MS))


# Samples covering every plural category of the four languages (one, few, many, other).
PLURAL_SAMPLES = (0, 1, 2, 5, 21, 22, 25, 101, 111)


def phone_texts() -> dict[str, Any]:
    """What the desks' script says, in the reader's language (``json_script`` on the page).
    A plural comes as (sample, form) pairs: the script picks the form of a sample in the same
    plural category as its number (``Intl.PluralRules``), the form keeping ``%(n)s``."""

    def plural(form: Callable[[int], str]) -> list[tuple[int, str]]:
        return [(n, form(n)) for n in PLURAL_SAMPLES]

    return {
        "waiting": plural(lambda n: ngettext("%(n)s not sent yet", "%(n)s not sent yet", n)),
        "signed_out": plural(
            lambda n: ngettext(
                "You are signed out: %(n)s tap waits on this phone for your next login.",
                "You are signed out: %(n)s taps wait on this phone for your next login.",
                n,
            )
        ),
        "stored": _("Saved: %(what)s"),
        "finished": _("#%(number)d %(name)s finished: %(time)s"),
        "recorded": _("#%(number)d %(name)s recorded: %(cells)s"),
        "checked_in": _("#%(number)d %(name)s checked in — seat: %(seat)s"),
        "already": _("Already saved: %(what)s"),
        "refused": _("Not saved: %(what)s — %(why)s"),
        "conflict": _("%(what)s: another device recorded “%(theirs)s” (%(who)s, %(when)s)."),
        "mine": _("Keep mine: %(value)s"),
        "theirs": _("Keep theirs: %(value)s"),
        "queued": _("Kept on this phone, not sent yet: %(what)s"),
        "dismiss": _("Dismiss"),
        "offline": _("Offline: taps are kept on this phone and sent when the network returns."),
        "check_in": _("Check in — #%(n)s %(name)s"),
        "here": _("here"),
        "no_match": _("No entry found."),
    }
