"""A bowling player's warnings and expulsion at the head referee's desk: the players with
their sanctions, a warning or an expulsion recorded, a sanction lifted.

Only the organizers and referees of the event see these pages (anyone else gets 404); the
sanctions are the head referee's or an organizer's, and the services refuse anyone else.

Vocabulary:
- warning, expulsion: the effects of the rulebook's sanction rule that has both (ČBA § 12 g);
  expulsion only after a warning. An expelled player gets no further results
  (``podium.web.disputes.services.discipline.admission_refusal``) until the expulsion is lifted.
- player card: one player of the desk with their sanctions (each with its form to lift it),
  the warnings in force, whether they are expelled, and the form for the next sanction.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.disputes.forms.protests import LiftForm, SanctionForm
from podium.web.disputes.selectors.discipline import barred_by, in_force, sanctions_by_entry
from podium.web.disputes.services.discipline import sanction_impose, sanction_lift
from podium.web.disputes.views.protest_desk import expulsion_rule, games_stages_of, players_of
from podium.web.kernel.lookup import event_for
from podium.web.kernel.refusals import Refused, refuse_on
from podium.web.kernel.roles import is_head_referee, is_staff
from podium.web.models import Entry, Event, Sanction


def _players_page(
    request: HttpRequest,
    event: Event,
    *,
    bound: tuple[str, int, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    rule = expulsion_rule(event)
    if rule is None:
        raise Http404
    now = timezone.now()
    cards = []
    players = players_of(event, games_stages_of(event))
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
    rule = expulsion_rule(event)
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
