"""Advancing entrants: from a final table into the next stage, and the winners into the
superfinal — in one action each, every advanced entry with its reason.

Vocabulary:
- advancement, entry list, withdrawn: see ``podium.web.models.advancement``.
- final table: the newest frozen final version of the stage's round; only it advances anyone,
  so who advances is exactly what was published.
- redo: advancing again after a new final version; the previous advancements are withdrawn with
  the organizer's reason, which is allowed only while the next stage has no result yet.
- winners: the entries in first official place of each stage the superfinal's ``winners_of``
  names (each table final). A tie for first has no winner until its play-off; one team winning
  both needs no superfinal (п. 1).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.rules.schema.stages import Stage, SuperfinalStage
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.models import Advancement, Entry, Event, Publication, Result
from podium.web.results.selectors.publication import final_versions, publication_state


def _final_table(event: Event, stage: Stage, round: int) -> Publication:
    if publication_state(event, stage.key, round) != Publication.State.FINAL:
        raise Refused(
            _("%(stage)s is not final yet: only a final table advances anyone.")
            % {"stage": stage.title}
        )
    return final_versions(event, stage.key, round)[-1]


def _entry(event: Event, publication: Publication, row: dict[str, Any]) -> Entry:
    numbers = (publication.table or {}).get("numbers", {})
    number = numbers.get(row["id"], row["id"])
    return Entry.objects.get(event=event, number=int(number))


def _advances_reason(row: dict[str, Any]) -> dict[str, Any]:
    return next(
        (r for r in row["reasons"] if r["text"].startswith("Advances")),
        {"text": "Advances", "clause": None},
    )


def _replace(event: Event, from_stage: str, to_stage: str, reason: str, now: dt.datetime) -> None:
    """Withdraws the standing advancements from ``from_stage`` before they are made again."""
    standing = Advancement.objects.filter(
        event=event, from_stage=from_stage, to_stage=to_stage, withdrawn_at__isnull=True
    )
    if not standing.exists():
        return
    if not reason:
        raise Refused(
            _("These entrants have advanced already; to advance again, give a reason."),
            field="reason",
        )
    if to_stage and Result.objects.filter(event=event, stage=to_stage).exists():
        raise Refused(_("The next stage already has results: its entry list can no longer change."))
    standing.update(withdrawn_at=now, withdrawn_reason=reason)


def _locked(event: Event, by: Any) -> Event:
    """The event, locked for the advancement being made, if ``by`` is its organizer."""
    event = locked_event(event.pk)
    if not is_organizer(by, event):
        raise Refused(_("Only an organizer of this event advances entrants."))
    return event


def advance_from(
    *,
    event: Event,
    stage: str,
    by: Any,
    round: int = 1,
    reason: str = "",
    now: dt.datetime | None = None,
) -> list[Advancement]:
    """Creates the next stage's entry list from the stage's final table (quotas and reasons)."""
    now = now or timezone.now()
    reason = (reason or "").strip()
    with transaction.atomic():
        event = _locked(event, by)
        the_stage = event.rulebook.stage(stage)
        rule = the_stage.advancement
        if rule is None:
            raise Refused(_("Nobody advances from %(stage)s.") % {"stage": the_stage.title})
        publication = _final_table(event, the_stage, round)
        to_stage = rule.to or ""
        _replace(event, stage, to_stage, reason, now)
        made = []
        for table in (publication.table or {}).get("tables", []):
            for row in table["rows"]:
                if not row["advances"]:
                    continue
                why = _advances_reason(row)
                made.append(
                    Advancement.objects.create(
                        event=event,
                        from_stage=stage,
                        from_round=round,
                        to_stage=to_stage,
                        entry=_entry(event, publication, row),
                        table=table["key"],
                        pool=row.get("pool") or "",
                        reason=why["text"],
                        clause=why["clause"] or rule.clause or "",
                        publication=publication,
                        made_by=by,
                        made_at=now,
                    )
                )
        if not made:
            raise Refused(_("Nobody advances in this final table."))
        audit(
            event=event, actor=by, action="advancement.make", target=f"{stage} → {to_stage}",
            stage=stage, round=round, to=to_stage, version=publication.version,
            entries=[a.entry.number for a in made], reason=reason,
        )  # fmt: skip
    return made


def superfinal_winners(
    *,
    event: Event,
    stage: str,
    by: Any,
    reason: str = "",
    now: dt.datetime | None = None,
) -> list[Advancement]:
    """Puts the winners of the superfinal's ``winners_of`` stages into it."""
    now = now or timezone.now()
    reason = (reason or "").strip()
    with transaction.atomic():
        event = _locked(event, by)
        the_stage = event.rulebook.stage(stage)
        if not isinstance(the_stage, SuperfinalStage) or not the_stage.winners_of:
            raise Refused(_("This stage is not played between the winners of others."))
        clause = the_stage.winners_clause
        winners: list[tuple[str, Entry, Publication]] = []
        for key in the_stage.winners_of:
            source = event.rulebook.stage(key)
            publication = _final_table(event, source, 1)
            rows = [
                (table, row)
                for table in (publication.table or {}).get("tables", [])
                for row in table["rows"]
                if row["official_rank"] == 1
            ]
            if len(rows) != 1 or rows[0][1]["official_rank_to"] != 1:
                raise Refused(
                    _("%(stage)s has no single winner yet (a tie for first is settled first).")
                    % {"stage": source.title},
                    clause=clause,
                )
            winners.append((key, _entry(event, publication, rows[0][1]), publication))
        if len({winner.pk for _key, winner, _table in winners}) == 1:
            raise Refused(
                _(
                    "%(team)s won every discipline: it is the absolute champion without a "
                    "superfinal."
                )
                % {"team": winners[0][1].name},
                clause=clause,
            )
        for key, _winner, _table in winners:
            _replace(event, key, stage, reason, now)
        made = [
            Advancement.objects.create(
                event=event,
                from_stage=key,
                from_round=1,
                to_stage=stage,
                entry=entry,
                reason=_("Wins %(stage)s") % {"stage": event.rulebook.stage(key).title},
                clause=clause or "",
                publication=publication,
                made_by=by,
                made_at=now,
            )
            for key, entry, publication in winners
        ]
        audit(
            event=event, actor=by, action="advancement.superfinal", target=stage, stage=stage,
            entries=[a.entry.number for a in made], reason=reason,
        )  # fmt: skip
    return made
