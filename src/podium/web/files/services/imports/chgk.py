"""ChGK tours from the rating site's JSON, recorded as tour sheets (see
``podium.web.files.services.imports``)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.rules.schema.stages import ChgkTourStage, Stage
from podium.web.chgk.services.rounds import round_questions_follow
from podium.web.chgk.services.sheets import SheetRefused, tour_sheet_record
from podium.web.files.services.imports.common import (
    ACTIONS,
    Checked,
    ImportRefused,
    Issue,
    dry_run,
    guard,
    once,
)
from podium.web.files.services.imports.results import results_stage
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.stages import stage_entries
from podium.web.kernel.text import name_key
from podium.web.models import Entry, Event
from podium.web.readers.rating import RatingFile, RatingTeam, position
from podium.web.results.selectors.rows import standings_as_of
from podium.web.standings.selectors.standings import live_tables

# --- ChGK tours in the rating site's shape ---------------------------------------------------


@dataclass
class TourRow:
    team: RatingTeam
    entry: Entry | None = None
    issues: list[Issue] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    action: str = ""  # "recorded", "corrected", "unchanged" (or "skipped": no such team)
    taken: int | None = None
    place: str = ""
    unmatched: bool = False  # no entry of the stage has this name


@dataclass
class TourPlan(Checked):
    stage: Stage
    round: int
    rows: list[TourRow]
    general: list[Issue]
    notes: list[str] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)

    @property
    def unmatched(self) -> list[TourRow]:
        return [r for r in self.rows if r.unmatched]

    def count(self, action: str) -> int:
        return sum(r.action == action for r in self.rows)

    @property
    def counts(self) -> dict[str, int]:
        return {a: self.count(a) for a in ACTIONS}


def _tour_rows(event: Event, stage: ChgkTourStage, rating: RatingFile, skip: bool) -> list[TourRow]:
    entries: dict[str, list[Entry]] = defaultdict(list)
    for entry in stage_entries(event, stage):
        entries[name_key(entry.name)].append(entry)
    rows = []
    seen: dict[int, int] = {}
    for team in rating.teams:
        row = TourRow(team)
        rows.append(row)
        label = _("team %(n)d") % {"n": team.index}
        for problem in team.problems:
            row.issues.append(Issue(team.index, "", problem))
        if not team.name:
            continue
        found = entries.get(name_key(team.name), [])
        if len(found) > 1:
            numbers = ", ".join(f"#{e.number}" for e in found)
            row.issues.append(
                Issue(
                    team.index,
                    "name",
                    _("“%(name)s” names several entries (%(numbers)s)")
                    % {"name": team.name, "numbers": numbers},
                )
            )
            continue
        if not found:
            row.unmatched = True
            if skip:
                row.action = "skipped"
            else:
                row.issues.append(
                    Issue(
                        team.index,
                        "name",
                        _(
                            "“%(name)s” is not a team of %(stage)s: register it first, or import "
                            "without the teams that are not entries"
                        )
                        % {"name": team.name, "stage": stage.title},
                    )
                )
            continue
        entry = found[0]
        if entry.pk in seen:
            row.issues.append(
                Issue(
                    team.index,
                    "name",
                    _("“%(name)s” is already %(label)s")
                    % {"name": team.name, "label": _("team %(n)d") % {"n": seen[entry.pk]}},
                )
            )
            continue
        seen[entry.pk] = team.index
        row.entry = entry
        if team.mask is None and not team.problems:
            row.issues.append(
                Issue(
                    team.index,
                    "mask",
                    _("%(label)s has no mask: Podium records a tour question by question")
                    % {"label": label},
                )
            )
    return rows


def _sheet_issues(rows: list[TourRow], refused: SheetRefused) -> list[Issue]:
    """The tour sheet's problems (each led by the team's label) on the rows of their teams."""
    general = []
    for text in refused.problems:
        row = next(
            (r for r in rows if r.entry is not None and text.startswith(f"#{r.entry.number} ")),
            None,
        )
        if row is None:
            general.append(Issue(None, "", text))
        else:
            row.issues.append(Issue(row.team.index, "mask", text))
    return general


def _tour_plan(
    event: Event,
    stage: str,
    round: int,
    rating: RatingFile,
    by: Any,
    key: str,
    reason: str,
    skip: bool,
    now: dt.datetime,
) -> TourPlan:
    the_stage = results_stage(event, stage, round)
    if not isinstance(the_stage, ChgkTourStage):
        raise Refused(_("ChGK results are imported into a ChGK tour stage."), field="stage")
    rows = _tour_rows(event, the_stage, rating, skip)
    plan = TourPlan(the_stage, round, rows, [], list(rating.notes))
    counted = _question_count(rating, the_stage)
    if counted is not None:
        plan.general.append(counted)
    masks = {r.entry: r.team.mask or "" for r in rows if r.entry is not None and not r.issues}
    if plan.issues or not masks:
        if not masks and not plan.issues:
            plan.general.append(
                Issue(None, "", _("No team of the file is an entry of this stage."))
            )
        return plan
    follow = round_questions_follow(
        event=event, stage=the_stage, round=round, masks=masks.values(), by=by
    )
    if follow:
        plan.notes.append(follow)
    try:
        done = tour_sheet_record(
            event=event,
            stage=stage,
            round=round,
            masks=masks,
            by=by,
            idempotency_key=key,
            reason=reason,
            now=now,
        )
    except SheetRefused as refused:
        plan.general += _sheet_issues(rows, refused)
        return plan
    actions = {d.entry.pk: d.action for d in done}
    for row in rows:
        if row.entry is not None:
            row.action = actions.get(row.entry.pk, "unchanged")
    _placed(event, stage, round, rows)
    plan.tables, problems = live_tables(event, the_stage, round)
    plan.notes += problems
    return plan


def _question_count(rating: RatingFile, stage: ChgkTourStage) -> Issue | None:
    """The problem of a sheet with more questions than a tour of the stage has (or, for a
    stage of tours of one length, other than it has)."""
    longest = stage.max_questions
    if longest is not None and rating.questions is not None and rating.questions > longest:
        return Issue(
            None,
            "",
            _("The sheet has %(file)d questions; a tour of %(stage)s has at most %(n)d.")
            % {"file": rating.questions, "stage": stage.title, "n": longest},
        )
    if longest is None and rating.questions is not None and rating.questions != stage.questions:
        return Issue(
            None,
            "",
            _("The sheet has %(file)d questions; a tour of %(stage)s has %(n)d.")
            % {"file": rating.questions, "stage": stage.title, "n": stage.questions},
        )
    return None


def _placed(event: Event, stage: str, round: int, rows: list[TourRow]) -> None:
    """Each recorded team's questions taken and place in the tour, with a note where the file
    says otherwise."""
    standings = standings_as_of(event, stage, round)
    places = {row.entry.id: row for table in standings.tables for row in table.rows}
    for row in rows:
        if row.entry is None:
            continue
        ranked = places.get(str(row.entry.number))
        if ranked is None:
            continue
        taken = ranked.entry.metrics.get("questions")
        row.taken = None if taken is None else int(taken)
        row.place = (
            f"{ranked.rank}–{ranked.rank_to}" if ranked.rank_to != ranked.rank else str(ranked.rank)
        )
        team = row.team
        if team.questions_total is not None and team.questions_total != row.taken:
            row.notes.append(
                _("the file says %(file)d taken; the mask has %(taken)s")
                % {"file": team.questions_total, "taken": row.taken}
            )
        if team.position is not None and float(team.position) != float(
            position(ranked.rank, ranked.rank_to)
        ):
            row.notes.append(
                _("the file gives position %(file)s; Podium places it %(place)s")
                % {"file": team.position, "place": position(ranked.rank, ranked.rank_to)}
            )


def chgk_preview(
    *,
    event: Event,
    stage: str,
    round: int,
    rating: RatingFile,
    by: Any,
    reason: str = "",
    skip_unmatched: bool = False,
    now: dt.datetime | None = None,
) -> TourPlan:
    """What importing the teams' masks into the tour would record (teams matched to entries
    by name, case-insensitively), every problem, and the tour's table after it; nothing is
    saved."""
    guard(event, by)
    now = now or timezone.now()
    reason = reason.strip()
    return dry_run(
        lambda: _tour_plan(
            event, stage, round, rating, by, "import-preview", reason, skip_unmatched, now
        )
    )


def chgk_import(
    *,
    event: Event,
    stage: str,
    round: int,
    rating: RatingFile,
    by: Any,
    token: str,
    reason: str = "",
    skip_unmatched: bool = False,
    now: dt.datetime | None = None,
) -> TourPlan:
    """Records the masks as the tour's sheet (``tour_sheet_record``: all or nothing); a team
    that is not an entry refuses the import unless ``skip_unmatched``."""
    guard(event, by)
    now = now or timezone.now()
    reason = reason.strip()
    with transaction.atomic():
        event = locked_event(event.pk)
        once(event, "chgk.import", token)
        plan = _tour_plan(
            event, stage, round, rating, by, f"import-{token}"[:90], reason, skip_unmatched, now
        )
        if not plan.ok:
            raise ImportRefused(plan.issues)
        audit(
            event=event,
            actor=by,
            action="chgk.import",
            target=f"{stage} {round}",
            token=token,
            stage=stage,
            round=round,
            kind=rating.kind,
            reason=reason,
            teams={
                a: sorted(r.entry.number for r in plan.rows if r.action == a and r.entry)
                for a in ("recorded", "corrected", "unchanged")
            },
            skipped=[r.team.name for r in plan.rows if r.action == "skipped"],
        )
    return plan
