"""Public pages: the events, each event's page, its rules, its entry lists (searchable by name
with ``?q=``, no script needed) and a competitor's page (anyone may read).

An event's public pages speak the event's language unless the request chose one: a language
prefix in the address (``/cs/e/…``), the switcher's cookie or the browser's language wins
(``podium.web.kernel.languages``).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path

from podium.web.events.selectors.accounts import may_create_events
from podium.web.events.selectors.competitors import competitor
from podium.web.events.selectors.rules.page import rules_sections
from podium.web.kernel.languages import speak_event_language
from podium.web.kernel.lookup import public_events
from podium.web.kernel.text import search_text
from podium.web.models import Event
from podium.web.registration.selectors import public as selectors
from podium.web.registration.selectors.search import filter_lists, query_words


def home(request: HttpRequest) -> HttpResponse:
    # Anyone allowed to create events finds where, though *Organize* is for organizers only.
    may_organize = request.user.is_authenticated and may_create_events(request.user)
    return render(
        request, "podium/home.html", {"events": public_events(), "may_organize": may_organize}
    )


def _event(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(public_events(), slug=slug)
    speak_event_language(request, event.language)
    return event


def event_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    rulebook = event.rulebook
    context = {
        "event": event,
        "rulebook": rulebook,
        "categories": selectors.category_states(event),
        "squads": selectors.squad_states(event),
        "fees": selectors.fee_lines(rulebook),
        "registration": rulebook.registration,
    }
    return render(request, "podium/public/event.html", context)


def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    context = {
        "event": event,
        "rulebook": event.rulebook,
        "sections": rules_sections(event.rulebook),
    }
    return render(request, "podium/public/rules.html", context)


def entries_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    categories = selectors.entry_lists(event)
    query = search_text(request.GET.get("q", "")).strip()
    words = query_words(query)
    context = {"event": event, "categories": categories, "query": query}
    if words:
        context["found"] = filter_lists(categories, words)
    return render(request, "podium/public/entries.html", context)


def competitor_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(request, slug)
    found = competitor(event, number)
    if found is None:
        raise Http404
    return render(request, "podium/public/competitor.html", {"event": event, "found": found})


urlpatterns = [
    path("", home, name="home"),
    path("e/<slug:slug>/", event_page, name="event"),
    path("e/<slug:slug>/rules/", rules_page, name="event-rules"),
    path("e/<slug:slug>/entries/", entries_page, name="event-entries"),
    path("e/<slug:slug>/competitors/<int:number>/", competitor_page, name="competitor"),
]
