"""The language switcher: the visitor's choice kept in the language cookie.

Vocabulary:
- choice: ``GET /i18n/choose/?language=cs&next=/e/…`` remembers the language and goes back to
  the page in it. A plain link or GET form rather than Django's POST view, so a page kept for
  every visitor (``podium.web.live.polls``) carries no CSRF token: choosing a language changes
  nothing but the visitor's own cookie and, when logged in, the language their account
  remembers for e-mail (``podium.web.kernel.mail``) — nothing anyone else sees.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import translate_url
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme

from podium.web.events.services.accounts import account_language_set
from podium.web.kernel.languages import remember


def choose(request: HttpRequest) -> HttpResponseRedirect:
    language = request.GET.get("language", "")
    back = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = "/"
    if language not in dict(settings.LANGUAGES):
        return HttpResponseRedirect(back)
    # The address is resolved as an English one (the switcher sends it without its prefix).
    with translation.override(settings.LANGUAGE_CODE):
        response = HttpResponseRedirect(translate_url(back, language))
    remember(response, language)
    if request.user.is_authenticated:
        account_language_set(user=request.user, language=language)
    response["Cache-Control"] = "no-store"
    return response
