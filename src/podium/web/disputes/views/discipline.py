"""The organizer's discipline page: sanctions, unpaid fees, withdrawals and bans.

Head referees and organizers of the event only; anyone else gets 404.

Vocabulary:
- sanction, ban, withdrawal: see ``podium.web.models.discipline``; how they change the rows:
  ``podium.web.disputes.selectors.rulings``.
- tour stage, battle stage: the event's ChGK tour stage (a calendar of tours) and its
  head-to-head stage (Brainball battles), if the rulebook has them.
- ineligible-player rule: the rulebook's sanction whose effects turn a tour into 0 or a battle
  into a 0:6 loss (ChGK п. 8); its player is barred by the ban the service writes.
- unpaid block: one tour of the calendar with the fee that admits a team to it, the teams that
  have not paid it, and those already not admitted (п. 9).
- annulled battle: a recorded battle that the standings leave out because of a withdrawal
  (п. 18): in the current results but not in the ruled rows.
- page section: each part of the page has an anchor (``#ineligible``, ``#unpaid``,
  ``#withdrawals``, ``#bans``, ``#sanctions``) that a write redirects back to.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Prefetch, Q, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.rules.schema.discipline import Sanction as SanctionRule
from podium.rules.schema.registration import Fee
from podium.rules.schema.stages import Stage
from podium.web.disputes.forms.discipline import (
    CHGK,
    OTHER_TEAM,
    IneligibleForm,
    LiftForm,
    TeamPickForm,
    WithdrawalForm,
)
from podium.web.disputes.selectors.discipline import (
    in_force,
    sanctions_of,
    season_end,
    unpaid_by_tour,
)
from podium.web.disputes.selectors.rulings import effects_of, middle_tour
from podium.web.disputes.services.discipline import (
    NOT_ADMITTED,
    not_admitted_apply,
    sanction_impose,
    sanction_lift,
    withdrawal_record,
)
from podium.web.kernel.lookup import event_for
from podium.web.kernel.people import find_person, other_team
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_head_referee, is_organizer
from podium.web.kernel.stages import rounds_of
from podium.web.kernel.texts import rt
from podium.web.models import Ban, Entry, EntryMember, Event, Person, Round, Sanction, Withdrawal
from podium.web.results.selectors.rows import (
    current_results,
    item_order,
    labels_by_number,
    stage_rows,
)

app_name = "discipline"

ROW_KINDS = ("tour-result-zero", "battle-loss")


def _effect_text(kind: str) -> str:
    words = {
        "tour-result-zero": _("the tour result counts 0"),
        "battle-loss": _("each battle a 0:6 loss"),
        "player-disqualified": _("the player is barred to the end of the championship"),
        "not-admitted": _("not admitted to the tour, counted as absent"),
        "team-disqualified": _("the team and its players are barred"),
        "results-kept": _("ChGK results are kept"),
        "results-annulled": _("Brainball results annulled"),
        "warning": _("a warning"),
        "expulsion": _("expelled"),
    }
    return words.get(kind, kind)


def _stage(event: Event, format: str) -> Stage | None:
    return next((s for s in event.rulebook.stages if s.format == format), None)


def _ineligible_rule(event: Event) -> SanctionRule | None:
    return next(
        (
            s
            for s in event.rulebook.sanctions
            if any(e.kind in ROW_KINDS for e in s.effects)
            and any(e.kind == "player-disqualified" for e in s.effects)
        ),
        None,
    )


def _teams(event: Event) -> Any:
    return event.entries.filter(status=Entry.Status.CONFIRMED).order_by("number")


def _when(moment: dt.datetime | None, event: Event) -> str:
    if moment is None:
        return ""
    return formats.date_format(moment.astimezone(event.zone), "DATETIME_FORMAT")


# --- Reads for the page -----------------------------------------------------------------------


@dataclass
class Battle:
    item: str
    round: str
    text: str
    numbers: tuple[str, ...]


def _battles(event: Event, stage: Stage | None) -> list[Battle]:
    """The recorded (current) battles of the battle stage, in their natural order."""
    if stage is None:
        return []
    labels = labels_by_number(event, stage)
    battles = []
    for result in current_results(event, stage.key, 1):
        cells = result.cells
        one, two = cells.get("team1", ""), cells.get("team2", "")
        text = _("Round %(round)s: %(team1)s %(score1)s:%(score2)s %(team2)s") % {
            "round": cells.get("round", ""),
            "team1": labels.get(one, f"#{one}"),
            "team2": labels.get(two, f"#{two}"),
            "score1": cells.get("score1", ""),
            "score2": cells.get("score2", ""),
        }
        battles.append(Battle(result.item, cells.get("round", ""), text, (one, two)))
    return sorted(battles, key=lambda b: item_order(b.item))


def _players(event: Event) -> list[tuple[Person, Entry]]:
    """Every person on a roster of the event, with the team, in team order."""
    members = (
        EntryMember.objects.filter(entry__event=event)
        .exclude(entry__status=Entry.Status.CANCELLED)
        .select_related("person", "entry")
        .order_by("entry__number", "person__last_name", "person__first_name")
    )
    return [(m.person, m.entry) for m in members]


def _unpaid_rule(event: Event) -> SanctionRule | None:
    return next(
        (s for s in event.rulebook.sanctions if any(e.kind == NOT_ADMITTED for e in s.effects)),
        None,
    )


@dataclass
class UnpaidBlock:
    round: Round
    fee: Fee | None
    pending: list[Entry]
    barred: list[Sanction]


def _unpaid(event: Event, stage: Stage | None, now: dt.datetime) -> list[UnpaidBlock]:
    if stage is None:
        return []
    tours = rounds_of(event, stage)
    unpaid = unpaid_by_tour(event, stage.key, tours)
    sanctions = list(
        Sanction.objects.filter(event=event, stage=stage.key)
        .select_related("entry")
        .order_by("entry__number", "id")
    )
    blocks = []
    for tour in tours:
        barred = [
            s
            for s in sanctions
            if s.round == tour.number
            and in_force(s, now)
            and NOT_ADMITTED in effects_of(event.rulebook, s)
        ]
        out = {s.entry_id for s in barred}
        fee, pending = unpaid[tour.number]
        blocks.append(
            UnpaidBlock(
                round=tour,
                fee=fee,
                pending=[u.entry for u in pending if u.entry.pk not in out],
                barred=barred,
            )
        )
    return blocks


def _barred(bans: list[Ban]) -> list[tuple[dt.date, list[str]]]:
    """Who the bans bar, grouped by the day they end."""
    by_day: dict[dt.date, list[str]] = {}
    for ban in bans:
        who = (
            str(ban.person)
            if ban.person_id
            else _("the team name “%(name)s”") % {"name": ban.team_name}
        )
        by_day.setdefault(ban.until, []).append(who)
    return sorted(by_day.items())


@dataclass
class WithdrawalRow:
    withdrawal: Withdrawal
    clause: str
    annulled: list[Battle]
    kept: list[Battle]
    barred: list[tuple[dt.date, list[str]]]


def _withdrawals(event: Event, battle_stage: Stage | None) -> list[WithdrawalRow]:
    withdrawals = list(
        Withdrawal.objects.filter(entry__event=event)
        .select_related("entry")
        .order_by("received_at", "id")
    )
    if not withdrawals:
        return []
    battles = _battles(event, battle_stage)
    ruled = (
        {row.cells.get("id", "") for row in stage_rows(event, battle_stage.key)}
        if battle_stage is not None and battles
        else set()
    )
    clauses = {s.key: s.clause or "" for s in event.rulebook.sanctions}
    every_ban = list(
        Ban.objects.filter(sanction__entry__in=[w.entry for w in withdrawals]).select_related(
            "person", "sanction"
        )
    )
    rows = []
    for w in withdrawals:
        number = str(w.entry.number)
        mine = [b for b in battles if number in b.numbers]
        bans = [
            b for b in every_ban if b.sanction.entry_id == w.entry_id and b.sanction.key == w.rule
        ]
        rows.append(
            WithdrawalRow(
                withdrawal=w,
                clause=clauses.get(w.rule, ""),
                annulled=[b for b in mine if b.item not in ruled],
                kept=[b for b in mine if b.item in ruled],
                barred=_barred(bans),
            )
        )
    return rows


def _bans(event: Event) -> tuple[list[Ban], list[Ban]]:
    """The bans this event wrote, and those of other events under the same rulebook (or of
    none) in force on its first day — the ones its registration checks."""
    first_day = event.local_start.date()
    here = list(Ban.objects.filter(event=event).select_related("person", "sanction"))
    earlier = list(
        Ban.objects.filter(until__gte=first_day)
        .filter(Q(event__isnull=True) | Q(event__rulebook_key=event.rulebook_key))
        .exclude(event=event)
        .exclude(sanction__lifted_at__isnull=False)
        .select_related("person", "event", "sanction")
        .order_by("until", "id")
    )
    return here, earlier


@dataclass
class SanctionRow:
    sanction: Sanction
    in_force: bool
    where: str
    effects: list[str]
    barred: list[tuple[dt.date, list[str]]]  # who its bans bar, by the day they end
    person_shown: bool  # the player, where the entry is not simply that person
    rule: str  # when the rulebook's sanction applies, in the reader's language
    form: LiftForm = field(default_factory=LiftForm)


def _where(event: Event, sanction: Sanction) -> str:
    if not sanction.stage:
        return _("the whole championship")
    try:
        stage = event.rulebook.stage(sanction.stage)
    except KeyError:
        return sanction.stage
    if sanction.items:
        return _("%(stage)s, battles %(items)s") % {
            "stage": rt(stage.title),
            "items": ", ".join(sanction.items),
        }
    if sanction.round is not None and stage.format == "chgk-tour":
        return _("%(stage)s, tour %(round)d") % {"stage": rt(stage.title), "round": sanction.round}
    return rt(stage.title)


def _applied(event: Event, sanction: Sanction) -> list[str]:
    """The effects that act here: a tour's sanction turns no battle, and battles no tour."""
    kinds = list(effects_of(event.rulebook, sanction))
    if not sanction.items:
        kinds = [k for k in kinds if k != "battle-loss"]
    if not (sanction.stage and sanction.round is not None):
        kinds = [k for k in kinds if k not in ("tour-result-zero", NOT_ADMITTED)]
    return [_effect_text(k) for k in kinds]


def _sanctions(event: Event, now: dt.datetime, bound: dict[int, LiftForm]) -> list[SanctionRow]:
    rows = []
    sanctions = sanctions_of(event)
    bans = Prefetch("bans", queryset=Ban.objects.select_related("person"))
    prefetch_related_objects(sanctions, bans, "recorded_by", "lifted_by")
    rules = {rule.key: rt(rule.when) for rule in event.rulebook.sanctions}
    for s in sanctions:
        rows.append(
            SanctionRow(
                sanction=s,
                in_force=in_force(s, now),
                where=_where(event, s),
                effects=_applied(event, s),
                barred=_barred(list(s.bans.all())),
                person_shown=s.person_id is not None
                and (s.entry is None or str(s.person) != s.entry.name),
                rule=rules.get(s.key, s.key),
                form=bound.get(s.pk) or LiftForm(prefix=f"lift-{s.pk}"),
            )
        )
    return rows


def _middle(event: Event, stage: Stage | None) -> Round | None:
    if stage is None:
        return None
    number = middle_tour(event, stage.key)
    return Round.objects.filter(event=event, stage=stage.key, number=number).first()


def _page(
    request: HttpRequest,
    event: Event,
    *,
    withdrawal_form: WithdrawalForm | None = None,
    lift_forms: dict[int, LiftForm] | None = None,
    status: int = 200,
) -> HttpResponse:
    now = timezone.now()
    tour_stage, battle_stage = _stage(event, "chgk-tour"), _stage(event, "head-to-head")
    teams = _teams(event)
    withdrawn = Withdrawal.objects.filter(entry__event=event).values("entry")
    local = now.astimezone(event.zone)
    here, earlier = _bans(event)
    context = {
        "event": event,
        "organizer": is_organizer(request.user, event),
        "rule": _ineligible_rule(event),
        "pick": TeamPickForm(teams.exclude(pk__in=withdrawn)),
        "unpaid": _unpaid(event, tour_stage, now),
        "unpaid_rule": _unpaid_rule(event),
        "tour_stage": tour_stage,
        "battle_stage": battle_stage,
        "middle": _middle(event, tour_stage),
        "withdrawal_rules": [s for s in event.rulebook.sanctions if s.key.startswith("withdrawal")],
        "withdrawal_form": withdrawal_form
        or WithdrawalForm(
            teams.exclude(pk__in=withdrawn),
            initial={"date": local.date(), "time": local.time().replace(second=0, microsecond=0)},
        ),
        "withdrawals": _withdrawals(event, battle_stage),
        "bans_here": here,
        "bans_earlier": earlier,
        "season_end": season_end(event),
        "next_season_end": season_end(event, 1),
        "sanctions": _sanctions(event, now, lift_forms or {}),
    }
    return render(request, "podium/discipline/index.html", context, status=status)


def _back(slug: str, anchor: str) -> HttpResponse:
    return redirect(reverse("discipline:index", kwargs={"slug": slug}) + f"#{anchor}")


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, event_for(request, slug, is_head_referee))


# --- An ineligible player ---------------------------------------------------------------------


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
        "where": _where(event, made),
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
    rule = _ineligible_rule(event)
    if rule is None:
        raise Http404
    source = request.POST if request.method == "POST" else request.GET
    number = source.get("team", "")
    team = _teams(event).filter(number=int(number)).first() if number.isdigit() else None
    if team is None:
        return _back(slug, "ineligible")
    tour_stage, battle_stage = _stage(event, "chgk-tour"), _stage(event, "head-to-head")
    tours = [r.number for r in rounds_of(event, tour_stage)] if tour_stage else []
    battles = [b for b in _battles(event, battle_stage) if str(team.number) in b.numbers]
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
                return _back(slug, "sanctions")
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


# --- Unpaid fees, withdrawals, lifting ---------------------------------------------------------


@login_required
@require_POST
def not_admitted(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponse:
    event = event_for(request, slug, is_head_referee)
    tour_stage = _stage(event, "chgk-tour")
    if tour_stage is None or tour_stage.key != stage:
        raise Http404
    get_object_or_404(Round, event=event, stage=stage, number=round)
    try:
        made = not_admitted_apply(event=event, stage=stage, round=round, by=request.user)
    except Refused as refused:
        messages.error(request, refusal_text(refused))
    else:
        if made:
            messages.success(
                request,
                _("Not admitted to tour %(round)d, counted as absent: %(teams)s.")
                % {
                    "round": round,
                    "teams": ", ".join(f"#{s.entry.number} {s.entry.name}" for s in made),
                },
            )
        else:
            messages.info(request, _("Nobody to bar from tour %(round)d.") % {"round": round})
    return _back(slug, f"tour-{round}")


@login_required
@require_POST
def withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_head_referee)
    # Every team of the event is a choice, so a second withdrawal reaches the service's refusal.
    form = WithdrawalForm(_teams(event), request.POST)
    if form.is_valid():
        entry = form.cleaned_data["team"]
        try:
            made = withdrawal_record(
                entry=entry,
                statement=form.cleaned_data["statement"] or "",
                received_at=form.received_at(event.zone),
                by=request.user,
            )
        except Refused as refused:
            field_name = {"statement": "statement", "received_at": "date"}.get(refused.field or "")
            form.add_error(field_name, refusal_text(refused))
        else:
            side = (
                _("before the middle tour %(n)s")
                if made.before_middle
                else _("after the middle tour %(n)s")
            ) % {"n": made.middle or "—"}
            messages.success(
                request,
                _("#%(number)d %(team)s has withdrawn (received %(when)s, %(side)s).")
                % {
                    "number": entry.number,
                    "team": entry.name,
                    "when": _when(made.received_at, event),
                    "side": side,
                },
            )
            return _back(slug, "withdrawals")
    return _page(request, event, withdrawal_form=form, status=400)


@login_required
@require_POST
def lift(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = event_for(request, slug, is_head_referee)
    sanction = get_object_or_404(Sanction, pk=pk, event=event)
    form = LiftForm(request.POST, prefix=f"lift-{pk}")
    if form.is_valid():
        try:
            sanction_lift(sanction=sanction, by=request.user, reason=form.cleaned_data["reason"])
        except Refused as refused:
            form.add_error("reason" if refused.field == "reason" else None, refusal_text(refused))
        else:
            messages.success(request, _("The sanction is lifted; the standings recompute."))
            return _back(slug, f"sanction-{pk}")
    return _page(request, event, lift_forms={pk: form}, status=400)


urlpatterns = [
    path("", index, name="index"),
    path("ineligible/", ineligible, name="ineligible"),
    path("not-admitted/<str:stage>/<int:round>/", not_admitted, name="not_admitted"),
    path("withdrawals/", withdraw, name="withdraw"),
    path("sanctions/<int:pk>/lift/", lift, name="lift"),
]
