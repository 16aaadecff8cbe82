"""Organizer pages for registrations: entries per category, approvals, the waiting list.

Only the event's organizers see these pages; for anyone else the event does not exist here
(404), so its existence is not leaked. Every change goes through a registration service.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from podium.web.kernel.lookup import event_for
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.models import Entry, Event
from podium.web.registration.forms.registration import PromoteForm, ReorderForm
from podium.web.registration.selectors import entries as selectors
from podium.web.registration.services.cancellation import entry_cancel
from podium.web.registration.services.checkin_list import checkins_record, list_numbers
from podium.web.registration.services.places import (
    MOST_APPROVED,
    entries_approve,
    entry_approve,
    entry_promote,
    waiting_move,
    waiting_reorder,
)

app_name = "registrations"


def _entry(event: Event, pk: int) -> Entry:
    entry = Entry.objects.filter(event=event, pk=pk).first()
    if entry is None:
        raise Http404
    return entry


@login_required(login_url="accounts:login")
def index(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    categories = [
        {
            "category": category,
            "entries": [(e, selectors.division_title(e)) for e in entries],
            "pending": sum(1 for e in entries if e.status == Entry.Status.PENDING),
            "waiting": waiting,
            "places_left": selectors.places_left(event, category.key),
        }
        for category, entries, waiting in selectors.entries_by_category(event)
    ]
    context = {
        "event": event,
        "categories": categories,
        "registration": event.rulebook.registration,
    }
    return render(request, "podium/registrations/index.html", context)


def _done(request: HttpRequest, slug: str, refusal: Refused | None, text: str) -> HttpResponse:
    if refusal is None:
        messages.success(request, text)
    else:
        clause = f" ({refusal.clause})" if refusal.clause else ""
        messages.error(request, refusal.message + clause)
    return redirect("registrations:index", slug=slug)


@login_required(login_url="accounts:login")
@require_POST
def approve(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    entry = _entry(event, pk)
    try:
        entry = entry_approve(entry=entry, by=request.user)
    except Refused as refusal:
        return _done(request, slug, refusal, "")
    if entry.table_number:
        text = _("%(name)s is approved at table %(table)d.") % {
            "name": entry.name,
            "table": entry.table_number,
        }
    else:
        text = _("%(name)s is approved.") % {"name": entry.name}
    return _done(request, slug, None, text)


@login_required(login_url="accounts:login")
@require_POST
def reorder(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    entry = _entry(event, pk)
    form = ReorderForm(request.POST)
    if not form.is_valid():
        return _done(request, slug, Refused(_("Give the new position and a reason.")), "")
    try:
        waiting_reorder(
            entry=entry,
            position=form.cleaned_data["position"],
            by=request.user,
            reason=form.cleaned_data["reason"],
        )
    except Refused as refusal:
        return _done(request, slug, refusal, "")
    return _done(request, slug, None, _("The waiting list is reordered."))


@login_required(login_url="accounts:login")
@require_POST
def promote(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    entry = _entry(event, pk)
    form = PromoteForm(request.POST)
    if not form.is_valid():
        return _done(request, slug, Refused(_("Give the reason for the promotion.")), "")
    try:
        entry_promote(entry=entry, by=request.user, reason=form.cleaned_data["reason"])
    except Refused as refusal:
        return _done(request, slug, refusal, "")
    return _done(request, slug, None, _("%(name)s is promoted.") % {"name": entry.name})


@login_required(login_url="accounts:login")
@require_POST
def cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    entry = _entry(event, pk)
    try:
        cancellation = entry_cancel(entry=entry, by=request.user)
    except Refused as refusal:
        return _done(request, slug, refusal, "")
    return _done(request, slug, None, f"{entry.name}: {cancellation.reason}")


@login_required(login_url="accounts:login")
@require_POST
def approve_selected(request: HttpRequest, slug: str) -> HttpResponse:
    """Approves the ticked entries (or, with ``all``, every pending one shown) in one action."""
    event = event_for(request, slug, is_organizer)
    ids = [int(i) for i in request.POST.getlist("entry")[: MOST_APPROVED + 1] if i.isdigit()]
    try:
        done = entries_approve(event=event, ids=ids, by=request.user)
    except Refused as refusal:
        return _done(request, slug, refusal, "")
    text = ngettext(
        "%(n)d entry approved: %(names)s.", "%(n)d entries approved: %(names)s.", len(done)
    )
    names = ", ".join(f"#{e.number} {e.name}" for e in done)
    return _done(request, slug, None, text % {"n": len(done), "names": names})


@login_required(login_url="accounts:login")
@require_POST
def check_in_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Checks in the entries whose numbers are typed (``3, 5 12-15``) in one action."""
    event = event_for(request, slug, is_organizer)
    try:
        numbers = list_numbers(request.POST.get("numbers", "")[:5000])
        done = checkins_record(event=event, numbers=numbers, by=request.user)
    except Refused as refusal:
        return _done(request, slug, refusal, "")
    text = ngettext(
        "%(n)d entry checked in: %(numbers)s.", "%(n)d entries checked in: %(numbers)s.", len(done)
    ) % {"n": len(done), "numbers": ", ".join(f"#{n}" for n in numbers)}
    return _done(request, slug, None, text)


@login_required(login_url="accounts:login")
@require_POST
def move_selected(request: HttpRequest, slug: str, category: str) -> HttpResponse:
    """Moves the ticked waiting entries of a category together to a position, with a reason."""
    event = event_for(request, slug, is_organizer)
    ids = [int(i) for i in request.POST.getlist("entry")[:MOST_APPROVED] if i.isdigit()]
    form = ReorderForm(request.POST)
    if not form.is_valid():
        return _done(request, slug, Refused(_("Give the new position and a reason.")), "")
    try:
        moved = waiting_move(
            event=event, category=category[:60], ids=ids, by=request.user,
            position=form.cleaned_data["position"], reason=form.cleaned_data["reason"],
        )  # fmt: skip
    except Refused as refusal:
        return _done(request, slug, refusal, "")
    text = _("Moved to position %(position)d on: %(names)s.") % {
        "position": moved[0].waiting_position,
        "names": ", ".join(f"#{e.number} {e.name}" for e in moved),
    }
    return _done(request, slug, None, text)


urlpatterns = [
    path("", index, name="index"),
    path("waiting/<slug:category>/move/", move_selected, name="move-selected"),
    path("check-in/", check_in_list, name="check-in-list"),
    path("approve/", approve_selected, name="approve-selected"),
    path("<int:pk>/approve/", approve, name="approve"),
    path("<int:pk>/reorder/", reorder, name="reorder"),
    path("<int:pk>/promote/", promote, name="promote"),
    path("<int:pk>/cancel/", cancel, name="cancel"),
]
