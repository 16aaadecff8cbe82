"""Import pages: entrants from a spreadsheet, results from a CSV, ChGK tours from the rating
site's JSON (each: upload → preview with every problem → import all or nothing, the flow of
``podium.web.files.views.flow``), and a ChGK tour exported in the rating site's shape.

Organizers only (anyone else gets 404), except the export, which follows the standings
pages: public once the round is published, the event's staff any time.

Vocabulary:
- stash, kind, choices: see ``podium.web.files.views.flow``.
- preview, import, token: see ``podium.web.files.services.imports``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from podium.rules.schema.stages import ChgkTourStage
from podium.web.chgk.selectors.rating import rating_results, season_rating, visible_moment
from podium.web.files.forms import MappingForm, UploadForm
from podium.web.files.services.imports import (
    chgk_import,
    chgk_preview,
    entrants_import,
    entrants_preview,
    member_slots,
    results_import,
    results_preview,
)
from podium.web.files.services.imports.stray import DECISIONS
from podium.web.files.views.flow import Confirmed, ImportFlow, RoundImport, step, upload_of
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_organizer, is_staff
from podium.web.kernel.stages import has_calendar, round_numbers, rounds_of
from podium.web.kernel.text import plain
from podium.web.kernel.texts import rt
from podium.web.models import Event
from podium.web.readers.rating import RatingFile, read_rating
from podium.web.readers.ratingsheet import mark_words
from podium.web.readers.tables import Sheet, read_upload
from podium.web.results.selectors.rows import RECORDED_FORMATS

app_name = "imports"


# --- entrants --------------------------------------------------------------------------------


class EntrantsImport(ImportFlow[MappingForm]):
    """Entrants from a spreadsheet: the upload, its columns mapped, the preview, the import."""

    kind = "entrants"
    template = "podium/imports/entrants_preview.html"
    first = "imports:entrants_mapping"

    @classmethod
    def upload_form(cls, event: Event, *args: Any) -> UploadForm:
        return UploadForm(*args, prefix=cls.kind)

    def read(self, form: UploadForm) -> dict[str, Any]:
        return {"sheet": read_upload(*upload_of(form)).data()}

    @cached_property
    def sheet(self) -> Sheet:
        return Sheet.from_data(self.found["sheet"])

    def mapping_form(self, data: Any = None) -> MappingForm:
        return MappingForm(
            self.sheet, member_slots(self.event), self.event.rulebook.categories, data
        )

    def mapping_page(self, form: MappingForm, status: int = 200) -> HttpResponse:
        context = {"event": self.event, "sheet": self.sheet, "form": form, "token": self.token}
        return render(self.request, "podium/imports/mapping.html", context, status=status)

    def mapping(self) -> HttpResponse:
        """The step between the upload and the preview: which column is which."""
        return self.mapping_page(self.mapping_form())

    def choose(self, saving: bool) -> MappingForm | HttpResponse:
        form = self.mapping_form(self.request.POST)
        return form if form.is_valid() else self.mapping_page(form, status=400)

    def context(self, chosen: MappingForm) -> dict[str, Any]:
        return {"sheet": self.sheet, "form": chosen}

    def plan(self, chosen: MappingForm) -> Any:
        return entrants_preview(
            event=self.event,
            sheet=self.sheet,
            mapping=chosen.mapping(),
            by=self.request.user,
            category=chosen.cleaned_data.get("category") or "",
        )

    def unplanned(
        self, chosen: MappingForm, context: dict[str, Any], refused: Refused
    ) -> HttpResponse:
        chosen.add_error(None, refusal_text(refused))
        return self.mapping_page(chosen, status=400)

    def save(self, chosen: MappingForm) -> Any:
        return entrants_import(
            event=self.event,
            sheet=self.sheet,
            mapping=chosen.mapping(),
            by=self.request.user,
            token=self.token,
            category=chosen.cleaned_data.get("category") or "",
        )

    def message(self, made: Any) -> str:
        n = len(made)
        return ngettext("%(n)d entry was imported.", "%(n)d entries were imported.", n) % {"n": n}

    def leads_to(self) -> HttpResponse:
        return redirect("registrations:index", slug=self.event.slug)


# --- results ---------------------------------------------------------------------------------


class ResultsImport(RoundImport):
    """Results of one round from the command line's CSV (or the rating site's ChGK table)."""

    kind = "results"
    template = "podium/imports/results_preview.html"
    first = "imports:results_preview"

    @classmethod
    def rounds(cls, event: Event) -> list[tuple[str, str]]:
        choices = []
        for stage in event.rulebook.stages:
            if stage.format not in RECORDED_FORMATS:
                continue
            for number in round_numbers(event, stage):
                title = (
                    rt(stage.title) if not has_calendar(stage) else f"{rt(stage.title)} — {number}"
                )
                choices.append((f"{stage.key}:{number}", title))
        return choices

    def read_file(self, form: UploadForm) -> dict[str, Any]:
        return {"sheet": read_upload(*upload_of(form), rating=True).data()}

    @cached_property
    def sheet(self) -> Sheet:
        return Sheet.from_data(self.found["sheet"])

    def choose(self, saving: bool) -> Confirmed:
        form = self.request.POST if saving else self.request.GET
        decisions = tuple(
            (i, mark)
            for i in range(len(self.sheet.stray))
            if (mark := form.get(f"stray-{i}", "")) in DECISIONS
        )
        return Confirmed(plain(form.get("reason", "")).strip()[:500], decisions=decisions)

    def context(self, chosen: Confirmed) -> dict[str, Any]:
        decided = dict(chosen.decisions)
        stray = [
            {**cell, "index": i, "chosen": decided.get(i, "")}
            for i, cell in enumerate(self.sheet.stray)
        ]
        marks = [(m, mark_words(m)) for m in DECISIONS]
        return {"sheet": self.sheet, "stray": stray, "marks": marks, **self.round_context(chosen)}

    def plan(self, chosen: Confirmed) -> Any:
        return results_preview(
            event=self.event, stage=self.stage.key, round=self.round, sheet=self.sheet,
            by=self.request.user, reason=chosen.reason, decisions=dict(chosen.decisions),
        )  # fmt: skip

    def save(self, chosen: Confirmed) -> Any:
        return results_import(
            event=self.event, stage=self.found["stage"], round=self.round, sheet=self.sheet,
            by=self.request.user, token=self.token, reason=chosen.reason,
            decisions=dict(chosen.decisions),
        )  # fmt: skip

    def message(self, made: Any) -> str:
        n = len(made)
        return ngettext("%(n)d result was imported.", "%(n)d results were imported.", n) % {"n": n}

    def leads_to(self) -> HttpResponse:
        return redirect("standings:stage", slug=self.event.slug, stage=self.found["stage"])


# --- ChGK tours ------------------------------------------------------------------------------


def _tour_stages(event: Event) -> list[ChgkTourStage]:
    return [s for s in event.rulebook.stages if isinstance(s, ChgkTourStage)]


class ChgkImport(RoundImport):
    """A ChGK tour from the rating site's JSON: the teams' masks, matched to entries by name."""

    kind = "chgk"
    template = "podium/imports/chgk_preview.html"
    first = "imports:chgk_preview"

    @classmethod
    def rounds(cls, event: Event) -> list[tuple[str, str]]:
        return [
            (
                f"{stage.key}:{r.number}",
                f"{rt(stage.title)} — {r.number}" + (f" {r.title}" if r.title else ""),
            )
            for stage in _tour_stages(event)
            for r in rounds_of(event, stage)
        ]

    def read_file(self, form: UploadForm) -> dict[str, Any]:
        return {"rating": read_rating(upload_of(form)[1]).data()}

    @cached_property
    def rating(self) -> RatingFile:
        return RatingFile.from_data(self.found["rating"])

    def choose(self, saving: bool) -> Confirmed:
        data = self.request.POST if saving else self.request.GET
        reason = plain(data.get("reason", "")).strip()
        return Confirmed(reason[:500] if saving else reason, data.get("skip_unmatched") == "on")

    def context(self, chosen: Confirmed) -> dict[str, Any]:
        return {
            "rating": self.rating,
            **self.round_context(chosen, skip_unmatched=chosen.skip),
            "skip": chosen.skip,
        }

    def plan(self, chosen: Confirmed) -> Any:
        return chgk_preview(
            event=self.event, stage=self.stage.key, round=self.round, rating=self.rating,
            by=self.request.user, reason=chosen.reason, skip_unmatched=chosen.skip,
        )  # fmt: skip

    def save(self, chosen: Confirmed) -> Any:
        return chgk_import(
            event=self.event, stage=self.found["stage"], round=self.round, rating=self.rating,
            by=self.request.user, token=self.token, reason=chosen.reason,
            skip_unmatched=chosen.skip,
        )  # fmt: skip

    def message(self, made: Any) -> str:
        return _(
            "Tour %(round)d: %(recorded)d recorded, %(corrected)d corrected, %(unchanged)d "
            "unchanged."
        ) % {
            "round": self.round,
            "recorded": made.count("recorded"),
            "corrected": made.count("corrected"),
            "unchanged": made.count("unchanged"),
        }

    def leads_to(self) -> HttpResponse:
        return redirect(
            "standings:round", slug=self.event.slug, stage=self.found["stage"], round=self.round
        )


# --- the imports page ------------------------------------------------------------------------

KINDS: tuple[type[ImportFlow[Any]], ...] = (EntrantsImport, ResultsImport, ChgkImport)


def _index(
    request: HttpRequest, event: Event, failed: UploadForm | None = None, status: int = 200
) -> HttpResponse:
    """Every kind's upload form (``failed`` in its kind's place, with its errors)."""
    tours = [(s, rounds_of(event, s)) for s in _tour_stages(event)]
    context: dict[str, Any] = {"event": event, "tours": tours}
    for kind in KINDS:
        mine = failed is not None and failed.prefix == kind.kind
        context[kind.kind] = failed if mine else kind.upload_form(event)
    return render(request, "podium/imports/index.html", context, status=status)


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    return _index(request, event_for(request, slug, is_organizer))


def _upload(flow: type[ImportFlow[Any]]) -> Callable[..., HttpResponse]:
    """A kind's upload as a view; a refused upload shows the imports page again."""

    @login_required
    @require_POST
    def view(request: HttpRequest, slug: str) -> HttpResponse:
        event = event_for(request, slug, is_organizer)
        return flow(request, event).uploaded(lambda form: _index(request, event, form, status=400))

    return view


# --- the export in the rating site's shape -----------------------------------------------------


def _tour_stage(event: Event, key: str) -> ChgkTourStage:
    stage = stage_or_404(event, key)
    if not isinstance(stage, ChgkTourStage):
        raise Http404
    return stage


def _json(data: Any, filename: str) -> HttpResponse:
    response = JsonResponse(
        data, safe=False, json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def rating_round(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponse:
    """One tour as the rating site's results array (public once the round is published)."""
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise Http404
    the_stage = _tour_stage(event, stage)
    if round not in round_numbers(event, the_stage):
        raise Http404
    seen, at = visible_moment(event, the_stage, round, is_staff(request.user, event))
    if not seen:
        raise Http404
    return _json(rating_results(event, the_stage, round, at), f"{slug}-{stage}-{round}.json")


def rating_season(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    """Every tour the visitor may read, each with its results array."""
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise Http404
    the_stage = _tour_stage(event, stage)
    tours = season_rating(event, the_stage, is_staff(request.user, event))
    return _json({"event": event.slug, "stage": stage, "tours": tours}, f"{slug}-{stage}.json")


urlpatterns = [
    path("", index, name="index"),
    path("entrants/", _upload(EntrantsImport), name="entrants_upload"),
    path(
        "entrants/<str:token>/",
        step(EntrantsImport, EntrantsImport.mapping),
        name="entrants_mapping",
    ),
    path(
        "entrants/<str:token>/preview/",
        step(EntrantsImport, EntrantsImport.previewed, post=True),
        name="entrants_preview",
    ),
    path(
        "entrants/<str:token>/import/",
        step(EntrantsImport, EntrantsImport.saved, post=True),
        name="entrants_import",
    ),
    path("results/", _upload(ResultsImport), name="results_upload"),
    path(
        "results/<str:token>/", step(ResultsImport, ResultsImport.previewed), name="results_preview"
    ),
    path(
        "results/<str:token>/import/",
        step(ResultsImport, ResultsImport.saved, post=True),
        name="results_import",
    ),
    path("chgk/", _upload(ChgkImport), name="chgk_upload"),
    path("chgk/<str:token>/", step(ChgkImport, ChgkImport.previewed), name="chgk_preview"),
    path(
        "chgk/<str:token>/import/",
        step(ChgkImport, ChgkImport.saved, post=True),
        name="chgk_import",
    ),
    path("chgk/<slug:stage>/rating.json", rating_season, name="rating_season"),
    path("chgk/<slug:stage>/<int:round>/rating.json", rating_round, name="rating_round"),
]
