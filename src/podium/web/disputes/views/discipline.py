"""The organizer's discipline page: its URLs, and the writes that come back to it — teams not
admitted to a tour for an unpaid fee, a withdrawal, a sanction lifted. What the page shows is in
``views.discipline_page``, an ineligible player's form in ``views.ineligible``.

Head referees and organizers of the event only; anyone else gets 404.

Vocabulary: sanction, ban, withdrawal, unpaid block, page section: see
``podium.web.disputes.views.discipline_page``.
"""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.disputes.forms.discipline import LiftForm, WithdrawalForm
from podium.web.disputes.services.discipline import (
    not_admitted_apply,
    sanction_lift,
    withdrawal_record,
)
from podium.web.disputes.views.discipline_page import back_to, page, stage_of, teams_of
from podium.web.disputes.views.ineligible import ineligible
from podium.web.kernel.lookup import event_for
from podium.web.kernel.moments import moment_text
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_head_referee
from podium.web.models import Event, Round, Sanction

app_name = "discipline"


def _when(moment: dt.datetime | None, event: Event) -> str:
    return moment_text(moment, event)


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    return page(request, event_for(request, slug, is_head_referee))


@login_required
@require_POST
def not_admitted(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponse:
    event = event_for(request, slug, is_head_referee)
    tour_stage = stage_of(event, "chgk-tour")
    if tour_stage is None or tour_stage.key != stage:
        raise Http404
    get_object_or_404(Round, event=event, stage=stage, number=round)
    try:
        made = not_admitted_apply(event=event, stage=stage, round=round, by=request.user)
    except Refused as refused:
        messages.error(request, refusal_text(refused))
    else:
        if made:
            messages.success(
                request,
                _("Not admitted to tour %(round)d, counted as absent: %(teams)s.")
                % {
                    "round": round,
                    "teams": ", ".join(f"#{s.entry.number} {s.entry.name}" for s in made),
                },
            )
        else:
            messages.info(request, _("Nobody to bar from tour %(round)d.") % {"round": round})
    return back_to(slug, f"tour-{round}")


@login_required
@require_POST
def withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_head_referee)
    # Every team of the event is a choice, so a second withdrawal reaches the service's refusal.
    form = WithdrawalForm(teams_of(event), request.POST)
    if form.is_valid():
        entry = form.cleaned_data["team"]
        try:
            made = withdrawal_record(
                entry=entry,
                statement=form.cleaned_data["statement"] or "",
                received_at=form.received_at(event.zone),
                by=request.user,
            )
        except Refused as refused:
            field_name = {"statement": "statement", "received_at": "date"}.get(refused.field or "")
            form.add_error(field_name, refusal_text(refused))
        else:
            side = (
                _("before the middle tour %(n)s")
                if made.before_middle
                else _("after the middle tour %(n)s")
            ) % {"n": made.middle or "—"}
            messages.success(
                request,
                _("#%(number)d %(team)s has withdrawn (received %(when)s, %(side)s).")
                % {
                    "number": entry.number,
                    "team": entry.name,
                    "when": _when(made.received_at, event),
                    "side": side,
                },
            )
            return back_to(slug, "withdrawals")
    return page(request, event, withdrawal_form=form, status=400)


@login_required
@require_POST
def lift(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = event_for(request, slug, is_head_referee)
    sanction = get_object_or_404(Sanction, pk=pk, event=event)
    form = LiftForm(request.POST, prefix=f"lift-{pk}")
    if form.is_valid():
        try:
            sanction_lift(sanction=sanction, by=request.user, reason=form.cleaned_data["reason"])
        except Refused as refused:
            form.add_error("reason" if refused.field == "reason" else None, refusal_text(refused))
        else:
            messages.success(request, _("The sanction is lifted; the standings recompute."))
            return back_to(slug, f"sanction-{pk}")
    return page(request, event, lift_forms={pk: form}, status=400)


urlpatterns = [
    path("", index, name="index"),
    path("ineligible/", ineligible, name="ineligible"),
    path("not-admitted/<str:stage>/<int:round>/", not_admitted, name="not_admitted"),
    path("withdrawals/", withdraw, name="withdraw"),
    path("sanctions/<int:pk>/lift/", lift, name="lift"),
]
