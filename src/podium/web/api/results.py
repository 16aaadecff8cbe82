"""API writes: results recorded by a scoring machine or a referee's program with the event's
API token — the same services, so the same validation, as the referee console.

Vocabulary:
- API token, bearer token: see ``podium.web.models.tokens`` and ``podium.web.api.auth``; a
  write acts as the token's user and notes the token's name in the result's ``detail``.
- record: the first result of an entry in a round, or its next step when one is recorded —
  the request's columns fill in what is still empty (a bowling machine sends block 1, then
  block 2); changing a recorded value is a correction, with a reason.
- rolls: a bowling game as the scoresheet gives it; the ten-pin scorer judges it, its total is
  stored in the game's column and the rolls in ``detail.rolls`` (as the frames page does).
- idempotency key: the ``Idempotency-Key`` header, one per submission; sending it again returns
  what was stored the first time (200 instead of 201), a different submission under a key
  already used is a conflict (409).
"""

from __future__ import annotations

from typing import Any

from django.db.models import prefetch_related_objects
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Header, Path, Query, Router, Status

from podium.engine.errors import InputError
from podium.engine.scoresheet import marks_of
from podium.engine.tenpin import score_tokens
from podium.rules.schema.stages import GamesStage, HeadToHeadStage, Stage
from podium.web.api.auth import BearerToken
from podium.web.api.common import (
    MAX_ROUND,
    WRITE_ERRORS,
    Paging,
    page,
    write_event,
)
from podium.web.api.errors import KEY_HEADER, ApiError, invalid, refused_error
from podium.web.api.schemas import (
    BattleIn,
    CorrectionIn,
    FinishIn,
    GameRolls,
    ResultIn,
    ResultOut,
    ResultPage,
)
from podium.web.kernel.lookup import round_or_404, stage_or_404
from podium.web.kernel.refusals import Refused
from podium.web.kernel.stages import stage_entries
from podium.web.kernel.texts import problem_text
from podium.web.models import ApiToken, Entry, Event, Result, Verification
from podium.web.results.selectors.rows import battle_item, current_of, current_results, of_round
from podium.web.results.services.clock import result_finish
from podium.web.results.services.results import (
    MAX_KEY,
    result_correct,
    result_progress,
    result_record,
)

router = Router(auth=BearerToken(), tags=["write"])

RoundNumber = Path(..., ge=1, le=MAX_ROUND)
KeyHeader = Header(
    ...,
    alias=KEY_HEADER,
    min_length=1,
    max_length=MAX_KEY,
    description="one per submission: the same key again returns what was stored",
)
SAVED = {200: ResultOut, 201: ResultOut, **WRITE_ERRORS}


# --- What every write shares -------------------------------------------------------------------


def result_out(result: Result, event: Event, verified: bool | None = None) -> dict[str, Any]:
    if verified is None:
        verified = Verification.objects.filter(result=result).exists()
    return {
        "id": result.pk,
        "stage": result.stage,
        "round": result.round,
        "entry": result.entry.number if result.entry_id else None,
        "item": result.item,
        "kind": result.kind,
        "cells": result.cells,
        "detail": result.detail,
        "recorded_at": result.recorded_at.astimezone(event.zone),  # ISO 8601 with its offset
        "recorded_by": result.recorded_by.get_username() if result.recorded_by else None,
        "corrects": result.corrects_id,
        "reason": result.reason,
        "verified": verified,
    }


def _saved(result: Result, event: Event, now: Any, resubmitted: bool) -> Status:
    """201 for what this request stored, 200 for what an earlier one with its key stored (also
    when two requests with one key crossed: the later one finds the first's result). A result
    this request stored nobody can have verified yet."""
    stored = not resubmitted and result.recorded_at == now
    return Status(
        201 if stored else 200, result_out(result, event, verified=False if stored else None)
    )


def _key(header: str) -> str:
    key = header.strip()
    if not key:
        raise invalid(KEY_HEADER, _("Send a key of 1 to %(max)d characters.") % {"max": MAX_KEY})
    return key


def _conflict() -> ApiError:
    message = _("This submission key was already used for a different result.")
    return ApiError(409, "idempotency-conflict", message, fields={KEY_HEADER: message})


def _earlier(event: Event, key: str) -> Result | None:
    return (
        Result.objects.filter(event=event, idempotency_key=key)
        .select_related("corrects", "entry")
        .first()
    )


def _entry(event: Event, number: int, field: str = "entry") -> Entry:
    entry = Entry.objects.filter(event=event, number=number).first()
    if entry is None:
        raise invalid(field, _("This event has no entry #%(number)d.") % {"number": number})
    return entry


def _first(event: Event, stage: str, round: int, entry: Entry | None, item: str) -> Result | None:
    return Result.objects.filter(
        event=event, stage=stage, round=round, entry=entry, item=item, corrects__isnull=True
    ).first()


def _text(cells: dict[str, Any]) -> dict[str, str]:
    return {str(c): "" if v is None else str(v).strip() for c, v in cells.items()}


def _games(payload: ResultIn | CorrectionIn) -> list[tuple[str, GameRolls]]:
    """The games sent as rolls, each with the request field that names it."""
    games = [(f"games.{i}.rolls", g) for i, g in enumerate(payload.games)]
    if payload.game is not None or payload.rolls is not None:
        if payload.game is None or not (payload.rolls or "").strip():
            field = "game" if payload.game is None else "rolls"
            raise invalid(field, _("Send the game's number and its rolls together."))
        games.insert(0, ("rolls", GameRolls(game=payload.game, rolls=payload.rolls)))
    return games


def _rolled(
    stage: Stage, payload: ResultIn | CorrectionIn
) -> tuple[dict[str, str], dict[str, str]]:
    """The game totals and the rolls of the games sent as rolls (bowling only)."""
    games = _games(payload)
    if not games:
        return {}, {}
    if not isinstance(stage, GamesStage):
        raise invalid(games[0][0], _("Rolls are recorded in a bowling stage only."))
    totals: dict[str, str] = {}
    rolls: dict[str, str] = {}
    for field, sent in games:
        column = f"g{sent.game}"
        if sent.game > stage.games:
            raise invalid(
                field, _("%(stage)s has %(n)d games.") % {"stage": stage.title, "n": stage.games}
            )
        if column in totals:
            raise invalid(field, _("Game %(n)d is sent twice.") % {"n": sent.game})
        marks = marks_of(sent.rolls)
        try:
            game = score_tokens(marks)
        except InputError as exc:
            problem = "; ".join(problem_text(p) for p in exc.problems)
            message = _("Game %(n)d: %(problem)s") % {"n": sent.game, "problem": problem}
            raise ApiError(422, "refused", message, fields={field: message}) from None
        totals[column] = str(game.total)
        rolls[column] = " ".join(m.strip().upper() for m in marks)
    return totals, rolls


def _with_totals(cells: dict[str, str], totals: dict[str, str]) -> dict[str, str]:
    for column, total in totals.items():
        if cells.get(column) and cells[column] != total:
            raise invalid(
                f"cells.{column}",
                _("The rolls of %(column)s make %(total)s, not %(value)s.")
                % {"column": column, "total": total, "value": cells[column]},
            )
    return {**cells, **totals}


def _detail(base: dict[str, Any], rolls: dict[str, str], token: ApiToken) -> dict[str, Any]:
    detail = {**base, "api_token": token.name}
    if rolls:
        detail["rolls"] = {**(base.get("rolls") or {}), **rolls}
    return detail


def _named(refused: Refused, base: Result, cells: dict[str, str]) -> ApiError:
    """A refused next step, with the recorded columns it would change named as its fields."""
    error = refused_error(refused)
    changed = [c for c, v in cells.items() if base.cells.get(c) and v != base.cells[c]]
    if refused.field is None and changed:
        error.fields = dict.fromkeys(changed, refused.message)
    return error


def _path(event: Event, stage: str, round: int) -> Stage:
    the_stage = stage_or_404(event, stage)
    round_or_404(event, the_stage, round)
    return the_stage


# --- Operations --------------------------------------------------------------------------------


@router.post(
    "/events/{slug}/stages/{stage}/rounds/{round}/results", response=SAVED,
    operation_id="result_record",
    summary="Record an entry's result, or its next step (fills in the empty columns)",
)  # fmt: skip
def record(
    request: HttpRequest,
    slug: str,
    stage: str,
    payload: ResultIn,
    round: int = RoundNumber,
    idempotency_key: str = KeyHeader,
) -> Any:
    event, token = write_event(request, slug)
    the_stage = _path(event, stage, round)
    key, now = _key(idempotency_key), timezone.now()
    entry = _entry(event, payload.entry)
    totals, rolls = _rolled(the_stage, payload)
    cells = _with_totals(_text(payload.cells), totals)
    earlier = _earlier(event, key)
    if earlier is not None:
        same = (earlier.entry_id, earlier.stage, earlier.round) == (entry.pk, stage, round)
        if not same or earlier.kind == Result.Kind.CORRECTION:
            raise _conflict()
        base = earlier.corrects  # the services compare the resubmission with what was stored
    else:
        first = _first(event, stage, round, entry, "")
        base = current_of(first) if first is not None else None
    if base is None:
        done = result_record(
            event=event, stage=stage, entry=entry, round=round, cells=cells, by=token.user,
            idempotency_key=key, detail=_detail({}, rolls, token), now=now,
        )  # fmt: skip
    else:
        try:
            done = result_progress(
                result=base, cells={**base.cells, **cells}, by=token.user, idempotency_key=key,
                detail=_detail(base.detail, rolls, token), now=now,
            )  # fmt: skip
        except Refused as refused:
            raise _named(refused, base, cells) from None
    return _saved(done, event, now, earlier is not None)


def _corrected(
    event: Event,
    stage: str,
    round: int,
    entry: Entry | None,
    item: str,
    key: str,
    payload: CorrectionIn,
) -> Result:
    """The result a correction replaces: the one its key corrected before (a resubmission),
    the one the client saw (``replaces``), or else the subject's current result."""
    earlier = _earlier(event, key)
    if earlier is not None:
        subject = (earlier.entry_id, earlier.item, earlier.stage, earlier.round)
        mine = (entry.pk if entry else None, item, stage, round)
        if earlier.kind != Result.Kind.CORRECTION or earlier.corrects is None or subject != mine:
            raise _conflict()
        return earlier.corrects
    name = f"#{entry.number}" if entry is not None else item
    if payload.replaces is not None:
        seen = Result.objects.filter(
            pk=payload.replaces, event=event, stage=stage, round=round, entry=entry, item=item
        ).first()
        if seen is None:
            raise invalid("replaces", _("This is not a result of %(name)s.") % {"name": name})
        return seen
    first = _first(event, stage, round, entry, item)
    if first is None:
        raise invalid(
            "entry" if entry is not None else "item",
            _("%(name)s: nothing is recorded yet, so there is nothing to correct.")
            % {"name": name},
        )
    return current_of(first)


@router.post(
    "/events/{slug}/stages/{stage}/rounds/{round}/corrections", response=SAVED,
    operation_id="result_correct",
    summary="Correct the current result of an entry or an item (a battle), with a reason",
)  # fmt: skip
def correct(
    request: HttpRequest,
    slug: str,
    stage: str,
    payload: CorrectionIn,
    round: int = RoundNumber,
    idempotency_key: str = KeyHeader,
) -> Any:
    event, token = write_event(request, slug)
    the_stage = _path(event, stage, round)
    key, now = _key(idempotency_key), timezone.now()
    if (payload.entry is None) == (payload.item is None):
        raise invalid(
            "entry", _("Name either the entry or the item (a battle b1-3-7, a question q5).")
        )
    entry = _entry(event, payload.entry) if payload.entry is not None else None
    resubmitted = _earlier(event, key) is not None
    seen = _corrected(event, stage, round, entry, (payload.item or "").strip(), key, payload)
    totals, rolls = _rolled(the_stage, payload)
    cells = {**seen.cells, **_with_totals(_text(payload.cells), totals)}
    # Rolls stay only for the games whose value did not change (as the lane sheet does).
    kept = {
        c: r
        for c, r in (seen.detail.get("rolls") or {}).items()
        if cells.get(c) == seen.cells.get(c)
    }
    base = {**seen.detail, "rolls": kept} if "rolls" in seen.detail else dict(seen.detail)
    done = result_correct(
        result=seen, cells=cells, by=token.user, reason=payload.reason, idempotency_key=key,
        detail=_detail(base, rolls, token), now=now,
    )  # fmt: skip
    return _saved(done, event, now, resubmitted)


@router.post(
    "/events/{slug}/stages/{stage}/rounds/{round}/finishes", response=SAVED,
    operation_id="result_finish",
    summary="One tap “finished”: the entrant's time read off the round's clock now",
)  # fmt: skip
def finish(
    request: HttpRequest,
    slug: str,
    stage: str,
    payload: FinishIn,
    round: int = RoundNumber,
    idempotency_key: str = KeyHeader,
) -> Any:
    event, token = write_event(request, slug)
    _path(event, stage, round)
    key, now = _key(idempotency_key), timezone.now()
    entry = _entry(event, payload.entry)
    resubmitted = _earlier(event, key) is not None
    done = result_finish(
        event=event, stage=stage, entry=entry, by=token.user, idempotency_key=key, round=round,
        missing=payload.missing.strip(), compensation=payload.compensation.strip(),
        compensation_reason=payload.compensation_reason.strip(), now=now,
    )  # fmt: skip
    return _saved(done, event, now, resubmitted)


@router.post(
    "/events/{slug}/stages/{stage}/rounds/{round}/battles", response=SAVED,
    operation_id="battle_record", summary="Record a Brainball battle of the league",
)  # fmt: skip
def battle(
    request: HttpRequest,
    slug: str,
    stage: str,
    payload: BattleIn,
    round: int = RoundNumber,
    idempotency_key: str = KeyHeader,
) -> Any:
    event, token = write_event(request, slug)
    the_stage = _path(event, stage, round)
    key, now = _key(idempotency_key), timezone.now()
    if not isinstance(the_stage, HeadToHeadStage):
        raise invalid("stage", _("%(stage)s has no battles.") % {"stage": the_stage.title})
    if payload.round > the_stage.rounds:
        raise invalid(
            "round",
            _("The league has %(n)d rounds.") % {"n": the_stage.rounds},
        )
    listed = set(stage_entries(event, the_stage).values_list("number", flat=True))
    for field in ("team1", "team2"):
        number = getattr(payload, field)
        if number not in listed:
            raise invalid(
                field,
                _("#%(number)d is not in the entry list of %(stage)s.")
                % {"number": number, "stage": the_stage.title},
            )
    item = battle_item(payload.round, payload.team1, payload.team2)
    resubmitted = _earlier(event, key) is not None
    if not resubmitted and _first(event, stage, round, None, item) is not None:
        raise invalid(
            "team2",
            _("#%(a)d and #%(b)d already met in round %(round)d: correct battle %(item)s instead.")
            % {"a": payload.team1, "b": payload.team2, "round": payload.round, "item": item},
        )
    cells = {
        "round": str(payload.round),
        "team1": str(payload.team1),
        "team2": str(payload.team2),
        "score1": str(payload.score1).strip(),
        "score2": str(payload.score2).strip(),
    }
    done = result_record(
        event=event, stage=stage, item=item, round=round, cells=cells, by=token.user,
        idempotency_key=key, detail=_detail({}, {}, token), now=now,
    )  # fmt: skip
    return _saved(done, event, now, resubmitted)


@router.get(
    "/events/{slug}/stages/{stage}/rounds/{round}/results",
    response={200: ResultPage, **WRITE_ERRORS}, operation_id="results_list",
    summary="The current results of a round (token holders), paged",
)  # fmt: skip
def results_list(
    request: HttpRequest, slug: str, stage: str, paging: Query[Paging], round: int = RoundNumber
) -> Any:
    event, _token = write_event(request, slug)
    _path(event, stage, round)
    results = current_results(event, stage, round)
    checked = set(
        Verification.objects.filter(**of_round(event, stage, round)).values_list(
            "result_id", flat=True
        )
    )
    count, items = page(results, paging)
    prefetch_related_objects(items, "recorded_by")  # each names who recorded it
    return {
        "count": count,
        "limit": paging.limit,
        "offset": paging.offset,
        "items": [result_out(r, event, r.pk in checked) for r in items],
    }
