"""The organizer's discipline page, section by section: the ineligible-player rule, the unpaid
fees of each tour, the withdrawals with the battles they annul, the bans, and every sanction
with its effects; the page rendered (again, with a refused form), and the way back to a
section after a write.

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

from django.db.models import Prefetch, Q, prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.rules.schema.discipline import Sanction as SanctionRule
from podium.rules.schema.registration import Fee
from podium.rules.schema.stages import Stage
from podium.web.disputes.forms.discipline import LiftForm, TeamPickForm, WithdrawalForm
from podium.web.disputes.selectors.discipline import (
    in_force,
    sanctions_of,
    season_end,
    unpaid_by_tour,
)
from podium.web.disputes.selectors.rulings import effects_of, middle_tour
from podium.web.disputes.services.discipline import NOT_ADMITTED
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.stages import rounds_of
from podium.web.kernel.texts import rt
from podium.web.models import Ban, Entry, Event, Round, Sanction, Withdrawal
from podium.web.results.selectors.rows import (
    current_results,
    item_order,
    labels_by_number,
    stage_rows,
)

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


def stage_of(event: Event, format: str) -> Stage | None:
    return next((s for s in event.rulebook.stages if s.format == format), None)


def ineligible_rule(event: Event) -> SanctionRule | None:
    return next(
        (
            s
            for s in event.rulebook.sanctions
            if any(e.kind in ROW_KINDS for e in s.effects)
            and any(e.kind == "player-disqualified" for e in s.effects)
        ),
        None,
    )


def teams_of(event: Event) -> Any:
    return event.entries.filter(status=Entry.Status.CONFIRMED).order_by("number")


# --- Reads for the page -----------------------------------------------------------------------


@dataclass
class Battle:
    item: str
    round: str
    text: str
    numbers: tuple[str, ...]


def battles_of(event: Event, stage: Stage | None) -> list[Battle]:
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
    battles = battles_of(event, battle_stage)
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


def sanction_where(event: Event, sanction: Sanction) -> str:
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
                where=sanction_where(event, s),
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


# --- The page ---------------------------------------------------------------------------------


def page(
    request: HttpRequest,
    event: Event,
    *,
    withdrawal_form: WithdrawalForm | None = None,
    lift_forms: dict[int, LiftForm] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The page; a form the service refused is shown again in its section."""
    now = timezone.now()
    tour_stage, battle_stage = stage_of(event, "chgk-tour"), stage_of(event, "head-to-head")
    teams = teams_of(event)
    withdrawn = Withdrawal.objects.filter(entry__event=event).values("entry")
    local = now.astimezone(event.zone)
    here, earlier = _bans(event)
    context = {
        "event": event,
        "organizer": is_organizer(request.user, event),
        "rule": ineligible_rule(event),
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


def back_to(slug: str, anchor: str) -> HttpResponse:
    return redirect(reverse("discipline:index", kwargs={"slug": slug}) + f"#{anchor}")
