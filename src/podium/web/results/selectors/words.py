"""A result in words, as a person checking it reads it: who, and the result as the standings
show it — never entry numbers and raw cells.

Vocabulary:
- subject: the entrant (``#3 Anna Nová``), or for an item the battle's or question's own words.
- result in words: by format — a time and what is missing (``1:10:00, 2 pieces missing``), the
  puzzles done of a team, the games and their total, the questions a ChGK team took, a battle
  (``Round 1: Team A 4 : 2 Team B``), a superfinal question
  (``Question 12 (Brainball): Team A 1, Team B 0``).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.rules.schema.stages import Stage
from podium.web.models import Result
from podium.web.results.selectors.rows import item_order

DISCIPLINES = {"chgk": "ChGK", "brainball": "Brainball"}


def _count(cells: Mapping[str, str], column: str) -> int | None:
    value = (cells.get(column) or "").strip()
    return int(value) if value.isdigit() else None


def _timed(cells: Mapping[str, str]) -> str:
    parts = []
    if cells.get("time"):
        parts.append(cells["time"])
    else:
        parts.append(_("not finished"))
        pieces = _count(cells, "pieces")
        if pieces is not None:
            parts.append(ngettext("%(n)d piece", "%(n)d pieces", pieces) % {"n": pieces})
    missing = _count(cells, "missing")
    if missing:
        parts.append(
            ngettext("%(n)d piece missing", "%(n)d pieces missing", missing) % {"n": missing}
        )
    if cells.get("compensation"):
        parts.append(_("compensation %(time)s") % {"time": cells["compensation"]})
    return ", ".join(parts)


def _team(cells: Mapping[str, str]) -> str:
    done = _count(cells, "done") or 0
    parts = [ngettext("%(n)d puzzle done", "%(n)d puzzles done", done) % {"n": done}]
    if cells.get("time"):
        parts.append(cells["time"])
    pieces = _count(cells, "pieces")
    if pieces is not None and done < 2:
        parts.append(ngettext("%(n)d piece", "%(n)d pieces", pieces) % {"n": pieces})
    return ", ".join(parts)


def _games(cells: Mapping[str, str]) -> str:
    columns = sorted((c for c in cells if c[1:].isdigit()), key=lambda c: int(c[1:]))
    games = [cells[c] for c in columns if cells[c]]
    total = sum(int(g) for g in games if g.isdigit())
    return _("%(total)d pins (%(games)s)") % {"total": total, "games": ", ".join(games)}


def _questions(cells: Mapping[str, str]) -> str:
    taken = _count(cells, "questions")
    if taken is None and cells.get("mask"):
        taken = cells["mask"].count("1")
    taken = taken or 0
    return ngettext("%(n)d question taken", "%(n)d questions taken", taken) % {"n": taken}


def _label(labels: Mapping[str, str], number: str) -> str:
    return labels.get(number, f"#{number}")


def battle_words(cells: Mapping[str, str], labels: Mapping[str, str]) -> str:
    return _("Round %(round)s: %(a)s %(s1)s : %(s2)s %(b)s") % {
        "round": cells.get("round", ""),
        "a": _label(labels, cells.get("team1", "")),
        "s1": cells.get("score1", ""),
        "s2": cells.get("score2", ""),
        "b": _label(labels, cells.get("team2", "")),
    }


def question_words(item: str, cells: Mapping[str, str], labels: Mapping[str, str]) -> str:
    numbers = item_order(item)
    discipline = cells.get("discipline", "")
    teams = ", ".join(
        f"{_label(labels, column)} {value}"
        for column, value in cells.items()
        if column != "discipline"
    )
    return _("Question %(n)s (%(discipline)s): %(teams)s") % {
        "n": numbers[0] if numbers else item,
        "discipline": DISCIPLINES.get(discipline, discipline),
        "teams": teams,
    }


def subject_of(result: Result) -> str:
    """The entrant a result is of (``#3 Anna Nová``); "" for a battle or a question."""
    return f"#{result.entry.number} {result.entry.name}" if result.entry_id else ""


def result_words(stage: Stage, result: Result, labels: Mapping[str, str]) -> str:
    """The result as the standings would show it (see the vocabulary)."""
    cells = result.cells
    if stage.format == "timed-solve":
        return _timed(cells)
    if stage.format == "team-solve":
        return _team(cells)
    if stage.format == "games":
        return _games(cells)
    if stage.format == "chgk-tour":
        return _questions(cells)
    if stage.format == "head-to-head":
        return battle_words(cells, labels)
    if stage.format == "superfinal":
        return question_words(result.item, cells, labels)
    return ", ".join(f"{c} {v}" for c, v in cells.items() if v) or "—"
