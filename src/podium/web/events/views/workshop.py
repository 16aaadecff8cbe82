"""The rulebook workshop on the web: the event's edit page checks the rulebook as it is typed
(every problem beside its line) and dry-runs a stage on made-up entrants (the report and a
preview of the standings table), without saving anything.

Organizers of the event only; anyone else gets 404. Both answers are fragments the edit page
swaps in (htmx); both read the text the page sends, or the saved rulebook when none is sent.

Vocabulary: see ``podium.web.events.selectors.workshop`` and ``podium.engine.workshop``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.engine.errors import InputError
from podium.rules.schema import Rulebook
from podium.web.events.forms.workshop import WorkshopForm
from podium.web.events.selectors.workshop import beside_lines, dry_run
from podium.web.events.services.events import RulebookRefused, checked_rulebook
from podium.web.kernel.lookup import event_for
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.texts import problem_text
from podium.web.models import Event

app_name = "workshop"


def _checked(request: HttpRequest, slug: str) -> tuple[Event, WorkshopForm, dict[str, Any]]:
    """The event, the form, and what the page shows of the text: its rulebook or problems."""
    event = event_for(request, slug, is_organizer)
    form = WorkshopForm(request.POST)
    context: dict[str, Any] = {"event": event, "form": form, "problems": [], "rulebook": None}
    if not form.is_valid():
        return event, form, context
    text = form.cleaned_data["rulebook_text"] or event.rulebook_text
    try:
        context["rulebook"] = checked_rulebook(text, "rulebook", field="rulebook_text")
    except RulebookRefused as refused:
        context["problems"] = beside_lines(text, refused.problems)
    return event, form, context


@require_POST
def check(request: HttpRequest, slug: str) -> HttpResponse:
    _event, _form, context = _checked(request, slug)
    return render(request, "podium/workshop/_check.html", context)


@require_POST
def preview(request: HttpRequest, slug: str) -> HttpResponse:
    _event, form, context = _checked(request, slug)
    rulebook: Rulebook | None = context["rulebook"]
    if rulebook is not None:
        data = form.cleaned_data
        keys = [s.key for s in rulebook.stages]
        stage = data["workshop_stage"] if data["workshop_stage"] in keys else keys[0]
        try:
            context |= dry_run(
                rulebook, stage, seed=data["workshop_seed"], entrants=data["workshop_entrants"]
            )
        except InputError as exc:  # a stage the generator cannot fill as this rulebook reads it
            context["refusal"] = "; ".join(problem_text(p) for p in exc.problems[:5])
        except ValueError as exc:
            context["refusal"] = _("The dry run was refused: %(why)s") % {"why": exc}
    return render(request, "podium/workshop/_preview.html", context)


urlpatterns = [
    path("check/", check, name="check"),
    path("preview/", preview, name="preview"),
]
