"""Which language a page speaks: the address, the visitor's choice, the browser, the event.

Vocabulary:
- prefixed address: ``/cs/…``, ``/it/…``, ``/ru/…``; it always wins. English pages have no
  prefix (``prefix_default_language=False``), so an unprefixed address names no language.
- choice: the language cookie the switcher (``podium.web.events.views.languages``) and the log-in
  set.
- browser language: the first language of the browser's ``Accept-Language`` that Podium
  speaks (``ru-RU`` → ``ru``); none when it lists only others.
- chosen language: of a request, the prefix, else the choice, else the browser language;
  ``None`` when none of them names a language (an event's pages then speak the event's, any
  other page English).
- negotiation: Django resolves an unprefixed address with English active (its prefix pattern
  depends on the active language), so the chosen language is activated only once the view is
  known (``LanguageMiddleware.process_view``); links the page makes then carry its prefix.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import trans_real


def _supported(code: str) -> str | None:
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def browser_language(request: HttpRequest) -> str | None:
    """The first language of ``Accept-Language`` that Podium speaks (see the vocabulary)."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    # The parse is cached per header value and refuses absurd headers (too long) with ().
    for code, _quality in trans_real.parse_accept_lang_header(header):
        if code != "*" and (found := _supported(code)) is not None:
            return found
    return None


def cookie_language(request: HttpRequest) -> str | None:
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return chosen if chosen in dict(settings.LANGUAGES) else None


def chosen_language(request: HttpRequest) -> str | None:
    """The request's prefix, else the visitor's choice, else the browser's language."""
    return (
        translation.get_language_from_path(request.path_info)
        or cookie_language(request)
        or browser_language(request)
    )


def speak(request: HttpRequest, language: str) -> None:
    translation.activate(language)
    request.LANGUAGE_CODE = language  # type: ignore[attr-defined]


def speak_event_language(request: HttpRequest, language: str) -> None:
    """An event's page speaks the event's language unless the request chose one."""
    if chosen_language(request) is None and language in dict(settings.LANGUAGES):
        speak(request, language)


def remember(response: HttpResponseBase, language: str) -> None:
    """Keeps ``language`` as the visitor's choice in the language cookie."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class LanguageMiddleware(LocaleMiddleware):
    """Django's locale middleware, but an unprefixed address speaks the chosen language (see
    the vocabulary) instead of always English."""

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        if translation.get_language_from_path(request.path_info) is None:
            speak(request, chosen_language(request) or settings.LANGUAGE_CODE)

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if translation.get_language_from_path(request.path_info) is None:
            # The same unprefixed address reads differently with another language cookie.
            patch_vary_headers(response, ("Cookie",))
        return super().process_response(request, response)  # type: ignore[no-any-return]
