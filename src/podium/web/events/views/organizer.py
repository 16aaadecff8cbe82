"""Organizer pages: only for users with the organizer role of the event concerned (payments
and receipts also for its referees). Anyone else gets 404: another event's pages do not exist
for them.

Vocabulary:
- dashboard: one event's page for its organizers: what the rulebook implies (categories,
  stages, groups, divisions, squads), its staff and its status.
- edit page: the event after creation — its dates, caps, fees, language and (while a draft)
  its rulebook (``podium.web.events.services.events.event_update``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.disputes.selectors.appeals import jury_cards
from podium.web.events.forms.events import (
    EventEditForm,
    EventForm,
    RoleForm,
    SquadForm,
    StatusForm,
    aware,
)
from podium.web.events.selectors import organizer as select
from podium.web.events.selectors.accounts import may_create_events
from podium.web.events.services.events import (
    RulebookRefused,
    creation_refusal,
    event_create,
    event_set_status,
    event_update,
    role_appoint,
    squad_create,
    user_named,
)
from podium.web.kernel.lookup import event_for
from podium.web.kernel.refusals import Refused, refusal_text, refuse_on
from podium.web.kernel.roles import event_roles, is_organizer, is_staff, organized_by
from podium.web.kernel.stages import has_appeal_desk, has_calendar, has_protest_desk
from podium.web.kernel.texts import rt
from podium.web.models import Event
from podium.web.models.money import APPEAL_FEE_PREFIX
from podium.web.registration.forms.desk import PaymentForm
from podium.web.registration.selectors import payments as fees
from podium.web.registration.services.payments import payment_record

app_name = "organizer"


def _event(request: HttpRequest, slug: str, *, referees: bool = False) -> Event:
    return event_for(request, slug, is_staff if referees else is_organizer)


@login_required
def events(request: HttpRequest) -> HttpResponse:
    mine = organized_by(request.user)
    return render(request, "podium/organizer/events.html", {"events": mine})


@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    if not may_create_events(request.user):
        refusal = {"refusal": creation_refusal(request.user)}
        return render(request, "podium/organizer/new.html", refusal, status=403)
    form = EventForm(request.POST or None, request.FILES or None)
    problems: list[Any] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event = event_create(
                organizer=request.user,
                title=data["title"],
                slug=data["slug"],
                preset=data.get("preset") or None,
                rulebook_text=data.get("rulebook_text") if not data.get("preset") else None,
                starts_at=data["starts_at"],
                timezone=data["timezone"],
                venue=data.get("venue", ""),
                language=data["language"],
            )
        except RulebookRefused as refused:
            problems = refused.problems
            refuse_on(form, refused)
        except Refused as refused:
            refuse_on(form, refused)
        else:
            messages.success(request, _("The event was created."))
            return redirect("organizer:dashboard", slug=event.slug)
    return render(request, "podium/organizer/new.html", {"form": form, "problems": problems})


@login_required
def edit(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    form = EventEditForm(request.POST or None, event=event)
    problems: list[Any] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event_update(
                event=event,
                by=request.user,
                title=data["title"],
                starts_at=data["starts_at"],
                timezone=data["timezone"],
                venue=data.get("venue", ""),
                language=data["language"],
                registration_opens=data.get("registration_opens"),
                registration_closes=data.get("registration_closes"),
                registration_cap=data.get("registration_cap"),
                caps=form.caps(),
                fees=form.prices(),
                rulebook_text=data.get("rulebook_text") if "rulebook_text" in form.fields else None,
            )
        except RulebookRefused as refused:
            problems = refused.problems
            refuse_on(form, refused)
        except Refused as refused:
            refuse_on(form, refused)
        else:
            messages.success(request, _("The event was saved."))
            return redirect("organizer:dashboard", slug=event.slug)
    context = {"event": event, "form": form, "problems": problems}
    return render(request, "podium/organizer/edit.html", context)


def _dashboard(request: HttpRequest, event: Event, **forms: Any) -> HttpResponse:
    context = {
        "event": event,
        "outline": select.outline(event),
        "roles": event_roles(event),
        "squads": event.squads.all(),
        "role_form": forms.get("role_form") or RoleForm(),
        "squad_form": forms.get("squad_form") or SquadForm(),
        "status_form": forms.get("status_form") or StatusForm(initial={"status": event.status}),
        "has_calendar": any(has_calendar(s) for s in event.rulebook.stages),
        "has_protests": has_protest_desk(event.rulebook),
        "has_appeals": has_appeal_desk(event.rulebook),
        # The organizer is warned here too before a verdict's deadline (004 §14).
        "verdicts_soon": sum(c.warned for c in jury_cards(event, staff=True)),
    }
    return render(request, "podium/organizer/dashboard.html", context)


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    return _dashboard(request, _event(request, slug))


@login_required
@require_POST
def roles(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    form = RoleForm(request.POST)
    if form.is_valid():
        try:
            role_appoint(
                event=event,
                by=request.user,
                user=user_named(form.cleaned_data["username"]),
                role=form.cleaned_data["role"],
            )
        except Refused as refused:
            refuse_on(form, refused)
        else:
            messages.success(request, _("The role was given."))
            return redirect("organizer:dashboard", slug=slug)
    return _dashboard(request, event, role_form=form)


@login_required
@require_POST
def squads(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    form = SquadForm(request.POST)
    if form.is_valid():
        try:
            squad_create(
                event=event,
                by=request.user,
                name=form.cleaned_data["name"],
                starts_at=aware(form.cleaned_data["starts_at"], event.timezone),
                capacity=form.cleaned_data["capacity"],
            )
        except Refused as refused:
            refuse_on(form, refused)
        else:
            messages.success(request, _("The squad was added."))
            return redirect("organizer:dashboard", slug=slug)
    return _dashboard(request, event, squad_form=form)


@login_required
@require_POST
def status(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    form = StatusForm(request.POST)
    if form.is_valid():
        try:
            event_set_status(event=event, by=request.user, status=form.cleaned_data["status"])
        except Refused as refused:
            refuse_on(form, refused)
        else:
            messages.success(request, _("The status was changed."))
            return redirect("organizer:dashboard", slug=slug)
    return _dashboard(request, event, status_form=form)


@login_required
def payments(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug, referees=True)
    form = PaymentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        entry = get_object_or_404(event.entries, pk=form.cleaned_data["entry"])
        try:
            payment = payment_record(
                entry=entry,
                fee_key=form.cleaned_data["fee_key"],
                amount=form.cleaned_data["amount"],
                method=form.cleaned_data["method"],
                by=request.user,
                note=form.cleaned_data["note"],
            )
        except Refused as refused:
            messages.error(
                request,
                f"#{entry.number}: {refusal_text(refused)}",
            )
        else:
            messages.success(
                request, _("Payment recorded: receipt %(n)d.") % {"n": payment.receipt_number}
            )
            return redirect("organizer:receipt", slug=slug, number=payment.receipt_number)
    context = {"event": event, "rows": fees.payments_table(event), "methods": PaymentForm()}
    return render(request, "podium/organizer/payments.html", context)


@login_required
def receipt(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(request, slug, referees=True)
    payment = fees.receipt(event, number)
    if payment is None:
        raise Http404
    fee = next((f for f in event.rulebook.fees if f.key == payment.fee_key), None)
    rule = payment.fee_key.removeprefix(APPEAL_FEE_PREFIX)
    appeal = next((a for a in event.rulebook.appeals if a.key == rule), None)
    title = rt(fee.title) if fee else rt(appeal.title) if appeal else payment.fee_key
    context = {"event": event, "payment": payment, "fee": fee, "fee_title": title}
    return render(request, "podium/organizer/receipt.html", context)


urlpatterns = [
    path("", events, name="events"),
    path("new/", event_new, name="new"),
    path("<slug:slug>/", dashboard, name="dashboard"),
    path("<slug:slug>/edit/", edit, name="edit"),
    path("<slug:slug>/roles/", roles, name="roles"),
    path("<slug:slug>/squads/", squads, name="squads"),
    path("<slug:slug>/status/", status, name="status"),
    path("<slug:slug>/payments/", payments, name="payments"),
    path("<slug:slug>/receipts/<int:number>/", receipt, name="receipt"),
]
