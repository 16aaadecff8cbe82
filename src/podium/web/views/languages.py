"""The language switcher: the visitor's choice kept in the language cookie.

Vocabulary:
- choice: ``GET /i18n/choose/?language=cs&next=/e/…`` remembers the language and goes back to
  the page in it. A plain link or GET form rather than Django's POST view, so a page kept for
  every visitor (``podium.web.polls``) carries no CSRF token: choosing a language changes
  nothing but the visitor's own cookie.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import translate_url
from django.utils.http import url_has_allowed_host_and_scheme


def choose(request: HttpRequest) -> HttpResponseRedirect:
    language = request.GET.get("language", "")
    back = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = "/"
    if language not in dict(settings.LANGUAGES):
        return HttpResponseRedirect(back)
    response = HttpResponseRedirect(translate_url(back, language))
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
    response["Cache-Control"] = "no-store"
    return response
