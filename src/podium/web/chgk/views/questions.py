"""The host teams' question duty, the coordinator's packet and check, and the club's question
database.

Pages:
- ``<slug>/``: the tours and what each host handed in against its duty (the event's staff see
  every tour, a host team's players their own tours; anyone else gets 404).
- ``<slug>/tour/<round>/submit/``: the host hands in questions in the packet notation (a player
  of the host team, or the event's staff for it), sees the count against the minimum, the
  deadline, what it handed in, and the replacements asked; a late team sees the database check
  of its own questions (п. 22).
- ``<slug>/tour/<round>/packet/``: the coordinator (an organizer) checks every question against
  the database, selects the packet, asks for replacements, moves the played packet into the
  database, and applies п. 23 to a host without questions.
- ``<slug>/import/``: the coordinator imports an earlier packet into the database.
- ``database/``: the public database (п. 24), for anyone.

Vocabulary: duty, deadline, late, count: see ``podium.web.chgk.selectors.duty``; similarity,
public: see ``podium.web.chgk.selectors.database``; packet, played, coordinator: see
``podium.web.chgk.services.questions``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.chgk.forms.questions import (
    AskForm,
    DisqualifyForm,
    ImportForm,
    ReplacementForm,
    SelectForm,
    SubmitForm,
)
from podium.web.chgk.selectors.database import database_index, public_questions
from podium.web.chgk.selectors.duty import (
    disciplines,
    duty_state,
    duty_states,
    host_missed,
    host_sanction,
    hosts_of,
    may_submit,
    packet_size,
    played,
    sanction_rule,
    tour_questions,
    tour_stage,
    tours_duty_states,
)
from podium.web.chgk.services.questions import (
    PacketRefused,
    consent_record,
    host_disqualify,
    packet_play,
    packet_select,
    questions_import,
    questions_submit,
    replacement_ask,
    replacement_submit,
)
from podium.web.kernel.lookup import event_for
from podium.web.kernel.refusals import Refused, refusal_text, refuse_on
from podium.web.kernel.roles import is_organizer, is_staff
from podium.web.kernel.text import search_text
from podium.web.models import Event, Question, Round
from podium.web.models.questions import Discipline

app_name = "questions"

PER_PAGE = 50


def _show(form: forms.Form, refused: Refused) -> None:
    """Puts a refusal on the form: each error of a packet, or the message on its field."""
    if not isinstance(refused, PacketRefused):
        refuse_on(form, refused)
        return
    field = refused.field if refused.field in form.fields else None
    for error in refused.errors:
        form.add_error(field, error.message)


def _tour(event: Event, number: int) -> Round:
    stage = tour_stage(event)
    tour = None
    if stage is not None:
        tour = (
            Round.objects.filter(event=event, stage=stage.key, number=number)
            .select_related("host")
            .first()
        )
    if tour is None:
        raise Http404
    return tour


def _choices(event: Event) -> list[tuple[str, str]]:
    return [(d, Discipline(d).label) for d in disciplines(event)]


def _submitter_tour(request: HttpRequest, slug: str, number: int) -> tuple[Event, Round]:
    event = get_object_or_404(Event, slug=slug)
    tour = _tour(event, number)
    if not may_submit(request.user, event, tour):
        raise Http404
    return event, tour


# --- The tours ------------------------------------------------------------------------------


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    stage = tour_stage(event)
    staff = is_staff(request.user, event)
    if staff and stage is not None:
        tours = list(
            Round.objects.filter(event=event, stage=stage.key)
            .select_related("host")
            .order_by("number")
        )
    else:
        tours = hosts_of(request.user, event)
    if not staff and not tours:
        raise Http404
    states = tours_duty_states(event, tours)
    rows = [{"tour": t, "states": states[t.pk]} for t in tours]
    context = {
        "event": event,
        "stage": stage,
        "rows": rows,
        "organizer": is_organizer(request.user, event),
        "duties": list(event.rulebook.duties),
    }
    return render(request, "podium/questions/index.html", context)


# --- The host hands in ----------------------------------------------------------------------


def _submit_page(
    request: HttpRequest,
    event: Event,
    tour: Round,
    form: SubmitForm | None = None,
    bound_replacement: tuple[int, ReplacementForm] | None = None,
    status: int = 200,
) -> HttpResponse:
    now = timezone.now()
    states = duty_states(event, tour)
    staff = is_staff(request.user, event)
    db = None
    blocks = []
    for state in states:
        if state.late and db is None:
            # п. 22: a late team checks its own questions against the database.
            db = database_index(now.astimezone(event.zone).date())
        submissions = [
            {
                "row": row,
                "items": [
                    {"question": q, "matches": db.closest(q.text, q.answer, exclude=[q.pk])
                     if row.late and db is not None else None}
                    for q in row.questions
                ],
            }
            for row in state.submissions
        ]  # fmt: skip
        asked = []
        for q in state.asked:
            bound = (
                bound_replacement[1] if bound_replacement and bound_replacement[0] == q.pk else None
            )
            asked.append({"question": q, "form": bound or ReplacementForm(prefix=f"r{q.pk}")})
        blocks.append({"state": state, "submissions": submissions, "asked": asked})
    context = {
        "event": event,
        "tour": tour,
        "blocks": blocks,
        "form": form or SubmitForm(_choices(event)),
        "played": played(tour),
        "started": now >= tour.starts_at,
        "staff": staff,
        "today": now.astimezone(event.zone).date(),
    }
    return render(request, "podium/questions/submit.html", context, status=status)


@login_required
def submit(request: HttpRequest, slug: str, round: int) -> HttpResponse:
    event, tour = _submitter_tour(request, slug, round)
    if request.method != "POST":
        return _submit_page(request, event, tour)
    form = SubmitForm(_choices(event), request.POST)
    if not form.is_valid():
        return _submit_page(request, event, tour, form, status=400)
    try:
        made = questions_submit(
            tour=tour,
            discipline=form.cleaned_data["discipline"],
            packet=form.cleaned_data["packet"],
            by=request.user,
            note=form.cleaned_data["note"],
            consent=form.cleaned_data["consent"],
        )
    except Refused as refused:
        _show(form, refused)
        return _submit_page(request, event, tour, form, status=400)
    state = duty_state(event, tour, made.discipline)
    messages.success(
        request,
        _("%(n)d questions handed in (%(discipline)s).")
        % {"n": made.questions.count(), "discipline": state.title},
    )
    if state.short:
        messages.warning(
            request,
            _("%(count)d of at least %(minimum)d: %(missing)d more to hand in.")
            % {"count": state.count, "minimum": state.minimum, "missing": state.missing},
        )
    if state.submissions and state.submissions[-1].late:
        messages.warning(
            request,
            _("Handed in after the deadline: the team checks its own questions against the "
              "database (п. 22)."),
        )  # fmt: skip
    return redirect("questions:submit", slug=slug, round=round)


@login_required
@require_POST
def replacement(request: HttpRequest, slug: str, round: int, question: int) -> HttpResponse:
    event, tour = _submitter_tour(request, slug, round)
    asked = get_object_or_404(tour_questions(tour), pk=question)
    form = ReplacementForm(request.POST, prefix=f"r{asked.pk}")
    if not form.is_valid():
        return _submit_page(request, event, tour, bound_replacement=(asked.pk, form), status=400)
    try:
        replacement_submit(question=asked, packet=form.cleaned_data["packet"], by=request.user)
    except Refused as refused:
        _show(form, refused)
        return _submit_page(request, event, tour, bound_replacement=(asked.pk, form), status=400)
    messages.success(
        request, _("Replacement for question %(number)d handed in.") % {"number": asked.number}
    )
    return redirect("questions:submit", slug=slug, round=round)


# --- The coordinator's packet ---------------------------------------------------------------


def _coordinator_tour(request: HttpRequest, slug: str, number: int) -> tuple[Event, Round]:
    event = event_for(request, slug, is_organizer)
    return event, _tour(event, number)


def _packet_page(
    request: HttpRequest,
    event: Event,
    tour: Round,
    bound: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    bound = bound or {}
    now = timezone.now()
    index = database_index(now.astimezone(event.zone).date())
    blocks = []
    for discipline in disciplines(event):
        state = duty_state(event, tour, discipline)
        rows = []
        for q in tour_questions(tour, discipline):
            matches = index.closest(q.text, q.answer, exclude=[q.pk])
            ask = bound.get(f"ask-{q.pk}") or AskForm(prefix=f"a{q.pk}")
            rows.append({"question": q, "matches": matches, "ask": ask,
                         "published": bool(matches) and matches[0].published})  # fmt: skip
        blocks.append({
            "state": state, "rows": rows, "size": packet_size(event, discipline),
            "chosen": sum(r["question"].status == Question.Status.SELECTED for r in rows),
            "error": bound.get(f"select-{discipline}"),
        })  # fmt: skip
    context = {
        "event": event,
        "tour": tour,
        "blocks": blocks,
        "database": len(index),
        "played": played(tour),
        "started": now >= tour.starts_at,
        "missed": host_missed(event, tour, now),
        "sanction": host_sanction(event, tour),
        "rule": sanction_rule(event),
        "disqualify": bound.get("disqualify") or DisqualifyForm(),
        "play_error": bound.get("play"),
    }
    return render(request, "podium/questions/packet.html", context, status=status)


@login_required
def packet(request: HttpRequest, slug: str, round: int) -> HttpResponse:
    event, tour = _coordinator_tour(request, slug, round)
    return _packet_page(request, event, tour)


@login_required
@require_POST
def select(request: HttpRequest, slug: str, round: int, discipline: str) -> HttpResponse:
    event, tour = _coordinator_tour(request, slug, round)
    if discipline not in disciplines(event):
        raise Http404
    ids = list(tour_questions(tour, discipline).values_list("pk", flat=True))
    form = SelectForm(ids, request.POST)
    if not form.is_valid():
        error = " ".join(e for errors in form.errors.values() for e in errors)
        return _packet_page(request, event, tour, {f"select-{discipline}": error}, status=400)
    try:
        chosen = packet_select(
            tour=tour, discipline=discipline, questions=form.cleaned_data["questions"],
            by=request.user,
        )  # fmt: skip
    except Refused as refused:
        return _packet_page(
            request, event, tour, {f"select-{discipline}": refusal_text(refused)}, status=400
        )
    messages.success(
        request,
        _("The packet has %(n)d questions (%(discipline)s).")
        % {"n": len(chosen), "discipline": Discipline(discipline).label},
    )
    return redirect("questions:packet", slug=slug, round=round)


@login_required
@require_POST
def ask(request: HttpRequest, slug: str, round: int, question: int) -> HttpResponse:
    event, tour = _coordinator_tour(request, slug, round)
    found = get_object_or_404(tour_questions(tour), pk=question)
    form = AskForm(request.POST, prefix=f"a{found.pk}")
    if form.is_valid():
        try:
            replacement_ask(question=found, note=form.cleaned_data["note"], by=request.user)
        except Refused as refused:
            _show(form, refused)
    if form.errors:
        return _packet_page(request, event, tour, {f"ask-{found.pk}": form}, status=400)
    messages.success(
        request, _("A replacement for question %(number)d is asked.") % {"number": found.number}
    )
    return redirect("questions:packet", slug=slug, round=round)


@login_required
@require_POST
def play(request: HttpRequest, slug: str, round: int) -> HttpResponse:
    event, tour = _coordinator_tour(request, slug, round)
    try:
        moved = packet_play(tour=tour, by=request.user)
    except Refused as refused:
        return _packet_page(request, event, tour, {"play": refusal_text(refused)}, status=400)
    messages.success(request, _("%(n)d questions are in the database.") % {"n": len(moved)})
    return redirect("questions:packet", slug=slug, round=round)


@login_required
@require_POST
def consent(request: HttpRequest, slug: str, round: int, question: int) -> HttpResponse:
    event, tour = _coordinator_tour(request, slug, round)
    found = get_object_or_404(tour_questions(tour), pk=question)
    agreed = request.POST.get("consent") == "1"
    try:
        consent_record(event=event, question=found, consent=agreed, by=request.user)
    except Refused as refused:
        messages.error(request, refusal_text(refused))
    return redirect("questions:packet", slug=slug, round=round)


@login_required
@require_POST
def disqualify(request: HttpRequest, slug: str, round: int) -> HttpResponse:
    event, tour = _coordinator_tour(request, slug, round)
    form = DisqualifyForm(request.POST)
    if form.is_valid():
        try:
            host_disqualify(tour=tour, by=request.user, reason=form.cleaned_data["reason"])
        except Refused as refused:
            _show(form, refused)
    if form.errors:
        return _packet_page(request, event, tour, {"disqualify": form}, status=400)
    messages.success(
        request,
        _("#%(number)d %(team)s is disqualified under п. 23.")
        % {"number": tour.host.number, "team": tour.host.name},
    )
    return redirect("questions:packet", slug=slug, round=round)


# --- Import and the public database ---------------------------------------------------------


@login_required
def import_packet(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    choices = [(d.value, d.label) for d in Discipline]
    if request.method != "POST":
        form = ImportForm(choices, initial={"discipline": Discipline.CHGK})
        return render(request, "podium/questions/import.html", {"event": event, "form": form})
    form = ImportForm(choices, request.POST, request.FILES)
    if form.is_valid():
        try:
            made = questions_import(
                event=event,
                discipline=form.cleaned_data["discipline"],
                packet=form.cleaned_data["file"],
                source=form.cleaned_data["source"],
                played_on=form.cleaned_data["played_on"],
                consent=form.cleaned_data["consent"],
                by=request.user,
            )
        except Refused as refused:
            _show(form, refused)
        else:
            messages.success(
                request,
                _("%(n)d questions imported from “%(source)s”.")
                % {"n": len(made), "source": made[0].source},
            )
            return redirect("questions:import", slug=slug)
    return render(
        request, "podium/questions/import.html", {"event": event, "form": form}, status=400
    )


def database(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    discipline = request.GET.get("discipline", "")
    if discipline not in Discipline.values:
        discipline = ""
    query = search_text(request.GET.get("q", "")).strip()
    found = public_questions(today, discipline, query)
    page = Paginator(found, PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "query": query,
        "discipline": discipline,
        "disciplines": [(d.value, d.label) for d in Discipline],
        "today": today,
    }
    return render(request, "podium/questions/database.html", context)


urlpatterns = [
    path("database/", database, name="database"),
    path("<slug:slug>/", index, name="index"),
    path("<slug:slug>/import/", import_packet, name="import"),
    path("<slug:slug>/tour/<int:round>/submit/", submit, name="submit"),
    path("<slug:slug>/tour/<int:round>/replace/<int:question>/", replacement, name="replacement"),
    path("<slug:slug>/tour/<int:round>/packet/", packet, name="packet"),
    path("<slug:slug>/tour/<int:round>/packet/<str:discipline>/select/", select, name="select"),
    path("<slug:slug>/tour/<int:round>/packet/ask/<int:question>/", ask, name="ask"),
    path("<slug:slug>/tour/<int:round>/packet/consent/<int:question>/", consent, name="consent"),
    path("<slug:slug>/tour/<int:round>/packet/play/", play, name="play"),
    path("<slug:slug>/tour/<int:round>/packet/disqualify/", disqualify, name="disqualify"),
]
