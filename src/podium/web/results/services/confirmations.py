"""Confirming many results at once: everything one referee recorded in a round (or one group of
it), a whole battle day or a whole superfinal — one transaction, one audit entry.

Vocabulary:
- confirmation: see ``podium.web.results.services.checks``; the same rules hold for each result
  of a bulk confirmation (a confirmer of the stage, never the person who recorded it).
- selection: the round's unverified current results, narrowed to those ``recorded_by`` one
  person and to one ``group`` of entrants, or to some ``items`` (a battle, the questions of a
  superfinal); what the confirmer recorded themselves is left for someone else and counted.
- outcome: how many results were confirmed, and of those left whose they are and who may
  confirm them, so the page can say what it did and what is left.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.rules.schema.stages import Stage
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import confirmers_text, may_confirm
from podium.web.kernel.texts import rt
from podium.web.models import Entry, Event, Result, Verification
from podium.web.results.selectors.checks import round_name
from podium.web.results.selectors.verification import unverified
from podium.web.results.services.results import recorded_stage

# A bulk confirmation is bounded: a round larger than this is confirmed in parts.
MOST = 2000


@dataclass(frozen=True)
class Outcome:
    confirmed: int
    # Left because the confirmer recorded them themselves.
    own: int
    stage: Stage
    round: int

    @property
    def text(self) -> str:
        return confirmed_text(self.confirmed, self.own, self.stage)


def confirmed_text(confirmed: int, own: int, stage: Stage) -> str:
    """What a bulk confirmation did, in words, with who may confirm what it left."""
    text = ngettext("%(n)d result confirmed.", "%(n)d results confirmed.", confirmed) % {
        "n": confirmed
    }
    if own:
        text += " " + ngettext(
            "%(n)d result you recorded is left for someone else to confirm (%(who)s).",
            "%(n)d results you recorded are left for someone else to confirm (%(who)s).",
            own,
        ) % {"n": own, "who": confirmers_text(stage.recording)}
    return text


def _selection(
    event: Event,
    stage: Stage,
    round: int,
    *,
    recorded_by: int | None,
    group: str | None,
    items: Collection[str] | None,
) -> list[Result]:
    chosen = unverified(event, stage.key, round)
    if recorded_by is not None:
        chosen = [r for r in chosen if r.recorded_by_id == recorded_by]
    if group is not None:
        chosen = [r for r in chosen if r.entry_id and r.entry.group == group]
    if items is not None:
        wanted = set(items)
        chosen = [r for r in chosen if r.item in wanted]
    return chosen


def _checked(event: Event, stage: Stage, by: Any) -> None:
    if not may_confirm(by, event, stage.recording):
        raise Refused(
            _("Only these confirm the results of %(stage)s here: %(who)s.")
            % {"who": confirmers_text(stage.recording), "stage": rt(stage.title)},
            clause=stage.recording.confirmation_clause,
        )
    if stage.recording.verification != "head-referee":
        raise Refused(
            _("In this stage a second entry by another referee checks each result."),
            clause=stage.recording.clause,
        )


def round_confirm(
    *,
    event: Event,
    stage: str,
    round: int,
    by: Any,
    recorded_by: int | None = None,
    group: str | None = None,
    items: Collection[str] | None = None,
    now: dt.datetime | None = None,
) -> Outcome:
    """Confirms the round's unverified results (narrowed as the vocabulary says) that ``by``
    did not record, in one transaction with one audit entry; refused when none is left."""
    now = now or timezone.now()
    if items is not None and len(items) > MOST:
        raise Refused(_("Too many results chosen at once."), field="items")
    with transaction.atomic():
        event = locked_event(event.pk)
        the_stage = recorded_stage(event, stage)
        _checked(event, the_stage, by)
        pick = {"recorded_by": recorded_by, "group": group, "items": items}
        found = _selection(event, the_stage, round, **pick)
        # Writes of an entry's result lock the entry, not the event: lock them, then read again.
        entries = [r.entry_id for r in found if r.entry_id]
        list(Entry.objects.select_for_update(of=("self",)).filter(pk__in=entries).values("pk"))
        found = _selection(event, the_stage, round, **pick)[:MOST]
        mine = getattr(by, "pk", None)
        own = [r for r in found if r.recorded_by_id is not None and r.recorded_by_id == mine]
        chosen = [r for r in found if r not in own]
        if not chosen:
            where = round_name(the_stage, round)
            raise Refused(
                confirmed_text(0, len(own), the_stage)
                if own
                else _("Nothing is left to confirm in %(stage)s%(round)s.")
                % {"stage": rt(the_stage.title), "round": f" · {where}" if where else ""}
            )
        Verification.objects.bulk_create(
            Verification(
                result=r, method=Verification.Method.HEAD_REFEREE, verified_by=by, verified_at=now
            )
            for r in chosen
        )
        audit(
            event=event, actor=by, action="result.confirm-many", target=the_stage.title,
            stage=the_stage.key, round=round, confirmed=len(chosen), left_own=len(own),
            recorded_by=recorded_by, group=group,
            subjects=[f"#{r.entry.number}" if r.entry_id else r.item for r in chosen],
        )  # fmt: skip
    return Outcome(len(chosen), len(own), the_stage, round)
