"""The ChGK season's organizer page: the Brainball battle schedule, the prize play-offs and the
superfinal between the two winners.

Organizers and head referees see the page and enter play-offs; only organizers draw the
schedule; anyone else gets 404.

Vocabulary:
- schedule, bout, balance, re-draw: see ``podium.web.battles.services.schedule`` and
  ``podium.web.battles.selectors.season``; an unplayed bout links to the Brainball desk's battle
  form.
- tied group, still tied, answer, play-off pending: see ``podium.web.battles.selectors.season``,
  ``podium.web.battles.services.playoffs`` and ``podium.web.battles.services.extra_questions``.
  The match is entered per team; an extra question for all the teams still tied in one form,
  "entered like a tour".
- winners: see ``podium.web.battles.selectors.season``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.rules.schema.stages import ChgkSeasonStage, HeadToHeadStage
from podium.web.battles.forms.season import (
    ExtraForm,
    MatchForm,
    PlayoffAnnulForm,
    PlayoffCorrectionForm,
    ScheduleForm,
)
from podium.web.battles.selectors import season as select
from podium.web.battles.services.extra_questions import playoff_question
from podium.web.battles.services.playoffs import playoff_annul, playoff_correct, playoff_record
from podium.web.battles.services.schedule import STAGES, schedule_compute, schedule_make
from podium.web.kernel.lookup import event_for
from podium.web.kernel.refusals import Refused, refuse_on
from podium.web.kernel.roles import is_head_referee, is_organizer
from podium.web.models import Entry, Event, Result

app_name = "season"


def _event(request: HttpRequest, slug: str) -> Event:
    event = event_for(request, slug, is_head_referee)
    if select.season_stage(event) is None and select.league_stage(event) is None:
        raise Http404
    return event


def _match_prefix(entry: Entry) -> str:
    return f"match-{entry.number}"


def _correct_prefix(entry: Entry) -> str:
    return f"correct-{entry.number}"


def _annul_prefix(entry: Entry) -> str:
    return f"annul-{entry.number}"


def _extra_prefix(first: int) -> str:
    return f"extra-{first}"


def _schedule(
    event: Event, league: HeadToHeadStage, organizer: bool, bound: ScheduleForm | None
) -> dict[str, Any]:
    draw = select.schedule_of(event, league.key)
    played = Result.objects.filter(event=event, stage=league.key).exists()
    block: dict[str, Any] = {
        "stage": league,
        "draw": draw,
        "form": bound or ScheduleForm(),
        "may_draw": organizer and not (draw is not None and played),
        "locked": draw is not None and played,
        "drawn": select.schedules_drawn(event, league.key),
        "stages": list(range(1, STAGES + 1)),
    }
    if draw is None:
        return block
    bouts = select.schedule_bouts(event, league, draw)
    again = schedule_compute(draw.seed, draw.result["inputs"])
    block.update(
        {
            "rounds": select.schedule_rounds(bouts, STAGES),
            "balance": select.balance(bouts, STAGES),
            "bouts": len(bouts),
            "played": sum(1 for b in bouts if b.recorded),
            "teams": len(draw.result["inputs"]["teams"]),
            "reproduced": again["outcome"] == draw.result["outcome"],
        }
    )
    return block


def _playoffs(
    event: Event, season: ChgkSeasonStage, bound: dict[str, forms.Form]
) -> dict[str, Any]:
    playoffs = select.playoff_groups(event, season)
    groups = []
    for group in playoffs.groups:
        teams = []
        for team in group.teams:
            prefix = _match_prefix(team.entry)
            form = correction = None
            if team.result is None:
                form = bound.get(prefix) or MatchForm(prefix=prefix)
            else:
                fix = _correct_prefix(team.entry)
                correction = bound.get(fix) or PlayoffCorrectionForm(
                    prefix=fix,
                    initial={"result": team.result.pk, "playoff": team.result.cells["playoff"]},
                )
            teams.append({"team": team, "form": form, "correction": correction})
        still = []
        for tied in group.still:
            prefix = _extra_prefix(tied.first)
            waiting = [t.entry for t in tied.waiting]
            form = bound.get(prefix) or ExtraForm(waiting, prefix=prefix)
            still.append({"tied": tied, "form": form})
        groups.append({"group": group, "teams": teams, "still": still})
    recorded = []
    if playoffs.problems:  # a play-off the season refuses may need annulling
        for result in playoffs.recorded:
            assert result.entry is not None
            prefix = _annul_prefix(result.entry)
            form = bound.get(prefix) or PlayoffAnnulForm(
                prefix=prefix, initial={"result": result.pk}
            )
            recorded.append({"result": result, "form": form})
    return {
        "stage": season,
        "groups": groups,
        "problems": playoffs.problems,
        "recorded": recorded,
        "pending": playoffs.pending,
        "clause": season.ranking.playoff.clause if season.ranking.playoff else None,
        "method": season.ranking.playoff.method if season.ranking.playoff else "",
        "match_questions": season.ranking.playoff.questions if season.ranking.playoff else None,
    }


def _page(
    request: HttpRequest,
    event: Event,
    *,
    bound: dict[str, forms.Form] | None = None,
    status: int = 200,
) -> HttpResponse:
    bound = bound or {}
    organizer = is_organizer(request.user, event)
    season = select.season_stage(event)
    league = select.league_stage(event)
    schedule_form = bound.get("schedule")
    assert schedule_form is None or isinstance(schedule_form, ScheduleForm)
    context: dict[str, Any] = {
        "event": event,
        "organizer": organizer,
        "season": _playoffs(event, season, bound) if season else None,
        "schedule": _schedule(event, league, organizer, schedule_form) if league else None,
        "superfinal": select.superfinal_state(event),
    }
    return render(request, "podium/season/index.html", context, status=status)


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, _event(request, slug))


@login_required
@require_POST
def draw(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    league = select.league_stage(event)
    if league is None:
        raise Http404
    form = ScheduleForm(request.POST)
    if form.is_valid():
        try:
            made = schedule_make(
                event=event, stage=league.key, by=request.user, seed=form.cleaned_data["seed"]
            )
        except Refused as refused:
            refuse_on(form, refused)
        else:
            messages.success(
                request,
                _("Battle schedule drawn with seed %(seed)s: %(count)d battles.")
                % {"seed": made.seed, "count": len(made.result["outcome"]["bouts"])},
            )
            return redirect(reverse("season:index", kwargs={"slug": slug}) + "#schedule")
    return _page(request, event, bound={"schedule": form}, status=400)


def _season(event: Event) -> ChgkSeasonStage:
    season = select.season_stage(event)
    if season is None:
        raise Http404
    return season


def _seen(data: dict[str, Any], season: ChgkSeasonStage, entry: Entry) -> Result:
    """The team's play-off result the form was showing."""
    return get_object_or_404(
        Result, pk=data["result"], event=entry.event_id, stage=season.key, entry=entry
    )


def _back(slug: str) -> HttpResponse:
    return redirect(reverse("season:index", kwargs={"slug": slug}) + "#playoffs")


def _submit(
    request: HttpRequest,
    event: Event,
    prefix: str,
    form: forms.Form,
    write: Callable[[dict[str, Any]], str],
) -> HttpResponse:
    """Runs one play-off write from a valid form (``write`` returns the success message); a
    refusal shows the page again with the form's errors."""
    if form.is_valid():
        try:
            done = write(form.cleaned_data)
        except Refused as refused:
            refuse_on(form, refused)
        else:
            messages.success(request, done)
            return _back(event.slug)
    return _page(request, event, bound={prefix: form}, status=400)


@login_required
@require_POST
def match(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(request, slug)
    _season(event)
    entry = get_object_or_404(Entry, event=event, number=number)

    def write(data: dict[str, Any]) -> str:
        playoff_record(
            event=event, entry=entry, playoff=data["playoff"], by=request.user,
            idempotency_key=data["idempotency_key"],
        )  # fmt: skip
        return _("#%(number)d %(name)s: %(taken)s in the play-off match recorded.") % {
            "number": entry.number, "name": entry.name, "taken": data["playoff"],
        }  # fmt: skip

    prefix = _match_prefix(entry)
    return _submit(request, event, prefix, MatchForm(request.POST, prefix=prefix), write)


@login_required
@require_POST
def extra(request: HttpRequest, slug: str, first: int) -> HttpResponse:
    event = _event(request, slug)
    season = _season(event)
    groups = select.playoff_groups(event, season).groups
    tied = next((s for g in groups for s in g.still if s.first == first), None)
    if tied is None:
        messages.error(request, _("This tie is no longer open: reload the page and check it."))
        return _back(slug)
    prefix = _extra_prefix(first)
    form = ExtraForm([t.entry for t in tied.waiting], request.POST, prefix=prefix)

    def write(data: dict[str, Any]) -> str:
        playoff_question(
            event=event, answers=form.answers(), by=request.user,
            idempotency_key=data["idempotency_key"],
        )  # fmt: skip
        return _("Extra question %(n)d recorded for %(teams)s.") % {
            "n": tied.question, "teams": ", ".join(t.entry.name for t in tied.teams),
        }  # fmt: skip

    return _submit(request, event, prefix, form, write)


@login_required
@require_POST
def correct(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(request, slug)
    season = _season(event)
    entry = get_object_or_404(Entry, event=event, number=number)

    def write(data: dict[str, Any]) -> str:
        seen = _seen(data, season, entry)
        done = playoff_correct(
            seen=seen, playoff=data["playoff"], reason=data["reason"], by=request.user,
            idempotency_key=data["idempotency_key"],
        )  # fmt: skip
        return _("#%(number)d %(name)s: play-off corrected to “%(playoff)s”.") % {
            "number": entry.number, "name": entry.name, "playoff": done.cells["playoff"],
        }  # fmt: skip

    prefix = _correct_prefix(entry)
    return _submit(
        request, event, prefix, PlayoffCorrectionForm(request.POST, prefix=prefix), write
    )


@login_required
@require_POST
def annul(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(request, slug)
    season = _season(event)
    entry = get_object_or_404(Entry, event=event, number=number)

    def write(data: dict[str, Any]) -> str:
        seen = _seen(data, season, entry)
        playoff_annul(
            seen=seen, reason=data["reason"], by=request.user,
            idempotency_key=data["idempotency_key"],
        )  # fmt: skip
        return _("#%(number)d %(name)s: play-off annulled.") % {
            "number": entry.number, "name": entry.name,
        }  # fmt: skip

    prefix = _annul_prefix(entry)
    return _submit(request, event, prefix, PlayoffAnnulForm(request.POST, prefix=prefix), write)


urlpatterns = [
    path("", index, name="index"),
    path("schedule/", draw, name="schedule"),
    path("playoff/<int:number>/match/", match, name="match"),
    path("playoff/<int:number>/correct/", correct, name="correct"),
    path("playoff/<int:number>/annul/", annul, name="annul"),
    path("playoff/extra/<int:first>/", extra, name="extra"),
]
