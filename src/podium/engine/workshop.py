"""The rulebook workshop: a dry run of one stage on made-up but plausible entrants.

Vocabulary:
- simulation: ``runs`` fields of ``entrants`` each, made from one seed (``random.Random``, never
  the global generator), ranked by the engine exactly as real results would be.
- field: one run's entrants and their raw rows, shaped like the stage's results file
  (nationalities, groups, ties, non-finishers, penalties, absences…), as far as the format's
  inputs go.
- finding: something the rules had to decide in a run — a tie across an advancement cut, a quota
  that could not be filled, a tie for a prize held for a play-off, a shared prize place, an
  entrant refused at registration or outside the competition, a full registration, an absence —
  with the clause of the rulebook that decides it.
- report: every finding with the number of runs it happened in and how often in all, and the
  standings of the first run as a preview.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from podium.engine import eligibility
from podium.engine.compute import compute_standings
from podium.engine.entries import Entry
from podium.engine.formats.common import members_range
from podium.engine.inputs import RawRow
from podium.engine.messages import Message, Span, Value, _, ngettext, term
from podium.engine.ranking import Criterion, RowCriterion, criteria_for
from podium.engine.standings import Standings, Table
from podium.rules.schema import (
    Advancement,
    GamesStage,
    Pool,
    Rulebook,
    Stage,
    SuperfinalStage,
    TeamSolveStage,
    TimedSolveStage,
)

Kind = Literal[
    "tie-at-cut", "quota-unfilled", "playoff", "shared-prize", "refused", "waiting-list",
    "outside", "absent", "tie-break", "extra-questions",
]  # fmt: skip
DEFAULT_ENTRANTS = 60
CLAUSE = _("clause")  # the label before a finding's clause in the text report
DEFAULT_TEAMS = 16  # a club's league: every team meets every other
DEFAULT_RUNS = 10
FIELD_MAX = {"head-to-head": 20, "superfinal": 2}
MAX_ENTRANTS = 1000
MAX_RUNS = 200
FOREIGN = ("SK", "PL", "DE", "AT", "IT", "HU")
_FIRST = ("Jana", "Petr", "Lucie", "Tomáš", "Eva", "Marco", "Anna", "Ivan", "Olga", "Luca")
_LAST = ("Novák", "Horák", "Rossi", "Bianchi", "Kowalski", "Petrov", "Müller", "Svoboda")


@dataclass(frozen=True, slots=True)
class Finding:
    kind: Kind
    clause: str | None
    message: Message
    runs: int  # the runs it happened in
    times: int  # how often in all runs


@dataclass(frozen=True, slots=True)
class Report:
    rulebook: str
    stage: str
    entrants: int
    seed: int
    runs: int
    findings: tuple[Finding, ...]
    preview: Standings

    def clauses(self) -> list[str]:
        """Every clause the report cites, once each."""
        return list(dict.fromkeys(f.clause for f in self.findings if f.clause))


class _Tally:
    """Findings gathered over the runs, by what they are about (first message kept)."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, ...], tuple[Kind, str | None, Message, set[int], int]] = {}

    def add(
        self, run: int, key: tuple[str, ...], kind: Kind, clause: str | None, message: Message
    ) -> None:
        known = self.found.get((kind, *key))
        if known is None:
            self.found[(kind, *key)] = (kind, clause, message, {run}, 1)
        else:
            known[3].add(run)
            self.found[(kind, *key)] = (*known[:4], known[4] + 1)

    def findings(self) -> tuple[Finding, ...]:
        return tuple(
            Finding(kind, clause, message, len(runs), times)
            for kind, clause, message, runs, times in self.found.values()
        )


def simulate(
    rulebook: Rulebook,
    stage_key: str,
    *,
    entrants: int | None = None,
    seed: int = 0,
    runs: int = DEFAULT_RUNS,
) -> Report:
    """The dry run of one stage; raises ``InputError`` for an unknown stage (as standings do)
    and ``ValueError`` for counts out of bounds. ``entrants``: by default the cap of the
    stage's category (the field the rulebook plans for), else ``DEFAULT_ENTRANTS``."""
    stage = next((s for s in rulebook.stages if s.key == stage_key), None)
    if stage is None:
        compute_standings(rulebook, stage_key, [])  # says which stages there are
        raise AssertionError("unreachable")
    if entrants is None:
        entrants = default_entrants(rulebook, stage)
    if not 2 <= entrants <= MAX_ENTRANTS:
        raise ValueError(f"entrants must be 2–{MAX_ENTRANTS}")
    if not 1 <= runs <= MAX_RUNS:
        raise ValueError(f"runs must be 1–{MAX_RUNS}")
    # Only so many can play: a league plays every pair (a club's size), a superfinal two teams.
    entrants = min(entrants, FIELD_MAX.get(stage.format, entrants))
    rng = random.Random(seed)
    tally = _Tally()
    preview: Standings | None = None
    for run in range(runs):
        field = _registrations(rulebook, stage, entrants, rng, tally, run)
        rows = _rows(rulebook, stage, field, rng, tally, run)
        standings = compute_standings(rulebook, stage_key, rows)
        for table in standings.tables:
            _read_table(stage, table, tally, run)
        if preview is None:
            preview = standings
    assert preview is not None
    return Report(rulebook.key, stage_key, entrants, seed, runs, tally.findings(), preview)


def default_entrants(rulebook: Rulebook, stage: Stage) -> int:
    """The cap of the stage's category or of the registration, else ``DEFAULT_TEAMS`` for
    teams and ``DEFAULT_ENTRANTS`` for the rest; never more than the format lets play."""
    category = rulebook.category(stage.category) if stage.category else None
    caps = [c for c in (rulebook.registration.cap, category.cap if category else None) if c]
    teams = category is not None and category.entrants.kind == "team"
    planned = min(caps) if caps else DEFAULT_TEAMS if teams else DEFAULT_ENTRANTS
    return min(planned, FIELD_MAX.get(stage.format, planned))


@dataclass(frozen=True, slots=True)
class _Entrant:
    id: str
    name: str
    countries: tuple[str, ...]
    birth: dt.date
    strength: float  # 0 (weakest) to 1 (strongest)


def _registrations(
    rulebook: Rulebook, stage: Stage, count: int, rng: random.Random, tally: _Tally, run: int
) -> list[_Entrant]:
    """The entrants who registered and were accepted: those refused by an eligibility rule, and
    those past the cap, are tallied and left out."""
    home = rulebook.classification.domestic
    home_country = home.country if home else "CZ"
    low, high = members_range(rulebook, stage)
    members = rng.randint(low, high) if high <= 4 else low
    day = rulebook.event_date or dt.date(2026, 6, 1)
    rules = rulebook.registration.eligibility
    category = rulebook.category(stage.category) if stage.category else None
    caps = [c for c in (rulebook.registration.cap, category.cap if category else None) if c]
    cap = min(caps) if caps else None
    accepted: list[_Entrant] = []
    names: set[str] = set()
    for n in range(1, count + 1):
        countries = tuple(
            home_country if rng.random() < 0.85 else rng.choice(FOREIGN) for _m in range(members)
        )
        young = rng.random() < 0.04  # a few children, as at any open event
        age = rng.randint(10, 15) if young else rng.randint(16, 70)
        birth = day - dt.timedelta(days=age * 365 + rng.randint(0, 364))
        name = " & ".join(f"{rng.choice(_FIRST)} {rng.choice(_LAST)}" for _m in range(members))
        if name in names:  # a league's battles name teams: every name is told apart
            name = f"{name} ({n})"
        names.add(name)
        accompanied = rng.random() < 0.7
        verdict = eligibility.check(
            rules, birth_date=birth, event_date=day, accompanied=accompanied
        )
        if not verdict.eligible:
            failure = verdict.failures[0]
            text = _("Refused at registration: %(why)s", why=failure.message)
            tally.add(run, ("eligibility", failure.clause or ""), "refused", failure.clause, text)
            continue
        if cap is not None and len(accepted) >= cap:
            clause = (category.clause if category and category.cap == cap else None) or (
                rulebook.registration.clause
            )
            text = _("Registration full at %(cap)s: later entrants wait or are turned away",
                     cap=cap)  # fmt: skip
            tally.add(run, ("cap",), "waiting-list", clause, text)
            continue
        accepted.append(_Entrant(f"S{n:04d}", name, countries, birth, rng.random()))
    return accepted


def _rows(
    rulebook: Rulebook,
    stage: Stage,
    field: list[_Entrant],
    rng: random.Random,
    tally: _Tally,
    run: int,
) -> list[RawRow]:
    present = list(field)
    if rulebook.no_show is not None and len(field) > 2:
        absent = [e for e in field if rng.random() < 0.03]
        if absent:
            text = _("Absent at the start: the seat may be given to someone else")
            tally.add(run, ("no-show",), "absent", rulebook.no_show.clause, text)
            present = [e for e in field if e not in absent] or field[:2]
    make = _MAKERS[stage.format]
    cells = make(rulebook, stage, present, rng)
    if isinstance(stage, SuperfinalStage) and len(cells) > sum(n for _d, n in stage.sequence):
        text = _("Tied after the regular questions: decided by extra questions")
        tally.add(run, ("superfinal",), "extra-questions", stage.ranking.clause, text)
    return [RawRow(line, row) for line, row in enumerate(cells, start=2)]


Cells = list[dict[str, str]]


def _clock(seconds: int) -> str:
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _common(stage: Stage, e: _Entrant, n: int) -> dict[str, str]:
    cells = {"id": e.id, "name": e.name, "country": "/".join(e.countries)}
    if stage.groups:
        cells["group"] = stage.groups[n % len(stage.groups)]
    return cells


def _finish_time(e: _Entrant, limit_s: int, rng: random.Random, times: list[int]) -> int | None:
    """A finisher's time within the limit, or ``None`` for a non-finisher; now and then the same
    second as an earlier finisher, so that ties happen as they do on the day."""
    if times and rng.random() < 0.08:
        return rng.choice(times)
    seconds = int(limit_s * (0.45 + 0.6 * (1 - e.strength) + rng.gauss(0, 0.08)))
    if seconds >= limit_s:
        return None
    seconds = max(seconds, limit_s // 5)
    times.append(seconds)
    return seconds


def _timed(rulebook: Rulebook, stage: Stage, field: list[_Entrant], rng: random.Random) -> Cells:
    assert isinstance(stage, TimedSolveStage)
    limit = stage.time_limit_min * 60
    times: list[int] = []
    out: Cells = []
    for n, e in enumerate(field):
        cells = _common(stage, e, n)
        seconds = _finish_time(e, limit, rng, times)
        if seconds is None:
            cells["pieces"] = str(int(stage.pieces * (0.5 + 0.45 * e.strength)))
        else:
            cells["time"] = _clock(seconds)
            cells["missing"] = str(rng.choice((0, 0, 0, 0, 0, 0, 1, 2)))
        out.append(cells)
    return out


def _team(rulebook: Rulebook, stage: Stage, field: list[_Entrant], rng: random.Random) -> Cells:
    assert isinstance(stage, TeamSolveStage)
    limit = stage.time_limit_min * 60
    puzzles = len(stage.puzzles)
    times: list[int] = []
    out: Cells = []
    for n, e in enumerate(field):
        cells = _common(stage, e, n)
        seconds = _finish_time(e, limit, rng, times)
        done = puzzles if seconds is not None else rng.randint(0, puzzles - 1)
        cells["done"] = str(done)
        if done:
            part = seconds if seconds is not None else int(limit * done / (puzzles + 1))
            cells["time"] = _clock(part)
        if done == puzzles:
            cells["missing"] = str(rng.choice((0, 0, 0, 0, 1)))
        if done < puzzles:
            cells["pieces"] = str(int(min(stage.puzzles) * (0.3 + 0.6 * e.strength)))
        out.append(cells)
    return out


def _games(rulebook: Rulebook, stage: Stage, field: list[_Entrant], rng: random.Random) -> Cells:
    assert isinstance(stage, GamesStage)
    classification = rulebook.classification
    out: Cells = []
    for n, e in enumerate(field):
        average = 130 + 80 * e.strength
        cells = {"id": e.id, "name": e.name, "gender": rng.choice("MMF")}
        if stage.groups:
            cells["group"] = stage.groups[n % len(stage.groups)]
        if rulebook.divisions is not None:
            cells["average"] = f"{average + rng.gauss(0, 5):.2f}"
        if classification.ineligible is not None:
            cells["birth_date"] = e.birth.isoformat()
        if classification.already_qualified is not None:
            cells["qualified"] = "yes" if rng.random() < 0.05 else "no"
        for g in range(1, stage.games + 1):
            cells[f"g{g}"] = str(max(60, min(300, int(rng.gauss(average, 25)))))
        out.append(cells)
    return out


def _tour(rulebook: Rulebook, stage: Stage, field: list[_Entrant], rng: random.Random) -> Cells:
    questions = getattr(stage, "questions", 15)
    unscored = rulebook.classification.unscored is not None
    out: Cells = []
    for e in field:
        mask = "".join("1" if rng.random() < 0.15 + 0.6 * e.strength else "0"
                       for _q in range(questions))  # fmt: skip
        cells = {"id": e.id, "name": e.name, "mask": mask}
        if unscored:
            cells["scored"] = "no" if rng.random() < 0.08 else "yes"
        out.append(cells)
    return out


SEASON_TOURS = 6


def _season(rulebook: Rulebook, stage: Stage, field: list[_Entrant], rng: random.Random) -> Cells:
    tour = rulebook.stage(getattr(stage, "tour", ""))
    questions = getattr(tour, "questions", 15)
    out: Cells = []
    for t in range(1, SEASON_TOURS + 1):
        for e in field:
            if rng.random() < 0.1:
                continue  # absent from this tour
            taken = sum(rng.random() < 0.15 + 0.6 * e.strength for _q in range(questions))
            out.append({"tour": str(t), "id": e.id, "name": e.name, "questions": str(taken)})
    return out


def _league(rulebook: Rulebook, stage: Stage, field: list[_Entrant], rng: random.Random) -> Cells:
    match = getattr(stage, "match", None)
    questions = match.questions if match else 6
    rounds = getattr(stage, "rounds", 1)
    teams = field
    out: Cells = []
    for r in range(1, rounds + 1):
        for i, a in enumerate(teams):
            for b in teams[i + 1 :]:
                won = [rng.random() for _q in range(questions)]
                share = 0.5 + (a.strength - b.strength) / 2
                first = sum(w < share * 0.9 for w in won)
                second = sum(w > 1 - (1 - share) * 0.9 for w in won)
                battle = f"R{r}-{len(out) + 1:03d}"
                out.append({"id": battle, "round": str(r), "team1": a.name, "team2": b.name,
                            "score1": str(first), "score2": str(second)})  # fmt: skip
    return out


MAX_PAIRS = 30  # extra pairs after a tie in the superfinal: the day ends before this does


def _superfinal(
    rulebook: Rulebook, stage: Stage, field: list[_Entrant], rng: random.Random
) -> Cells:
    a, b = field[0].name, field[1].name
    if a == b:
        b = f"{b} 2"
    sequence = list(getattr(stage, "sequence", ()))
    decider = list(getattr(stage, "decider", ()))
    out: Cells = []
    score = [0, 0]

    def ask(discipline: str) -> None:
        if discipline == "chgk":
            taken = (int(rng.random() < 0.5), int(rng.random() < 0.5))
        else:
            winner = rng.choice((0, 1, None))
            taken = (int(winner == 0), int(winner == 1))
        score[0] += taken[0]
        score[1] += taken[1]
        out.append({"id": str(len(out) + 1), "discipline": discipline, a: str(taken[0]),
                    b: str(taken[1])})  # fmt: skip

    for discipline, count in sequence:
        for _q in range(count):
            ask(discipline)
    pairs = 0
    while score[0] == score[1] and pairs < MAX_PAIRS:
        for discipline in decider:
            ask(discipline)
        pairs += 1
    return out


_MAKERS: dict[str, Callable[[Rulebook, Stage, list[_Entrant], random.Random], Cells]] = {
    "timed-solve": _timed,
    "team-solve": _team,
    "games": _games,
    "chgk-tour": _tour,
    "chgk-season": _season,
    "head-to-head": _league,
    "superfinal": _superfinal,
}


def _read_table(stage: Stage, table: Table, tally: _Tally, run: int) -> None:
    """What the rules decided in one table of one run."""
    rule = stage.advancement
    for row in table.rows:
        outside = row.entry.outside
        if outside is not None:
            key = ("outside", row.entry.klass)
            message = outside.message
            said = message if isinstance(message, Message) else Message(message)
            tally.add(run, key, "outside", outside.clause, said)
    _read_ties(stage, table, tally, run)
    if rule is not None:
        for pool in rule.pools_for(table.key):
            _read_pool(rule, pool, table, tally, run)
    _read_prizes(stage, table, tally, run)


FLAGS = frozenset({"finished", "puzzles-done"})  # criteria that only sort finishers first


def _read_pool(rule: Advancement, pool: Pool, table: Table, tally: _Tally, run: int) -> None:
    """A tie across the pool's cut (the last of its places and the first after it shared), or
    fewer candidates than its places."""
    where = table.title
    candidates = [row for row in table.rows if row.entry.klass in pool.classes]
    count = pool.count
    if len(candidates) < count:
        text = _("The quota of %(count)s %(pool)s (%(table)s) could not be filled",
                 count=count, pool=term(pool.label), table=where)  # fmt: skip
        tally.add(run, (table.key, pool.key), "quota-unfilled", pool.clause or rule.clause, text)
    elif 0 < count < len(candidates) and candidates[count - 1].rank == candidates[count].rank:
        known: dict[str, Value] = {"pool": term(pool.label), "table": where}
        text = (
            _("A tie crossed the cut of %(pool)s (%(table)s): everyone tied goes through", **known)
            if rule.ties_at_cut == "all-advance"
            else _("A tie crossed the cut of %(pool)s (%(table)s): the organizer decides", **known)
        )
        clause = rule.ties_clause or pool.clause or rule.clause
        tally.add(run, (table.key, pool.key), "tie-at-cut", clause, text)


def _read_ties(stage: Stage, table: Table, tally: _Tally, run: int) -> None:
    """Ties that a later criterion broke, and places left shared after every criterion."""
    ranking = stage.ranking
    clauses = {c.key: c.clause or ranking.clause for c in ranking.criteria}
    criteria = criteria_for([c.key for c in ranking.criteria])
    shared = False
    for row in table.rows:
        placed = row.placed
        if placed is None:
            continue
        split = placed.split
        if split is not None and _was_tied(criteria, split.criterion, row.entry):
            key = split.criterion.key
            text = _("A tie was broken by %(criterion)s (%(table)s)",
                     criterion=split.criterion.label, table=table.title)  # fmt: skip
            tally.add(run, (table.key, key), "tie-break", clauses.get(key), text)
        if placed.tied and not placed.playoff and not shared:
            shared = True
            text = _("Entrants equal on every criterion share a place (%(table)s)",
                     table=table.title)  # fmt: skip
            tally.add(run, (table.key, "shared"), "tie-break", ranking.clause, text)


def _was_tied(criteria: Sequence[Criterion], by: Criterion, entry: Entry) -> bool:
    """Whether the split on ``by`` broke a tie: the entrant was equal with the one above on a
    criterion before it that measures a result (not a finisher's flag, nor one that did not
    apply, like the time of a non-finisher)."""
    keys = [c.key for c in criteria]
    for criterion in criteria[: keys.index(by.key)] if by.key in keys else ():
        if criterion.key in FLAGS:
            continue
        if not isinstance(criterion, RowCriterion) or criterion.column([entry])[0] is not None:
            return True
    return False


def _read_prizes(stage: Stage, table: Table, tally: _Tally, run: int) -> None:
    playoff = stage.ranking.playoff
    held = [row for row in table.rows if row.playoff]
    if held and playoff is not None:
        places = Span(held[0].rank, held[0].rank_to)
        text = _("A tie for places %(places)s was held for a play-off: %(method)s",
                 places=places, method=term(playoff.method))  # fmt: skip
        tally.add(run, (table.key,), "playoff", playoff.clause, text)
    prizes = stage.prizes
    if prizes is None:
        return
    for row in table.rows:
        first = row.official_rank if prizes.official_only else row.rank
        last = row.official_rank_to if prizes.official_only else row.rank_to
        if first is None or last is None or row.playoff:
            continue
        if first <= prizes.places < last:
            text = _("A tie across the last prize place (%(places)s, %(table)s): the prize is "
                     "shared", places=Span(first, last), table=table.title)  # fmt: skip
            tally.add(run, (table.key,), "shared-prize", prizes.clause, text)
            return


def as_data(report: Report, render: Callable[[Message], str] = str) -> dict[str, object]:
    """The report as JSON data; ``render`` writes each message (English by default)."""
    return {
        "rulebook": report.rulebook,
        "stage": report.stage,
        "entrants": report.entrants,
        "seed": report.seed,
        "runs": report.runs,
        "findings": [
            {
                "kind": f.kind,
                "runs": f.runs,
                "times": f.times,
                "text": render(f.message),
                "clause": f.clause,
            }
            for f in report.findings
        ],
    }


def describe(report: Report, render: Callable[[Message], str] = str) -> list[str]:
    """The report as lines of text (what the CLI prints)."""
    lines = [
        render(_("%(rulebook)s, stage %(stage)s: %(runs)s runs of %(entrants)s entrants, seed "
                 "%(seed)s", rulebook=report.rulebook, stage=report.stage, runs=report.runs,
                 entrants=report.entrants, seed=report.seed))
    ]  # fmt: skip
    if not report.findings:
        lines.append(render(_("Nothing the rules had to decide: no ties at a cut, no unfilled "
                              "quota, no play-off, no one refused")))  # fmt: skip
    for f in report.findings:
        counted = ngettext("in %(runs)s of %(all)s runs, once in all",
                           "in %(runs)s of %(all)s runs, %(n)s times in all", f.times,
                           runs=f.runs, all=report.runs)  # fmt: skip
        lines.append(f"- {render(f.message)} — {render(counted)}")
        if f.clause:
            lines.append(f"  {render(CLAUSE)}: {' '.join(f.clause.split())}")
    return lines
