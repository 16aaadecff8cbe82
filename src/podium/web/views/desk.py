"""The check-in desk (phone and laptop): find an entry, check it in, give a no-show's seat to
the waiting list. Only the organizers and referees of the event; anyone else gets 404.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.forms.events import CheckInForm
from podium.web.models import Event
from podium.web.selectors import desk as select
from podium.web.selectors.organizer import fee_lines, staffed_by
from podium.web.selectors.roles import is_staff
from podium.web.services.base import Refused
from podium.web.services.checkin import checkin_record, default_seat, seat_offer
from podium.web.text import search_text
from podium.web.views.common import event_for, refusal_text

app_name = "desk"


def _event(request: HttpRequest, slug: str) -> Event:
    return event_for(request, slug, is_staff)


def _refused(request: HttpRequest, refused: Refused) -> None:
    messages.error(request, refusal_text(refused))


@login_required
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "podium/desk/index.html", {"events": staffed_by(request.user)})


@login_required
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    query = search_text(request.GET.get("q", ""))
    now = timezone.now()
    cards = []
    for entry in select.search(event, query):
        cards.append(
            {
                "entry": entry,
                "window": select.window_of(entry),
                "start": select.start_of(entry),
                "seat": default_seat(entry),
                "checked_in": getattr(entry, "check_in", None),
                "fees": fee_lines(entry),
            }
        )
    context = {
        "event": event,
        "query": query,
        "cards": cards,
        "no_shows": select.no_shows(event, now),
        "no_show": event.rulebook.no_show,
        "check_in_rule": event.rulebook.check_in,
        "form": CheckInForm(),
    }
    return render(request, "podium/desk/desk.html", context)


@login_required
@require_POST
def check_in(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    event = _event(request, slug)
    entry = get_object_or_404(event.entries, pk=entry_id)
    form = CheckInForm(request.POST)
    seat = form.cleaned_data["seat"] if form.is_valid() else ""
    try:
        done = checkin_record(entry=entry, by=request.user, seat=seat)
    except Refused as refused:
        _refused(request, refused)
    else:
        messages.success(
            request,
            _("#%(number)d %(name)s checked in — seat: %(seat)s")
            % {"number": entry.number, "name": entry.name, "seat": done.seat or "—"},
        )
    back = reverse("desk:desk", kwargs={"slug": slug})
    query = request.POST.get("q", "")
    return redirect(f"{back}?{urlencode({'q': query})}" if query else back)


@login_required
@require_POST
def offer(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    event = _event(request, slug)
    absent = get_object_or_404(event.entries, pk=entry_id)
    try:
        given = seat_offer(absent=absent, by=request.user)
    except Refused as refused:
        _refused(request, refused)
    else:
        messages.success(
            request,
            _("The seat of #%(absent)d went to #%(taker)d %(name)s.")
            % {"absent": absent.number, "taker": given.taker.number, "name": given.taker.name},
        )
    return redirect("desk:desk", slug=slug)


urlpatterns = [
    path("", index, name="index"),
    path("<slug:slug>/", desk, name="desk"),
    path("<slug:slug>/checkin/<int:entry_id>/", check_in, name="check-in"),
    path("<slug:slug>/offer/<int:entry_id>/", offer, name="offer"),
]
