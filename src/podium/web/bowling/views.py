"""The bowling desk: a squad's printable lane sheet with its players' games, game totals entered
block by block, corrections with a reason, and one game entered frame by frame.

Only the organizers and referees of the event; anyone else gets 404.

Vocabulary:
- squad, block, lane place, next block: see ``podium.web.bowling.selectors``.
- lane sheet: per player of a squad, where they bowl each block (the squad's lanes draw, the
  American system), the games recorded so far, the total, whether it is verified, and the
  forms to enter the next block or correct the games.
- frames page: the rolls of one game typed by the referee; the ten-pin scorer
  (``podium.engine.tenpin``) judges every roll, the page shows the running total per frame, and
  saving stores the game's total in its ``g…`` cell and the rolls in the result's ``detail``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.engine.errors import InputError
from podium.engine.scoresheet import Sheet, marks_of, read_sheet
from podium.engine.tenpin import FRAMES, score_tokens
from podium.rules.schema.stages import GamesStage
from podium.web.bowling.forms import BlockForm, CorrectionForm, FramesForm
from podium.web.bowling.selectors import (
    blocks_of,
    lane_places,
    next_block,
    squad_results,
    stage_of_squad,
)
from podium.web.draws.selectors import entry_names, lane_sheet, lanes_draw, lanes_draws
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.refusals import Refused, refuse_on
from podium.web.kernel.roles import is_staff
from podium.web.kernel.stages import games_stages
from podium.web.kernel.texts import problem_text
from podium.web.models import Entry, Event, Result, Squad
from podium.web.registration.selectors.entries import roster, squad_players
from podium.web.results.selectors.rows import current_results, total_of
from podium.web.results.services.results import result_correct, result_progress, result_record

app_name = "bowling"


def _columns(stage: GamesStage) -> tuple[str, ...]:
    return tuple(f"g{n}" for n in range(1, stage.games + 1))


def _problems(exc: InputError) -> str:
    return "; ".join(problem_text(p) for p in exc.problems)


def _seen(request_result: int | None, entry: Entry, stage: GamesStage) -> Result | None:
    """The result the referee saw when the form was rendered (``None``: there was none)."""
    if not request_result:
        return None
    return get_object_or_404(
        Result, pk=request_result, event=entry.event, entry=entry, stage=stage.key
    )


def _sheet_url(event: Event, entry: Entry) -> str:
    if entry.squad_id is None:
        raise Http404
    url = reverse("bowling:lanes", kwargs={"slug": event.slug, "squad_id": entry.squad_id})
    return f"{url}#player-{entry.number}"


def _player_cards(
    event: Event,
    stage: GamesStage,
    players: list[Entry],
    places: dict[int, list[Any]],
    bound: tuple[int, str, Any] | None,
) -> list[dict[str, Any]]:
    results, checks = squad_results(event, stage, players)
    columns = _columns(stage)
    cards = []
    for player in players:
        current = results.get(player.pk)
        cells = current.cells if current else {}
        block = next_block(stage, cells)
        block_form = correct_form = None
        if block is not None:
            block_form = BlockForm(
                block,
                current=current,
                prefix=f"e{player.pk}",
                initial={c: cells.get(c, "") for c in block.columns},
            )
        if current is not None:
            correct_form = CorrectionForm(columns, current=current, prefix=f"c{player.pk}")
        if bound is not None and bound[0] == player.pk:
            if bound[1] == "block":
                block_form, block = bound[2], bound[2].block
            else:
                correct_form = bound[2]
        rolls = (current.detail.get("rolls", {}) if current else {}) or {}
        cards.append(
            {
                "entry": player,
                "current": current,
                "places": places.get(player.pk, []),
                "games": [
                    {
                        "column": c,
                        "number": int(c[1:]),
                        "value": cells.get(c, ""),
                        "rolls": rolls.get(c, ""),
                    }
                    for c in columns
                ],
                "total": total_of({c: cells.get(c, "") for c in columns}),
                "verification": checks.get(current.pk) if current else None,
                "block": block,
                "block_form": block_form,
                "correct_form": correct_form,
            }
        )
    return cards


def _lane_sheet(
    request: HttpRequest,
    event: Event,
    squad: Squad,
    *,
    bound: tuple[int, str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    draw = lanes_draw(event, squad)
    stage = stage_of_squad(event, draw)
    if stage is None:
        raise Http404
    players = list(squad_players(event, squad, stage).prefetch_related(roster()))
    cards = _player_cards(event, stage, players, lane_places(draw), bound)
    divisions = event.rulebook.divisions
    titles = {d.key: d.title for d in divisions.items} if divisions else {}
    for card in cards:
        card["division"] = titles.get(card["entry"].division, "")
    context = {
        "event": event,
        "squad": squad,
        "stage": stage,
        "draw": draw,
        "blocks": lane_sheet(draw, entry_names(event)) if draw else [],
        "cards": cards,
    }
    return render(request, "podium/bowling/lanes.html", context, status=status)


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    draws = lanes_draws(event)
    confirmed = Count("entry", filter=Q(entry__status=Entry.Status.CONFIRMED))
    made = Squad.objects.filter(event=event).annotate(players=confirmed).order_by("starts_at", "id")
    squads = [{"squad": q, "players": q.players, "draw": draws.get(q.pk)} for q in made]
    return render(
        request,
        "podium/bowling/index.html",
        {"event": event, "squads": squads, "stages": games_stages(event.rulebook)},
    )


@login_required
def lanes(request: HttpRequest, slug: str, squad_id: int) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    squad = get_object_or_404(Squad, event=event, pk=squad_id)
    return _lane_sheet(request, event, squad)


@login_required
@require_POST
def block(request: HttpRequest, slug: str, stage: str, entry_id: int, number: int) -> HttpResponse:
    """Records a block of game totals: the first result, or the next step of the current one."""
    event = event_for(request, slug, is_staff)
    the_stage = stage_or_404(event, stage, GamesStage)
    entry = get_object_or_404(Entry.objects.select_related("squad"), event=event, pk=entry_id)
    blocks = blocks_of(the_stage)
    if not 1 <= number <= len(blocks) or entry.squad is None:
        raise Http404
    the_block = blocks[number - 1]
    form = BlockForm(the_block, request.POST, prefix=f"e{entry.pk}")
    if form.is_valid():
        seen = _seen(form.cleaned_data.get("result"), entry, the_stage)
        key = form.cleaned_data["idempotency_key"]
        try:
            if seen is None:
                done = result_record(
                    event=event, stage=stage, entry=entry, cells=form.games(), by=request.user,
                    idempotency_key=key,
                )  # fmt: skip
            else:
                done = result_progress(
                    result=seen, cells={**seen.cells, **form.games()}, by=request.user,
                    idempotency_key=key,
                )  # fmt: skip
        except Refused as refused:
            refuse_on(form, refused)
        else:
            games = ", ".join(f"{c} {done.cells[c]}" for c in the_block.columns)
            messages.success(
                request,
                _("#%(number)d %(name)s: block %(block)d recorded (%(games)s); total %(total)s.")
                % {
                    "number": entry.number,
                    "name": entry.name,
                    "block": number,
                    "games": games,
                    "total": total_of(done.cells),
                },
            )
            return redirect(_sheet_url(event, entry))
    return _lane_sheet(request, event, entry.squad, bound=(entry.pk, "block", form), status=400)


@login_required
@require_POST
def correct(request: HttpRequest, slug: str, stage: str, entry_id: int) -> HttpResponse:
    """Corrects a player's games, with a reason; rolls kept only for the games left unchanged."""
    event = event_for(request, slug, is_staff)
    the_stage = stage_or_404(event, stage, GamesStage)
    entry = get_object_or_404(Entry.objects.select_related("squad"), event=event, pk=entry_id)
    if entry.squad is None:
        raise Http404
    form = CorrectionForm(_columns(the_stage), request.POST, prefix=f"c{entry.pk}")
    if form.is_valid():
        seen = _seen(form.cleaned_data.get("result"), entry, the_stage)
        if seen is None:
            form.add_error(None, _("There is nothing recorded to correct yet."))
        else:
            games = form.games()
            rolls = {
                c: r
                for c, r in (seen.detail.get("rolls") or {}).items()
                if games.get(c) == seen.cells.get(c)
            }
            try:
                done = result_correct(
                    result=seen, cells=games, by=request.user,
                    reason=form.cleaned_data.get("reason", ""),
                    idempotency_key=form.cleaned_data["idempotency_key"],
                    detail={**seen.detail, "rolls": rolls},
                )  # fmt: skip
            except Refused as refused:
                refuse_on(form, refused)
            else:
                messages.success(
                    request,
                    _("#%(number)d %(name)s corrected: total %(total)s.")
                    % {"number": entry.number, "name": entry.name, "total": total_of(done.cells)},
                )
                return redirect(_sheet_url(event, entry))
    return _lane_sheet(request, event, entry.squad, bound=(entry.pk, "correct", form), status=400)


def _frame_lanes(entry: Entry, event: Event, stage: GamesStage, game: int) -> list[int | None]:
    """The lane of each frame of the game (American system), if the squad's lanes are drawn."""
    if entry.squad is None:
        return [None] * FRAMES
    number = next(b.number for b in blocks_of(stage) if game in b.games)
    places = lane_places(lanes_draw(event, entry.squad)).get(entry.pk, [])
    place = next((p for p in places if p.block == number), None)
    if place is None:
        return [None] * FRAMES
    return [place.start if f % 2 else place.other for f in range(1, FRAMES + 1)]


def _boxes(sheet: Sheet | None, lanes: list[int | None]) -> list[dict[str, Any]]:
    frames = {f.number: f for f in sheet.frames} if sheet else {}
    boxes = []
    for number in range(1, FRAMES + 1):
        frame = frames.get(number)
        boxes.append(
            {
                "number": number,
                "lane": lanes[number - 1],
                "marks": frame.marks if frame else (),
                "total": frame.total if frame else None,
            }
        )
    return boxes


@login_required
def frames(request: HttpRequest, slug: str, stage: str, entry_id: int, game: int) -> HttpResponse:
    """One game frame by frame: check the rolls (the running totals), then save the total."""
    event = event_for(request, slug, is_staff)
    the_stage = stage_or_404(event, stage, GamesStage)
    entry = get_object_or_404(Entry.objects.select_related("squad"), event=event, pk=entry_id)
    if not 1 <= game <= the_stage.games:
        raise Http404
    column = f"g{game}"
    current = next((r for r in current_results(event, stage) if r.entry_id == entry.pk), None)
    stored = ((current.detail.get("rolls") or {}).get(column, "") if current else "") or ""
    sheet: Sheet | None = None
    status = 200
    if request.method == "POST":
        form = FramesForm(request.POST, current=current)
        if form.is_valid():
            marks = marks_of(form.cleaned_data.get("rolls") or "")
            try:
                sheet = read_sheet(marks)
            except InputError as exc:
                form.add_error("rolls", _problems(exc))
            if sheet is not None and request.POST.get("action") == "save":
                saved = _save(request, event, the_stage, entry, column, form, marks)
                if saved is not None:
                    return saved
            if form.errors:
                status = 400
    else:
        form = FramesForm(current=current, initial={"rolls": stored})
        if stored:
            try:
                sheet = read_sheet(marks_of(stored))
            except InputError:
                sheet = None
    value = current.cells.get(column, "") if current else ""
    context = {
        "event": event,
        "stage": the_stage,
        "entry": entry,
        "game": game,
        "column": column,
        "value": value,
        "current": current,
        "form": form,
        "sheet": sheet,
        "boxes": _boxes(sheet, _frame_lanes(entry, event, the_stage, game)),
        "games": range(1, the_stage.games + 1),
        "sheet_url": _sheet_url(event, entry) if entry.squad_id else None,
    }
    return render(request, "podium/bowling/frames.html", context, status=status)


def _save(
    request: HttpRequest,
    event: Event,
    stage: GamesStage,
    entry: Entry,
    column: str,
    form: FramesForm,
    marks: list[str],
) -> HttpResponse | None:
    """Stores the game's total (record, next step, or correction if it had a value)."""
    try:
        game = score_tokens(marks)  # refuses an unfinished game, naming the roll it waits for
    except InputError as exc:
        form.add_error("rolls", _problems(exc))
        return None
    seen = _seen(form.cleaned_data.get("result"), entry, stage)
    text = " ".join(m.strip().upper() for m in marks)
    detail = dict(seen.detail) if seen else {}
    detail["rolls"] = {**(detail.get("rolls") or {}), column: text}
    key = form.cleaned_data["idempotency_key"]
    try:
        if seen is None:
            done = result_record(
                event=event, stage=stage.key, entry=entry, cells={column: str(game.total)},
                by=request.user, idempotency_key=key, detail=detail,
            )  # fmt: skip
        elif not seen.cells.get(column):
            done = result_progress(
                result=seen, cells={**seen.cells, column: str(game.total)}, by=request.user,
                idempotency_key=key, detail=detail,
            )  # fmt: skip
        else:
            done = result_correct(
                result=seen, cells={**seen.cells, column: str(game.total)}, by=request.user,
                reason=form.cleaned_data.get("reason", ""), idempotency_key=key, detail=detail,
            )  # fmt: skip
    except Refused as refused:
        refuse_on(form, refused)
        return None
    messages.success(
        request,
        _("#%(number)d %(name)s: game %(game)s saved: %(score)s (%(rolls)s).")
        % {
            "number": entry.number,
            "name": entry.name,
            "game": column[1:],
            "score": done.cells[column],
            "rolls": text,
        },
    )
    if entry.squad_id is not None:
        return redirect(_sheet_url(event, entry))
    game_number = int(column[1:])
    return redirect(
        "bowling:frames", slug=event.slug, stage=stage.key, entry_id=entry.pk, game=game_number
    )


urlpatterns = [
    path("", index, name="index"),
    path("squads/<int:squad_id>/", lanes, name="lanes"),
    path("<str:stage>/<int:entry_id>/block/<int:number>/", block, name="block"),
    path("<str:stage>/<int:entry_id>/correct/", correct, name="correct"),
    path("<str:stage>/<int:entry_id>/game/<int:game>/", frames, name="frames"),
]
