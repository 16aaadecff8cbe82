"""Recording the single extra questions of a ChGK season's play-off (п. 12): after the match,
one extra question at a time is asked of every team still tied, until the tie is broken,
entered like a tour (the match, corrections and annulments:
``podium.web.battles.services.playoffs``).

Vocabulary:
- tied group, still tied, play-off chain, staff, validation: see
  ``podium.web.battles.services.playoffs``.
- answer: a team's answer to the extra question being asked (taken or not). An extra question
  is asked of every team still tied, so an answer waits (``{"playoff": "4", "next": "1"}``,
  not counted) until every one of them has answered; the last answer counts them all at once
  (``"4 1"``, ``"4 0"``), so the season table never holds teams that played a different number
  of extra questions.
- row key: the key of one team's row written for a submission that writes several (the
  season page's form): the submission's key and the team's number.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.rules.schema.stages import ChgkSeasonStage
from podium.web.battles.selectors.season import PlayoffTeam, StillTied, playoff_groups
from podium.web.battles.services.playoffs import (
    changed_meanwhile,
    check_playoffs,
    locked_for_playoff,
    playoff_clause,
    playoff_stage,
    seen_playoff,
    team_label,
)
from podium.web.kernel.audit import Actor, audit
from podium.web.kernel.refusals import Refused
from podium.web.models import Entry, Event, Result
from podium.web.results.selectors.rows import current_of
from podium.web.results.services.results import MAX_KEY, check_not_final, key_of, resubmitted


def _teams(teams: Sequence[PlayoffTeam]) -> str:
    return ", ".join(team_label(t.entry) for t in teams)


def _row_key(key: str, entry: Entry) -> str:
    """The row key of one team (see the vocabulary)."""
    derived = f"{key}:{entry.number}"
    if len(derived) > MAX_KEY:
        derived = f"{hashlib.sha256(key.encode()).hexdigest()[:40]}:{entry.number}"
    return derived


def _still_tied(event: Event, stage: ChgkSeasonStage, entry: Entry, now: dt.datetime) -> StillTied:
    """The teams still tied with ``entry``, who are asked the next extra question."""
    playoffs = playoff_groups(event, stage, now)
    if playoffs.problems:
        raise Refused("; ".join(playoffs.problems), clause=playoff_clause(stage))
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
                clause=playoff_clause(stage),
            )
        for still in group.still:
            if any(t.entry.pk == entry.pk for t in still.teams):
                return still
        raise Refused(
            _("%(team)s is no longer tied: the play-off has settled its place.")
            % {"team": team_label(entry)},
            clause=playoff_clause(stage),
        )
    raise Refused(
        _("%(team)s is not tied for a prize place: it has no play-off.")
        % {"team": team_label(entry)},
        clause=playoff_clause(stage),
    )


def _checked(
    stage: ChgkSeasonStage,
    still: StillTied,
    answers: Mapping[Entry, bool],
    seen: Mapping[Entry, Result],
) -> dict[int, PlayoffTeam]:
    """The teams still tied by entry id, once every answer is checked: each team is still tied
    in the group, its play-off is as it was seen, and it has not answered yet."""
    tied = {t.entry.pk: t for t in still.teams}
    for entry in answers:
        team = tied.get(entry.pk)
        if team is None:
            raise Refused(
                _("%(team)s is not still tied with %(teams)s; each group has its own question.")
                % {"team": team_label(entry), "teams": _teams(still.teams)},
                clause=playoff_clause(stage),
            )
        assert team.result is not None  # a team still tied has played the match
        if entry in seen and current_of(seen[entry]).pk != team.result.pk:
            raise changed_meanwhile(entry, team.result)
        if team.answer is not None:
            raise Refused(
                _(
                    "%(team)s has already answered extra question %(n)d; it waits for %(teams)s "
                    "(each extra question is asked of every team still tied)."
                )
                % {"team": team_label(entry), "n": still.question, "teams": _teams(still.waiting)},
                clause=playoff_clause(stage),
            )
    return tied


@dataclass(frozen=True)
class _Asked:
    """The extra question being asked of a group's teams still tied, as one write records it."""

    event: Event
    stage: ChgkSeasonStage
    still: StillTied
    by: Actor
    now: dt.datetime

    def write(self, team: PlayoffTeam, cells: dict[str, str], taken: bool, key: str) -> Result:
        """A team's next row of its play-off chain."""
        assert team.result is not None
        return Result.objects.create(
            event=self.event, stage=self.stage.key, round=1, entry=team.entry, cells=cells,
            detail={"step": "extra", "extra": self.still.question, "taken": taken},
            kind=Result.Kind.PROGRESS, recorded_by=self.by, recorded_at=self.now,
            corrects=team.result, idempotency_key=key,
        )  # fmt: skip


def _wait(
    asked: _Asked,
    answers: Mapping[Entry, bool],
    keys: Mapping[Entry, str],
    tied: Mapping[int, PlayoffTeam],
    waiting: Sequence[PlayoffTeam],
) -> list[Result]:
    """Records answers that wait for the other teams still tied (not counted yet)."""
    made: list[Result] = []
    for entry, taken in answers.items():
        team = tied[entry.pk]
        assert team.result is not None
        cells = {"playoff": team.result.cells["playoff"], "next": "1" if taken else "0"}
        made.append(asked.write(team, cells, taken, keys[entry]))
    audit(
        event=asked.event, actor=asked.by, action="playoff.answer", target=_teams(
            [tied[e.pk] for e in answers]), stage=asked.stage.key, extra=asked.still.question,
        answers={str(e.number): t for e, t in answers.items()},
        waiting=[t.entry.number for t in waiting],
    )  # fmt: skip
    return made


def _count(
    asked: _Asked, answers: Mapping[Entry, bool], keys: Mapping[Entry, str], key: str
) -> list[Result]:
    """The last answers: the question counted for every team still tied (its waiting answer or
    the one given now), judged by the engine first; the rows of the teams answering now."""
    still = asked.still
    counted: dict[int, bool] = {}
    for team in still.teams:
        taken = answers[team.entry] if team.entry in answers else bool(team.answer)
        counted[team.entry.pk] = taken
    changes = {
        t.entry: f"{t.result.cells['playoff']} {int(counted[t.entry.pk])}"
        for t in still.teams
        if t.result is not None
    }
    check_playoffs(asked.event, asked.stage, changes, asked.now)
    made: list[Result] = []
    for team in still.teams:
        row_key = keys.get(team.entry) or _row_key(key, team.entry)
        made.append(
            asked.write(team, {"playoff": changes[team.entry]}, counted[team.entry.pk], row_key)
        )
    audit(
        event=asked.event, actor=asked.by, action="playoff.question", target=_teams(still.teams),
        stage=asked.stage.key, extra=still.question,
        playoff={str(e.number): text for e, text in changes.items()},
    )  # fmt: skip
    return [r for r in made if r.entry_id in {e.pk for e in answers}]


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
    stage = playoff_stage(event)
    check_not_final(event, stage, 1)
    first = next(iter(answers))
    still = _still_tied(event, stage, first, now)
    tied = _checked(stage, still, answers, seen)
    waiting = [t for t in still.waiting if t.entry not in answers]
    if complete and waiting:
        raise Refused(
            _(
                "An extra question is asked of every team still tied for places %(first)d–"
                "%(last)d: enter it for %(teams)s too."
            )
            % {"first": still.first, "last": still.last, "teams": _teams(waiting)},
            field="taken",
            clause=playoff_clause(stage),
        )
    asked = _Asked(event, stage, still, by, now)
    if waiting:
        return _wait(asked, answers, keys, tied, waiting)
    return _count(asked, answers, keys, key)


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
        event, _season, seen, entry = seen_playoff(result, by)
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
        event = locked_for_playoff(event, by)
        entries = {Entry.objects.get(pk=e.pk): bool(t) for e, t in answers.items()}
        keys = {e: _row_key(key, e) for e in entries}
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
