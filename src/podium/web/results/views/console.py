"""What every page of the referee console shares: the event and stage it works on, the page
itself with its cards and forms, and showing a refused form again.

Vocabulary:
- card, phase, my tables: see ``podium.web.results.selectors.console``.
- bound form: the form a referee just sent and the service refused; the console shows it again
  on its card with the refusal on the field it concerns (status 400).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from podium.rules.schema.stages import Stage
from podium.web.kernel.keyed import KeyedForm
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_head_referee, is_staff
from podium.web.kernel.stages import has_calendar, round_numbers
from podium.web.kernel.taps import phone_texts, server_ms
from podium.web.kernel.text import search_text
from podium.web.models import Entry, Event, Result
from podium.web.results.forms import (
    ChoiceOfTables,
    ClockForm,
    FinishForm,
    MissingForm,
    PiecesForm,
    ResultForm,
    StepForm,
)
from podium.web.results.selectors.clock import clock_groups, limit_ms, stage_clocks
from podium.web.results.selectors.console import PAGE, Choice, cards, parse_numbers
from podium.web.results.selectors.rows import ENTRY_FORMATS


def staff_event(request: HttpRequest, slug: str) -> Event:
    return event_for(request, slug, is_staff)


def console_stage(event: Event, key: str) -> Stage:
    stage = stage_or_404(event, key)
    if stage.format not in ENTRY_FORMATS:
        raise Http404
    return stage


def prefix_of(entry: Entry) -> str:
    return f"e{entry.pk}"


def back(request: HttpRequest, slug: str, stage: str, round: int, entry: Entry | None) -> str:
    url = reverse("results:round", kwargs={"slug": slug, "stage": stage, "round": round})
    kept = {k: request.POST[k] for k in ("q", "group", "show", "order") if request.POST.get(k)}
    if kept:
        url += "?" + urlencode(kept)
    return url + (f"#entry-{entry.number}" if entry else "")


def _card_forms(stage: Stage, card: Any, bound: dict[str, Any]) -> dict[str, Any]:
    """The forms of one card (a bound one where the referee's last submission was refused)."""
    entry = card.entry
    prefix = prefix_of(entry)
    mine = bound.get("entry") == entry.pk
    forms: dict[str, Any] = {
        "result": bound["form"]
        if mine and isinstance(bound.get("form"), ResultForm)
        else ResultForm(stage, current=card.current, prefix=prefix)
    }
    kinds: tuple[tuple[str, type[KeyedForm]], ...] = (
        ("finish", FinishForm),
        ("missing", MissingForm),
        ("pieces", PiecesForm),
        ("step", StepForm),
    )
    for name, kind in kinds:
        form = bound.get("form")
        forms[name] = form if mine and isinstance(form, kind) else kind(prefix=f"{prefix}-{name}")
    return forms


def render_console(
    request: HttpRequest,
    event: Event,
    stage: Stage,
    round: int,
    *,
    bound: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    bound = bound or {}
    source = request.POST if bound else request.GET
    query = search_text(source.get("q", ""))
    tables = request.session.get(f"tables:{event.pk}", "")
    group = source.get("group", "")
    choice = Choice(
        query=query,
        mine=frozenset(parse_numbers(tables) or ()),
        group=group if group in stage.groups else "",
        open_only=source.get("show") == "open",
        order="table" if source.get("order") == "table" else "number",
    )
    head = is_head_referee(request.user, event)
    shown = cards(event, stage, round, choice)
    items = []
    for card in shown[:PAGE]:
        recorded_by_me = card.current is not None and card.current.recorded_by_id == request.user.pk
        items.append(
            {
                "card": card,
                "forms": _card_forms(stage, card, bound),
                "may_confirm": head
                and stage.recording.verification == "head-referee"
                and card.current is not None
                and card.verification is None
                and not recorded_by_me,
                "locked": card.agreement is not None and stage.recording.agreed_is_final,
            }
        )
    context = {
        "event": event,
        "stage": stage,
        "round": round,
        "rounds": round_numbers(event, stage) if has_calendar(stage) else [],
        "query": query,
        "choice": choice,
        "more": len(shown) > PAGE,
        "page": PAGE,
        "tables": tables,
        "tables_form": ChoiceOfTables(initial={"tables": tables}),
        "items": items,
        "clocks": stage_clocks(event, stage, round) if limit_ms(stage) is not None else [],
        "groups": clock_groups(stage),
        "clock_form": ClockForm(),
        "head": head,
        "timed": limit_ms(stage) is not None,
        "counting": getattr(stage, "piece_counting", None),
        "compensation": getattr(stage, "compensation", None) is not None,
        "team": stage.format == "team-solve",
        "phone_texts": phone_texts(),
        "server_now": server_ms(),
    }
    return render(request, "podium/results/console.html", context, status=status)


def refused(
    request: HttpRequest,
    event: Event,
    stage: Stage,
    round: int,
    entry: Entry,
    form: Any,
    refusal: Refused | None = None,
) -> HttpResponse:
    """The console again with the refused form bound, its message on the field it concerns."""
    if refusal is not None:
        field = refusal.field if refusal.field in form.fields else None
        form.add_error(field, refusal_text(refusal))
    bound = {"entry": entry.pk, "form": form}
    return render_console(request, event, stage, round, bound=bound, status=400)


def entry_of(event: Event, entry_id: int) -> Entry:
    return get_object_or_404(event.entries, pk=entry_id)


def result_of(event: Event, stage: str, round: int, result_id: int) -> Result:
    return get_object_or_404(
        Result.objects.select_related("entry"), pk=result_id, event=event, stage=stage, round=round
    )
