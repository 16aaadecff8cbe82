"""Recording the play-offs of a ChGK season: the 6-question extra match for a tie on a prize
place (п. 12), entered like a tour, its correction and annulment, and the checks every write of
a play-off passes (the single extra questions that follow the match until the tie is broken:
``podium.web.battles.services.extra_questions``).

Vocabulary:
- tied group, still tied, play-off result: see ``podium.web.battles.selectors.season`` and
  ``podium.engine.playoff``.
- play-off chain: the Results of the season stage, round 1, for one team (append-only, like
  every result): the first (``record``) holds the match, ``{"playoff": "4"}``; each next step is
  a ``progress`` replacing the one before.
- answer: see ``podium.web.battles.services.extra_questions``.
- staff: the organizers and head referees of the event; they enter the play-off.
- validation: every write is judged by the engine on the season's rows with the new play-off
  rows in (a team not tied, uneven extra questions), and the match by its 6 questions.
- correction: a team's whole play-off typed again (``"4 0 1"``) with a reason, replacing its
  current play-off result; refused if that changed since the staff member looked (``seen``),
  and judged like any other write, so a group never ends with uneven extra questions. An answer
  waiting for the others is dropped with it.
- annulled: a play-off that no longer counts (a later verdict or correction in a tour broke the
  tie it settled, so the engine refuses the season with it): a correction holding no play-off,
  with the reason. The season then leaves the team's play-off out; should the team be tied
  again, its new match continues the same chain.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.rules.schema.stages import ChgkSeasonStage
from podium.web.battles.selectors.season import (
    named_problems,
    parse_playoff,
    season_rows,
    season_stage,
    with_playoffs,
)
from podium.web.kernel.audit import Actor, audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_head_referee
from podium.web.kernel.stages import in_stage
from podium.web.kernel.texts import shown_value
from podium.web.models import Entry, Event, Result
from podium.web.results.selectors.rows import current_of
from podium.web.results.services.results import check_not_final, key_of, resubmitted


def playoff_stage(event: Event) -> ChgkSeasonStage:
    """The event's season stage, refused unless its ranking has play-offs."""
    stage = season_stage(event)
    if stage is None or stage.ranking.playoff is None:
        raise Refused(_("This event has no season table with play-offs."), field="stage")
    return stage


def playoff_clause(stage: ChgkSeasonStage) -> str | None:
    """The rulebook's clause of the play-offs, named by their refusals."""
    return stage.ranking.playoff.clause if stage.ranking.playoff else None


def team_label(entry: Entry) -> str:
    """A team as the refusals name it: ``#7 Name``."""
    return f"#{entry.number} {entry.name}"


def locked_for_playoff(event: Event, by: Actor) -> Event:
    """The event locked for a write of the staff (see the vocabulary) on a play-off."""
    event = locked_event(event.pk)
    if not is_head_referee(by, event):
        raise Refused(_("Only an organizer or a head referee of this event may enter a play-off."))
    return event


def changed_meanwhile(entry: Entry, current: Result) -> Refused:
    """The refusal of a write made on a play-off that changed since it was looked at."""
    return Refused(
        _(
            "%(team)s was changed meanwhile: its play-off is now “%(current)s”. Reload the page "
            "and check it."
        )
        % {"team": team_label(entry), "current": current.cells.get("playoff", "")}
    )


def seen_playoff(seen: Result, by: Actor) -> tuple[Event, ChgkSeasonStage, Result, Entry]:
    """Locks the event for a write on a team's play-off result as it was looked at; the event,
    its season stage, the result reloaded and its team."""
    event = locked_for_playoff(seen.event, by)
    stage = playoff_stage(event)
    seen = Result.objects.select_related("entry").get(pk=seen.pk)
    if seen.event_id != event.pk or seen.entry is None or seen.stage != stage.key:
        raise Refused(_("This is not a play-off of this event's season."), field="result")
    return event, stage, seen, seen.entry


def _text(playoff: Any) -> str:
    """``4``, ``"4 1 0"`` or ``"4,1"`` → ``"4 1 0"``; anything else is refused."""
    parts = str(playoff if playoff is not None else "").replace(",", " ").split()
    if not parts or not all(p.isdigit() for p in parts):
        raise Refused(
            _(
                "Write the number of questions the team took in the match (e.g. 4); any single "
                "extra questions follow it, 1 taken or 0 not (4 1 0)."
            ),
            field="playoff",
        )
    return " ".join(str(int(p)) for p in parts)


def _check_match(stage: ChgkSeasonStage, entry: Entry, text: str) -> None:
    match = parse_playoff(text)[0]
    playoff = stage.ranking.playoff
    of = playoff.questions if playoff else None
    if of is not None and match > of:
        raise Refused(
            _("%(team)s: %(match)d questions taken in a match of %(of)d questions.")
            % {"team": team_label(entry), "match": match, "of": of},
            field="playoff",
            clause=playoff_clause(stage),
        )


def check_playoffs(
    event: Event, stage: ChgkSeasonStage, changes: Mapping[Entry, str], now: dt.datetime
) -> None:
    """Ranks the season with the changed play-off rows in; the engine's problems are refused,
    the teams named by number and name."""
    rows, notes = season_rows(event, stage.key, now)
    try:
        compute_standings(event.rulebook, stage.key, with_playoffs(rows, changes), notes)
    except InputError as exc:
        texts = named_problems(
            with_playoffs(rows, changes), [shown_value(p.message) for p in exc.problems]
        )
        raise Refused("; ".join(texts), field="playoff", clause=playoff_clause(stage)) from None


def _annulled(first: Result | None) -> Result | None:
    """The current result of a play-off chain if it is annulled."""
    if first is None:
        return None
    current = current_of(first)
    return None if current.cells.get("playoff") else current


def playoff_record(
    *,
    event: Event,
    entry: Entry,
    playoff: Any,
    by: Actor,
    idempotency_key: str,
    now: dt.datetime | None = None,
) -> Result:
    """Records a tied team's play-off match: the questions it took of the 6 (``4``; single
    extra questions may follow, ``4 1 0``, when a paper sheet is typed in at once)."""
    now = now or timezone.now()
    key = key_of(idempotency_key)
    text = _text(playoff)
    with transaction.atomic():
        event = locked_for_playoff(event, by)
        stage = playoff_stage(event)
        entry = Entry.objects.get(pk=entry.pk)
        if entry.event_id != event.pk:
            raise Refused(_("This entry is not part of this event."), field="entry")
        earlier = resubmitted(
            event, key, entry_id=entry.pk, detail={"playoff": text, "step": "match"}
        )
        if earlier is not None:
            return earlier
        check_not_final(event, stage, 1)
        if not in_stage(event, stage, entry):
            raise Refused(
                _("%(team)s is not in the entry list of %(stage)s.")
                % {"team": team_label(entry), "stage": stage.title},
                field="entry",
            )
        chain = Result.objects.filter(event=event, stage=stage.key, round=1, entry=entry)
        annulled = _annulled(chain.order_by("id").first())
        if chain.exists() and annulled is None:
            raise Refused(
                _(
                    "%(team)s: its play-off match is recorded already; enter the next extra "
                    "question."
                )
                % {"team": team_label(entry)},
                field="entry",
            )
        _check_match(stage, entry, text)
        check_playoffs(event, stage, {entry: text}, now)
        result = Result.objects.create(
            event=event, stage=stage.key, round=1, entry=entry, cells={"playoff": text},
            detail={"step": "match", "playoff": text}, recorded_by=by, recorded_at=now,
            idempotency_key=key,
            kind=Result.Kind.PROGRESS if annulled else Result.Kind.RECORD, corrects=annulled,
        )  # fmt: skip
        audit(
            event=event, actor=by, action="playoff.record", target=entry, stage=stage.key,
            playoff=text,
        )  # fmt: skip
    return result


def playoff_correct(
    *,
    seen: Result,
    playoff: Any,
    reason: str,
    by: Actor,
    idempotency_key: str,
    now: dt.datetime | None = None,
) -> Result:
    """Corrects a team's play-off (``seen``: its current result as the staff member saw it)
    to ``playoff``, the match then every extra question, with the reason (see the vocabulary)."""
    now = now or timezone.now()
    key = key_of(idempotency_key)
    text = _text(playoff)
    reason = (reason or "").strip()
    with transaction.atomic():
        event, stage, seen, entry = seen_playoff(seen, by)
        earlier = resubmitted(
            event, key, entry_id=entry.pk, detail={"step": "correction", "playoff": text}
        )
        if earlier is not None:
            return earlier
        check_not_final(event, stage, 1)
        current = current_of(seen)
        if current.pk != seen.pk:
            raise changed_meanwhile(entry, current)
        if not reason:
            raise Refused(_("Say why the play-off is corrected."), field="reason")
        if text == current.cells.get("playoff") and "next" not in current.cells:
            raise Refused(
                _("%(team)s: the play-off is “%(playoff)s” already.")
                % {"team": team_label(entry), "playoff": text},
                field="playoff",
            )
        _check_match(stage, entry, text)
        check_playoffs(event, stage, {entry: text}, now)
        result = Result.objects.create(
            event=event, stage=stage.key, round=1, entry=entry, cells={"playoff": text},
            detail={"step": "correction", "playoff": text}, kind=Result.Kind.CORRECTION,
            corrects=current, reason=reason, recorded_by=by, recorded_at=now,
            idempotency_key=key,
        )  # fmt: skip
        audit(
            event=event, actor=by, action="playoff.correct", target=entry, stage=stage.key,
            before=current.cells.get("playoff", ""), playoff=text, reason=reason,
        )  # fmt: skip
    return result


def playoff_annul(
    *,
    seen: Result,
    reason: str,
    by: Actor,
    idempotency_key: str,
    now: dt.datetime | None = None,
) -> Result:
    """Annuls a team's play-off (``seen``: its current result as the staff member saw it) with
    the reason (see the vocabulary)."""
    now = now or timezone.now()
    key = key_of(idempotency_key)
    reason = (reason or "").strip()
    with transaction.atomic():
        event, stage, seen, entry = seen_playoff(seen, by)
        earlier = resubmitted(event, key, entry_id=entry.pk, detail={"step": "annul"})
        if earlier is not None:
            return earlier
        check_not_final(event, stage, 1)
        current = current_of(seen)
        if not current.cells.get("playoff"):
            raise Refused(
                _("%(team)s: its play-off is annulled already.") % {"team": team_label(entry)}
            )
        if current.pk != seen.pk:
            raise changed_meanwhile(entry, current)
        if not reason:
            raise Refused(_("Say why the play-off no longer counts."), field="reason")
        result = Result.objects.create(
            event=event, stage=stage.key, round=1, entry=entry, cells={"playoff": ""},
            detail={"step": "annul"}, kind=Result.Kind.CORRECTION, corrects=current,
            reason=reason, recorded_by=by, recorded_at=now, idempotency_key=key,
        )  # fmt: skip
        audit(
            event=event, actor=by, action="playoff.annul", target=entry, stage=stage.key,
            before=current.cells.get("playoff", ""), reason=reason,
        )  # fmt: skip
    return result
