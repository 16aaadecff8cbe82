"""Participant pages: registering, a user's own entries (nobody else's), cancelling, rosters.

Vocabulary:
- own entry: one the signed-in user registered; any other entry is a 404 here, whether it
  exists or not.
- terms: what cancelling would refund or leave owed today, shown before the user confirms.
- confirmation: an entry's own page with its check-in code and that code's QR, which the
  check-in desk scans (``podium.web.registration.selectors.desk``); for its members too.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from podium.web.kernel.lookup import public_events
from podium.web.kernel.refusals import Refused
from podium.web.models import Entry, Person, Squad
from podium.web.registration import qrcodes
from podium.web.registration.forms.registration import PlayerForm, RegistrationForm, add_refusal
from podium.web.registration.selectors import entries as selectors
from podium.web.registration.selectors.desk import checkin_code
from podium.web.registration.services.cancellation import entry_cancel
from podium.web.registration.services.registering import entry_register
from podium.web.registration.services.rosters import roster_add_player
from podium.web.registration.services.settlement import settlement_preview

app_name = "participant"


@login_required(login_url="accounts:login")
def entries(request: HttpRequest) -> HttpResponse:
    rows = []
    for entry in selectors.entries_of_user(request.user):
        terms = None
        if entry.status != Entry.Status.CANCELLED and entry.registered_by_id == request.user.pk:
            try:
                terms = settlement_preview(entry=entry)
            except Refused:
                terms = None
        rows.append(
            {
                "entry": entry,
                "category": selectors.category_of(entry.event, entry.category),
                "division": selectors.division_title(entry),
                "terms": terms,
                "can_add": selectors.can_add_players(entry)
                and entry.registered_by_id == request.user.pk,
                # A team appeals on the questions of its tours (ChGK п. 14).
                "can_appeal": entry.is_active
                and any(a.kinds for a in entry.event.rulebook.appeals),
            }
        )
    return render(request, "podium/participant/entries.html", {"rows": rows})


@login_required(login_url="accounts:login")
def confirmation(request: HttpRequest, pk: int) -> HttpResponse:
    entry = selectors.entries_of_user(request.user).filter(pk=pk).first()
    if entry is None:
        raise Http404
    context: dict[str, object] = {
        "entry": entry,
        "category": selectors.category_of(entry.event, entry.category),
    }
    if entry.status == Entry.Status.CONFIRMED:
        code = checkin_code(entry)
        desk = reverse("desk:desk", kwargs={"slug": entry.event.slug})
        address = request.build_absolute_uri(f"{desk}?q={code}")
        title = _("Check-in code %(code)s") % {"code": code}
        # segno escapes the title; the rest of the SVG is drawn, nothing typed.
        context |= {"code": code, "qr": mark_safe(qrcodes.svg(address, title=title))}
    return render(request, "podium/participant/confirmation.html", context)


@login_required(login_url="accounts:login")
def register(request: HttpRequest, slug: str, category: str) -> HttpResponse:
    event = get_object_or_404(public_events(), slug=slug)
    cat = selectors.category_of(event, category)
    if cat is None:
        raise Http404
    squads = list(Squad.objects.filter(event=event))
    me = Person.objects.filter(user=request.user).first()
    form = RegistrationForm(
        request.POST or None, category=cat, rulebook=event.rulebook, squads=squads, me=me
    )
    if request.method == "POST" and form.is_valid():
        try:
            entry = entry_register(
                event=event,
                category=category,
                by=request.user,
                members=form.members(),
                name=form.cleaned_data.get("name"),
                accompanying_adult=form.cleaned_data.get("accompanying_adult") or "",
                squad=form.cleaned_data.get("squad"),
                scored=not form.cleaned_data.get("scored", False),
                waiting=form.cleaned_data["waiting"],
            )
        except Refused as refusal:
            add_refusal(form, refusal)
        else:
            if entry.status == Entry.Status.WAITING:
                text = _("%(name)s is on the waiting list at position %(position)d.") % {
                    "name": entry.name,
                    "position": entry.waiting_position,
                }
            elif entry.status == Entry.Status.PENDING:
                text = _("%(name)s is registered and awaits the organizers' approval.") % {
                    "name": entry.name
                }
            else:
                text = _("%(name)s is registered.") % {"name": entry.name}
            messages.success(request, text)
            return redirect("participant:entries")
    context = {
        "event": event,
        "category": cat,
        "form": form,
        "places_left": selectors.places_left(event, category),
        "waiting": len(selectors.waiting_list(event, category)),
        "squads": [(s, selectors.squad_places_left(s)) for s in squads],
    }
    return render(request, "podium/participant/register.html", context)


def _own(request: HttpRequest, pk: int) -> Entry:
    entry = selectors.own_entry(request.user, pk)
    if entry is None:
        raise Http404
    return entry


@login_required(login_url="accounts:login")
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    entry = _own(request, pk)
    if entry.status == Entry.Status.CANCELLED:
        raise Http404
    error = None
    try:
        terms = settlement_preview(entry=entry)
    except Refused as refusal:
        terms, error = None, refusal.message
    if request.method == "POST" and terms is not None:
        try:
            cancellation = entry_cancel(entry=entry, by=request.user)
        except Refused as refusal:
            error = refusal.message
        else:
            messages.success(
                request,
                _("%(name)s is cancelled. %(reason)s")
                % {"name": entry.name, "reason": cancellation.reason},
            )
            return redirect("participant:entries")
    context = {
        "entry": entry,
        "category": selectors.category_of(entry.event, entry.category),
        "terms": terms,
        "error": error,
    }
    return render(request, "podium/participant/cancel.html", context)


@login_required(login_url="accounts:login")
def add_player(request: HttpRequest, pk: int) -> HttpResponse:
    entry = _own(request, pk)
    if not selectors.can_add_players(entry):
        raise Http404
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            roster_add_player(entry=entry, person=form.person(), by=request.user)
        except Refused as refusal:
            add_refusal(form, refusal)
        else:
            messages.success(request, _("The player is on the roster."))
            return redirect("participant:entries")
    members = entry.members.select_related("person")
    context = {"entry": entry, "form": form, "members": members}
    return render(request, "podium/participant/add_player.html", context)


urlpatterns = [
    path("entries/", entries, name="entries"),
    path("entries/<int:pk>/", confirmation, name="confirmation"),
    path("entries/<int:pk>/cancel/", cancel, name="cancel"),
    path("entries/<int:pk>/players/", add_player, name="add_player"),
    path("register/<slug:slug>/<slug:category>/", register, name="register"),
]
