"""The check-in desk (phone and laptop): find an entry (by name, number or the check-in code of
its QR), check it in or undo that with a reason, give a no-show's seat to the waiting list.
Only the organizers and referees of the event; anyone else gets 404.

Vocabulary:
- counts: checked in / expected / not yet here / no-shows, a fragment htmx polls every few
  seconds with the ETag of the desk's version tag (``podium.web.live.versions.desk_tag``) and the
  minute (a no-show becomes one as time passes, with no write): ``304`` while both hold.
- not yet here: the filter ``?show=not-yet``, the confirmed entries not checked in.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.kernel import taps as batch
from podium.web.kernel.lookup import event_for
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_staff, staffed_by
from podium.web.kernel.taps import tap_moment
from podium.web.kernel.text import search_text
from podium.web.live import polls, versions
from podium.web.models import Event
from podium.web.registration.forms.desk import CheckInForm, UndoCheckInForm
from podium.web.registration.selectors import desk as select
from podium.web.registration.selectors.payments import fee_lines
from podium.web.registration.services.checkin import (
    checkin_record,
    checkin_tap,
    checkin_undo,
    default_seat,
    seat_offer,
)

app_name = "desk"


def _refused(request: HttpRequest, refused: Refused) -> None:
    messages.error(request, refusal_text(refused))


@login_required
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "podium/desk/index.html", {"events": staffed_by(request.user)})


POLL = "every 5s"
NOT_YET = "not-yet"


def _counts_context(event: Event) -> dict[str, object]:
    """The counts and the ETag they are served with (see the vocabulary)."""
    now = timezone.now()
    minute = int(now.timestamp() // 60)
    tag = versions.desk_tag(event.slug)
    etag = polls.etag(tag, minute, "desk", "s", translation.get_language() or "")
    return {"event": event, "counts": select.counts(event, now), "etag": etag, "poll": POLL}


@login_required
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    query = search_text(request.GET.get("q", ""))
    not_yet = request.GET.get("show") == NOT_YET
    now = timezone.now()
    cards = []
    for entry in select.search(event, query, not_yet=not_yet):
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
        **_counts_context(event),
        "query": query,
        "not_yet": not_yet,
        # A code that is no entry's (mistyped, forged, another event's), not one filtered out.
        "unknown_code": select.is_code(query) and select.entry_by_code(event, query) is None,
        "cards": cards,
        "no_shows": select.no_shows(event, now),
        "no_show": event.rulebook.no_show,
        "check_in_rule": event.rulebook.check_in,
        "form": CheckInForm(),
        "undo_form": UndoCheckInForm(),
        "phone_texts": batch.phone_texts(),
        "server_now": batch.server_ms(),
    }
    return render(request, "podium/desk/desk.html", context)


@login_required
def counts(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The counts alone, for the poll; ``304`` while nothing they show changed."""
    event = event_for(request, slug, is_staff)
    minute = int(timezone.now().timestamp() // 60)
    current = polls.still_current(request, versions.desk_tag(event.slug), minute, "desk")
    if current is not None:
        return polls.not_modified(current)
    context = _counts_context(event)
    response = render(request, "podium/desk/_counts.html", context)
    response["ETag"] = str(context["etag"])
    response["Cache-Control"] = "no-cache"
    return response


def _back(request: HttpRequest, slug: str) -> HttpResponse:
    """Back to the desk as it was searched and filtered."""
    back = reverse("desk:desk", kwargs={"slug": slug})
    kept = {k: request.POST[k] for k in ("q", "show") if request.POST.get(k)}
    return redirect(f"{back}?{urlencode(kept)}" if kept else back)


@login_required
@require_POST
def check_in(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    event = event_for(request, slug, is_staff)
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
    return _back(request, slug)


@login_required
@require_POST
def undo(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    entry = get_object_or_404(event.entries, pk=entry_id)
    form = UndoCheckInForm(request.POST)
    if not form.is_valid():
        label = form.fields["reason"].label
        problem = " ".join(form.errors.get("reason") or form.non_field_errors())
        messages.error(request, f"#{entry.number} — {label}: {problem}")
        return _back(request, slug)
    try:
        checkin_undo(entry=entry, by=request.user, reason=form.cleaned_data["reason"])
    except Refused as refused:
        _refused(request, refused)
    else:
        messages.success(
            request,
            _("The check-in of #%(number)d %(name)s was undone.")
            % {"number": entry.number, "name": entry.name},
        )
    return _back(request, slug)


@login_required
@require_POST
def offer(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    event = event_for(request, slug, is_staff)
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


def entries(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The desk's list for the phone to keep (``select.desk_list``), once per version."""
    if not request.user.is_authenticated:
        return batch.signed_out()
    event = event_for(request, slug, is_staff)  # 404 to anyone else, any method
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET"])
    tag = versions.desk_tag(event.slug)
    return batch.versioned(
        request, tag, 0, "desk-list", lambda: {"entries": select.desk_list(event)}
    )


@require_POST
def taps(request: HttpRequest, slug: str) -> HttpResponseBase:
    """A batch of check-ins tapped on a phone (perhaps offline), answered one by one."""
    if not request.user.is_authenticated:
        return batch.signed_out()
    event = event_for(request, slug, is_staff)
    now = timezone.now()
    try:
        sent = [
            (
                batch.text(data, "key", where, 100),
                batch.whole(data, "number", where) or 0,
                batch.whole(data, "at_ms", where, required=False),
                batch.whole(data, "offset_ms", where, required=False) or 0,
            )
            for where, data in enumerate(batch.batch_of(request))
        ]
    except batch.BadBatch as problem:
        return batch.bad(str(problem))
    answers = []
    for key, number, at_ms, offset_ms in sent:
        at = None if at_ms is None else tap_moment(at_ms + offset_ms, now)
        answers.append(checkin_tap(event=event, number=number, key=key, by=request.user, at=at))
    return batch.answered(answers)


urlpatterns = [
    path("", index, name="index"),
    path("<slug:slug>/", desk, name="desk"),
    path("<slug:slug>/counts/", counts, name="counts"),
    path("<slug:slug>/entries.json", entries, name="entries"),
    path("<slug:slug>/taps/", taps, name="taps"),
    path("<slug:slug>/checkin/<int:entry_id>/", check_in, name="check-in"),
    path("<slug:slug>/undo/<int:entry_id>/", undo, name="undo"),
    path("<slug:slug>/offer/<int:entry_id>/", offer, name="offer"),
]
