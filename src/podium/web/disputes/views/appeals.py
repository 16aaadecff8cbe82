"""Appeals on ChGK questions: filed by a team (or recorded by the staff), the organizer's
overview with the jury and the due dates.

Vocabulary:
- appeal, kind, fee, verdict, filing window, verdict due, disputed answer, warned: see
  ``podium.web.disputes.services.appeals``, ``podium.web.disputes.services.hearings`` and
  ``podium.web.disputes.selectors.appeals``.
- filing page: a player of a team (its captain or any member with an account) files for that
  team and says the fee was paid; the staff record an appeal received by e-mail for any team of
  the tour, with how the fee was paid. Anyone else gets 404. After filing: the confirmation with
  the appeal's number, when filing closes and when the verdict is due.
- overview: the staff's list of every appeal with its team, fee receipt, state and due date
  (warned first), the disputed answers still open (by tour and question, never the team), and
  the jury with the organizer's form to appoint a member. Staff only.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from podium.rules.schema.discipline import Appeal as AppealRule
from podium.rules.schema.stages import Stage
from podium.web.disputes.forms.appeals import AppealForm, JuryAppointForm
from podium.web.disputes.selectors.appeals import (
    decided,
    disputes_by_round,
    filing_closes,
    filings_close,
    jury_cards,
    jury_members,
    member_of,
    question_rule,
    verdict_due,
)
from podium.web.disputes.services.appeals import appeal_file, jury_appoint
from podium.web.kernel.lookup import event_for
from podium.web.kernel.moments import moment_text
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import has_role, is_organizer, is_staff
from podium.web.kernel.stages import stage_entries
from podium.web.kernel.texts import rt
from podium.web.models import Appeal, Entry, Event, EventRole, Result

app_name = "appeals"


def tour_stages(event: Event) -> list[Stage]:
    """The stages whose questions are appealed (ChGK tours)."""
    return [s for s in event.rulebook.stages if s.format == "chgk-tour"]


def played_rounds(event: Event, stage: Stage, entries: Any = None) -> list[int]:
    """The rounds of the stage with a result (of one of ``entries``, when given)."""
    results = Result.objects.filter(event=event, stage=stage.key)
    if entries is not None:
        results = results.filter(entry__in=entries)
    return sorted(set(results.values_list("round", flat=True)))


def tour_title(event: Event, stage_key: str, round: int) -> str:
    if len(tour_stages(event)) > 1:
        tour = _("tour %(number)d") % {"number": round}
        return f"{rt(event.rulebook.stage(stage_key).title)}, {tour}"
    return _("Tour %(number)d") % {"number": round}


def _rule(event: Event) -> AppealRule:
    rule = question_rule(event)
    if rule is None or not tour_stages(event):
        raise Http404
    return rule


def _fee_text(rule: AppealRule) -> str:
    return f"{rule.fee.amount} {rule.fee.currency}" if rule.fee else ""


# --- Filing -----------------------------------------------------------------------------------


def _own_entries(user: Any, event: Event) -> QuerySet[Entry]:
    """The active entries the user plays for (or registered)."""
    return (
        Entry.objects.filter(event=event, status__in=Entry.ACTIVE)
        .filter(Q(registered_by=user) | Q(members__person__user=user))
        .distinct()
        .order_by("number")
    )


def _staff_entries(event: Event) -> QuerySet[Entry]:
    pks = {e.pk for s in tour_stages(event) for e in stage_entries(event, s)}
    return Entry.objects.filter(pk__in=pks).order_by("number")


def _tours(event: Event, rule: AppealRule, entries: Any, now: dt.datetime) -> list[tuple[str, str]]:
    """The tour choices, newest first, each with when its filing window closes."""
    choices = []
    for stage in tour_stages(event):
        numbers = played_rounds(event, stage, entries)
        closing = filings_close(event, stage, numbers, rule, now)
        for number in numbers:
            closes = closing[number]
            title = tour_title(event, stage.key, number)
            if closes is None:
                label = title
            elif now <= closes:
                label = _("%(tour)s — appeals until %(when)s") % {
                    "tour": title,
                    "when": moment_text(closes, event),
                }
            else:
                label = _("%(tour)s — appeals closed on %(when)s") % {
                    "tour": title,
                    "when": moment_text(closes, event),
                }
            choices.append((f"{stage.key}:{number}", label))
    return choices[::-1]


def _filing_form(
    request: HttpRequest, event: Event, rule: AppealRule, staff: bool, entries: QuerySet[Entry]
) -> AppealForm:
    # The longest tour the rulebook allows; the service holds the question to the tour's own.
    questions = max(
        (getattr(s, "max_questions", None) or getattr(s, "questions", 0) or 0)
        for s in tour_stages(event)
    )
    data = request.POST if request.method == "POST" else None
    tours = _tours(event, rule, None if staff else entries, timezone.now())
    return AppealForm(
        data, entries=entries, tours=tours, kinds=rule.kinds, questions=questions, staff=staff,
        fee=_fee_text(rule),
    )  # fmt: skip


@login_required
@require_http_methods(["GET", "POST"])
def file(request: HttpRequest, slug: str) -> HttpResponse:
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise Http404
    rule = _rule(event)
    staff = is_staff(request.user, event)
    entries = _staff_entries(event) if staff else _own_entries(request.user, event)
    if not staff and not entries.exists():
        raise Http404
    form = _filing_form(request, event, rule, staff, entries)
    if request.method == "POST" and form.is_valid():
        stage, round = form.stage_and_round()
        data = form.cleaned_data
        try:
            appeal = appeal_file(
                event=event, rule=rule.key, kind=data["kind"], stage=stage, round=round,
                entry=data["entry"], by=request.user, question=data["question"],
                answer=data["answer"], statement=data["statement"], method=form.method(),
            )  # fmt: skip
        except Refused as refused:
            form.add_error(form.field_of(refused.field), refusal_text(refused))
        else:
            return redirect("appeals:filed", slug=slug, number=appeal.number)
    context = {
        "event": event,
        "rule": rule,
        "form": form,
        "staff": staff,
        "fee": _fee_text(rule),
        "no_tours": not form.fields["tour"].choices,
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "podium/appeals/file.html", context, status=status)


@login_required
def filed(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The confirmation of a filed appeal, for the team that filed it and the staff."""
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise Http404
    rule = _rule(event)
    appeal = (
        Appeal.objects.filter(event=event, number=number, kind__in=Appeal.QUESTION_KINDS)
        .exclude(kind=Appeal.Kind.DISPUTED)
        .select_related("entry", "fee")
        .first()
    )
    staff = is_staff(request.user, event)
    if appeal is None or not (staff or member_of(request.user, appeal.entry)):
        raise Http404
    now = timezone.now()
    stage = event.rulebook.stage(appeal.stage)
    context = {
        "event": event,
        "rule": rule,
        "appeal": appeal,
        "tour": tour_title(event, appeal.stage, appeal.round),
        "closes": filing_closes(event, stage, appeal.round, rule, now),
        "due": verdict_due(event, appeal, now),
        "verdict": decided(appeal),
        "staff": staff,
    }
    return render(request, "podium/appeals/filed.html", context)


# --- The staff's overview ---------------------------------------------------------------------


def _rows(event: Event, now: dt.datetime) -> list[dict[str, Any]]:
    rows = []
    for card in jury_cards(event, now, staff=True):
        appeal, verdict = card.appeal, card.verdict
        rows.append(
            {
                "appeal": appeal,
                "tour": tour_title(event, appeal.stage, appeal.round),
                "verdict": verdict,
                "credited": list(verdict.credited.all()) if verdict else [],
                "due": card.due,
                "warned": card.warned,
                "overdue": verdict is None and card.due is not None and card.due < now,
            }
        )
    return rows


def _disputes(event: Event) -> list[dict[str, Any]]:
    """The open disputed answers by tour and question, counted: never the team, which only
    the recorded sheet shows (``podium.web.disputes.selectors.anonymity``)."""
    found = []
    for stage in tour_stages(event):
        rounds = disputes_by_round(event, stage, played_rounds(event, stage))
        for number, disputes in rounds.items():
            counted = Counter(d.question for d in disputes)
            tour = tour_title(event, stage.key, number)
            found += [{"tour": tour, "question": q, "count": n} for q, n in sorted(counted.items())]
    return found


def _overview(
    request: HttpRequest,
    event: Event,
    appoint_form: JuryAppointForm | None = None,
    status: int = 200,
) -> HttpResponse:
    rule = _rule(event)
    rows = _rows(event, timezone.now())
    context = {
        "event": event,
        "rule": rule,
        "rows": rows,
        "warned": [r for r in rows if r["warned"]],
        "disputes": _disputes(event),
        "jury": jury_members(event),
        "organizer": is_organizer(request.user, event),
        "on_jury": has_role(request.user, event, EventRole.Role.JURY),
        "appoint_form": appoint_form or JuryAppointForm(),
    }
    return render(request, "podium/appeals/list.html", context, status=status)


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    return _overview(request, event_for(request, slug, is_staff))


@login_required
@require_POST
def appoint(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    _rule(event)
    form = JuryAppointForm(request.POST)
    if form.is_valid():
        user = form.cleaned_data["username"]
        try:
            jury_appoint(event=event, user=user, by=request.user)
        except Refused as refused:
            form.add_error("username", refusal_text(refused))
        else:
            messages.success(
                request, _("%(user)s is on the appeal jury.") % {"user": user.get_username()}
            )
            return redirect("appeals:list", slug=slug)
    return _overview(request, event, form, status=400)


urlpatterns = [
    path("", index, name="list"),
    path("file/", file, name="file"),
    path("filed/<int:number>/", filed, name="filed"),
    path("jury/", appoint, name="appoint"),
]
