"""Results in the demo: what happened before a newcomer arrives, and what is left for them.

Each demo event has most of a round already in — typed in from the paper sheets, checked by
the head referee (and agreed by the competitor where the rulebook asks) — and a few entrants
left for the newcomer to do live: start the clock, tap finishes on a phone, count the pieces
of the others at the end, confirm, publish and advance.

- cz-jigsaw, individual qualification: everyone but three entrants of each group; its clock
  started 44 minutes before the demo was loaded, so a finish tapped live lands just ahead of
  the fastest typed-in time (45:00), not at a minute or two.
- it-puzzle-party: 26 of the 30 approved pairs; its clock started 59 minutes before loading
  (the fastest typed-in time is 1:00:00).
- cba-qualifier: squads 1 and 2 and all but three players of squad 3.
- deti-kolomny: six tours on the calendar; tours 1–3 played (both scorers' sheets; one
  mismatch in tour 3 waits for the head referee), tours 1–2 final, tour 3 preliminary; half of
  the Brainball first round played.

Everything comes from fixed seeds. The rows are written in bulk, with one audit entry per
stage saying so, and the engine checks every table afterwards (a demo that does not compute
is a bug).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from django.utils import timezone

from podium.engine.timing import format_clock
from podium.web.chgk.services.rounds import round_add
from podium.web.demo import questions as demo_questions
from podium.web.demo import rulings as demo_rulings
from podium.web.kernel.audit import audit
from podium.web.models import (
    Agreement,
    Entry,
    Event,
    Result,
    SecondEntry,
    Squad,
    Verification,
)
from podium.web.registration.services.payments import payment_record
from podium.web.results.selectors.rows import battle_item, standings_as_of
from podium.web.results.services.clock import round_start
from podium.web.standings.services.publication import publication_set

Row = tuple[Entry, dict[str, str]]


def _typed_at(event: Event, after_start: dt.timedelta) -> dt.datetime:
    """When the paper sheets were typed in: after the round, but never in the future (a demo
    event may lie ahead, and a result recorded later than now would not show yet)."""
    return min(event.starts_at + after_start, timezone.now() - dt.timedelta(hours=1))


def _running(event: Event, stage: str, accounts: dict[str, Any]) -> None:
    """Starts the round's clock (every group) a minute less than half its limit ago: the typed-in
    times begin at half the limit, so the finishes tapped live are close to the fastest."""
    limit = event.rulebook.stage(stage).time_limit_min  # type: ignore[attr-defined]
    started = timezone.now() - dt.timedelta(minutes=limit // 2 - 1)
    round_start(event=event, stage=stage, by=accounts["head"], now=started)


def _paper(
    event: Event,
    stage: str,
    rows: Sequence[Row],
    accounts: dict[str, Any],
    at: dt.datetime,
    *,
    round: int = 1,
    items: Sequence[str] = (),
    second_sheets: dict[int, dict[str, str]] | None = None,
) -> list[Result]:
    """Results typed in from paper, checked the way the stage's rulebook checks them."""
    the_stage = event.rulebook.stage(stage)
    results = Result.objects.bulk_create(
        Result(
            event=event,
            stage=stage,
            round=round,
            entry=None if items else entry,
            item=items[i] if items else "",
            cells=cells,
            recorded_by=accounts["referee"],
            recorded_at=at + dt.timedelta(seconds=i),
            idempotency_key=f"demo:{stage}:{round}:{i}",
            detail={"demo": "typed in from the paper sheet"},
        )
        for i, (entry, cells) in enumerate(rows)
    )
    checked = at + dt.timedelta(minutes=20)
    if the_stage.recording.competitor_confirms:
        Agreement.objects.bulk_create(
            Agreement(result=r, agreed_at=r.recorded_at, on_device_of=accounts["referee"])
            for r in results
        )
    if the_stage.recording.verification == "second-entry":
        sheets = second_sheets or {}
        seconds = SecondEntry.objects.bulk_create(
            SecondEntry(
                result=r,
                cells=sheets.get(i, r.cells),
                differences=[c for c in r.cells if sheets.get(i, r.cells)[c] != r.cells[c]],
                entered_by=accounts["scorer"],
                entered_at=checked,
                idempotency_key=f"demo:{event.pk}:{stage}:{round}:{i}:second",
            )
            for i, r in enumerate(results)
        )
        checks = [
            Verification(
                result=s.result,
                method=Verification.Method.SECOND_ENTRY,
                second_entry=s,
                verified_by=accounts["scorer"],
                verified_at=checked,
            )
            for s in seconds
            if s.matches
        ]
    else:
        checks = [
            Verification(result=r, verified_by=accounts["head"], verified_at=checked)
            for r in results
        ]
    Verification.objects.bulk_create(checks)
    audit(
        event=event,
        actor=accounts["organizer"],
        action="demo.results",
        target=stage,
        stage=stage,
        round=round,
        results=len(results),
        note="typed in by the demo loader, not by a referee",
    )
    standings_as_of(event, stage, round)  # the engine must accept every row
    return results


def _solo_rows(entries: Iterable[Entry], seed: str, pieces: int, limit_s: int) -> list[Row]:
    """Finish times spread over the limit; about one in eight did not finish."""
    rng = random.Random(seed)
    rows = []
    for entry in entries:
        if rng.random() < 0.12:
            rows.append(
                (entry, {"time": "", "missing": "", "pieces": str(rng.randint(180, pieces - 3))})
            )
            continue
        seconds = rng.randint(limit_s // 2, limit_s - 30)
        missing = str(rng.choice((1, 2))) if rng.random() < 0.06 else ""
        rows.append(
            (entry, {"time": format_clock(seconds * 1000), "missing": missing, "pieces": ""})
        )
    return rows


def _confirmed(event: Event, category: str, **where: Any) -> list[Entry]:
    return list(
        event.entries.filter(status=Entry.Status.CONFIRMED, category=category, **where)
        .prefetch_related("members__person")
        .order_by("number")
    )


def cz_jigsaw(event: Event, accounts: dict[str, Any]) -> None:
    stage = event.rulebook.stage("individual-qualification")
    rows: list[Row] = []
    for group in stage.groups:
        entries = _confirmed(event, "individuals", group=group)[:-3]  # three left for the newcomer
        rows += _solo_rows(entries, f"demo:cz:{group}", 500, stage.time_limit_min * 60)  # type: ignore[attr-defined]
    _paper(event, stage.key, rows, accounts, _typed_at(event, dt.timedelta(hours=2)))
    _running(event, stage.key, accounts)


def it_puzzle_party(event: Event, accounts: dict[str, Any]) -> None:
    entries = _confirmed(event, "pairs")[:-4]
    rows = _solo_rows(entries, "demo:it", 500, 120 * 60)
    _paper(event, "pairs", rows, accounts, _typed_at(event, dt.timedelta(hours=2, minutes=5)))
    _running(event, "pairs", accounts)


def _games(rng: random.Random, average: float) -> dict[str, str]:
    return {f"g{i}": str(min(max(round(rng.gauss(average, 22)), 80), 299)) for i in range(1, 7)}


def cba_qualifier(event: Event, accounts: dict[str, Any], squads: Sequence[Squad]) -> None:
    rng = random.Random("demo:cba")
    rows: list[Row] = []
    for squad in squads:
        players = _confirmed(event, "players", squad=squad)
        if squad == squads[-1]:
            players = players[:-3]
        for player in players:
            person = player.members.all()[0].person
            average = float(person.ladder_average or 150)
            rows.append((player, _games(rng, average)))
    at = squads[-1].starts_at + dt.timedelta(hours=3)
    _paper(event, "qualification", rows, accounts, at)
    demo_rulings.bowling(event, accounts, at + dt.timedelta(minutes=30))


TOURS = (
    dt.date(2010, 11, 14),
    dt.date(2010, 11, 28),
    dt.date(2010, 12, 12),
    dt.date(2011, 1, 16),
    dt.date(2011, 2, 13),
    dt.date(2011, 3, 13),
)


def _mask(rng: random.Random, strength: float, questions: int) -> str:
    return "".join("1" if rng.random() < strength else "0" for _ in range(questions))


def deti_kolomny(event: Event, accounts: dict[str, Any]) -> None:
    rng = random.Random("demo:chgk")
    teams = _confirmed(event, "teams")
    scored = [t for t in teams if t.scored]
    for team in scored:  # п. 9: the first half's fee, paid before tour 1
        payment_record(
            entry=team, fee_key="entry-first-half", amount="900", method="cash",
            by=accounts["organizer"],
        )  # fmt: skip
    tour = event.rulebook.stage("chgk-tour")
    org = accounts["organizer"]
    for number, day in enumerate(TOURS, 1):
        starts = dt.datetime.combine(day, dt.time(19, 0), tzinfo=event.zone)
        host = scored[(number * 5) % len(scored)]
        round_add(
            event=event,
            stage=tour.key,
            starts_at=starts,
            by=org,
            host=host,
            title=f"Тур {number}",
        )
    strength = {t.pk: rng.uniform(0.3, 0.75) for t in teams}
    questions = tour.questions  # type: ignore[attr-defined]
    ends: dict[int, dt.datetime] = {}
    for number in (1, 2, 3):
        starts = dt.datetime.combine(TOURS[number - 1], dt.time(21, 30), tzinfo=event.zone)
        playing = [t for t in teams if number == 1 or rng.random() > 0.08]  # a few miss a tour
        rows = [
            (t, {"questions": "", "mask": _mask(rng, strength[t.pk], questions)}) for t in playing
        ]
        second = {}
        if number == 3:  # the second scorer misread question 7 of the first team's card
            first = rows[0][1]["mask"]
            flipped = first[:6] + ("0" if first[6] == "1" else "1") + first[7:]
            second = {0: {"questions": "", "mask": flipped}}
            disputed = rows[2][1]["mask"]  # the third team's answer to question 5 is disputed
            rows[2][1]["mask"] = disputed[:4] + "?" + disputed[5:]
        _paper(event, tour.key, rows, accounts, starts, round=number, second_sheets=second)
        ends[number] = starts + dt.timedelta(seconds=len(rows))
    demo_rulings.chgk_played(event, accounts, ends)
    demo_rulings.chgk_open(event, accounts, ends)
    later = dt.datetime.combine(TOURS[3], dt.time(12, 0), tzinfo=event.zone)
    for number in (1, 2):
        publication_set(event=event, stage=tour.key, round=number, state="preliminary", by=org,
                        now=later)  # fmt: skip
        publication_set(event=event, stage=tour.key, round=number, state="final", by=org,
                        now=later)  # fmt: skip
    publication_set(event=event, stage=tour.key, round=3, state="preliminary", by=org, now=later)
    battles = list(combinations(scored, 2))
    rng.shuffle(battles)
    rows, items = [], []
    for a, b in battles[: len(battles) // 2]:
        won = sum(
            rng.random() < strength[a.pk] / (strength[a.pk] + strength[b.pk]) for _ in range(6)
        )
        items.append(battle_item(1, a.number, b.number))
        rows.append((a, {"round": "1", "team1": str(a.number), "team2": str(b.number),
                         "score1": str(won), "score2": str(6 - won)}))  # fmt: skip
    _paper(event, "brainball", rows, accounts, later, items=items)
    demo_rulings.chgk_withdrawal(event, accounts, later + dt.timedelta(hours=1))
    demo_questions.deti_kolomny(event, accounts)
    staying = [t for t in scored if not hasattr(t, "withdrawal")]
    for team in staying[1:]:  # the second half's fee; the first team has not paid it yet
        payment_record(
            entry=team, fee_key="entry-second-half", amount="900", method="transfer",
            by=accounts["organizer"],
        )  # fmt: skip
    for stage in ("chgk-season", "brainball"):
        publication_set(event=event, stage=stage, state="preliminary", by=org, now=later)
