"""Rulings applied to the rows the engine ranks: verdicts, sanctions and withdrawals.

A ruling never edits a result. The rows of a round are read from the current results and the
rulings in force at the same moment are laid over them, so every table "as of" a moment before
a verdict is the table as it stood then, and the verdict's table is a new version.

Vocabulary:
- in force as of T: a verdict decided by T; a sanction recorded by T and not lifted by T; a
  withdrawal recorded by T. Appeals filed and not decided by T change nothing.
- upheld verdicts on ChGK questions: ``withdraw-question`` marks the question ``X`` in every
  team's mask; ``accept-answer`` marks it ``1`` for the appealing team and every team the jury
  credited; a ``disputed`` answer becomes ``1`` (upheld) or ``0`` (rejected). A withdrawal of a
  question beats an accepted answer on it. A team whose result is a count without a mask gets
  an accepted answer added to its count; a withdrawn question leaves its count as it is, with a
  footnote saying so.
- sanction effects on rows: ``tour-result-zero`` (the team's tour row counts 0),
  ``battle-loss`` (each battle in ``items`` a 0:6 loss for the team), ``not-admitted`` (the
  team's tour row is dropped: it counts as absent). Other effects (bans, warnings, expulsion)
  change no row: they are footnotes.
- withdrawal effects on Brainball (п. 18): before the middle tour every battle of the team is
  annulled unless it completed a full round (played every other team in round 1;
  teams outside the competition, which play no Brainball, do not count); after it,
  its round-2 battles are annulled. Its ChGK results are kept.
- middle tour: the tour that opens the second half of the calendar, number ⌊n/2⌋ + 1 of n
  tours (our reading of п. 9 and 18).
- footnote: a reason added to an entrant's row (see ``podium.engine.compute``), keyed by the
  row's id (an entry number; a team label in battles).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils import timezone

from podium.engine.entries import Reason
from podium.engine.inputs import RawRow
from podium.engine.messages import Message, Value, _, ngettext
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import Stage
from podium.web.models import Appeal, Entry, Event, Round, Sanction, Verdict, Withdrawal

Notes = dict[str, list[Reason]]

ROW_EFFECTS = ("tour-result-zero", "battle-loss", "not-admitted")


@dataclass(frozen=True)
class Rulings:
    """The rulings of one event in force at one moment (or every one recorded)."""

    verdicts: tuple[Verdict, ...] = ()
    sanctions: tuple[Sanction, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    credited: dict[int, tuple[int, ...]] = field(default_factory=dict)  # verdict → entry ids

    def __bool__(self) -> bool:
        return bool(self.verdicts or self.sanctions or self.withdrawals)

    def in_force(self, moment: dt.datetime) -> Rulings:
        """Those of these rulings in force at ``moment`` (see the vocabulary)."""
        return Rulings(
            tuple(v for v in self.verdicts if v.decided_at <= moment),
            tuple(
                s
                for s in self.sanctions
                if s.recorded_at <= moment and (s.lifted_at is None or s.lifted_at > moment)
            ),
            tuple(w for w in self.withdrawals if w.recorded_at <= moment),
            self.credited,
        )


def rulings_as_of(event: Event, at: dt.datetime | None = None) -> Rulings:
    """Every ruling of the event in force at ``at`` (now when ``None``)."""
    return rulings_recorded(event).in_force(at if at is not None else timezone.now())


def rulings_recorded(event: Event) -> Rulings:
    """Every ruling of the event recorded, lifted or not (one read of each kind), so that the
    rulings in force at several moments are read once."""
    if not (event.rulebook.appeals or event.rulebook.sanctions):
        return Rulings()
    verdicts = tuple(
        Verdict.objects.filter(appeal__event=event)
        .select_related("appeal", "appeal__entry", "correction")
        .prefetch_related("credited")
        .order_by("decided_at", "id")
    )
    sanctions = tuple(
        Sanction.objects.filter(event=event)
        .select_related("entry", "person")
        .order_by("recorded_at", "id")
    )
    withdrawals = tuple(
        Withdrawal.objects.filter(entry__event=event)
        .select_related("entry")
        .order_by("received_at", "id")
    )
    credited = {v.pk: tuple(e.pk for e in v.credited.all()) for v in verdicts}
    return Rulings(verdicts, sanctions, withdrawals, credited)


def appeal_clause(rulebook: Rulebook, rule: str) -> str | None:
    return next((a.clause for a in rulebook.appeals if a.key == rule), None)


def sanction_clause(rulebook: Rulebook, key: str, effect: str | None = None) -> str | None:
    """The clause of a sanction rule, or of one of its effects where that has its own."""
    for rule in rulebook.sanctions:
        if rule.key != key:
            continue
        for e in rule.effects:
            if e.kind == effect and e.clause:
                return e.clause
        return rule.clause
    return None


def effects_of(rulebook: Rulebook, sanction: Sanction) -> tuple[str, ...]:
    """The effect kinds a sanction applies: the one it picked, or every effect of its rule."""
    if sanction.effect:
        return (sanction.effect,)
    rule = next((r for r in rulebook.sanctions if r.key == sanction.key), None)
    return tuple(e.kind for e in rule.effects) if rule else ()


def middle_tour(event: Event, tour_stage: str) -> int | None:
    """The number of the middle tour (see the vocabulary); ``None`` with no calendar yet."""
    count = Round.objects.filter(event=event, stage=tour_stage).count()
    return count // 2 + 1 if count else None


def _note(notes: Notes, key: str, reason: Reason) -> None:
    if reason not in notes[key]:
        notes[key].append(reason)


# --- ChGK tours -------------------------------------------------------------------------------


def _marks(row: RawRow) -> list[str] | None:
    mask = (row.cells.get("mask") or "").strip()
    return list(mask) if mask else None


def _set(row: RawRow, marks: list[str] | None, questions: int | None) -> RawRow:
    cells = dict(row.cells)
    if marks is not None:
        cells["mask"] = "".join(marks)
        if cells.get("questions", "").strip():
            cells["questions"] = str(marks.count("1"))
    elif questions is not None:
        cells["questions"] = str(questions)
    return RawRow(row.line, cells)


def _count(row: RawRow) -> int | None:
    text = (row.cells.get("questions") or "").strip()
    return int(text) if text.isdigit() else None


@dataclass
class _Tour:
    """A tour's rows, by id, while the rulings are laid over them: marks and counts, the rows
    changed, dropped or counting 0, and the footnotes (``tour`` starts each, in a season)."""

    marks: dict[str, list[str] | None]
    counts: dict[str, int | None]
    tour: int | None
    notes: Notes = field(default_factory=lambda: defaultdict(list))
    changed: set[str] = field(default_factory=set)
    dropped: set[str] = field(default_factory=set)  # not admitted: no row
    zero: set[str] = field(default_factory=set)  # the tour counts 0

    def note(self, team: str, clause: str | None, text: Message) -> None:
        if self.tour is not None:
            text = _("Tour %(tour)s: %(note)s", tour=self.tour, note=text)
        _note(self.notes, team, Reason(clause, text))

    def credit(self, team: str, q: int, mark: str, text: Message, clause: str | None) -> None:
        """Marks an answer (a count without a mask takes an accepted one as one more)."""
        mask, counts = self.marks.get(team), self.counts
        if mask is not None and 0 < q <= len(mask):
            if mask[q - 1] != mark and mask[q - 1] != "X":
                mask[q - 1] = mark
                self.changed.add(team)
        elif mask is None and team in counts and counts[team] is not None and mark == "1":
            counts[team] = (counts[team] or 0) + 1
            self.changed.add(team)
        else:
            return
        self.note(team, clause, text)


def _answers(
    tour: _Tour, rulebook: Rulebook, on_round: Sequence[Verdict], numbers: dict[int, int],
    credited: dict[int, tuple[int, ...]],
) -> None:  # fmt: skip
    """Accepted answers (to the appealing team and every team credited) and disputed ones."""
    for verdict in on_round:
        appeal = verdict.appeal
        q = appeal.question or 0
        clause = appeal_clause(rulebook, appeal.rule)
        team = str(appeal.entry.number)
        known: dict[str, Value] = {"q": q, "appeal": appeal.number}
        if appeal.kind == Appeal.Kind.ACCEPT and verdict.upheld:
            text = _("Question %(q)s: answer accepted by the jury (appeal %(appeal)s)", **known)
            tour.credit(team, q, "1", text, clause)
            for entry_id in credited.get(verdict.pk, ()):
                other = str(numbers.get(entry_id, ""))
                same = _(
                    "Question %(q)s: the same answer accepted by the jury (appeal %(appeal)s)",
                    **known,
                )
                tour.credit(other, q, "1", same, clause)
        elif appeal.kind == Appeal.Kind.DISPUTED:
            mark = "1" if verdict.upheld else "0"
            text = (
                _("Question %(q)s: disputed answer accepted by the jury", q=q)
                if verdict.upheld
                else _("Question %(q)s: disputed answer not accepted by the jury", q=q)
            )
            tour.credit(team, q, mark, text, clause)


def _withdrawn(tour: _Tour, rulebook: Rulebook, on_round: Sequence[Verdict]) -> None:
    """Withdrawn questions: ``X`` in every mask; a count without a mask is left with a note."""
    for verdict in on_round:
        appeal = verdict.appeal
        if appeal.kind != Appeal.Kind.WITHDRAW or not verdict.upheld:
            continue
        q = appeal.question or 0
        clause = appeal_clause(rulebook, appeal.rule)
        for team, mask in tour.marks.items():
            if mask is not None and 0 < q <= len(mask):
                mask[q - 1] = "X"
                tour.changed.add(team)
            elif mask is None:
                text = _(
                    "Question %(q)s withdrawn (appeal %(appeal)s), but this team's result "
                    "is a count without a mask: it is unchanged",
                    q=q,
                    appeal=appeal.number,
                )
                tour.note(team, clause, text)


def _tour_sanctions(
    tour: _Tour, rulebook: Rulebook, stage: Stage, round: int, sanctions: Sequence[Sanction]
) -> None:
    """The teams not admitted to the tour (dropped) and those whose tour counts 0, noted."""
    for sanction in sanctions:
        if sanction.entry_id is None or sanction.stage != stage.key or sanction.round != round:
            continue
        team = str(sanction.entry.number)
        effects = effects_of(rulebook, sanction)
        if "not-admitted" in effects:
            tour.dropped.add(team)
            clause = sanction_clause(rulebook, sanction.key, "not-admitted")
            text = _("Not admitted to tour %(tour)s: %(why)s", tour=round, why=sanction.reason)
            _note(tour.notes, team, Reason(clause, text))  # says its tour already
        if "tour-result-zero" in effects:
            tour.zero.add(team)
            clause = sanction_clause(rulebook, sanction.key, "tour-result-zero")
            tour.note(team, clause, _("Sanction: %(why)s", why=sanction.reason))


def tour_rulings(
    event: Event, stage: Stage, round: int, rows: Sequence[RawRow], numbers: dict[int, int],
    rulings: Rulings, tour: int | None = None,
) -> tuple[list[RawRow], Notes]:  # fmt: skip
    """The tour's rows with the verdicts and sanctions of ``rulings`` applied, and footnotes.

    ``numbers``: entry id → entry number (row ids are entry numbers); ``tour`` is named at the
    start of each footnote (in a season's table)."""
    rulebook = event.rulebook
    on_round = [
        v
        for v in rulings.verdicts
        if v.appeal.stage == stage.key
        and v.appeal.round == round
        and v.appeal.kind in Appeal.QUESTION_KINDS
    ]
    ruling = _Tour(
        marks={row.cells["id"]: _marks(row) for row in rows},
        counts={row.cells["id"]: _count(row) for row in rows},
        tour=tour,
    )
    _answers(ruling, rulebook, on_round, numbers, rulings.credited)
    _withdrawn(ruling, rulebook, on_round)
    _tour_sanctions(ruling, rulebook, stage, round, rulings.sanctions)
    ruled: list[RawRow] = []
    for row in rows:
        team = row.cells["id"]
        if team in ruling.dropped:
            continue
        if team in ruling.changed:
            row = _set(row, ruling.marks[team], ruling.counts[team])
        if team in ruling.zero:
            row = RawRow(row.line, {**row.cells, "sanctioned": "yes"})
        ruled.append(row)
    return ruled, ruling.notes


# --- Brainball battles ------------------------------------------------------------------------


def _battle_teams(row: RawRow) -> tuple[str, str]:
    return row.cells.get("team1", ""), row.cells.get("team2", "")


def battle_rulings(
    event: Event,
    stage: Stage,
    rows: Sequence[RawRow],
    labels: dict[int, str],
    rulings: Rulings,
) -> tuple[list[RawRow], Notes]:
    """The battles with sanctions (0:6 losses) and withdrawals (annulled battles) applied.

    ``labels``: entry id → the team's label, as the rows name teams."""
    rulebook = event.rulebook
    notes: Notes = defaultdict(list)
    offenders: dict[str, str] = {}
    for sanction in rulings.sanctions:
        if sanction.entry_id is None or "battle-loss" not in effects_of(rulebook, sanction):
            continue
        label = labels.get(sanction.entry_id)
        clause = sanction_clause(rulebook, sanction.key, "battle-loss")
        for item in sanction.items:
            if label is not None:
                offenders[str(item)] = label
                _note(notes, label, Reason(clause, _("Sanction: %(why)s", why=sanction.reason)))
    annulled = _annulled(event, stage, rows, labels, rulings, notes)
    ruled = []
    for row in rows:
        if row.cells.get("id") in annulled:
            continue
        offender = offenders.get(row.cells.get("id", ""))
        if offender is not None:
            row = RawRow(row.line, {**row.cells, "sanctioned": offender})
        ruled.append(row)
    return ruled, notes


def _annulled(
    event: Event,
    stage: Stage,
    rows: Sequence[RawRow],
    labels: dict[int, str],
    rulings: Rulings,
    notes: Notes,
) -> set[str]:
    """The battles the withdrawals annul (п. 18), each noted on the teams that keep a row."""
    rulebook = event.rulebook
    # A full round is against the league's teams: a team outside the competition (ChGK only,
    # п. 10) that never plays Brainball is nobody's missing opponent.
    scored = Entry.objects.filter(pk__in=list(labels), scored=True).values_list("pk", flat=True)
    teams = {label for row in rows for label in _battle_teams(row)} | {labels[pk] for pk in scored}
    annulled: set[str] = set()
    for withdrawal in rulings.withdrawals:
        label = labels.get(withdrawal.entry_id)
        if label is None:
            continue
        mine = [row for row in rows if label in _battle_teams(row)]
        clause = sanction_clause(rulebook, withdrawal.rule, "results-annulled")
        if withdrawal.before_middle:
            first_round = {
                _other(row, label) for row in mine if (row.cells.get("round") or "") == "1"
            }
            full = first_round >= teams - {label}
            gone = [] if full else mine
        else:
            full, gone = False, [row for row in mine if (row.cells.get("round") or "") == "2"]
        when = withdrawal.received_at.astimezone(event.zone).date().isoformat()
        text = (
            _("Withdrew on %(when)s: it completed a full round, so its battles stand", when=when)
            if full
            else ngettext(
                "Withdrew on %(when)s: %(n)s of its battles annulled",
                "Withdrew on %(when)s: %(n)s of its battles annulled",
                len(gone),
                when=when,
            )
        )
        _note(notes, label, Reason(clause, text))
        for row in gone:
            annulled.add(row.cells.get("id", ""))
            other = _other(row, label)
            battle = _(
                "Round %(round)s battle against %(team)s annulled: it withdrew on %(when)s",
                round=row.cells.get("round", ""),
                team=label,
                when=when,
            )
            _note(notes, other, Reason(clause, battle))
    return annulled


def _other(row: RawRow, label: str) -> str:
    team1, team2 = _battle_teams(row)
    return team2 if team1 == label else team1


# --- Every table ------------------------------------------------------------------------------


def entry_notes(
    event: Event, stage: Stage, entries: Iterable[Entry], key: dict[int, str], rulings: Rulings
) -> Notes:
    """Footnotes of rulings that change no row: withdrawals, bans and warnings of a team or a
    player, protests on their results — for the entries of a table (``key``: entry id → row
    id)."""
    rulebook = event.rulebook
    notes: Notes = defaultdict(list)
    ids = {e.pk for e in entries}
    withdrawn = {(w.entry_id, w.rule) for w in rulings.withdrawals}
    for withdrawal in rulings.withdrawals:
        if withdrawal.entry_id in ids and stage.format not in ("head-to-head", "chgk-tour"):
            when = withdrawal.received_at.astimezone(event.zone).date().isoformat()
            clause = sanction_clause(rulebook, withdrawal.rule, "results-kept")
            text = _WITHDREW[withdrawal.before_middle, bool(withdrawal.middle)]
            kept = Message(text, {"when": when, "middle": withdrawal.middle or ""})
            _note(notes, key[withdrawal.entry_id], Reason(clause, kept))
    for sanction in rulings.sanctions:
        effects = effects_of(rulebook, sanction)
        if sanction.entry_id not in ids or any(e in ROW_EFFECTS for e in effects):
            continue
        if (sanction.entry_id, sanction.key) in withdrawn:
            continue  # the withdrawal's own footnote says it
        if sanction.stage and sanction.stage != stage.key and stage.format != "chgk-season":
            continue
        effect = effects[0] if len(effects) == 1 else None
        clause = sanction_clause(rulebook, sanction.key, effect)
        known: dict[str, Value] = {
            "label": _EFFECT_WORDS.get(effect or "", _("Sanction")),
            "why": sanction.reason,
        }
        text = (
            _("%(label)s: %(who)s: %(why)s", who=str(sanction.person), **known)
            if sanction.person_id
            else _("%(label)s: %(why)s", **known)
        )
        _note(notes, key[sanction.entry_id], Reason(clause, text))
    for verdict in rulings.verdicts:
        appeal = verdict.appeal
        if appeal.kind != Appeal.Kind.PROTEST or appeal.entry_id not in ids:
            continue
        if appeal.stage != stage.key:
            continue
        number = appeal.number
        text = (
            _("Protest %(number)s rejected", number=number)
            if not verdict.upheld
            else _("Protest %(number)s upheld — %(action)s", number=number, action=verdict.action)
            if verdict.action
            else _("Protest %(number)s upheld", number=number)
        )
        _note(notes, key[appeal.entry_id], Reason(appeal_clause(rulebook, appeal.rule), text))
    return notes


_EFFECT_WORDS = {
    "warning": _("Warning"),
    "expulsion": _("Expelled"),
    "player-disqualified": _("Player disqualified"),
    "team-disqualified": _("Team disqualified"),
}

# Keyed by (before the middle tour, the middle tour known).
_WITHDREW = {
    (True, True): _(
        "Withdrew on %(when)s, before the middle tour %(middle)s: its ChGK results are kept"
    ).template,
    (True, False): _(
        "Withdrew on %(when)s, before the middle tour: its ChGK results are kept"
    ).template,
    (False, True): _(
        "Withdrew on %(when)s, after the middle tour %(middle)s: its ChGK results are kept"
    ).template,
    (False, False): _(
        "Withdrew on %(when)s, after the middle tour: its ChGK results are kept"
    ).template,
}


def merge(*parts: Notes) -> Notes:
    merged: Notes = defaultdict(list)
    for part in parts:
        for key, reasons in part.items():
            for reason in reasons:
                _note(merged, key, reason)
    return merged
