"""The results console's JSON endpoints for the phone: the round's card list once per version,
a batch of taps, and the choice after a conflict. Each costs the same few queries whatever the
stage's size; the page updates itself from the answers (``static/podium/offline.js``).

Vocabulary:
- card list, tap, answer, resolution: see ``podium.web.results.selectors.console`` and
  ``podium.web.results.services.taps``; batch, signed out: see ``podium.web.kernel.taps``.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponseBase, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.kernel import taps as batch
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.stages import round_numbers
from podium.web.live import versions
from podium.web.models import Result
from podium.web.results.selectors.console import card_list
from podium.web.results.services.taps import Tap, conflict_resolve, tap_apply
from podium.web.results.views.console import console_stage, staff_event

MAX_CELLS = 8


def _round(request: HttpRequest, slug: str, stage: str, round: int) -> Any:
    event = staff_event(request, slug)
    the_stage = console_stage(event, stage)
    if round not in round_numbers(event, the_stage):
        raise Http404
    return event, the_stage


def _cells(tap: dict[str, Any], where: int) -> dict[str, str]:
    cells = tap.get("cells") or {}
    if not isinstance(cells, dict) or len(cells) > MAX_CELLS:
        raise batch.BadBatch(
            _("Tap %(n)d: “cells” must be an object of at most %(max)d columns.")
            % {"n": where + 1, "max": MAX_CELLS}
        )
    return {str(k)[:40]: batch.text(cells, str(k), where, 40) for k in cells}


def tap_of(data: dict[str, Any], where: int) -> Tap:
    """One tap of a batch, every field bounded (a refusal names the tap and the field)."""
    return Tap(
        key=batch.text(data, "key", where, 100),
        number=batch.whole(data, "number", where) or 0,
        finish=data.get("finish") is True,
        cells=_cells(data, where),
        at_ms=batch.whole(data, "at_ms", where, required=False),
        offset_ms=batch.whole(data, "offset_ms", where, required=False) or 0,
    )


def cards(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponseBase:
    """The round's card list, once per version (``304`` while it holds)."""
    if not request.user.is_authenticated:
        return batch.signed_out()
    event, the_stage = _round(request, slug, stage, round)  # 404 to anyone else, any method
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET"])
    tag = versions.stage_tag(event.slug, the_stage)
    return batch.versioned(request, tag, round, "cards", lambda: card_list(event, the_stage, round))


@require_POST
def taps(request: HttpRequest, slug: str, stage: str, round: int) -> JsonResponse:
    """A batch of taps, answered one by one in the order tapped."""
    if not request.user.is_authenticated:
        return batch.signed_out()
    event, _stage = _round(request, slug, stage, round)
    try:
        sent = [tap_of(data, where) for where, data in enumerate(batch.batch_of(request))]
    except batch.BadBatch as problem:
        return batch.bad(str(problem))
    answers = [
        tap_apply(event=event, stage=stage, round=round, tap=tap, by=request.user).as_json()
        for tap in sent
    ]
    return batch.answered(answers)


@require_POST
def resolve(request: HttpRequest, slug: str, stage: str, round: int) -> JsonResponse:
    """The referee's choice after a conflict: ``{"result", "keep", "cells", "key"}``."""
    if not request.user.is_authenticated:
        return batch.signed_out()
    event, _stage = _round(request, slug, stage, round)
    try:
        data = batch.batch_of(request)
        if len(data) != 1:
            raise batch.BadBatch(_("A choice is one tap."))
        chosen = tap_of(data[0], 0)
        keep = batch.text(data[0], "keep", 0, 10)
        seen = batch.whole(data[0], "result", 0) or 0
    except batch.BadBatch as problem:
        return batch.bad(str(problem))
    result = get_object_or_404(Result, pk=seen, event=event, stage=stage, round=round)
    try:
        kept = conflict_resolve(
            event=event, stage=stage, round=round, result=result, keep=keep,
            cells=chosen.cells, by=request.user, idempotency_key=chosen.key,
        )  # fmt: skip
    except Refused as refusal:
        answer = {"key": chosen.key, "status": "refused", "message": refusal_text(refusal)}
        return batch.answered([answer])
    answer = {"key": chosen.key, "status": "stored", "cells": kept.cells, "result": kept.pk}
    return batch.answered([answer])


urlpatterns = [
    path("<str:stage>/<int:round>/cards.json", cards, name="cards"),
    path("<str:stage>/<int:round>/taps/", taps, name="taps"),
    path("<str:stage>/<int:round>/resolve/", resolve, name="resolve"),
]
