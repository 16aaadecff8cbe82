"""Reads of recorded results: the current results of a round, and the rows the engine ranks
from them with the rulings in force, so standings "as of" a moment can be computed.

Vocabulary:
- result, round, subject, current result: see ``podium.web.models.results``.
- entry formats: one result per entry holds its whole result in the round (timed solve, team
  solve, games, a ChGK tour). Item formats: one result per battle (head-to-head) or per question
  (superfinal). A ChGK season is not recorded: it is summed from the tours.
- common columns: the DESIGN §3 columns every row shares, built from the entry and its members
  (``id`` is the entry's number); the format's columns come from the result's cells.
- battle item ``b1-3-7``: the battle of entries #3 and #7 in round 1 of the league (their
  numbers in order, so a pairing is recorded once per round); question item ``q5``.
- as of: a moment; a read "as of" T sees only results and verifications made at or before T,
  so any past table can be shown again (``None`` means now).
- by round: a read of several rounds of a stage at once (a season's tours, a page that lists
  rounds), one query for all of them, answered round number → what that round has.

What is verified is read in ``podium.web.results.selectors.verification``, what is public in
``podium.web.results.selectors.publication``.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import prefetch_related_objects
from django.utils import timezone

from podium.engine.compute import compute_standings
from podium.engine.document import standings_data
from podium.engine.formats.chgk.season import PLAYOFF
from podium.engine.inputs import RawRow
from podium.engine.standings import Standings
from podium.rules.schema.stages import ChgkSeasonStage, Stage
from podium.web.disputes.selectors.anonymity import blind_rows
from podium.web.disputes.selectors.rulings import (
    Notes,
    Rulings,
    battle_rulings,
    entry_notes,
    merge,
    rulings_as_of,
    rulings_recorded,
    tour_rulings,
)
from podium.web.kernel.memo import shared, shared_value
from podium.web.kernel.stages import stage_entries, team_labels
from podium.web.kernel.texts import page_row, reason_data
from podium.web.models import Entry, Event, Result
from podium.web.registration.selectors.entries import roster
from podium.web.results.selectors.absent import absent_rows

ENTRY_FORMATS = ("timed-solve", "team-solve", "games", "chgk-tour")
ITEM_FORMATS = ("head-to-head", "superfinal")
RECORDED_FORMATS = ENTRY_FORMATS + ITEM_FORMATS
# Kept for the pages that list what a referee records per entry.
SINGLE_RESULT_FORMATS = ENTRY_FORMATS
BATTLE_COLUMNS = ("round", "team1", "team2", "score1", "score2")


def format_columns(stage: Stage, teams: Sequence[str] = ()) -> tuple[str, ...]:
    """The columns a result of this stage holds (besides the common ones).

    ``teams``: for a superfinal, the two teams' entry numbers (one column each).
    """
    if stage.format == "timed-solve":
        extra = ("compensation", "compensation_reason") if stage.compensation else ()  # type: ignore[union-attr]
        return ("time", "missing", "pieces", *extra)
    if stage.format == "team-solve":
        return ("done", "time", "pieces", "missing")
    if stage.format == "games":
        return tuple(f"g{i}" for i in range(1, stage.games + 1))  # type: ignore[union-attr]
    if stage.format == "chgk-tour":
        return ("questions", "mask")
    if stage.format == "head-to-head":
        return BATTLE_COLUMNS
    if stage.format == "superfinal":
        return ("discipline", *teams)
    return ()


def battle_item(round_robin: int, a: int, b: int) -> str:
    low, high = sorted((a, b))
    return f"b{round_robin}-{low}-{high}"


def question_item(number: int) -> str:
    return f"q{number}"


def item_order(item: str) -> tuple[int, ...]:
    """Items in their natural order: questions by number, battles by round and numbers."""
    digits = item.lstrip("bq").replace("-", " ").split()
    return tuple(int(d) for d in digits if d.isdigit())


def common_cells(entry: Entry) -> dict[str, str]:
    """The common columns of an entry, as a results file would give them."""
    members = [m.person for m in entry.members.all()]
    countries = [p.country.upper() for p in members]
    genders = {p.gender for p in members}
    cells = {
        "id": str(entry.number),
        "name": entry.name,
        "country": "/".join(countries) if countries and all(countries) else "",
        "group": entry.group,
        "gender": genders.pop() if len(genders) == 1 else "",
        "scored": "yes" if entry.scored else "no",
    }
    if len(members) == 1:
        person = members[0]
        if person.ladder_average is not None:
            cells["average"] = str(person.ladder_average)
        if person.birth_date is not None:
            cells["birth_date"] = person.birth_date.isoformat()
    if entry.division:
        cells["division"] = entry.division
    return cells


def raw_row(entry: Entry, stage: Stage, cells: dict[str, str], line: int = 1) -> RawRow:
    """One engine row of an entry format: the entry's common columns and the result's cells."""
    row = common_cells(entry)
    if not stage.groups:
        row["group"] = ""  # a final or a tour has no groups, whatever the qualification drew
    for column in format_columns(stage):
        row[column] = cells.get(column, "")
    return RawRow(line, row)


def item_row(
    stage: Stage,
    item: str,
    cells: dict[str, str],
    labels: dict[str, str],
    line: int = 1,
    groups: dict[str, str] | None = None,
) -> RawRow:
    """One engine row of a battle or a superfinal question, teams named by their labels; a
    battle of a grouped stage in the group of its first team (``groups_by_number``)."""

    def label(number: str) -> str:
        return labels.get(number, f"#{number}")

    if stage.format == "head-to-head":
        row = {"id": item, **{c: cells.get(c, "") for c in BATTLE_COLUMNS}}
        if groups:
            row["group"] = groups.get(row["team1"]) or groups.get(row["team2"], "")
        row["team1"], row["team2"] = label(row["team1"]), label(row["team2"])
        return RawRow(line, row)
    row = {"id": str(item_order(item)[0]), "discipline": cells.get("discipline", "")}
    for column, value in cells.items():
        if column != "discipline":
            row[label(column)] = value
    return RawRow(line, row)


def groups_by_number(event: Event, stage: Stage) -> dict[str, str]:
    """Each entry's group by its number, for a head-to-head stage with groups (its battles are
    ranked group by group); empty, without a query, for any other stage."""
    if stage.format != "head-to-head" or not stage.groups:
        return {}
    return {str(n): g for n, g in stage_entries(event, stage).values_list("number", "group")}


def labels_by_number(event: Event, stage: Stage) -> dict[str, str]:
    entries = list(stage_entries(event, stage))
    labels = team_labels(entries)
    return {str(e.number): labels[e.pk] for e in entries}


def moment_of(at: dt.datetime | None) -> dt.datetime:
    """The moment a read "as of" ``at`` sees up to (now when ``None``)."""
    return at if at is not None else timezone.now()


def of_round(event: Event, stage: str, round: int) -> dict[str, Any]:
    """The filter of rows that belong to the results of one round (checks, agreements), so a
    read of a large round needs no list of result ids (SQLite limits those)."""
    return of_rounds(event, stage, (round,))


def of_rounds(event: Event, stage: str, rounds: Collection[int] | None) -> dict[str, Any]:
    """The same for several rounds of the stage (``None``: every round)."""
    scope: dict[str, Any] = {"result__event": event, "result__stage": stage}
    if rounds is not None:
        scope["result__round__in"] = list(rounds)
    return scope


def _with_members(results: Sequence[Result]) -> None:
    """Gives the results of one entry one shared entry, and reads the members of them all in
    one query (``select_related`` makes an entry per result: prefetching one of them would
    leave the others to read their members one by one)."""
    entries: dict[int, Entry] = {}
    for result in results:
        if result.entry_id:
            result.entry = entries.setdefault(result.entry_id, result.entry)
    prefetch_related_objects(list(entries.values()), roster())


def _current(recorded: Sequence[Result]) -> list[Result]:
    """Of results in recorded order, the newest of each subject that nothing replaces."""
    replaced = {r.corrects_id for r in recorded if r.corrects_id is not None}
    current: dict[object, Result] = {}
    for result in recorded:
        if result.id not in replaced:
            current[result.entry_id or result.item] = result  # the newest, should a chain fork
    return list(current.values())


def current_among(recorded: Sequence[Result]) -> list[Result]:
    """The current results among ``recorded`` (in recorded order), as ``current_results``
    finds them."""
    return _current(recorded)


def _recorded(
    event: Event, stage: str, rounds: Collection[int] | None, at: dt.datetime | None
) -> list[Result]:
    """Every result of the stage's ``rounds`` (``None``: every round) recorded by ``at``, in
    recorded order."""
    query = Result.objects.filter(event=event, stage=stage, recorded_at__lte=moment_of(at))
    if rounds is not None:
        query = query.filter(round__in=list(rounds))
    return list(query.select_related("entry").order_by("recorded_at", "id"))


def current_by_round(
    event: Event,
    stage: str,
    rounds: Collection[int] | None = None,
    at: dt.datetime | None = None,
    *,
    members: bool = True,
) -> dict[int, list[Result]]:
    """Round number → its current results as of ``at`` (as ``current_results`` orders them),
    for ``rounds`` (``None``: every round with a result), in one read; ``members``: with their
    entries' members (in one more). Made once in a shared block (``kernel.memo``), where a
    read without members is served from one with them."""
    wanted = tuple(sorted(rounds)) if rounds is not None else None
    made = _made_before(event, stage, wanted, at, members)
    if made is None:
        made = shared(
            ("current", event.pk, stage, wanted, at, members),
            lambda: _current_by_round(event, stage, rounds, at, members),
        )
    return {n: list(results) for n, results in made.items() if wanted is None or n in wanted}


def _made_before(
    event: Event, stage: str, wanted: tuple[int, ...] | None, at: dt.datetime | None, members: bool
) -> dict[int, list[Result]] | None:
    """What a read made before in the shared block holds of this one: the same rounds or every
    round, with the members if they are wanted."""
    for rounds in dict.fromkeys((wanted, None)):
        for with_members in dict.fromkeys((members, True)):
            made = shared_value(("current", event.pk, stage, rounds, at, with_members))
            if made is not None:
                return made  # type: ignore[no-any-return]
    return None


def _current_by_round(
    event: Event, stage: str, rounds: Collection[int] | None, at: dt.datetime | None, members: bool
) -> dict[int, list[Result]]:
    by_round: dict[int, list[Result]] = defaultdict(list)
    for result in _recorded(event, stage, rounds, at):
        by_round[result.round].append(result)
    current = {n: _ordered(_current(recorded)) for n, recorded in sorted(by_round.items())}
    if members:
        _with_members([r for results in current.values() for r in results])
    return current


def _ordered(results: list[Result]) -> list[Result]:
    """Entries in number order, items in their natural order."""
    return sorted(results, key=lambda r: (r.entry.number,) if r.entry_id else item_order(r.item))


def current_results(
    event: Event, stage: str, round: int = 1, at: dt.datetime | None = None
) -> list[Result]:
    """The current result of each subject in the round as of ``at``: entries in number order,
    items in their natural order."""
    return current_by_round(event, stage, (round,), at).get(round, [])


def current_of_entries(
    event: Event, stage: str, round: int, entries: Collection[int]
) -> list[Result]:
    """The current results of just these entries (ids) in the round, in number order: one
    query, however many results the rest of the stage has."""
    recorded = (
        Result.objects.filter(event=event, stage=stage, round=round, entry__in=list(entries))
        .select_related("entry")
        .order_by("recorded_at", "id")
    )
    return _ordered(_current(list(recorded)))


def _tour_rows(
    event: Event, tour: Stage, number: int, results: Sequence[Result], first_line: int
) -> list[RawRow]:
    rows = []
    for result in sorted(results, key=lambda r: r.entry.number):
        row = raw_row(result.entry, tour, result.cells, first_line + len(rows))
        rows.append(RawRow(row.line, {**row.cells, "tour": str(number)}))
    return rows


def _season_rows(
    event: Event,
    stage: ChgkSeasonStage,
    at: dt.datetime | None,
    rounds: Collection[int] | None,
    rulings: Rulings,
) -> tuple[list[RawRow], Notes]:
    """One row per team and tour, from the current results of every tour (or of ``rounds``)
    with the rulings of each tour applied, then the play-off rows."""
    tour = event.rulebook.stage(stage.tour)
    by_tour = current_by_round(event, tour.key, None, at)
    rows: list[RawRow] = []
    notes: list[Notes] = []
    numbers = sorted(by_tour if rounds is None else set(rounds))
    by_entry = _entry_numbers(event) if rulings else {}
    for number in numbers:
        tour_rows = _tour_rows(event, tour, number, by_tour.get(number, []), len(rows) + 1)
        if rulings:
            tour_rows, ruled = tour_rulings(
                event, tour, number, tour_rows, by_entry, rulings, number
            )
            notes.append(ruled)
        # The season's rows say nothing per question, but a row read from them stays blind.
        tour_rows = blind_rows(event.rulebook, tour_rows).rows
        rows.extend(RawRow(len(rows) + i, row.cells) for i, row in enumerate(tour_rows, start=1))
    # An annulled play-off (its current result holds no play-off) is left out.
    playoffs = [r for r in current_results(event, stage.key, 1, at) if r.cells.get("playoff")]
    for result in playoffs:
        row = common_cells(result.entry)
        row |= {"group": "", "tour": PLAYOFF, "playoff": result.cells.get("playoff", "")}
        rows.append(RawRow(len(rows) + 1, row))
    if rulings:
        entries = {r.entry_id: r.entry for results in by_tour.values() for r in results}
        keys = {pk: str(e.number) for pk, e in entries.items()}
        notes.append(entry_notes(event, stage, entries.values(), keys, rulings))
    return rows, merge(*notes)


def _entry_numbers(event: Event) -> dict[int, int]:
    return dict(Entry.objects.filter(event=event).values_list("pk", "number"))


def ruled_rows(
    event: Event,
    stage: str,
    round: int = 1,
    at: dt.datetime | None = None,
    rounds: Collection[int] | None = None,
) -> tuple[list[RawRow], Notes]:
    """The engine's rows for the round as of ``at`` with the rulings in force then applied
    (``podium.web.disputes.selectors.rulings``), and the footnotes they add; a season reads the
    tours ``rounds`` (every tour when ``None``). Made once in a shared block."""
    wanted = tuple(sorted(rounds)) if rounds is not None else None
    rows, notes = shared(
        ("ruled", event.pk, stage, round, at, wanted),
        lambda: _ruled_rows(event, stage, round, at, rounds),
    )
    return list(rows), dict(notes)


def _ruled_rows(
    event: Event,
    stage: str,
    round: int,
    at: dt.datetime | None,
    rounds: Collection[int] | None,
) -> tuple[list[RawRow], Notes]:
    the_stage = event.rulebook.stage(stage)
    rulings = rulings_as_of(event, at)
    if isinstance(the_stage, ChgkSeasonStage):
        return _season_rows(event, the_stage, at, rounds, rulings)
    results = current_results(event, stage, round, at)
    if the_stage.format in ITEM_FORMATS:
        labels = labels_by_number(event, the_stage)
        groups = groups_by_number(event, the_stage)
        rows = [
            item_row(the_stage, r.item, r.cells, labels, line, groups)
            for line, r in enumerate(results, start=1)
        ]
        if not rulings or the_stage.format != "head-to-head":
            return rows, {}
        entries = list(stage_entries(event, the_stage))
        by_pk = team_labels(entries)
        rows, notes = battle_rulings(event, the_stage, rows, by_pk, rulings)
        return rows, merge(notes, entry_notes(event, the_stage, entries, by_pk, rulings))
    rows, notes, _questions = _entry_rows(event, the_stage, round, results, rulings)
    return rows, notes


def _entry_rows(
    event: Event,
    stage: Stage,
    round: int,
    results: Sequence[Result],
    rulings: Rulings,
    numbers: dict[int, int] | None = None,
) -> tuple[list[RawRow], Notes, tuple[int, ...]]:
    """The rows of a stage of one result per entry from its current results, with the rulings
    applied and a tour's open disputes blind (``podium.web.disputes.selectors.anonymity``), and the
    questions under appeal (``numbers``: entry id → number, if already read)."""
    rows = [raw_row(r.entry, stage, r.cells, line) for line, r in enumerate(results, start=1)]
    notes: list[Notes] = []
    if rulings:
        if stage.format == "chgk-tour":
            by_entry = numbers if numbers is not None else _entry_numbers(event)
            rows, ruled = tour_rulings(event, stage, round, rows, by_entry, rulings)
            notes.append(ruled)
        entries = [r.entry for r in results]
        keys = {e.pk: str(e.number) for e in entries}
        notes.append(entry_notes(event, stage, entries, keys, rulings))
    questions: tuple[int, ...] = ()
    if stage.format == "chgk-tour":
        # After the verdicts: a ? still there is an open dispute, and nothing shows whose.
        blinded = blind_rows(event.rulebook, rows)
        rows, questions = blinded.rows, blinded.questions
        if blinded.notes:
            notes.append(blinded.notes)
    return rows, merge(*notes) if notes else {}, questions


@dataclass(frozen=True)
class RoundRows:
    """A round as of a moment: its current results, and the engine's rows from them."""

    results: list[Result]
    rows: list[RawRow]
    notes: Notes
    under_appeal: tuple[int, ...] = ()  # a tour's questions with an open dispute


def rounds_rows(
    event: Event, stage: str, moments: dict[int, dt.datetime | None]
) -> dict[int, RoundRows]:
    """Rounds of a stage of one result per entry, each as of its own moment (round → moment,
    ``None``: now), as ``ruled_rows`` reads one, from one read of the results and one of the
    rulings for them all."""
    the_stage = event.rulebook.stage(stage)
    now = timezone.now()
    at = {number: moment if moment is not None else now for number, moment in moments.items()}
    by_round: dict[int, list[Result]] = defaultdict(list)
    for result in _recorded(event, stage, at, max(at.values(), default=now)):
        by_round[result.round].append(result)
    recorded = rulings_recorded(event)
    numbers = _entry_numbers(event) if recorded and the_stage.format == "chgk-tour" else {}
    current = {
        number: _ordered(_current([r for r in by_round[number] if r.recorded_at <= moment]))
        for number, moment in at.items()
    }
    _with_members([r for results in current.values() for r in results])
    made = {}
    for number, moment in at.items():
        rulings = recorded.in_force(moment)
        rows, notes, questions = _entry_rows(
            event, the_stage, number, current[number], rulings, numbers
        )
        made[number] = RoundRows(current[number], rows, notes, questions)
    return made


def stage_rows(
    event: Event,
    stage: str,
    round: int = 1,
    at: dt.datetime | None = None,
    rounds: Collection[int] | None = None,
) -> list[RawRow]:
    """The engine's rows for the round as of ``at``, rulings applied (see ``ruled_rows``)."""
    return ruled_rows(event, stage, round, at, rounds)[0]


def standings_as_of(
    event: Event,
    stage: str,
    round: int = 1,
    at: dt.datetime | None = None,
    rounds: Collection[int] | None = None,
) -> Standings:
    """The standings of the round from the results and rulings in force at ``at``, with the
    rulings' footnotes and the entrants without a result at the foot of their tables
    (``results.selectors.absent``; raises ``InputError``). Computed once in a shared block."""
    wanted = tuple(sorted(rounds)) if rounds is not None else None

    def computed() -> Standings:
        rows, notes = ruled_rows(event, stage, round, at, rounds)
        absent = absent_rows(event, event.rulebook.stage(stage), round, rows, at)
        return compute_standings(event.rulebook, stage, rows + absent, notes)

    return shared(("standings", event.pk, stage, round, at, wanted), computed)


def scores_of(event: Event, stage: str, round: int, results: Sequence[Result]) -> Standings:
    """The standings of just these current results, rulings in force applied: a page that shows
    a few entrants reads their scores (each made from its own row) without the whole round."""
    rows, notes, _questions = _entry_rows(
        event, event.rulebook.stage(stage), round, results, rulings_as_of(event, None)
    )
    return compute_standings(event.rulebook, stage, rows, notes)


def is_current(result: Result) -> bool:
    return not Result.objects.filter(corrects=result).exists()


def current_of(result: Result) -> Result:
    """The newest result of the chain that starts at ``result``."""
    while True:
        newer = Result.objects.filter(corrects=result).first()
        if newer is None:
            return result
        result = newer


def serialize(standings: Standings) -> dict[str, Any]:
    """A standings table as plain JSON data (the shape of ``podium standings --format json``)."""
    return standings_data(standings, page_row, reason=reason_data)


def total_of(cells: dict[str, str]) -> int | None:
    """The pinfall of the games recorded (``None`` if none is, or one is not a number)."""
    values = [v for v in cells.values() if v]
    if not values or not all(v.isdigit() for v in values):
        return None
    return sum(int(v) for v in values)
