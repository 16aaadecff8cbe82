"""The ChGK season: its tours summed, team by team, with the play-off for a prize place.

Vocabulary (see ``podium.engine.formats.chgk.tour`` for a tour and its places):
- season: one row per team and tour; a team's season is the sum of its tour points, then of its
  questions, then of its official tour places.
- tour points: points per official place of a tour; teams sharing places share their points.
- tour place: a team's official place in a tour; a shared place counts as the mean of the places
  it spans (2nd–3rd → 2.5).
- absent: a team with no row in a tour; for the sum of places it stands after the tour's last
  official team (n + 1 for n official teams) and takes no points and no questions.
- play-off: the extra match that settles a tie for a prize place of the season (п. 12): one row
  per tied team with ``tour: playoff`` and ``playoff``, the questions it took in the 6-question
  match and then each single extra question (``4 1 0``); see ``podium.engine.playoff``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from podium.engine.defaults import ABSENT, by_default, is_default
from podium.engine.entries import Entry, Number, Reason
from podium.engine.errors import InputError, Problem, Problems
from podium.engine.formats.chgk.tour import require_tour_columns, tour_entries
from podium.engine.inputs import Competitor, RawRow, Reader, read_competitors
from podium.engine.messages import Joined, Line, Message, Value, _
from podium.engine.playoff import needless, uneven
from podium.engine.ranking import Placed, official_places
from podium.engine.standings import NO_PLACE, SpanPoints, Table, build_table, placings
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import ChgkSeasonStage, ChgkTourStage

PLAYOFF = "playoff"


@dataclass(frozen=True, slots=True)
class TourStanding:
    """Where one team stands in one tour of the season (``absent``: no row in that tour)."""

    tour: str
    questions: int
    points: Decimal
    place: Decimal
    places: str
    absent: bool


def tour_order(tour: str) -> tuple[int, int, str]:
    """Tours in their natural order: ``2`` before ``10``, numbers before names."""
    return (0, int(tour), tour) if tour.isdigit() else (1, 0, tour)


def mean_place(first: int, last: int) -> Decimal:
    """A shared place counts as the mean of the places it spans: 2nd–3rd → 2.5."""
    return Decimal(first + last) / 2


def season_table(rulebook: Rulebook, stage: ChgkSeasonStage, rows: Sequence[RawRow]) -> Table:
    tour_stage = _tour_stage(rulebook, stage)
    require_tour_columns(rows, ["id", "tour"])
    problems = Problems()
    competitors = read_competitors(rows, problems, unique_per="tour")
    reader = Reader(problems)
    by_tour = _split_by_tour(reader, rows, competitors)
    playoff = stage.ranking.playoff
    playoff_rows, playoff_teams = by_tour.pop(PLAYOFF, ([], []))
    match = playoff.questions if playoff else None
    playoffs = _playoff_results(reader, playoff_rows, playoff_teams, match)
    # Tours are read in the order they first appear, so their problems come in file order.
    entries = {
        tour: tour_entries(rulebook, tour_stage, tour_rows, tour_competitors, problems)
        for tour, (tour_rows, tour_competitors) in by_tour.items()
    }
    tours = sorted(entries, key=tour_order)
    _check_same_class(tours, by_tour, entries, problems)
    problems.raise_if_any()
    # Each tour is placed as its own table would place it; the season reads only the places.
    placed = {tour: placings(entries[tour], tour_stage)[1] for tour in tours}
    season = _season_entries(stage, tour_stage, placed)
    if playoffs:
        _check_playoffs(playoffs, build_table("all", stage.title, season, stage), problems)
    return build_table("all", stage.title, season, stage, playoffs.results if playoffs else None)


@dataclass(frozen=True, slots=True)
class _Playoffs:
    results: dict[str, tuple[int, ...]]
    lines: dict[str, int]

    def __bool__(self) -> bool:
        return bool(self.results)


def _check_playoffs(playoffs: _Playoffs, unsettled: Table, problems: Problems) -> None:
    """Only teams held for a play-off have one, and the teams still tied played as many
    extra questions each."""
    held = [r.placed for r in unsettled.rows if r.playoff and r.placed is not None]
    ids = {p.entry.id for p in held}
    for team, line in sorted(playoffs.lines.items(), key=lambda kv: kv[1]):
        if team not in ids:
            problems.add(
                f"row {line}, column playoff",
                _("'%(team)s' is not tied for a prize place: it has no play-off", team=team),
            )
    for a, b in uneven(held, playoffs.results):
        longer, shorter = (a, b) if len(playoffs.results[a]) > len(playoffs.results[b]) else (b, a)
        problems.add(
            f"row {playoffs.lines[shorter]}, column playoff",
            _(
                "'%(shorter)s' and '%(longer)s' are still tied, but '%(longer)s' played more "
                "extra questions: each is asked of every team still tied",
                shorter=shorter,
                longer=longer,
            ),
        )
    for team in needless(held, playoffs.results):
        problems.add(
            f"row {playoffs.lines[team]}, column playoff",
            _(
                "'%(team)s' has extra questions after the play-off had separated it from every "
                "other team: they are asked only of teams still tied",
                team=team,
            ),
        )
    problems.raise_if_any()


def _playoff_results(
    reader: Reader,
    rows: Sequence[RawRow],
    competitors: Sequence[Competitor | None],
    match: int | None,
) -> _Playoffs:
    """Each tied team's play-off, from the play-off's rows: ``playoff`` holds the match's
    questions, then each extra one."""
    results: dict[str, tuple[int, ...]] = {}
    lines: dict[str, int] = {}
    for row, team in zip(rows, competitors, strict=True):
        if team is None:
            continue
        parts = reader.text(row, "playoff").replace(",", " ").split()
        if not parts or not all(p.isdigit() for p in parts):
            reader.problems.add(
                reader.where(row, "playoff"),
                _("the questions taken in the play-off match, then each extra question: '4 1 0'"),
            )
            continue
        values = tuple(int(p) for p in parts)
        if match is not None and values[0] > match:
            reader.problems.add(
                reader.where(row, "playoff"),
                _(
                    "%(taken)s questions taken in a play-off match of %(n)s",
                    taken=values[0],
                    n=match,
                ),
            )
            continue
        if any(v > 1 for v in values[1:]):
            reader.problems.add(
                reader.where(row, "playoff"), _("each extra question is taken (1) or not (0)")
            )
            continue
        results[team.id] = values
        lines[team.id] = row.line
    return _Playoffs(results, lines)


def _tour_stage(rulebook: Rulebook, stage: ChgkSeasonStage) -> ChgkTourStage:
    tour_stage = rulebook.stage(stage.tour)
    if not isinstance(tour_stage, ChgkTourStage):
        raise InputError(
            [
                Problem(
                    f"stage {stage.key}",
                    _(
                        "its tour stage '%(tour)s' is a %(format)s stage, not a chgk-tour stage",
                        tour=stage.tour,
                        format=tour_stage.format,
                    ),
                )
            ]
        )
    return tour_stage


_TourRows = tuple[list[RawRow], list[Competitor | None]]


def _split_by_tour(
    reader: Reader, rows: Sequence[RawRow], competitors: Sequence[Competitor | None]
) -> dict[str, _TourRows]:
    """Each tour's rows and their competitors, in file order; the play-off's rows as a tour of
    their own, ``PLAYOFF`` (written in any case)."""
    by_tour: dict[str, _TourRows] = {}
    tours: dict[str, _TourRows | None] = {}  # by the cell as written: a season has few tours
    for row, competitor in zip(rows, competitors, strict=True):
        cell = row.cells.get("tour") or ""
        if cell in tours:
            known = tours[cell]
        else:
            tour = cell.strip()
            if tour.casefold() == PLAYOFF:
                tour = PLAYOFF
            known = tours[cell] = by_tour.setdefault(tour, ([], [])) if tour else None
        if known is None:
            reader.problems.add(reader.where(row, "tour"), _("a season row needs its tour"))
            continue
        known[0].append(row)
        known[1].append(competitor)
    return by_tour


def _check_same_class(
    tours: Sequence[str],
    by_tour: Mapping[str, _TourRows],
    entries: Mapping[str, Sequence[Entry]],
    problems: Problems,
) -> None:
    # A team is in the season or outside it as a whole: its tours must agree. Only a team that
    # plays outside in some tour can disagree (most seasons have none), so only those are read.
    outside = {e.id for tour in tours for e in entries[tour] if not e.official}
    if not outside:
        return
    first: dict[str, tuple[bool, int]] = {}
    for tour in tours:
        # Only the first row of a (tour, id) can have a competitor (a repeat is a duplicate-id
        # problem), so the competitors give each entry's row without reading the cells again.
        lines = {c.id: c.line for c in by_tour[tour][1] if c is not None and c.id in outside}
        for entry in entries[tour]:
            if entry.id not in outside:
                continue
            line = lines[entry.id]
            seen = first.setdefault(entry.id, (entry.official, line))
            if seen[0] != entry.official:
                known: dict[str, Value] = {"team": entry.id, "row": Line(seen[1])}
                problems.add(
                    f"row {line}, column scored",
                    _("team '%(team)s' plays in the competition here but outside it on %(row)s",
                      **known)
                    if entry.official
                    else _("team '%(team)s' plays outside the competition here but in it on "
                           "%(row)s", **known),
                )  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Shown:
    """A tour standing with the parts of a season row's notes that show it, worked out once for
    every team that shares it (the teams of one shared place, or all those absent)."""

    standing: TourStanding
    points_text: Message  # its part of "Points per tour"
    place_text: Decimal  # its term in "Sum of tour places"
    absent_note: Reason | None


@dataclass(frozen=True, slots=True)
class _TourIndex:
    """One tour's standing of each official team, and the standing of a team absent from it."""

    standings: dict[str, _Shown]
    absent: _Shown


def _tour_index(
    tour: str,
    placed: Sequence[Placed],
    points: SpanPoints | None,
    stage: ChgkSeasonStage,
    names: dict[str, list[str]],
) -> _TourIndex:
    """``names``: each official team's name in this tour is added to its names."""
    places = official_places(placed)
    official = [p.entry for p in placed if p.entry.official]
    after = len(official) + 1
    absent = _shown(TourStanding(tour, 0, Decimal(0), Decimal(after), str(after), True), stage)
    # A tour has few distinct results (places follow questions), so each is worked out once;
    # the points follow from the places (one span, one share of the points).
    results: dict[tuple[int, int, Number | None], _Shown] = {}
    standings: dict[str, _Shown] = {}
    for entry in official:
        team = entry.id
        names[team].append(entry.name)
        # Ids are unique within a tour; should one repeat, its first row counts.
        if team in standings:
            continue
        first, last = places.get(team, NO_PLACE)
        if first is None or last is None:
            standings[team] = absent
            continue
        taken = entry.metrics["questions"]
        key = (first, last, taken)
        shown = results.get(key)
        if shown is None:
            won = (points(first, last) if points is not None else None) or Decimal(0)
            standing = _standing(tour, first, last, int(taken or 0), won)
            shown = results[key] = _shown(standing, stage)
        standings[team] = shown
    return _TourIndex(standings, absent)


def _standing(tour: str, first: int, last: int, questions: int, points: Decimal) -> TourStanding:
    return TourStanding(
        tour=tour,
        questions=questions,
        points=points,
        place=mean_place(first, last),
        places=str(first) if first == last else f"{first}–{last}",
        absent=False,
    )


def _shown(standing: TourStanding, stage: ChgkSeasonStage) -> _Shown:
    note = _absent_note(standing, stage) if standing.absent else None
    return _Shown(standing, _tour_points(standing), standing.place.normalize(), note)


def _season_entries(
    stage: ChgkSeasonStage, tour_stage: ChgkTourStage, placed: Mapping[str, Sequence[Placed]]
) -> list[Entry]:
    """``placed``: each tour's entries as placed in it, in the order of the tours."""
    # Each tour is indexed once, so a team's tours are looked up, not searched for.
    names: dict[str, list[str]] = defaultdict(list)  # each team's name in each tour it played
    points = SpanPoints(tour_stage.points) if tour_stage.points else None
    indexes = [_tour_index(tour, p, points, stage, names) for tour, p in placed.items()]
    # Teams outside the competition take no points, so the season table leaves them out (and
    # the indexes name only the official teams).
    teams = sorted(names)
    return [
        _season_entry(
            team,
            names[team],
            [index.standings.get(team, index.absent) for index in indexes],
            stage,
            tour_stage,
        )
        for team in teams
    ]


def _season_entry(
    team: str,
    names: Sequence[str],
    tours: Sequence[_Shown],
    stage: ChgkSeasonStage,
    tour_stage: ChgkTourStage,
) -> Entry:
    standings = [t.standing for t in tours]
    points = sum([s.points for s in standings], Decimal(0))
    questions = sum([s.questions for s in standings])
    place_sum = sum([s.place for s in standings], Decimal(0))
    played = [s.tour for s in standings if not s.absent]
    played_text = _("Tours played: %(tours)s (%(played)s of %(season)s)",
                    tours=", ".join(played), played=len(played), season=len(standings))  # fmt: skip
    per_tour = Joined(tuple(t.points_text for t in tours), "; ")
    terms = Joined(tuple(t.place_text for t in tours), " + ")
    sum_text = _("Sum of tour places: %(terms)s = %(sum)s", terms=terms, sum=place_sum.normalize())
    notes = [
        Reason(stage.clause, played_text),
        Reason(
            tour_stage.points.clause if tour_stage.points else tour_stage.clause,
            _("Points per tour: %(tours)s", tours=per_tour),
        ),
        Reason(stage.ranking.clause, sum_text),
    ]
    notes.extend(t.absent_note for t in tours if t.absent_note is not None)
    earlier = sorted(set(names[:-1]) - {names[-1]})
    if earlier:
        names_text = ", ".join(f"'{n}'" for n in earlier)
        notes.append(Reason(None, _("Also played as %(names)s", names=names_text)))
    return Entry(
        id=team,
        name=names[-1],
        metrics={"points": points, "season_questions": questions, "place_sum": place_sum},
        score=_("%(points)s pts (%(questions)s q)", points=points, questions=questions),
        notes=tuple(notes),
        points=points,
    )


def _tour_points(s: TourStanding) -> Message:
    if s.absent:
        return _("tour %(tour)s: absent (place %(places)s), 0 points", tour=s.tour,
                 places=s.places)  # fmt: skip
    known: dict[str, Value] = {"tour": s.tour, "points": s.points, "places": s.places,
                               "questions": s.questions}  # fmt: skip
    if "–" in s.places:
        return _("tour %(tour)s: %(points)s (places %(places)s → %(mean)s, %(questions)s q)",
                 mean=s.place.normalize(), **known)  # fmt: skip
    return _("tour %(tour)s: %(points)s (place %(places)s, %(questions)s q)", **known)


def _absent_note(s: TourStanding, stage: ChgkSeasonStage) -> Reason:
    text = _(
        "Absent from tour %(tour)s: counted at place %(places)s, after the last official team, "
        "with no points and no questions (our interpretation)",
        tour=s.tour,
        places=s.places,
    )
    if is_default(stage, "absent_place") and stage.absent_clause is None:
        return Reason(None, by_default(text, ABSENT))
    return Reason(stage.absent_clause, text)
