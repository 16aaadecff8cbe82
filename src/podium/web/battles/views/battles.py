"""The Brainball desk: battles of the head-to-head league with the table so far, and the
superfinal runner that asks question by question and stops where the rulebook says.

Only the organizers and referees of the event; anyone else gets 404.

Vocabulary:
- battle: one match of a head-to-head stage between two teams in one round of the round-robin,
  recorded as item ``battle_item(round, n1, n2)`` with the teams as entry numbers.
- league table: the engine's standings of the battles recorded so far (match points, then
  head-to-head, then question difference: the rulebook's criteria).
- superfinal question: item ``question_item(N)``, its discipline from the rulebook's sequence
  (``discipline_at``) and ``1``/``0`` per team (cells named by entry number).
- answer: one tap — ChGK: both teams, one of them or neither took the question; Brainball: which
  team won it, or nobody.
- through score, checkpoint, decided: see ``podium.engine.formats.superfinal``; once decided, the
  runner stops asking and announces the absolute champion with the course of the match.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.engine.errors import InputError
from podium.engine.formats.superfinal import Course, discipline_at, regular_count, through_score
from podium.rules.schema.stages import HeadToHeadStage, Stage, SuperfinalStage
from podium.web.battles.forms.battles import AnswerForm, BattleCorrectionForm, BattleForm
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.refusals import Refused, refuse_on
from podium.web.kernel.roles import confirmers_text, is_organizer, is_staff, may_confirm
from podium.web.kernel.stages import stage_entries
from podium.web.models import Entry, Event, Publication, Result
from podium.web.results.selectors.publication import publication_state
from podium.web.results.selectors.rows import (
    battle_item,
    current_results,
    item_order,
    labels_by_number,
    question_item,
    standings_as_of,
)
from podium.web.results.services.results import result_correct, result_record

app_name = "battles"


def _number(value: Decimal) -> str:
    return f"{value.normalize():f}"


@login_required
def stages(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    links = []
    for stage in event.rulebook.stages:
        if isinstance(stage, HeadToHeadStage):
            url = reverse("battles:index", kwargs={"slug": slug, "stage": stage.key})
        elif isinstance(stage, SuperfinalStage):
            url = reverse("battles:superfinal", kwargs={"slug": slug, "stage": stage.key})
        else:
            continue
        links.append({"stage": stage, "url": url})
    return render(request, "podium/battles/stages.html", {"event": event, "links": links})


# --- the league ------------------------------------------------------------------------------


def _teams(event: Event, stage: Stage) -> list[tuple[int, str]]:
    return [(e.number, f"#{e.number} {e.name}") for e in stage_entries(event, stage)]


def _league_table(event: Event, stage: HeadToHeadStage) -> list[dict[str, Any]]:
    try:
        standings = standings_as_of(event, stage.key)
    except InputError:  # no battle yet
        return []
    rows = []
    for row in standings.tables[0].rows if standings.tables else ():
        m = row.entry.metrics
        rows.append(
            {
                "place": f"{row.rank}" if row.rank == row.rank_to else f"{row.rank}–{row.rank_to}",
                "team": row.entry.name,
                "played": m["played"],
                "won": m["won"],
                "drawn": m["drawn"],
                "lost": m["lost"],
                "questions": f"{m['questions_for']}:{m['questions_against']}",
                "difference": f"{m['question_difference']:+d}",
                "points": _number(Decimal(m["match_points"] or 0)),
                "reasons": row.reasons,
            }
        )
    return rows


def _league(
    request: HttpRequest,
    event: Event,
    stage: HeadToHeadStage,
    *,
    form: BattleForm | None = None,
    bound: tuple[int, BattleCorrectionForm] | None = None,
    status: int = 200,
) -> HttpResponse:
    teams = _teams(event, stage)
    labels = labels_by_number(event, stage)
    final = publication_state(event, stage.key) == Publication.State.FINAL
    battles = []
    results = current_results(event, stage.key)
    prefetch_related_objects(results, "recorded_by")  # each battle names who recorded it
    for result in results:
        cells = result.cells
        if bound is not None and bound[0] == result.pk:
            correction = bound[1]
        else:
            correction = BattleCorrectionForm(
                prefix=f"b{result.pk}",
                initial={"score1": cells.get("score1"), "score2": cells.get("score2")},
            )
        battles.append(
            {
                "result": result,
                "round": cells.get("round", ""),
                "team1": labels.get(cells.get("team1", ""), cells.get("team1", "")),
                "team2": labels.get(cells.get("team2", ""), cells.get("team2", "")),
                "score1": cells.get("score1", ""),
                "score2": cells.get("score2", ""),
                "form": correction,
            }
        )
    context = {
        "event": event,
        "stage": stage,
        "form": form or BattleForm(stage.rounds, teams),
        "battles": battles,
        "table": _league_table(event, stage),
        "teams": teams,
        "final": final,
    }
    return render(request, "podium/battles/index.html", context, status=status)


@login_required
def index(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    the_stage = stage_or_404(event, stage)
    if isinstance(the_stage, SuperfinalStage):
        return redirect("battles:superfinal", slug=slug, stage=stage)
    return _league(request, event, stage_or_404(event, stage, HeadToHeadStage))


def _already_met(
    event: Event, stage: HeadToHeadStage, item: str, cells: dict[str, str]
) -> Refused | None:
    """The refusal of a pairing already played in the round, said with the teams' names (the
    service names the battle by its item)."""
    if cells["team1"] == cells["team2"]:
        return None
    if not any(r.item == item for r in current_results(event, stage.key)):
        return None
    labels = labels_by_number(event, stage)
    return Refused(
        _(
            "%(team1)s and %(team2)s already met in round %(round)s: correct that battle "
            "below instead."
        )
        % {**cells, "team1": labels[cells["team1"]], "team2": labels[cells["team2"]]},
        field="team2",
    )


@login_required
@require_POST
def record(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    the_stage = stage_or_404(event, stage, HeadToHeadStage)
    form = BattleForm(the_stage.rounds, _teams(event, the_stage), request.POST)
    if not form.is_valid():
        return _league(request, event, the_stage, form=form, status=400)
    cells = form.cells()
    data = form.cleaned_data
    item = battle_item(data["round"], data["team1"], data["team2"])
    try:
        result_record(
            event=event, stage=stage, item=item, cells=cells, by=request.user,
            idempotency_key=data["idempotency_key"],
        )  # fmt: skip
    except Refused as refused:
        refuse_on(form, _already_met(event, the_stage, item, cells) or refused)
        return _league(request, event, the_stage, form=form, status=400)
    labels = labels_by_number(event, the_stage)
    messages.success(
        request,
        _("Round %(round)s: %(team1)s %(score1)s : %(score2)s %(team2)s recorded.")
        % {**cells, "team1": labels[cells["team1"]], "team2": labels[cells["team2"]]},
    )
    return redirect("battles:index", slug=slug, stage=stage)


@login_required
@require_POST
def correct(request: HttpRequest, slug: str, stage: str, result_id: int) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    the_stage = stage_or_404(event, stage, HeadToHeadStage)
    seen = get_object_or_404(Result, pk=result_id, event=event, stage=stage, entry=None)
    form = BattleCorrectionForm(request.POST, prefix=f"b{seen.pk}")
    if form.is_valid():
        cells = {
            **seen.cells,
            "score1": (form.cleaned_data.get("score1") or "").strip(),
            "score2": (form.cleaned_data.get("score2") or "").strip(),
        }
        try:
            done = result_correct(
                result=seen, cells=cells, by=request.user,
                reason=form.cleaned_data.get("reason", ""),
                idempotency_key=form.cleaned_data["idempotency_key"],
            )  # fmt: skip
        except Refused as refused:
            refuse_on(form, refused)
        else:
            labels = labels_by_number(event, the_stage)
            messages.success(
                request,
                _("Round %(round)s: %(team1)s %(score1)s : %(score2)s %(team2)s corrected.")
                % {
                    **done.cells,
                    "team1": labels.get(done.cells["team1"], done.cells["team1"]),
                    "team2": labels.get(done.cells["team2"], done.cells["team2"]),
                },
            )
            return redirect("battles:index", slug=slug, stage=stage)
    return _league(request, event, the_stage, bound=(seen.pk, form), status=400)


# --- the superfinal --------------------------------------------------------------------------


def _discipline(key: str) -> str:
    return _("ChGK") if key == "chgk" else _("Brainball")


def _checkpoint_text(stage: SuperfinalStage, last: int) -> str:
    regular = regular_count(stage)
    if last == regular:
        return _("After the %(n)d regular questions") % {"n": regular}
    pair = len(stage.decider)
    return _("After pair %(k)d (questions %(first)d–%(last)d)") % {
        "k": (last - regular) // pair,
        "first": last - pair + 1,
        "last": last,
    }


def _question_phase(stage: SuperfinalStage, number: int) -> str:
    regular = regular_count(stage)
    if number <= regular:
        return _("Regular question %(n)d of %(of)d") % {"n": number, "of": regular}
    return _("Pair %(k)d after a tie: the match is checked after each pair") % {
        "k": (number - regular - 1) // len(stage.decider) + 1
    }


def _superfinal(
    request: HttpRequest,
    event: Event,
    stage: SuperfinalStage,
    *,
    form: AnswerForm | None = None,
    correction: AnswerForm | None = None,
    status: int = 200,
) -> HttpResponse:
    entries: list[Entry] = list(stage_entries(event, stage))
    context: dict[str, Any] = {
        "event": event,
        "stage": stage,
        "form": form,
        "correction": correction,
        "organizer": is_organizer(request.user, event),
        "confirmed_by": confirmers_text(stage.recording),
        "confirms": may_confirm(request.user, event, stage.recording),
    }
    if len(entries) != 2:
        context["waiting"] = True
        context["entries"] = entries
        return render(request, "podium/battles/superfinal.html", context, status=status)
    labels = labels_by_number(event, stage)
    numbers = [str(e.number) for e in entries]
    teams = [{"number": n, "label": labels[n]} for n in numbers]
    results = current_results(event, stage.key)
    questions, taken = [], []
    for result in results:
        pair = (int(result.cells.get(numbers[0]) or 0), int(result.cells.get(numbers[1]) or 0))
        taken.append(pair)
        questions.append(
            {
                "number": item_order(result.item)[0],
                "discipline": _discipline(result.cells.get("discipline", "")),
                "taken": pair,
                "result": result,
            }
        )
    course: Course = through_score(stage, taken)
    decided = course.decided_after is not None
    final = publication_state(event, stage.key) == Publication.State.FINAL
    upcoming = questions[-1]["number"] + 1 if questions else 1
    winner = None
    if decided:
        winner = teams[0] if course.totals[0] > course.totals[1] else teams[1]
    last = questions[-1] if questions else None
    context.update(
        {
            "teams": teams,
            "totals": course.totals,
            "questions": questions,
            "checkpoints": [
                {"text": _checkpoint_text(stage, c.last), "totals": c.totals}
                for c in course.checkpoints
            ],
            "decided": decided,
            "decided_after": course.decided_after,
            "winner": winner,
            "final": final,
            "asking": not decided and not final,
            "upcoming": upcoming,
            "upcoming_key": discipline_at(stage, upcoming),
            "upcoming_discipline": _discipline(discipline_at(stage, upcoming)),
            "upcoming_phase": _question_phase(stage, upcoming),
            "form": form or AnswerForm(initial={"number": upcoming}),
            "last": last,
            "correction": correction
            or (
                AnswerForm(initial={"number": last["number"], "result": last["result"].pk})
                if last
                else None
            ),
            "last_key": last["result"].cells.get("discipline") if last else None,
        }
    )
    return render(request, "podium/battles/superfinal.html", context, status=status)


@login_required
def superfinal(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    return _superfinal(request, event, stage_or_404(event, stage, SuperfinalStage))


def _answer_cells(
    stage: SuperfinalStage, number: int, numbers: list[str], form: AnswerForm
) -> dict[str, str]:
    first, second = form.taken()
    return {"discipline": discipline_at(stage, number), numbers[0]: first, numbers[1]: second}


def _winners_in(event: Event, stage: SuperfinalStage) -> list[str]:
    numbers = [str(n) for n in stage_entries(event, stage).values_list("number", flat=True)]
    if len(numbers) != 2:
        raise Http404
    return numbers


@login_required
@require_POST
def answer(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    """Records the answer to the next question; the engine refuses one after the decision."""
    event = event_for(request, slug, is_staff)
    the_stage = stage_or_404(event, stage, SuperfinalStage)
    numbers = _winners_in(event, the_stage)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        return _superfinal(request, event, the_stage, form=form, status=400)
    number = form.cleaned_data["number"]
    try:
        result_record(
            event=event, stage=stage, item=question_item(number),
            cells=_answer_cells(the_stage, number, numbers, form), by=request.user,
            idempotency_key=form.cleaned_data["idempotency_key"],
        )  # fmt: skip
    except Refused as refused:
        reason = refused
        if any(r.item == question_item(number) for r in current_results(event, stage)):
            # Another referee's phone answered it first: the page shows the next question.
            reason = Refused(
                _("Question %(n)d is already recorded; the page now asks the next one.")
                % {"n": number}
            )
        refuse_on(form, reason)
        return _superfinal(request, event, the_stage, form=form, status=400)
    return redirect("battles:superfinal", slug=slug, stage=stage)


@login_required
@require_POST
def superfinal_correct(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    """Corrects the last question asked, with a reason, until the stage is final."""
    event = event_for(request, slug, is_staff)
    the_stage = stage_or_404(event, stage, SuperfinalStage)
    numbers = _winners_in(event, the_stage)
    form = AnswerForm(request.POST)
    if form.is_valid():
        seen = get_object_or_404(
            Result, pk=form.cleaned_data.get("result") or 0, event=event, stage=stage, entry=None
        )
        number = form.cleaned_data["number"]
        results = current_results(event, stage)
        if seen.item != question_item(number) or not results or results[-1].item != seen.item:
            form.add_error(None, _("Only the last question asked may be corrected."))
        else:
            try:
                result_correct(
                    result=seen, cells=_answer_cells(the_stage, number, numbers, form),
                    by=request.user, reason=form.cleaned_data.get("reason", ""),
                    idempotency_key=form.cleaned_data["idempotency_key"],
                )  # fmt: skip
            except Refused as refused:
                refuse_on(form, refused)
            else:
                messages.success(request, _("Question %(n)d corrected.") % {"n": number})
                return redirect("battles:superfinal", slug=slug, stage=stage)
    return _superfinal(request, event, the_stage, correction=form, status=400)


urlpatterns = [
    path("", stages, name="stages"),
    path("superfinal/<str:stage>/", superfinal, name="superfinal"),
    path("superfinal/<str:stage>/answer/", answer, name="answer"),
    path("superfinal/<str:stage>/correct/", superfinal_correct, name="superfinal-correct"),
    path("<str:stage>/", index, name="index"),
    path("<str:stage>/record/", record, name="record"),
    path("<str:stage>/correct/<int:result_id>/", correct, name="correct"),
]
