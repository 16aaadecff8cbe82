"""An ineligible player on the discipline page (ChGK п. 8): the form for one team, naming the
player (from a roster, or typed in) and the tour or battles they played, then the sanction with
the ban that bars them.

Head referees and organizers of the event only; anyone else gets 404.

Vocabulary:
- ineligible-player rule, tour stage, battle stage: see
  ``podium.web.disputes.views.discipline_page``.
- typed person: a player on no roster of the event, typed in by name and birth date; an earlier
  person with the same ones is used, so the ban is found where a roster looks.
- stored reason: the breach, the player and where, then the organizer's own words.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import formats
from django.utils.translation import gettext as _

from podium.web.disputes.forms.discipline import CHGK, OTHER_TEAM, IneligibleForm
from podium.web.disputes.services.discipline import sanction_impose
from podium.web.disputes.views.discipline_page import (
    back_to,
    battles_of,
    ineligible_rule,
    sanction_where,
    stage_of,
    teams_of,
)
from podium.web.kernel.lookup import event_for
from podium.web.kernel.people import find_person, other_team
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_head_referee
from podium.web.kernel.stages import rounds_of
from podium.web.models import Entry, EntryMember, Event, Person, Sanction


def _players(event: Event) -> list[tuple[Person, Entry]]:
    """Every person on a roster of the event, with the team, in team order."""
    members = (
        EntryMember.objects.filter(entry__event=event)
        .exclude(entry__status=Entry.Status.CANCELLED)
        .select_related("person", "entry")
        .order_by("entry__number", "person__last_name", "person__first_name")
    )
    return [(m.person, m.entry) for m in members]


def _typed_person(form: IneligibleForm) -> Person:
    """The person typed in: an earlier one with the same name and birth date, else a new one
    (the same match a roster uses, so the ban is found there)."""
    data = form.cleaned_data
    first, last, born = data["first_name"].strip(), data["last_name"].strip(), data["birth_date"]
    found = find_person(first, last, born)
    return found or Person.objects.create(first_name=first, last_name=last, birth_date=born)


def _reason(form: IneligibleForm, person: Person, team: Entry, event: Event) -> str:
    """The stored reason: the breach, the player and where, then the organizer's words; empty
    when they gave none, so that the service refuses it."""
    data = form.cleaned_data
    details = (data.get("details") or "").strip()
    if not details:
        return ""
    names = {"player": person, "number": team.number, "team": team.name}
    other = (
        other_team(event, person, besides=team, scored_only=False)
        if data["what"] == OTHER_TEAM
        else None
    )
    if other is not None:
        breach = _(
            "%(player)s played for #%(number)d %(team)s after playing for #%(other)d %(name)s"
        ) % {**names, "other": other.number, "name": other.name}
    elif data["what"] == OTHER_TEAM:
        breach = _("%(player)s played for #%(number)d %(team)s after playing for another team")
        breach %= names
    else:
        breach = _("%(player)s played for #%(number)d %(team)s without being on its roster")
        breach %= names
    if data["where"] == CHGK:
        place = _("in tour %(round)d") % {"round": data["round"]}
    else:
        place = _("in battles %(items)s") % {"items": ", ".join(data["items"])}
    return f"{breach} {place}: {details}"


def _imposed(event: Event, team: Entry, made: Sanction, person: Person) -> str:
    """What the organizer is told: the sanction, and the ban that now refuses the player."""
    text = _("Sanction recorded on #%(number)d %(team)s: %(where)s.") % {
        "number": team.number,
        "team": team.name,
        "where": sanction_where(event, made),
    }
    ban = made.bans.order_by("-until").first()
    if ban is not None:
        text += " " + _(
            "%(player)s is barred until %(until)s: adding them to any roster is refused."
        ) % {"player": person, "until": formats.date_format(ban.until, "DATE_FORMAT")}
    return text


REFUSAL_FIELDS = {"reason": "details", "items": "items", "round": "round", "stage": "where"}


@login_required
def ineligible(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_head_referee)
    rule = ineligible_rule(event)
    if rule is None:
        raise Http404
    source = request.POST if request.method == "POST" else request.GET
    number = source.get("team", "")
    team = teams_of(event).filter(number=int(number)).first() if number.isdigit() else None
    if team is None:
        return back_to(slug, "ineligible")
    tour_stage, battle_stage = stage_of(event, "chgk-tour"), stage_of(event, "head-to-head")
    tours = [r.number for r in rounds_of(event, tour_stage)] if tour_stage else []
    battles = [b for b in battles_of(event, battle_stage) if str(team.number) in b.numbers]
    choices = [(b.item, f"{b.text} ({b.item})") for b in battles]
    players = _players(event)
    status = 200
    if request.method == "POST":
        form = IneligibleForm(players, tours, choices, request.POST)
        if form.is_valid():
            data = form.cleaned_data
            chgk = data["where"] == CHGK
            the_stage = tour_stage if chgk else battle_stage
            try:
                with transaction.atomic():
                    person = form.picked() or _typed_person(form)
                    made = sanction_impose(
                        event=event,
                        key=rule.key,
                        by=request.user,
                        reason=_reason(form, person, team, event),
                        entry=team,
                        person=person,
                        stage=the_stage.key if the_stage else "",
                        round=data["round"] if chgk else None,
                        items=() if chgk else data["items"],
                    )
            except Refused as refused:
                field_name = REFUSAL_FIELDS.get(refused.field or "")
                form.add_error(field_name, refusal_text(refused))
            else:
                text = _imposed(event, team, made, person)
                messages.success(request, text)
                return back_to(slug, "sanctions")
        status = 400
    else:
        form = IneligibleForm(players, tours, choices)
    context = {
        "event": event,
        "rule": rule,
        "team": team,
        "form": form,
        "tour_stage": tour_stage,
        "battle_stage": battle_stage,
    }
    return render(request, "podium/discipline/ineligible.html", context, status=status)
