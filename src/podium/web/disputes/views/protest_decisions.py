"""Deciding a bowling protest at the head referee's desk: the protest's page with the
organizing committee's decision (a corrected game where it is upheld), then the further appeal
of a rejected protest and its outcome.

Vocabulary:
- protest, decision, further appeal: see ``podium.web.disputes.views.protests``.
- seen result: see ``podium.web.disputes.forms.protests``; a decision sent on games that
  changed meanwhile is shown again with the games as they are now.
- unshown errors: the refusal of a form the page no longer shows (the protest was decided
  meanwhile), listed on the page so it is still read.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.rules.schema.stages import GamesStage
from podium.web.disputes.forms.protests import DecisionForm, FurtherAppealForm, OutcomeForm
from podium.web.disputes.selectors.appeals import decided
from podium.web.disputes.services.protests import (
    further_appeal_outcome,
    further_appeal_record,
    protest_decide,
)
from podium.web.disputes.views.protest_desk import (
    game_columns,
    games_of,
    protest_of,
    protest_rule,
)
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.refusals import Refused, refuse_on
from podium.web.kernel.roles import is_head_referee, is_staff
from podium.web.models import Appeal, Event, FurtherAppeal, Result
from podium.web.results.selectors.rows import current_of, total_of


def _further(appeal: Appeal) -> FurtherAppeal | None:
    return FurtherAppeal.objects.filter(appeal=appeal).first()


def _decision_form(stage: GamesStage, current: Result | None, data: Any = None) -> DecisionForm:
    columns = game_columns(stage) if current is not None else ()
    return DecisionForm(data, columns=columns, current=current)


def _unshown_errors(forms: dict[str, Any], shown: tuple[Any, ...]) -> list[str]:
    """The errors of a sent form the page no longer shows (it was decided meanwhile), so the
    refusal is still read."""
    kept = {id(f) for f in shown if f is not None}
    return [
        str(error)
        for form in forms.values()
        if id(form) not in kept
        for errors in form.errors.values()
        for error in errors
    ]


def _detail(
    request: HttpRequest,
    event: Event,
    appeal: Appeal,
    *,
    forms: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    rule = protest_rule(event)
    stage = stage_or_404(event, appeal.stage, GamesStage)
    verdict = decided(appeal)
    further = _further(appeal)
    current = current_of(appeal.result) if appeal.result else None
    forms = forms or {}
    decision = further_form = outcome_form = None
    if verdict is None:
        decision = forms.get("decision") or _decision_form(stage, current)
    elif not verdict.upheld and further is None and rule.further_appeal_to:
        further_form = forms.get("further") or FurtherAppealForm(
            initial={"body": rule.further_appeal_to}
        )
    elif further is not None and further.decided_at is None:
        outcome_form = forms.get("outcome") or OutcomeForm()
    corrected = []
    if verdict is not None and verdict.correction is not None and verdict.correction.corrects:
        was = verdict.correction.corrects.cells
        corrected = [
            {"number": int(c[1:]), "was": was.get(c, ""), "now": v}
            for c, v in verdict.correction.cells.items()
            if v != was.get(c, "")
        ]
    context = {
        "event": event,
        "rule": rule,
        "stage": stage,
        "appeal": appeal,
        "verdict": verdict,
        "further": further,
        "protested": games_of(stage, appeal.result),
        "current": current,
        "current_games": games_of(stage, current),
        "total": total_of(current.cells) if current else None,
        "corrected": corrected,
        "decision": decision,
        "further_form": further_form,
        "outcome_form": outcome_form,
        "head": is_head_referee(request.user, event),
        "refusals": _unshown_errors(forms, (decision, further_form, outcome_form)),
    }
    return render(request, "podium/protests/detail.html", context, status=status)


@login_required
def detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    return _detail(request, event, protest_of(event, number))


@login_required
@require_POST
def decide(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Records the committee's decision; an upheld protest may correct the player's games."""
    event = event_for(request, slug, is_staff)
    appeal = protest_of(event, number)
    stage = stage_or_404(event, appeal.stage, GamesStage)
    current = current_of(appeal.result) if appeal.result else None
    form = _decision_form(stage, current, request.POST)
    if not form.is_valid():
        return _detail(request, event, appeal, forms={"decision": form}, status=400)
    if (
        current is not None
        and decided(appeal) is None
        and form.cleaned_data.get("result") != current.pk
    ):
        # Someone changed the games since the form was shown: show them as they are now.
        data = request.POST.copy()
        data.update({"result": str(current.pk), **current.cells})
        fresh = _decision_form(stage, current, data)
        fresh.is_valid()
        fresh.add_error(
            None,
            _("The games of #%(number)d were changed meanwhile; check the games shown now.")
            % {"number": appeal.entry.number},
        )
        return _detail(request, event, appeal, forms={"decision": fresh}, status=400)
    changed = form.changed_games(current.cells) if current else {}
    action = form.cleaned_data["action"].strip()
    if changed and not action and form.upheld:
        action = "; ".join(
            _("game %(n)d corrected %(was)s → %(now)s")
            % {"n": int(c[1:]), "was": was or "–", "now": now or "–"}
            for c, (was, now) in changed.items()
        )
    cells = {**current.cells, **{c: now for c, (_was, now) in changed.items()}} if changed else None
    try:
        verdict = protest_decide(
            appeal=appeal, upheld=form.upheld, reasons=form.cleaned_data["reasons"],
            by=request.user, action=action, corrected_cells=cells,
        )  # fmt: skip
    except Refused as refused:
        refuse_on(form, refused)
        return _detail(request, event, appeal, forms={"decision": form}, status=400)
    if verdict.upheld:
        text = _("Protest %(number)d upheld; return the deposit to the player.")
    else:
        text = _("Protest %(number)d rejected; the deposit is forfeited: give the cash receipt.")
    messages.success(request, text % {"number": appeal.number})
    return redirect("protests:detail", slug=slug, number=appeal.number)


@login_required
@require_POST
def further(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Records that the player took the rejected protest further (STK or VV ČBA)."""
    event = event_for(request, slug, is_staff)
    appeal = protest_of(event, number)
    form = FurtherAppealForm(request.POST)
    if form.is_valid():
        try:
            done = further_appeal_record(
                appeal=appeal, by=request.user, body=form.cleaned_data["body"]
            )
        except Refused as refused:
            refuse_on(form, refused)
        else:
            messages.success(
                request,
                _("Further appeal of protest %(number)d to %(body)s recorded.")
                % {"number": appeal.number, "body": done.body},
            )
            return redirect("protests:detail", slug=slug, number=appeal.number)
    return _detail(request, event, appeal, forms={"further": form}, status=400)


@login_required
@require_POST
def outcome(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    appeal = protest_of(event, number)
    further_ = _further(appeal)
    if further_ is None:
        raise Http404
    form = OutcomeForm(request.POST)
    if form.is_valid():
        try:
            further_appeal_outcome(
                further=further_, outcome=form.cleaned_data["outcome"], by=request.user
            )
        except Refused as refused:
            refuse_on(form, refused)
        else:
            messages.success(
                request,
                _("Outcome of the further appeal of protest %(number)d recorded.")
                % {"number": appeal.number},
            )
            return redirect("protests:detail", slug=slug, number=appeal.number)
    return _detail(request, event, appeal, forms={"outcome": form}, status=400)
