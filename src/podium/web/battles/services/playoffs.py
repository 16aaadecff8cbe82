"""Recording the play-offs of a ChGK season: the 6-question extra match for a tie on a prize
place, then single extra questions until the tie is broken (п. 12), entered like a tour.

Vocabulary:
- tied group, still tied, play-off result: see ``podium.web.battles.selectors.season`` and
  ``podium.engine.playoff``.
- play-off chain: the Results of the season stage, round 1, for one team (append-only, like
  every result): the first (``record``) holds the match, ``{"playoff": "4"}``; each next step is
  a ``progress`` replacing the one before.
- answer: a team's answer to the extra question being asked (taken or not). An extra question
  is asked of every team still tied, so an answer waits (``{"playoff": "4", "next": "1"}``,
  not counted) until every one of them has answered; the last answer counts them all at once
  (``"4 1"``, ``"4 0"``), so the season table never holds teams that played a different number
  of extra questions.
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
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.rules.schema.stages import ChgkSeasonStage
from podium.web.battles.selectors.season import (
    PlayoffTeam,
    StillTied,
    named_problems,
    parse_playoff,
    playoff_groups,
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
from podium.web.results.services.results import MAX_KEY, check_not_final, key_of, resubmitted


def _stage(event: Event) -> ChgkSeasonStage:
    stage = season_stage(event)
    if stage is None or stage.ranking.playoff is None:
        raise Refused(_("This event has no season table with play-offs."), field="stage")
    return stage


def _clause(stage: ChgkSeasonStage) -> str | None:
    return stage.ranking.playoff.clause if stage.ranking.playoff else None


def _team(entry: Entry) -> str:
    return f"#{entry.number} {entry.name}"


def _teams(teams: Sequence[PlayoffTeam]) -> str:
    return ", ".join(_team(t.entry) for t in teams)


def _locked(event: Event, by: Actor) -> Event:
    event = locked_event(event.pk)
    if not is_head_referee(by, event):
        raise Refused(_("Only an organizer or a head referee of this event may enter a play-off."))
    return event


def _changed(entry: Entry, current: Result) -> Refused:
    """The refusal of a write made on a play-off that changed since it was looked at."""
    return Refused(
        _(
            "%(team)s was changed meanwhile: its play-off is now “%(current)s”. Reload the page "
            "and check it."
        )
        % {"team": _team(entry), "current": current.cells.get("playoff", "")}
    )


def _seen(seen: Result, by: Actor) -> tuple[Event, ChgkSeasonStage, Result, Entry]:
    """Locks the event for a write on a team's play-off result as it was looked at; the event,
    its season stage, the result reloaded and its team."""
    event = _locked(seen.event, by)
    stage = _stage(event)
    seen = Result.objects.select_related("entry").get(pk=seen.pk)
    if seen.event_id != event.pk or seen.entry is None or seen.stage != stage.key:
        raise Refused(_("This is not a play-off of this event's season."), field="result")
    return event, stage, seen, seen.entry


def _derived(key: str, entry: Entry) -> str:
    """The key of one team's row written for a submission that writes several."""
    derived = f"{key}:{entry.number}"
    if len(derived) > MAX_KEY:
        derived = f"{hashlib.sha256(key.encode()).hexdigest()[:40]}:{entry.number}"
    return derived


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
            % {"team": _team(entry), "match": match, "of": of},
            field="playoff",
            clause=_clause(stage),
        )


def _validate(
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
        raise Refused("; ".join(texts), field="playoff", clause=_clause(stage)) from None


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
        event = _locked(event, by)
        stage = _stage(event)
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
                % {"team": _team(entry), "stage": stage.title},
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
                % {"team": _team(entry)},
                field="entry",
            )
        _check_match(stage, entry, text)
        _validate(event, stage, {entry: text}, now)
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


def _still_tied(event: Event, stage: ChgkSeasonStage, entry: Entry, now: dt.datetime) -> StillTied:
    """The teams still tied with ``entry``, who are asked the next extra question."""
    playoffs = playoff_groups(event, stage, now)
    if playoffs.problems:
        raise Refused("; ".join(playoffs.problems), clause=_clause(stage))
    for group in playoffs.groups:
        if not any(t.entry.pk == entry.pk for t in group.teams):
            continue
        if group.missing:
            raise Refused(
                _(
                    "Extra questions come after the match of every tied team; not recorded "
                    "yet: %(teams)s."
                )
                % {"teams": _teams(group.missing)},
                clause=_clause(stage),
            )
        for still in group.still:
            if any(t.entry.pk == entry.pk for t in still.teams):
                return still
        raise Refused(
            _("%(team)s is no longer tied: the play-off has settled its place.")
            % {"team": _team(entry)},
            clause=_clause(stage),
        )
    raise Refused(
        _("%(team)s is not tied for a prize place: it has no play-off.") % {"team": _team(entry)},
        clause=_clause(stage),
    )


def _step(
    *,
    event: Event,
    by: Actor,
    answers: Mapping[Entry, bool],
    keys: Mapping[Entry, str],
    key: str,
    seen: Mapping[Entry, Result],
    now: dt.datetime,
    complete: bool,
) -> list[Result]:
    """Answers of teams still tied (one group) to the extra question asked; counts them all
    once every team still tied has answered. ``complete``: refuse unless this does."""
    stage = _stage(event)
    check_not_final(event, stage, 1)
    first = next(iter(answers))
    still = _still_tied(event, stage, first, now)
    tied = {t.entry.pk: t for t in still.teams}
    for entry in answers:
        team = tied.get(entry.pk)
        if team is None:
            raise Refused(
                _("%(team)s is not still tied with %(teams)s; each group has its own question.")
                % {"team": _team(entry), "teams": _teams(still.teams)},
                clause=_clause(stage),
            )
        assert team.result is not None  # a team still tied has played the match
        if entry in seen and current_of(seen[entry]).pk != team.result.pk:
            raise _changed(entry, team.result)
        if team.answer is not None:
            raise Refused(
                _(
                    "%(team)s has already answered extra question %(n)d; it waits for %(teams)s "
                    "(each extra question is asked of every team still tied)."
                )
                % {"team": _team(entry), "n": still.question, "teams": _teams(still.waiting)},
                clause=_clause(stage),
            )
    waiting = [t for t in still.waiting if t.entry not in answers]
    if complete and waiting:
        raise Refused(
            _(
                "An extra question is asked of every team still tied for places %(first)d–"
                "%(last)d: enter it for %(teams)s too."
            )
            % {"first": still.first, "last": still.last, "teams": _teams(waiting)},
            field="taken",
            clause=_clause(stage),
        )
    made: list[Result] = []

    def write(team: PlayoffTeam, cells: dict[str, str], taken: bool, row_key: str) -> Result:
        assert team.result is not None
        return Result.objects.create(
            event=event, stage=stage.key, round=1, entry=team.entry, cells=cells,
            detail={"step": "extra", "extra": still.question, "taken": taken},
            kind=Result.Kind.PROGRESS, recorded_by=by, recorded_at=now, corrects=team.result,
            idempotency_key=row_key,
        )  # fmt: skip

    if waiting:
        for entry, taken in answers.items():
            team = tied[entry.pk]
            assert team.result is not None
            cells = {"playoff": team.result.cells["playoff"], "next": "1" if taken else "0"}
            made.append(write(team, cells, taken, keys[entry]))
        audit(
            event=event, actor=by, action="playoff.answer", target=_teams(
                [tied[e.pk] for e in answers]), stage=stage.key, extra=still.question,
            answers={str(e.number): t for e, t in answers.items()},
            waiting=[t.entry.number for t in waiting],
        )  # fmt: skip
        return made
    counted: dict[int, bool] = {}
    for team in still.teams:
        taken = answers[team.entry] if team.entry in answers else bool(team.answer)
        counted[team.entry.pk] = taken
    changes = {
        t.entry: f"{t.result.cells['playoff']} {int(counted[t.entry.pk])}"
        for t in still.teams
        if t.result is not None
    }
    _validate(event, stage, changes, now)
    for team in still.teams:
        row_key = keys.get(team.entry) or _derived(key, team.entry)
        made.append(write(team, {"playoff": changes[team.entry]}, counted[team.entry.pk], row_key))
    audit(
        event=event, actor=by, action="playoff.question", target=_teams(still.teams),
        stage=stage.key, extra=still.question,
        playoff={str(e.number): text for e, text in changes.items()},
    )  # fmt: skip
    return [r for r in made if r.entry_id in {e.pk for e in answers}]


def playoff_next(
    *,
    result: Result,
    taken: bool,
    by: Actor,
    idempotency_key: str,
    now: dt.datetime | None = None,
) -> Result:
    """Records one team's answer to the extra question asked of the teams still tied with it
    (``result``: the team's play-off as the referee saw it, refused if it changed meanwhile).
    The answer counts once every team still tied has answered."""
    now = now or timezone.now()
    key = key_of(idempotency_key)
    with transaction.atomic():
        event, _season, seen, entry = _seen(result, by)
        earlier = resubmitted(
            event, key, entry_id=entry.pk, detail={"step": "extra", "taken": bool(taken)}
        )
        if earlier is not None:
            return earlier
        [made] = _step(
            event=event, by=by, answers={entry: bool(taken)}, keys={entry: key}, key=key,
            seen={entry: seen}, now=now, complete=False,
        )  # fmt: skip
    return made


def playoff_question(
    *,
    event: Event,
    answers: Mapping[Entry, bool],
    by: Actor,
    idempotency_key: str,
    now: dt.datetime | None = None,
) -> list[Result]:
    """Records one extra question for every team still tied in a group at once (the season
    page's form), each taken or not; refused unless every team still tied answers."""
    now = now or timezone.now()
    key = key_of(idempotency_key)
    if not answers:
        raise Refused(_("Enter the extra question for every team still tied."), field="taken")
    with transaction.atomic():
        event = _locked(event, by)
        entries = {Entry.objects.get(pk=e.pk): bool(t) for e, t in answers.items()}
        keys = {e: _derived(key, e) for e in entries}
        earlier = [
            resubmitted(event, keys[e], entry_id=e.pk, detail={"step": "extra", "taken": t})
            for e, t in entries.items()
        ]
        if any(earlier):
            if not all(earlier):
                raise Refused(
                    _("This submission key was already used for a different result."),
                    field="idempotency_key",
                )
            return [r for r in earlier if r is not None]
        if any(e.event_id != event.pk for e in entries):
            raise Refused(_("This entry is not part of this event."), field="entry")
        return _step(
            event=event, by=by, answers=entries, keys=keys, key=key, seen={}, now=now,
            complete=True,
        )  # fmt: skip


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
        event, stage, seen, entry = _seen(seen, by)
        earlier = resubmitted(
            event, key, entry_id=entry.pk, detail={"step": "correction", "playoff": text}
        )
        if earlier is not None:
            return earlier
        check_not_final(event, stage, 1)
        current = current_of(seen)
        if current.pk != seen.pk:
            raise _changed(entry, current)
        if not reason:
            raise Refused(_("Say why the play-off is corrected."), field="reason")
        if text == current.cells.get("playoff") and "next" not in current.cells:
            raise Refused(
                _("%(team)s: the play-off is “%(playoff)s” already.")
                % {"team": _team(entry), "playoff": text},
                field="playoff",
            )
        _check_match(stage, entry, text)
        _validate(event, stage, {entry: text}, now)
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
        event, stage, seen, entry = _seen(seen, by)
        earlier = resubmitted(event, key, entry_id=entry.pk, detail={"step": "annul"})
        if earlier is not None:
            return earlier
        check_not_final(event, stage, 1)
        current = current_of(seen)
        if not current.cells.get("playoff"):
            raise Refused(_("%(team)s: its play-off is annulled already.") % {"team": _team(entry)})
        if current.pk != seen.pk:
            raise _changed(entry, current)
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
