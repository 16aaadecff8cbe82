"""The one flow every import follows: upload → preview with every problem → save all or
nothing, the upload kept in the stash between the steps.

Modelled on pretix's import views: a base that reads and stashes the upload and runs the
steps, and one subclass per kind that says how its file is read, previewed and saved, and
which pages show it (``podium.web.files.views.imports``).

Vocabulary:
- stash: the uploaded file, read into a sheet (or the rating file's teams), kept between the
  steps in the user's server-side session under a random token; the page carries only the
  token. The session lives in the database, so every app server finds it, nobody but this
  user can use it, and the client can never change what is imported. A new upload of the same
  kind for the event replaces the last, and a finished import drops it.
- kind: one import (``entrants``, ``results``, ``chgk``): the stash's kind, the prefix of its
  upload form and the first word of its URL names.
- choices: what the organizer chooses between the upload and the save, read from the page's
  form at each step and never stashed: the columns' mapping and the category of an entrants
  sheet; the reason for corrections and whether teams that are not entries are skipped
  (``Confirmed``).
- preview, import, token: see ``podium.web.files.services.imports``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from podium.rules.schema.stages import Stage
from podium.web.files.forms import ConfirmForm, RoundUploadForm, UploadForm
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.texts import points_shown
from podium.web.models import Event

STASH = "podium.imports"
KEEP = 4  # uploads kept per session at most

C = TypeVar("C")  # a kind's choices
F = TypeVar("F", bound="ImportFlow[Any]")


# --- the stash -------------------------------------------------------------------------------


def stash(request: HttpRequest, event: Event, kind: str, **data: Any) -> str:
    token = secrets.token_urlsafe(16)
    kept = {
        t: v
        for t, v in request.session.get(STASH, {}).items()
        if not (v["event"] == event.pk and v["kind"] == kind)
    }
    kept[token] = {"event": event.pk, "kind": kind, **data}
    request.session[STASH] = dict(list(kept.items())[-KEEP:])
    return token


def stashed(request: HttpRequest, event: Event, kind: str, token: str) -> dict[str, Any]:
    found = request.session.get(STASH, {}).get(token)
    if found is None or found["event"] != event.pk or found["kind"] != kind:
        raise Http404
    return found


def drop(request: HttpRequest, token: str) -> None:
    kept = dict(request.session.get(STASH, {}))
    kept.pop(token, None)
    request.session[STASH] = kept


def upload_of(form: UploadForm) -> tuple[str, bytes]:
    """The uploaded file of a valid form: its name and its bytes."""
    upload = form.cleaned_data["file"]
    return upload.name, upload.read()


# --- the flow --------------------------------------------------------------------------------


class ImportFlow(Generic[C]):
    """One kind of import, for one request of the event's organizer: the steps (``uploaded``,
    ``previewed``, ``saved``) and the hooks each kind fills in."""

    kind: ClassVar[str]
    template: ClassVar[str]  # the preview page
    first: ClassVar[str]  # the URL name of the page an upload leads to

    def __init__(self, request: HttpRequest, event: Event, token: str = "") -> None:
        self.request = request
        self.event = event
        self.token = token

    @cached_property
    def found(self) -> dict[str, Any]:
        """What the upload stashed: 404 for another event's, another kind's or a dropped one."""
        return stashed(self.request, self.event, self.kind, self.token)

    # --- what each kind says

    @classmethod
    def upload_form(cls, event: Event, *args: Any) -> UploadForm:
        """The upload form (empty, or bound to ``request.POST, request.FILES``)."""
        raise NotImplementedError

    def read(self, form: UploadForm) -> dict[str, Any]:
        """What is stashed of a valid upload; ``Refused`` for a file that cannot be read."""
        raise NotImplementedError

    def choose(self, saving: bool) -> C | HttpResponse:
        """The choices on the page's form, or the page to correct them on."""
        raise NotImplementedError

    def context(self, chosen: C) -> dict[str, Any]:
        """The preview page's own context, besides the event, the token, the refusal and the
        plan."""
        raise NotImplementedError

    def plan(self, chosen: C) -> Any:
        """The preview: what the import would make, with every problem."""
        raise NotImplementedError

    def unplanned(self, chosen: C, context: dict[str, Any], refused: Refused) -> HttpResponse:
        """The page for a preview refused as a whole."""
        raise NotImplementedError

    def save(self, chosen: C) -> Any:
        """The import of the stashed upload under its token."""
        raise NotImplementedError

    def message(self, made: Any) -> str:
        """What a finished import tells the organizer."""
        raise NotImplementedError

    def leads_to(self) -> HttpResponse:
        """Where a finished import leads."""
        raise NotImplementedError

    # --- the steps

    def uploaded(self, index: Callable[[UploadForm], HttpResponse]) -> HttpResponse:
        """Reads and stashes the upload, then leads to its first page; ``index`` shows a
        refused upload again with its errors."""
        form = self.upload_form(self.event, self.request.POST, self.request.FILES)
        if not form.is_valid():
            return index(form)
        try:
            data = self.read(form)
        except Refused as refused:
            form.add_error("file", refusal_text(refused))
            return index(form)
        token = stash(self.request, self.event, self.kind, **data)
        return redirect(self.first, slug=self.event.slug, token=token)

    def page(self, chosen: C, refused: Refused | None = None, status: int = 200) -> HttpResponse:
        context: dict[str, Any] = {
            "event": self.event,
            "token": self.token,
            **self.context(chosen),
            "refused": refusal_text(refused) if refused else "",
        }
        try:
            context["plan"] = self.plan(chosen)
        except Refused as exc:
            return self.unplanned(chosen, context, exc)
        return render(self.request, self.template, context, status=status)

    def previewed(self) -> HttpResponse:
        chosen = self.choose(saving=False)
        if isinstance(chosen, HttpResponse):
            return chosen
        return self.page(chosen)

    def saved(self) -> HttpResponse:
        """Imports the upload once: a refusal shows the preview again with it, a finished
        import drops the upload from the stash."""
        chosen = self.choose(saving=True)
        if isinstance(chosen, HttpResponse):
            return chosen
        try:
            made = self.save(chosen)
        except Refused as refused:
            return self.page(chosen, refused, status=400)
        drop(self.request, self.token)
        messages.success(self.request, self.message(made))
        return self.leads_to()


def step(
    flow: type[F], run: Callable[[F], HttpResponse], *, post: bool = False
) -> Callable[..., HttpResponse]:
    """A step after the upload as a view, for the event's organizers (anyone else gets 404)."""

    def view(request: HttpRequest, slug: str, token: str) -> HttpResponse:
        return run(flow(request, event_for(request, slug, is_organizer), token))

    return login_required(require_POST(view) if post else view)


# --- an import into one round ----------------------------------------------------------------


@dataclass(frozen=True)
class Confirmed:
    reason: str
    skip: bool = False  # ChGK tours: the teams that are not entries are left out
    # The rating site's stray cells: each one's index → the mark the organizer chose for it.
    decisions: tuple[tuple[int, str], ...] = ()


class RoundImport(ImportFlow[Confirmed]):
    """An import into the stage and round chosen with the upload, previewed on a page that
    checks it again with a reason for corrections; a preview refused as a whole says so."""

    @classmethod
    def rounds(cls, event: Event) -> list[tuple[str, str]]:
        """The stages and rounds the file can be imported into, as upload choices."""
        raise NotImplementedError

    @classmethod
    def upload_form(cls, event: Event, *args: Any) -> RoundUploadForm:
        return RoundUploadForm(cls.rounds(event), *args, prefix=cls.kind)

    def read_file(self, form: UploadForm) -> dict[str, Any]:
        """What is stashed of the file; ``Refused`` for one that cannot be read."""
        raise NotImplementedError

    def read(self, form: UploadForm) -> dict[str, Any]:
        data = self.read_file(form)
        stage, number = cast(RoundUploadForm, form).stage_round()
        return {**data, "stage": stage, "round": number}

    @cached_property
    def stage(self) -> Stage:
        return stage_or_404(self.event, self.found["stage"])

    @property
    def round(self) -> int:
        number: int = self.found["round"]
        return number

    def round_context(self, chosen: Confirmed, **initial: Any) -> dict[str, Any]:
        """The stage, the round and the form that checks the preview again."""
        return {
            "stage": self.stage,
            "round": self.round,
            "confirm": ConfirmForm(initial={"reason": chosen.reason, **initial}),
            "reason": chosen.reason,
            **points_shown(self.event.rulebook, self.stage),
        }

    def unplanned(
        self, chosen: Confirmed, context: dict[str, Any], refused: Refused
    ) -> HttpResponse:
        context["refused"] = refusal_text(refused)
        return render(self.request, self.template, context, status=400)
