"""Publishing a stage's round: draft → preliminary → final, frozen final versions, and the dates.

Vocabulary:
- publication, frozen table, version: see ``podium.web.models.results``.
- dates: the day preliminary results may be public and when the appeal window closes — see
  ``podium.web.standings.selectors.publication``. Final only once every window has closed and every
  verdict is in.
- season: a stage summed from another's rounds (the ChGK season); it is final only when every
  tour it sums is final.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from podium.engine.errors import InputError
from podium.rules.schema.stages import ChgkSeasonStage, Stage
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.moments import moment_text
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.stages import has_calendar, rounds_of
from podium.web.kernel.texts import problem_text
from podium.web.models import Event, Publication, Result
from podium.web.results.selectors.clock import round_ended_at
from podium.web.results.selectors.publication import publication_current, publication_state
from podium.web.results.selectors.rows import (
    ITEM_FORMATS,
    current_results,
    format_columns,
    labels_by_number,
    serialize,
    stage_rows,
    standings_as_of,
)
from podium.web.results.selectors.verification import unverified
from podium.web.standings import mail
from podium.web.standings.selectors.publication import (
    appeal_window_closes,
    open_appeals,
    preliminary_from,
)

NEXT = {
    Publication.State.DRAFT: {Publication.State.PRELIMINARY},
    Publication.State.PRELIMINARY: {Publication.State.DRAFT, Publication.State.FINAL},
}


def published_stage(event: Event, key: str) -> Stage:
    try:
        return event.rulebook.stage(key)
    except KeyError:
        raise Refused(_("This event has no such stage."), field="stage") from None


def _final_refusal(event: Event, stage: Stage, round: int, now: dt.datetime) -> Refused | None:
    """Why the round may not become final at ``now`` (``None``: it may)."""
    clause = stage.publication.clause
    if stage.publication.final_after:
        ended = round_ended_at(event, stage, round, now)
        if ended is None:
            return Refused(
                _("The round has not ended yet, so the appeal window has not begun."),
                field="state",
                clause=clause,
            )
        closes = appeal_window_closes(event, stage, round, now)
        if closes is not None and now < closes:
            return Refused(
                _("Final only after the appeal window closes (%(when)s).")
                % {"when": moment_text(closes, event)},
                field="state",
                clause=clause,
            )
    if open_appeals(event, stage, round):
        return Refused(_("Final only once every appeal is decided."), field="state", clause=clause)
    if isinstance(stage, ChgkSeasonStage):
        tour = event.rulebook.stage(stage.tour)
        rounds = sorted(
            set(Result.objects.filter(event=event, stage=tour.key).values_list("round", flat=True))
        )
        pending = [n for n in rounds if publication_state(event, tour.key, n) != "final"]
        if pending:
            return Refused(
                _("The season is final only when every tour is; not yet: %(tours)s.")
                % {"tours": ", ".join(str(n) for n in pending)},
                field="state",
            )
        return None
    if not current_results(event, stage.key, round, now):
        return Refused(_("There are no results to publish as final."), field="state")
    columns = format_columns(stage) if stage.format == "games" else ()
    unfinished = [
        r
        for r in current_results(event, stage.key, round, now)
        if any(not r.cells.get(c) for c in columns)
    ]
    if unfinished:
        return Refused(
            _("Final only when every series is complete; still bowling: %(numbers)s.")
            % {"numbers": ", ".join(f"#{r.entry.number}" for r in unfinished)},
            field="state",
        )
    waiting = unverified(event, stage.key, round, now)
    if waiting:
        return Refused(
            _waiting_text(event, stage, waiting), field="state", clause=stage.recording.clause
        )
    return None


def _waiting_text(event: Event, stage: Stage, waiting: list[Result]) -> str:
    """Which results wait for a check, what check, and the page where it is made."""
    names = ", ".join(f"#{r.entry.number}" if r.entry_id else r.item for r in waiting)
    where = reverse("checks:index", args=[event.slug])
    if stage.recording.verification == "second-entry":
        text = _(
            "Final only when every result is verified; not yet: %(numbers)s. They wait for a "
            "second entry by another referee, or for their mismatch to be resolved, at %(where)s."
        )
    else:
        text = _(
            "Final only when every result is verified; not yet: %(numbers)s. They wait for a "
            "head referee's confirmation, by someone other than who recorded them, at %(where)s."
        )
    return text % {"numbers": names, "where": where}


def _frozen(event: Event, stage: Stage, round: int, now: dt.datetime) -> dict[str, Any]:
    if not stage_rows(event, stage.key, round, now):
        raise Refused(_("There are no results to publish as final."), field="state")
    try:
        standings = standings_as_of(event, stage.key, round, now)
    except InputError as exc:
        raise Refused("; ".join(problem_text(p) for p in exc.problems), field="state") from None
    frozen = {"as_of": now.isoformat(), "round": round, **serialize(standings)}
    if stage.format in ITEM_FORMATS:
        # Battles and questions name teams by label; the numbers tie them back to entries.
        frozen["numbers"] = {label: n for n, label in labels_by_number(event, stage).items()}
    return frozen


def publication_set(
    *,
    event: Event,
    stage: str,
    state: str,
    by: Any,
    reason: str = "",
    round: int = 1,
    now: dt.datetime | None = None,
) -> Publication:
    """Moves a round draft → preliminary → final; final freezes the table as of ``now``.

    After final every change needs a reason and starts a new version (the old one stays).
    """
    now = now or timezone.now()
    reason = (reason or "").strip()
    with transaction.atomic():
        event = locked_event(event.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer of this event may publish results."))
        the_stage = published_stage(event, stage)
        if state not in Publication.State.values:
            raise Refused(_("Unknown publication state."), field="state")
        target = Publication.State(state)
        current = publication_current(event, stage, round)
        was = Publication.State(current.state) if current else Publication.State.DRAFT
        version = current.version if current else 1
        if was == Publication.State.FINAL:
            if not reason:
                raise Refused(
                    _("These results are final: a change needs a recorded reason."),
                    field="reason",
                )
            version += 1
        elif target == was:
            raise Refused(
                _("The results are already %(state)s.") % {"state": target.label}, field="state"
            )
        elif target not in NEXT[was]:
            raise Refused(
                _("Results go from %(was)s to %(next)s, not to %(state)s.")
                % {
                    "was": was.label,
                    "next": " / ".join(str(s.label) for s in sorted(NEXT[was])),
                    "state": target.label,
                },
                field="state",
            )
        if target != Publication.State.DRAFT:
            opens = preliminary_from(event, the_stage, round)
            if opens is not None and now.astimezone(event.zone).date() < opens:
                raise Refused(
                    _("Results of this round are published from %(day)s.")
                    % {"day": formats.date_format(opens, "DATE_FORMAT")},
                    field="state",
                    clause=the_stage.publication.clause,
                )
        table = None
        if target == Publication.State.FINAL:
            refusal = _final_refusal(event, the_stage, round, now)
            if refusal is not None:
                raise refusal
            table = _frozen(event, the_stage, round, now)
        publication = Publication.objects.create(
            event=event, stage=stage, round=round, state=target, version=version, table=table,
            changed_by=by, changed_at=now, reason=reason,
        )  # fmt: skip
        audit(
            event=event, actor=by, action="publication.set", target=f"{stage} r{round} v{version}",
            stage=stage, round=round, state=str(target), was=str(was), version=version,
            reason=reason,
        )  # fmt: skip
        if target != Publication.State.DRAFT:
            rounds = len(rounds_of(event, the_stage)) if has_calendar(the_stage) else 1
            final = target == Publication.State.FINAL
            mail.results(event, the_stage, round, final=final, rounds=rounds)
    return publication
