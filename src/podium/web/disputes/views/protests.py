"""Bowling protests at the head referee's desk: the written protest with its deposit and the
printed confirmation, and the cash receipt of a forfeited deposit. The desk's URLs are all
here; deciding a protest and its further appeal are in ``views.protest_decisions``, the warnings
and expulsions of players in ``views.expulsions``.

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
- warning, expulsion: see ``podium.web.disputes.views.expulsions``.
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

from podium.rules.schema.stages import GamesStage
from podium.web.disputes.forms.protests import ProtestForm
from podium.web.disputes.selectors.appeals import appeals_of, decided
from podium.web.disputes.selectors.discipline import barred_by, sanctions_by_entry
from podium.web.disputes.services.protests import protest_file
from podium.web.disputes.views.expulsions import impose, lift, players
from podium.web.disputes.views.protest_decisions import decide, detail, further, outcome
from podium.web.disputes.views.protest_desk import (
    expulsion_rule,
    games_of,
    games_stages_of,
    players_of,
    protest_of,
    protest_rule,
)
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.refusals import Refused, refuse_on
from podium.web.kernel.roles import is_head_referee, is_staff
from podium.web.models import Appeal, Entry, Event, Result, Verdict
from podium.web.results.selectors.rows import current_results, total_of

app_name = "protests"

FILED = "podium-protests-filed"  # session: submission token → protest number


def _player_choices(event: Event, stages: list[GamesStage]) -> list[tuple[int, str]]:
    """Each player with their current games (of the first stage they have a result in)."""
    results: dict[int, Result] = {}
    for stage in stages:
        for result in current_results(event, stage.key):
            results.setdefault(result.entry_id, result)  # type: ignore[arg-type]
    choices = []
    for entry in players_of(event, stages):
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
    rule = protest_rule(event)
    stages = games_stages_of(event)
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
        "sanctions": expulsion_rule(event) is not None,
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
    rule = protest_rule(event)
    stages = games_stages_of(event)
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


@login_required
def confirmation(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The printable confirmation of the deposit received with the protest."""
    event = event_for(request, slug, is_staff)
    appeal = protest_of(event, number)
    if appeal.fee is None:  # nothing to confirm where the rule asks no deposit
        return redirect("protests:detail", slug=slug, number=number)
    context = {
        "event": event,
        "rule": protest_rule(event),
        "appeal": appeal,
        "payment": appeal.fee,
        "protested": games_of(stage_or_404(event, appeal.stage, GamesStage), appeal.result),
    }
    return render(request, "podium/protests/confirmation.html", context)


@login_required
def receipt(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The printable cash receipt for the deposit a rejected protest forfeits."""
    event = event_for(request, slug, is_staff)
    appeal = protest_of(event, number)
    verdict = decided(appeal)
    if verdict is None or verdict.fee != Verdict.Fee.FORFEITED or appeal.fee is None:
        raise Http404
    context = {"event": event, "rule": protest_rule(event), "appeal": appeal, "verdict": verdict,
               "payment": appeal.fee}  # fmt: skip
    return render(request, "podium/protests/receipt.html", context)


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
