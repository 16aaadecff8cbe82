"""Bowling protests at the head referee's desk: the written protest with its deposit and the
printed confirmation, the organizing committee's decision, the further appeal; and the warnings
and expulsions of players.

Only the organizers and referees of the event see these pages (anyone else gets 404); the
decisions are the head referee's or an organizer's, and the services refuse anyone else.

Vocabulary:
- protest: an appeal of kind ``protest`` under the rulebook's appeal rule without question
  kinds (ČBA § 14.2), filed by a player on their current result of a games stage.
- deposit: the fee of that rule, received with the protest (a ``Payment`` with its receipt
  number); the service refuses a protest without it.
- confirmation: the head referee's printed "potvrzení" of the deposit received.
- decision: the organizing committee's verdict, recorded by the head referee. Upheld: the
  deposit is returned and the corrective action recorded, with a corrected game if any (a new
  version of the result). Rejected: the deposit is forfeited and the player gets a cash receipt
  ("příjmový pokladní doklad", ``Verdict.forfeit_receipt``), and may appeal further to the body
  the rulebook names.
- warning, expulsion: the effects of the rulebook's sanction rule that has both (ČBA § 12 g);
  expulsion only after a warning. An expelled player gets no further results
  (``podium.web.disputes.services.discipline.admission_refusal``) until the expulsion is lifted.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.rules.schema.discipline import Appeal as AppealRule
from podium.rules.schema.discipline import Sanction as SanctionRule
from podium.rules.schema.stages import GamesStage
from podium.web.disputes.forms.protests import (
    DecisionForm,
    FurtherAppealForm,
    LiftForm,
    OutcomeForm,
    ProtestForm,
    SanctionForm,
)
from podium.web.disputes.selectors.appeals import appeals_of, decided
from podium.web.disputes.selectors.discipline import barred_by, in_force, sanctions_by_entry
from podium.web.disputes.services.discipline import sanction_impose, sanction_lift
from podium.web.disputes.services.protests import (
    further_appeal_outcome,
    further_appeal_record,
    protest_decide,
    protest_file,
)
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.refusals import Refused, refuse_on
from podium.web.kernel.roles import is_head_referee, is_staff
from podium.web.kernel.stages import games_stages, stage_entries
from podium.web.models import Appeal, Entry, Event, FurtherAppeal, Result, Sanction, Verdict
from podium.web.results.selectors.rows import current_of, current_results, total_of

app_name = "protests"

FILED = "podium-protests-filed"  # session: submission token → protest number


def _rule(event: Event) -> AppealRule:
    rule = next((a for a in event.rulebook.appeals if not a.kinds), None)
    if rule is None:
        raise Http404
    return rule


def _sanction_rule(event: Event) -> SanctionRule | None:
    for rule in event.rulebook.sanctions:
        if {"warning", "expulsion"} <= {e.kind for e in rule.effects}:
            return rule
    return None


def _stages(event: Event) -> list[GamesStage]:
    stages = games_stages(event.rulebook)
    if not stages:
        raise Http404
    return stages


def _columns(stage: GamesStage) -> tuple[str, ...]:
    return tuple(f"g{n}" for n in range(1, stage.games + 1))


def _games(stage: GamesStage, result: Result | None) -> list[dict[str, Any]]:
    cells = result.cells if result else {}
    return [{"number": int(c[1:]), "value": cells.get(c, "")} for c in _columns(stage)]


def _players(event: Event, stages: list[GamesStage]) -> list[Entry]:
    seen: dict[int, Entry] = {}
    for stage in stages:
        for entry in stage_entries(event, stage):
            seen.setdefault(entry.pk, entry)
    return sorted(seen.values(), key=lambda e: e.number)


def _player_choices(event: Event, stages: list[GamesStage]) -> list[tuple[int, str]]:
    """Each player with their current games (of the first stage they have a result in)."""
    results: dict[int, Result] = {}
    for stage in stages:
        for result in current_results(event, stage.key):
            results.setdefault(result.entry_id, result)  # type: ignore[arg-type]
    choices = []
    for entry in _players(event, stages):
        result = results.get(entry.pk)
        label = f"#{entry.number} {entry.name}"
        if result is not None:
            games = " ".join(v or "–" for v in result.cells.values())
            label += f" — {games} ({total_of(result.cells) or 0})"
        choices.append((entry.pk, label))
    return choices


def _protest_form(event: Event, stages: list[GamesStage], data: Any = None) -> ProtestForm:
    return ProtestForm(
        data,
        players=_player_choices(event, stages),
        stages=[(s.key, s.title) for s in stages],
    )


def _index(
    request: HttpRequest, event: Event, form: ProtestForm | None = None, status: int = 200
) -> HttpResponse:
    rule = _rule(event)
    stages = _stages(event)
    now = timezone.now()
    protests = []
    filed = [a for a in appeals_of(event) if a.kind == Appeal.Kind.PROTEST]
    sanctions = sanctions_by_entry(event, [a.entry for a in filed])
    for appeal in filed:
        barred = barred_by(event, appeal.entry, now, sanctions[appeal.entry_id])
        protests.append(
            {"appeal": appeal, "verdict": decided(appeal), "expelled": barred is not None}
        )
    context = {
        "event": event,
        "rule": rule,
        "form": form or _protest_form(event, stages),
        "protests": protests,
        "head": is_head_referee(request.user, event),
        "sanctions": _sanction_rule(event) is not None,
    }
    return render(request, "podium/protests/index.html", context, status=status)


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    return _index(request, event_for(request, slug, is_staff))


@login_required
@require_POST
def file(request: HttpRequest, slug: str) -> HttpResponse:
    """Files the player's protest with the deposit received, then shows its confirmation."""
    event = event_for(request, slug, is_staff)
    rule = _rule(event)
    stages = _stages(event)
    form = _protest_form(event, stages, request.POST)
    if not form.is_valid():
        return _index(request, event, form, status=400)
    filed = request.session.get(FILED, {})
    token = form.cleaned_data["token"]
    if token in filed:  # the same form sent twice (a double tap, a dropped reply)
        return redirect("protests:confirmation", slug=slug, number=filed[token])
    entry = get_object_or_404(Entry, event=event, pk=form.cleaned_data["player"])
    stage = form.cleaned_data["stage"]
    result = next((r for r in current_results(event, stage) if r.entry_id == entry.pk), None)
    try:
        appeal = protest_file(
            event=event, rule=rule.key, stage=stage, entry=entry, by=request.user,
            statement=form.cleaned_data["statement"], result=result,
            method=form.cleaned_data["method"] or None,
        )  # fmt: skip
    except Refused as refused:
        refuse_on(form, refused)
        return _index(request, event, form, status=400)
    request.session[FILED] = {**filed, token: appeal.number}
    names = {"number": appeal.number, "player": entry.number, "name": entry.name}
    if appeal.fee is None:
        messages.success(request, _("Protest %(number)d of #%(player)d %(name)s filed.") % names)
        return redirect("protests:detail", slug=slug, number=appeal.number)
    messages.success(
        request,
        _("Protest %(number)d of #%(player)d %(name)s filed; deposit receipt %(receipt)d.")
        % {**names, "receipt": appeal.fee.receipt_number},
    )
    return redirect("protests:confirmation", slug=slug, number=appeal.number)


def _protest(event: Event, number: int) -> Appeal:
    return get_object_or_404(
        Appeal.objects.select_related("entry", "fee", "fee__received_by", "result", "filed_by"),
        event=event,
        number=number,
        kind=Appeal.Kind.PROTEST,
    )


def _further(appeal: Appeal) -> FurtherAppeal | None:
    return FurtherAppeal.objects.filter(appeal=appeal).first()


def _decision_form(stage: GamesStage, current: Result | None, data: Any = None) -> DecisionForm:
    columns = _columns(stage) if current is not None else ()
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
    rule = _rule(event)
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
        "protested": _games(stage, appeal.result),
        "current": current,
        "current_games": _games(stage, current),
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
    return _detail(request, event, _protest(event, number))


@login_required
def confirmation(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The printable confirmation of the deposit received with the protest."""
    event = event_for(request, slug, is_staff)
    appeal = _protest(event, number)
    if appeal.fee is None:  # nothing to confirm where the rule asks no deposit
        return redirect("protests:detail", slug=slug, number=number)
    context = {
        "event": event,
        "rule": _rule(event),
        "appeal": appeal,
        "payment": appeal.fee,
        "protested": _games(stage_or_404(event, appeal.stage, GamesStage), appeal.result),
    }
    return render(request, "podium/protests/confirmation.html", context)


@login_required
def receipt(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The printable cash receipt for the deposit a rejected protest forfeits."""
    event = event_for(request, slug, is_staff)
    appeal = _protest(event, number)
    verdict = decided(appeal)
    if verdict is None or verdict.fee != Verdict.Fee.FORFEITED or appeal.fee is None:
        raise Http404
    context = {"event": event, "rule": _rule(event), "appeal": appeal, "verdict": verdict,
               "payment": appeal.fee}  # fmt: skip
    return render(request, "podium/protests/receipt.html", context)


@login_required
@require_POST
def decide(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Records the committee's decision; an upheld protest may correct the player's games."""
    event = event_for(request, slug, is_staff)
    appeal = _protest(event, number)
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
    appeal = _protest(event, number)
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
    appeal = _protest(event, number)
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


# --- warnings and expulsion -------------------------------------------------------------------


def _players_page(
    request: HttpRequest,
    event: Event,
    *,
    bound: tuple[str, int, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    rule = _sanction_rule(event)
    if rule is None:
        raise Http404
    now = timezone.now()
    cards = []
    players = _players(event, _stages(event))
    by_entry = sanctions_by_entry(event, players)
    for entry in players:
        sanctions = [s for s in by_entry[entry.pk] if s.key == rule.key]
        lifts = []
        for sanction in sanctions:
            form = LiftForm(prefix=f"l{sanction.pk}")
            if bound and bound[:2] == ("lift", sanction.pk):
                form = bound[2]
            lifts.append({"sanction": sanction, "in_force": in_force(sanction, now), "form": form})
        form = SanctionForm(prefix=f"s{entry.pk}")
        if bound and bound[:2] == ("impose", entry.pk):
            form = bound[2]
        expelled = barred_by(event, entry, now, by_entry[entry.pk])
        cards.append(
            {
                "entry": entry,
                "sanctions": lifts,
                "warnings": sum(
                    1 for s in lifts if s["in_force"] and s["sanction"].effect == "warning"
                ),
                "expelled": expelled,
                "form": form,
            }
        )
    context = {
        "event": event,
        "rule": rule,
        "cards": cards,
        "head": is_head_referee(request.user, event),
    }
    return render(request, "podium/protests/players.html", context, status=status)


@login_required
def players(request: HttpRequest, slug: str) -> HttpResponse:
    return _players_page(request, event_for(request, slug, is_staff))


def _player_anchor(slug: str, entry: Entry) -> HttpResponse:
    response = redirect("protests:players", slug=slug)
    response["Location"] += f"#player-{entry.number}"
    return response


@login_required
@require_POST
def impose(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Records a warning or an expulsion of the player (expulsion only after a warning)."""
    event = event_for(request, slug, is_staff)
    rule = _sanction_rule(event)
    if rule is None:
        raise Http404
    entry = get_object_or_404(Entry, event=event, pk=entry_id)
    form = SanctionForm(request.POST, prefix=f"s{entry.pk}")
    if form.is_valid():
        effect = form.cleaned_data["effect"]
        try:
            sanction_impose(
                event=event, key=rule.key, by=request.user, reason=form.cleaned_data["reason"],
                entry=entry, effect=effect,
            )  # fmt: skip
        except Refused as refused:
            refuse_on(form, refused)
        else:
            if effect == "expulsion":
                text = _("#%(number)d %(name)s is expelled: no further results are recorded.")
            else:
                text = _("#%(number)d %(name)s is warned.")
            messages.success(request, text % {"number": entry.number, "name": entry.name})
            return _player_anchor(slug, entry)
    return _players_page(request, event, bound=("impose", entry.pk, form), status=400)


@login_required
@require_POST
def lift(request: HttpRequest, slug: str, sanction_id: int) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    sanction = get_object_or_404(
        Sanction.objects.select_related("entry"), event=event, pk=sanction_id
    )
    form = LiftForm(request.POST, prefix=f"l{sanction.pk}")
    if form.is_valid():
        try:
            sanction_lift(sanction=sanction, by=request.user, reason=form.cleaned_data["reason"])
        except Refused as refused:
            refuse_on(form, refused)
        else:
            messages.success(request, _("The sanction is lifted."))
            if sanction.entry is not None:
                return _player_anchor(slug, sanction.entry)
            return redirect("protests:players", slug=slug)
    return _players_page(request, event, bound=("lift", sanction.pk, form), status=400)


urlpatterns = [
    path("", index, name="index"),
    path("file/", file, name="file"),
    path("<int:number>/", detail, name="detail"),
    path("<int:number>/confirmation/", confirmation, name="confirmation"),
    path("<int:number>/decide/", decide, name="decide"),
    path("<int:number>/receipt/", receipt, name="receipt"),
    path("<int:number>/further/", further, name="further"),
    path("<int:number>/outcome/", outcome, name="outcome"),
    path("players/", players, name="players"),
    path("players/<int:entry_id>/sanction/", impose, name="impose"),
    path("sanctions/<int:sanction_id>/lift/", lift, name="lift"),
]
