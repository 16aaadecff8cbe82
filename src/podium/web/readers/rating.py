"""ChGK results as the rating site writes them, and the normalized venue sheets, read into teams.

Vocabulary:
- rating results: the JSON array of the rating site's ``/tournaments/{id}/results`` (see the
  site's OpenAPI document, fabura/chgk-model ``docs/reference/openapi.json``): per team ``team``
  (``id``, ``name``), ``mask`` (``1`` taken, ``0`` not, ``?`` disputed and not yet ruled on,
  ``X`` withdrawn), the questions taken (``questionsTotal``), ``position`` (a shared place as
  the mean of the places it spans) and ``teamMembers`` with their flags (``К`` captain, ``Б``
  base roster, ``Л`` a legionnaire, null a free agent). A JSON-LD collection (``member``) holds
  the same array.
- venue sheet: one of the normalized sheets of ``tests/data/chgk/venue-results``: the tour's
  question count and per team ``team_id``, ``name``, ``mask`` and ``taken``; a written-in
  answer (a text cell) is disputed and counts as not taken, as the sheet's mask has it.
- rating team: one team of either file, numbered by its place in the file (``index``, from 1),
  so a problem names the team a person can find.
- shape: a field of the wrong JSON type (``"current": "abc"``, ``"teamMembers": 5``) refuses
  the whole file, naming the field's path (``[3].teamMembers: expected a list``); a document
  nested deeper than ``podium.web.kernel.limits.JSON_MAX_DEPTH`` is refused before it is decoded.
- Podium's export writes the same array, with Podium's entry number as ``team.id`` (there is no
  rating id in Podium) and the captain flagged ``К``, every other member ``Б``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from podium.web.kernel import limits
from podium.web.kernel.text import text_problem
from podium.web.readers.tables import MAX_BYTES, FileRefused, too_large

CAPTAIN, BASE = "К", "Б"
# Bounds of the numbers a file gives: more questions or teams than any tour has is a damaged
# file, and would not fit the database's integers.
MAX_QUESTIONS = 10_000
MAX_TEAMS = 100_000


@dataclass(frozen=True)
class RatingMember:
    first_name: str
    last_name: str
    flag: str | None = None


@dataclass(frozen=True)
class RatingTeam:
    index: int
    name: str
    mask: str | None = None
    questions_total: int | None = None
    position: Decimal | None = None
    rating_id: int | None = None
    members: tuple[RatingMember, ...] = ()
    problems: tuple[str, ...] = ()  # what is wrong with this team's data in the file
    disputed: int = 0  # answers written in on a venue sheet (counted as not taken)


@dataclass(frozen=True)
class RatingFile:
    kind: str  # "rating" or "venue"
    teams: tuple[RatingTeam, ...]
    questions: int | None = None  # the venue sheet's question count
    notes: tuple[str, ...] = field(default_factory=tuple)

    def data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "questions": self.questions,
            "notes": list(self.notes),
            "teams": [
                {
                    "index": t.index,
                    "name": t.name,
                    "mask": t.mask,
                    "questions_total": t.questions_total,
                    "position": None if t.position is None else str(t.position),
                    "rating_id": t.rating_id,
                    "problems": list(t.problems),
                    "disputed": t.disputed,
                    "members": [[m.first_name, m.last_name, m.flag] for m in t.members],
                }
                for t in self.teams
            ],
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> RatingFile:
        teams = tuple(
            RatingTeam(
                index=t["index"],
                name=t["name"],
                mask=t["mask"],
                questions_total=t["questions_total"],
                position=None if t["position"] is None else Decimal(t["position"]),
                rating_id=t["rating_id"],
                problems=tuple(t["problems"]),
                disputed=t.get("disputed", 0),
                members=tuple(RatingMember(*m) for m in t["members"]),
            )
            for t in data["teams"]
        )
        return cls(data["kind"], teams, data.get("questions"), tuple(data.get("notes", ())))


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _typed(problems: list[str], **fields: str | None) -> None:
    """A problem of the team for each text holding what nobody types (a NUL cannot even be
    stored), named by the file's field."""
    for name, value in fields.items():
        found = text_problem(value) if value else None
        if found:
            problems.append(f"{name}: {found}")


def _shape(value: Any, expected: type, path: str) -> Any:
    """``value`` when it is absent (null) or of the ``expected`` JSON type; else the file is
    refused, naming the field as the file has it (``[3].teamMembers``)."""
    if value is None or (isinstance(value, expected) and not isinstance(value, bool)):
        return value
    kind = _("an object") if expected is dict else _("a list")
    raise FileRefused(
        _("%(field)s: expected %(kind)s, found %(found)s.")
        % {"field": path, "kind": kind, "found": json.dumps(value, ensure_ascii=False)[:40]}
    )


def _rating_team(index: int, item: Any) -> RatingTeam:
    if not isinstance(item, dict):
        return RatingTeam(index, "", problems=(_("not an object with a team and its mask"),))
    problems: list[str] = []
    at = f"[{index - 1}]"
    team = item.get("team") if isinstance(item.get("team"), dict) else {}
    current = _shape(item.get("current"), dict, f"{at}.current") or {}
    name = _text(team.get("name")) or _text(current.get("name"))
    if not name:
        problems.append(_("the team has no name"))
    mask = item.get("mask")
    if mask is not None and not isinstance(mask, str):
        problems.append(_("the mask is not text"))
        mask = None
    total = item.get("questionsTotal")
    if total is not None and (
        isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= MAX_QUESTIONS
    ):
        problems.append(_("questionsTotal is not a whole number"))
        total = None
    position = item.get("position")
    if position is not None and (
        isinstance(position, bool)
        or not isinstance(position, int | float)
        or not 0 < position <= MAX_TEAMS
    ):
        problems.append(_("position is not a number"))
        position = None
    rating_id = team.get("id") if isinstance(team.get("id"), int) else None
    members = []
    listed = _shape(item.get("teamMembers"), list, f"{at}.teamMembers") or ()
    for number, member in enumerate(listed):
        where = f"{at}.teamMembers[{number}]"
        member = _shape(member, dict, where) or {}
        player = _shape(member.get("player"), dict, f"{where}.player")
        if isinstance(player, dict) and (_text(player.get("name")) or _text(player.get("surname"))):
            flag = member.get("flag") if isinstance(member.get("flag"), str) else None
            members.append(
                RatingMember(_text(player.get("name")), _text(player.get("surname")), flag)
            )
            member_names = {
                f"{where}.player.name": members[-1].first_name,
                f"{where}.player.surname": members[-1].last_name,
            }
            _typed(problems, **member_names)
    _typed(problems, name=name, mask=mask)
    return RatingTeam(
        index=index,
        name=name,
        mask=mask,
        questions_total=total,
        position=None if position is None else Decimal(str(position)),
        rating_id=rating_id,
        members=tuple(members),
        problems=tuple(problems),
    )


def _venue_team(index: int, item: Any) -> RatingTeam:
    if not isinstance(item, dict):
        return RatingTeam(index, "", problems=(_("not an object with a team and its mask"),))
    problems = []
    name = _text(item.get("name"))
    if not name:
        problems.append(_("the team has no name"))
    mask = item.get("mask") if isinstance(item.get("mask"), str) else None
    if mask is None:
        problems.append(_("the team has no mask"))
    _typed(problems, name=name, mask=mask)
    taken = item.get("taken") if isinstance(item.get("taken"), int) else None
    written = item.get("controversial_answers_in_cells") or ()
    return RatingTeam(
        index=index,
        name=name,
        mask=mask,
        questions_total=taken,
        rating_id=item.get("team_id") if isinstance(item.get("team_id"), int) else None,
        problems=tuple(problems),
        disputed=len(written) if isinstance(written, list) else 0,
    )


def venue_teams(sheet: dict[str, Any]) -> RatingFile:
    """The teams of a venue sheet (already parsed JSON)."""
    teams = sheet.get("teams")
    if not isinstance(teams, list) or not teams:
        raise FileRefused(_("The venue sheet has no teams."))
    questions = sheet.get("questions") if isinstance(sheet.get("questions"), int) else None
    made = tuple(_venue_team(i, t) for i, t in enumerate(teams, start=1))
    notes = []
    disputed = sum(t.disputed for t in made)
    if disputed:
        notes.append(
            _(
                "%(n)d answers are written in on the sheet (disputed); they count as not taken, "
                "as the sheet's masks have them."
            )
            % {"n": disputed}
        )
    return RatingFile("venue", made, questions, tuple(notes))


def read_rating(data: bytes) -> RatingFile:
    """Rating results (an array or a JSON-LD collection) or a venue sheet, from a file."""
    if len(data) > MAX_BYTES:
        raise FileRefused(too_large(len(data)))
    if not data.strip():
        raise FileRefused(_("The file is empty."))
    try:
        parsed = limits.loads(data)
    except limits.TooDeep as exc:
        raise FileRefused(
            _(
                "The file nests arrays and objects more than %(max)d levels deep; the rating "
                "site's results nest four. Podium refuses it unread."
            )
            % {"max": exc.depth}
        ) from None
    except limits.Unreadable as exc:
        raise FileRefused(
            _("The file cannot be read: %(problem)s.") % {"problem": exc.message}
        ) from None
    except UnicodeDecodeError:
        raise FileRefused(_("The file is not UTF-8 text, so it is not a JSON file.")) from None
    except json.JSONDecodeError as exc:
        raise FileRefused(
            _("The file is not JSON (line %(line)d, column %(column)d: %(problem)s).")
            % {"line": exc.lineno, "column": exc.colno, "problem": exc.msg}
        ) from None
    if isinstance(parsed, dict) and "teams" in parsed:
        return venue_teams(parsed)
    if isinstance(parsed, dict):
        parsed = parsed.get("member", parsed.get("hydra:member"))
    if not isinstance(parsed, list):
        raise FileRefused(
            _(
                "This JSON is not a tournament's results: Podium reads the rating site's array "
                "of results (team, mask, questionsTotal, position) or a venue sheet."
            )
        )
    if not parsed:
        raise FileRefused(_("The file lists no team."))
    return RatingFile("rating", tuple(_rating_team(i, t) for i, t in enumerate(parsed, start=1)))


# --- writing ---------------------------------------------------------------------------------


def position(rank: int, rank_to: int) -> int | float:
    """A place as the rating site shows it: shared places as their mean (2–3 → 2.5)."""
    mean = Decimal(rank + rank_to) / 2
    return int(mean) if mean == mean.to_integral_value() else float(mean)


def result_item(
    *,
    number: int,
    name: str,
    mask: str | None,
    taken: int | None,
    rank: int | None,
    rank_to: int | None,
    members: Sequence[tuple[str, str, bool]],
) -> dict[str, Any]:
    """One team of the rating site's results array; ``members``: (first, last, captain)."""
    return {
        "team": {"id": number, "name": name},
        "mask": mask,
        "questionsTotal": taken,
        "position": None if rank is None or rank_to is None else position(rank, rank_to),
        "flags": [],
        "controversials": [],
        "teamMembers": [
            {
                "flag": CAPTAIN if captain else BASE,
                "player": {"name": first, "surname": last, "patronymic": None},
            }
            for first, last, captain in members
        ],
    }
