"""The appeal jury's desk: appeals without the team's name, and verdicts.

Jury members of the event only; anyone else gets 404.

Vocabulary:
- jury card, warned, disputed answer: see ``podium.web.disputes.selectors.appeals``. Where the rule
  is anonymous (ChGK п. 14) nothing on the page names the team that appealed: a card shows the
  appeal's number, tour, question, kind, answer and statement, and a verdict form.
- credit picker: for an answer to accept, every team of the tour (the appealing team among
  them, so the list tells nothing); a tick on the appealing team is dropped, as it is credited
  anyway.
- dispute token: a disputed answer (``?`` in a team's mask) is named on the page by an opaque
  token (a keyed hash of its tour, team and question) and a letter, never by its team; the
  letters follow the tokens, not the team numbers.
"""

from __future__ import annotations

import string
from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.disputes.forms.appeals import DisputeForm, VerdictForm
from podium.web.disputes.selectors.appeals import (
    Dispute,
    disputes_by_round,
    jury_cards,
    question_rule,
)
from podium.web.disputes.services.appeals import dispute_decide, verdict_record
from podium.web.disputes.views.appeals import played_rounds, tour_stages, tour_title
from podium.web.kernel.lookup import event_for
from podium.web.kernel.refusals import Refused, refuse_on
from podium.web.kernel.roles import has_role
from podium.web.models import Appeal, Entry, Event, EventRole
from podium.web.results.selectors.rows import current_by_round

app_name = "jury"


def _on_jury(user: Any, event: Event) -> bool:
    return has_role(user, event, EventRole.Role.JURY)


def _event(request: HttpRequest, slug: str) -> Event:
    event = event_for(request, slug, _on_jury)
    if question_rule(event) is None:
        raise Http404
    return event


def _teams(event: Event, appeals: list[Appeal]) -> dict[tuple[str, int], list[Entry]]:
    """(stage, tour) → every team with a result in it, for the tours of the appeals that
    credit an answer (the credit picker), in a read per stage."""
    tours: dict[str, set[int]] = defaultdict(set)
    for appeal in appeals:
        if appeal.kind == Appeal.Kind.ACCEPT:
            tours[appeal.stage].add(appeal.round)
    return {
        (key, number): [r.entry for r in results if r.entry_id]
        for key, numbers in tours.items()
        for number, results in current_by_round(event, key, numbers).items()
    }


def _verdict_form(
    event: Event,
    appeal: Appeal,
    data: Any = None,
    teams: dict[tuple[str, int], list[Entry]] | None = None,
) -> VerdictForm:
    if teams is None:
        teams = _teams(event, [appeal])
    picker = (
        teams.get((appeal.stage, appeal.round), []) if appeal.kind == Appeal.Kind.ACCEPT else None
    )
    return VerdictForm(data, teams=picker, prefix=f"a{appeal.number}")


def _token(event: Event, d: Dispute, stage: str) -> str:
    value = f"{event.pk}:{stage}:{d.round}:{d.entry.pk}:{d.question}"
    return salted_hmac("podium.jury.dispute", value).hexdigest()[:20]


def _letter(n: int) -> str:
    """A, B, … Z, then A1, B1, …"""
    letters = string.ascii_uppercase
    return letters[n % 26] + (str(n // 26) if n >= 26 else "")


def _disputes(event: Event) -> list[dict[str, Any]]:
    """The open disputed answers, each tour's in token order, lettered A, B, … per tour."""
    found = []
    for stage in tour_stages(event):
        rounds = disputes_by_round(event, stage, played_rounds(event, stage))
        for number, disputes in rounds.items():
            tour = sorted(
                ((_token(event, d, stage.key), d) for d in disputes),
                key=lambda pair: (pair[1].question, pair[0]),
            )
            for n, (token, d) in enumerate(tour):
                found.append(
                    {
                        "token": token,
                        "letter": _letter(n),
                        "stage": stage.key,
                        "round": number,
                        "question": d.question,
                        "tour": tour_title(event, stage.key, number),
                        "entry": d.entry,
                    }
                )
    return found


def _page(
    request: HttpRequest,
    event: Event,
    verdicts: dict[int, VerdictForm] | None = None,
    dispute: tuple[str, DisputeForm] | None = None,
    status: int = 200,
) -> HttpResponse:
    now = timezone.now()
    verdicts = verdicts or {}
    cards = []
    found = jury_cards(event, now)
    teams = _teams(event, [c.appeal for c in found if c.verdict is None])
    for card in found:
        appeal = card.appeal
        cards.append(
            {
                # What the jury may read of the appeal; never its team (see the vocabulary).
                "number": appeal.number,
                "tour": tour_title(event, appeal.stage, appeal.round),
                "question": appeal.question,
                "kind": appeal.kind,
                "kind_label": Appeal.Kind(appeal.kind).label,
                "answer": appeal.answer,
                "statement": appeal.statement,
                "due": card.due,
                "warned": card.warned,
                "overdue": card.verdict is None and card.due is not None and card.due < now,
                "team": card.team,
                "verdict": card.verdict,
                "form": None
                if card.verdict is not None
                else verdicts.get(appeal.number) or _verdict_form(event, appeal, teams=teams),
            }
        )
    disputes = []
    for d in _disputes(event):
        bound = dispute[1] if dispute and dispute[0] == d["token"] else None
        disputes.append(
            {
                "token": d["token"],
                "letter": d["letter"],
                "tour": d["tour"],
                "question": d["question"],
                "form": bound or DisputeForm(prefix=f"d{d['token']}"),
            }
        )
    context = {
        "event": event,
        "open": [c for c in cards if c["verdict"] is None],
        "done": [c for c in cards if c["verdict"] is not None],
        "disputes": disputes,
        "lost_dispute": dispute[1] if dispute and dispute[0] not in {d["token"] for d in disputes}
        else None,
    }  # fmt: skip
    return render(request, "podium/jury/index.html", context, status=status)


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, _event(request, slug))


@login_required
@require_POST
def verdict(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(request, slug)
    appeal = (
        Appeal.objects.filter(event=event, number=number, kind__in=Appeal.QUESTION_KINDS)
        .select_related("entry")
        .first()
    )
    if appeal is None:
        raise Http404
    form = _verdict_form(event, appeal, request.POST)
    if form.is_valid():
        # The appealing team is credited anyway; a tick on it is dropped without a word, so
        # the page never tells which team appealed.
        credited = [e for e in form.cleaned_data.get("credited", ()) if e.pk != appeal.entry_id]
        try:
            done = verdict_record(
                appeal=appeal, upheld=form.upheld, reasons=form.cleaned_data["reasons"],
                by=request.user, credited=credited,
            )  # fmt: skip
        except Refused as refused:
            refuse_on(form, refused)
        else:
            outcome = _("upheld") if done.upheld else _("rejected")
            messages.success(
                request,
                _("Verdict on appeal %(number)d recorded: %(outcome)s.")
                % {"number": number, "outcome": outcome},
            )
            return redirect(reverse("jury:index", kwargs={"slug": slug}) + f"#appeal-{number}")
    return _page(request, event, verdicts={number: form}, status=400)


@login_required
@require_POST
def dispute(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    event = _event(request, slug)
    form = DisputeForm(request.POST, prefix=f"d{token}")
    found = next((d for d in _disputes(event) if d["token"] == token), None)
    if found is None:
        form.add_error(None, _("This disputed answer is no longer open: it was decided meanwhile."))
    elif form.is_valid():
        try:
            dispute_decide(
                event=event, stage=found["stage"], round=found["round"], entry=found["entry"],
                question=found["question"], upheld=form.upheld,
                reasons=form.cleaned_data["reasons"], by=request.user,
            )  # fmt: skip
        except Refused as refused:
            # A refusal about the mark would name the team: say it without the number.
            if refused.field == "question":
                form.add_error(None, _("This disputed answer is no longer open."))
            else:
                refuse_on(form, refused)
        else:
            outcome = _("accepted") if form.upheld else _("not accepted")
            messages.success(
                request,
                _("%(tour)s, question %(q)d, disputed answer %(letter)s: %(outcome)s.")
                % {
                    "tour": found["tour"],
                    "q": found["question"],
                    "letter": found["letter"],
                    "outcome": outcome,
                },
            )
            return redirect(reverse("jury:index", kwargs={"slug": slug}) + "#disputes")
    return _page(request, event, dispute=(token, form), status=400)


urlpatterns = [
    path("", index, name="index"),
    path("appeal/<int:number>/", verdict, name="verdict"),
    path("dispute/<str:token>/", dispute, name="dispute"),
]
