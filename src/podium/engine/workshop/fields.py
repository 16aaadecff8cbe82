"""The workshop's fields: made-up entrants and their raw rows, shaped like a stage's results.

Vocabulary:
- field: one run's entrants and their raw rows, shaped like the stage's results file
  (nationalities, groups, ties, non-finishers, penalties, absences…), as far as the format's
  inputs go.
- entrant: a made-up person, pair or team, with a ``strength`` from 0 (weakest) to 1 (strongest)
  that its results follow; those refused at registration or past the cap are tallied, not
  fielded.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass

from podium.engine import eligibility
from podium.engine.formats.common import members_range
from podium.engine.inputs import RawRow
from podium.engine.messages import _
from podium.engine.workshop.findings import Tally
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import (
    GamesStage,
    Stage,
    SuperfinalStage,
    TeamSolveStage,
    TimedSolveStage,
)

FOREIGN = ("SK", "PL", "DE", "AT", "IT", "HU")
_FIRST = ("Jana", "Petr", "Lucie", "Tomáš", "Eva", "Marco", "Anna", "Ivan", "Olga", "Luca")
_LAST = ("Novák", "Horák", "Rossi", "Bianchi", "Kowalski", "Petrov", "Müller", "Svoboda")


@dataclass(frozen=True, slots=True)
class Entrant:
    """One made-up entrant, accepted at registration."""

    id: str
    name: str
    countries: tuple[str, ...]
    birth: dt.date
    strength: float  # 0 (weakest) to 1 (strongest)


def registrations(
    rulebook: Rulebook, stage: Stage, count: int, rng: random.Random, tally: Tally, run: int
) -> list[Entrant]:
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
    accepted: list[Entrant] = []
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
        accepted.append(Entrant(f"S{n:04d}", name, countries, birth, rng.random()))
    return accepted


def field_rows(
    rulebook: Rulebook,
    stage: Stage,
    field: list[Entrant],
    rng: random.Random,
    tally: Tally,
    run: int,
) -> list[RawRow]:
    """The raw rows of one run, as the stage's results file would hold them: a few entrants
    absent at the start where the rulebook has a no-show rule, and a superfinal's extra
    questions after a tie, each tallied."""
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


def _common(stage: Stage, e: Entrant, n: int) -> dict[str, str]:
    cells = {"id": e.id, "name": e.name, "country": "/".join(e.countries)}
    if stage.groups:
        cells["group"] = stage.groups[n % len(stage.groups)]
    return cells


def _finish_time(e: Entrant, limit_s: int, rng: random.Random, times: list[int]) -> int | None:
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


def _timed(rulebook: Rulebook, stage: Stage, field: list[Entrant], rng: random.Random) -> Cells:
    assert isinstance(stage, TimedSolveStage)
    limit = stage.time_limit_min * 60
    times: list[int] = []
    out: Cells = []
    for n, e in enumerate(field):
        cells = _common(stage, e, n)
        seconds = _finish_time(e, limit, rng, times)
        if seconds is None:
            # The column is there even when nobody finishes (a small field): the file's header.
            cells["time"] = ""
            cells["pieces"] = str(int(stage.pieces * (0.5 + 0.45 * e.strength)))
        else:
            cells["time"] = _clock(seconds)
            cells["missing"] = str(rng.choice((0, 0, 0, 0, 0, 0, 1, 2)))
        out.append(cells)
    return out


def _team(rulebook: Rulebook, stage: Stage, field: list[Entrant], rng: random.Random) -> Cells:
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
            cells["pieces"] = str(_unfinished_pieces(stage, done, e))
        out.append(cells)
    return out


def _unfinished_pieces(stage: TeamSolveStage, done: int, e: Entrant) -> int:
    """The pieces an unfinished team counts: on its puzzle in progress, or under
    ``pieces-summed`` on all its puzzles together (its finished ones, the smallest, whole)."""
    ordered = sorted(stage.puzzles)
    if stage.unfinished.method != "pieces-summed":
        return int(ordered[0] * (0.3 + 0.6 * e.strength))
    return sum(ordered[:done]) + int(ordered[done] * (0.3 + 0.6 * e.strength))


def _games(rulebook: Rulebook, stage: Stage, field: list[Entrant], rng: random.Random) -> Cells:
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


def _tour(rulebook: Rulebook, stage: Stage, field: list[Entrant], rng: random.Random) -> Cells:
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


def _season(rulebook: Rulebook, stage: Stage, field: list[Entrant], rng: random.Random) -> Cells:
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


def _league(rulebook: Rulebook, stage: Stage, field: list[Entrant], rng: random.Random) -> Cells:
    match = getattr(stage, "match", None)
    questions = match.questions if match else 6
    rounds = getattr(stage, "rounds", 1)
    # A grouped stage plays a league in each group: the teams dealt out to the groups in turn.
    # (Only as many groups as can play a battle: two teams each.)
    groups = list(stage.groups)[: max(1, len(field) // 2)] or [""]
    out: Cells = []
    for g, group in enumerate(groups):
        teams = field[g :: len(groups)]
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
                    if group:
                        out[-1]["group"] = group
    return out


MAX_PAIRS = 30  # extra pairs after a tie in the superfinal: the day ends before this does


def _superfinal(
    rulebook: Rulebook, stage: Stage, field: list[Entrant], rng: random.Random
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


_MAKERS: dict[str, Callable[[Rulebook, Stage, list[Entrant], random.Random], Cells]] = {
    "timed-solve": _timed,
    "team-solve": _team,
    "games": _games,
    "chgk-tour": _tour,
    "chgk-season": _season,
    "head-to-head": _league,
    "superfinal": _superfinal,
}
