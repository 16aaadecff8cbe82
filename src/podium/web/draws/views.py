"""Draws pages: the organizer makes draws; anyone reads them, their seeds, and re-runs them.

Vocabulary: see ``podium.web.draws.services``. Organizer pages answer 404 to everyone who is not
an organizer of the event, so they do not even reveal that the page exists.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from podium.web.draws.selectors import (
    current_draws,
    draw_rows,
    entry_names,
    event_draws,
    lane_sheet,
    lanes_draw,
    organized_event,
)
from podium.web.draws.services import SEED_MAX, draw_make, draw_rerun, parse_lane_pairs
from podium.web.kernel.lookup import public_events
from podium.web.kernel.refusals import Refused
from podium.web.kernel.text import TextForm
from podium.web.kernel.texts import rt
from podium.web.models import Draw, Event, Squad

app_name = "draws"

KIND_CHOICES = [
    ("groups", gettext_lazy("qualification groups")),
    ("tables", gettext_lazy("numbered tables")),
    ("lanes", gettext_lazy("lane pairs and American-system schedule")),
    ("tour-hosts", gettext_lazy("ChGK host teams")),
]


class DrawForm(TextForm):
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=KIND_CHOICES)
    stage = forms.ChoiceField(label=gettext_lazy("Stage"))
    seed = forms.CharField(
        label=gettext_lazy("Seed"),
        max_length=SEED_MAX,
        required=False,
        help_text=gettext_lazy("Leave empty for a fresh random seed."),
    )
    squad = forms.ModelChoiceField(
        label=gettext_lazy("Squad"), queryset=Squad.objects.none(), required=False
    )
    lane_pairs = forms.CharField(
        label=gettext_lazy("Lane pairs"),
        required=False,
        help_text=gettext_lazy("For a lane draw, e.g. 1-2, 3-4, 5-6."),
    )
    per_pair = forms.IntegerField(
        label=gettext_lazy("Players per lane pair"), min_value=1, initial=6, required=False
    )
    tours = forms.IntegerField(
        label=gettext_lazy("Number of tours"), min_value=1, max_value=60, required=False
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stage_field = self.fields["stage"]
        assert isinstance(stage_field, forms.ChoiceField)
        stage_field.choices = [(s.key, rt(s.title)) for s in event.rulebook.stages]
        squad_field = self.fields["squad"]
        assert isinstance(squad_field, forms.ModelChoiceField)
        squad_field.queryset = Squad.objects.filter(event=event)


def _public_event(slug: str) -> Event:
    return get_object_or_404(public_events(), slug=slug)


def _described(event: Event, draws: list[Draw]) -> list[dict[str, Any]]:
    names = entry_names(event)
    titles = {s.key: s.title for s in event.rulebook.stages}
    return [
        {"draw": d, "rows": draw_rows(d, names), "stage": rt(titles.get(d.stage, d.stage))}
        for d in draws
    ]


def public(request: HttpRequest, slug: str) -> HttpResponse:
    event = _public_event(slug)
    return render(
        request,
        "podium/draws/public.html",
        {"event": event, "draws": _described(event, current_draws(event))},
    )


def verify(request: HttpRequest, slug: str, draw_id: int) -> HttpResponse:
    event = _public_event(slug)
    draw = get_object_or_404(Draw, event=event, pk=draw_id)
    return render(
        request,
        "podium/draws/verify.html",
        {"event": event, "draw": draw, "rerun": draw_rerun(draw=draw)},
    )


def organize(request: HttpRequest, slug: str) -> HttpResponse:
    event = organized_event(request.user, slug)
    if event is None:
        raise Http404
    form = DrawForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            pairs = parse_lane_pairs(data["lane_pairs"]) if data["lane_pairs"] else None
            draw = draw_make(
                event=event,
                kind=data["kind"],
                stage=data["stage"],
                seed=data["seed"] or None,
                by=request.user,
                squad=data["squad"],
                lane_pairs=pairs,
                per_pair=data["per_pair"],
                tours=data["tours"],
            )
        except Refused as refused:
            form.add_error(refused.field if refused.field in form.fields else None, refused.message)
        else:
            messages.success(request, _("Draw made with seed %(seed)s.") % {"seed": draw.seed})
            return redirect("draws:organize", slug=event.slug)
    return render(
        request,
        "podium/draws/organize.html",
        {
            "event": event,
            "form": form,
            "draws": _described(event, list(event_draws(event))),
        },
    )


def lanes(request: HttpRequest, slug: str, squad_id: int) -> HttpResponse:
    event = _public_event(slug)
    squad = get_object_or_404(Squad, event=event, pk=squad_id)
    draw = lanes_draw(event, squad)
    if draw is None:
        raise Http404
    return render(
        request,
        "podium/draws/lanes.html",
        {
            "event": event,
            "squad": squad,
            "draw": draw,
            "blocks": lane_sheet(draw, entry_names(event)),
        },
    )


urlpatterns = [
    path("<slug:slug>/", public, name="public"),
    path("<slug:slug>/verify/<int:draw_id>/", verify, name="verify"),
    path("<slug:slug>/organize/", organize, name="organize"),
    path("<slug:slug>/lanes/<int:squad_id>/", lanes, name="lanes"),
]
