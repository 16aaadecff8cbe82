"""The rows of a standings table, written in Python: a table of thousands of rows is rendered at
every change of a live round, and the template language takes ten times as long per row.

Vocabulary:
- page row, marks: see ``podium.web.standings.selectors.standings`` and
  ``templates/podium/standings/ _tables.html`` (the table's head and the rows with their reasons
  stay in the template).
- linked row: a row whose name links to its "why" (``?why=<table>.<number>``), fetched when
  opened; its cells carry no classes (``table.linked`` styles them by position), so a large
  table stays small.
- mark: ``b`` what counts (advances, next by quota, play-off, prize), ``i`` what is only said
  (outside the competition, unverified).
- isolated name: a name a person typed, shown inside ``<bdi>``, so that its own writing
  direction (Hebrew, Arabic), a right-to-left override or a zero-width character in it cannot
  reorder the rest of the row; the ``bdi`` filter (loaded everywhere, see ``podium_texts``)
  does it in any template. A linked row's name is alone in its cell (a cell is a paragraph
  of its own to the bidirectional algorithm), and the style sheet isolates its link
  (``unicode-bidi: plaintext``), so 2,000 rows do not carry 22 KB of ``<bdi>``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.template.defaultfilters import floatformat
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from podium.web.kernel.texts import score_text

register = template.Library()


def isolated(name: Any) -> str:
    """A typed name as HTML, escaped and isolated (see the vocabulary)."""
    return f"<bdi>{conditional_escape(name)}</bdi>"  # a joined list comes escaped already


@register.filter
def bdi(name: Any) -> SafeString:
    """A typed name, escaped and isolated (see the vocabulary)."""
    return mark_safe(isolated(name))  # escaped in ``isolated``


def _span(first: Any, last: Any) -> str:
    return f"{first}–{last}." if last != first else f"{first}."


def _marks(row: dict[str, Any], said: dict[str, str], lean: bool = False) -> str:
    """``lean``: a linked table's row, whose clinched or eliminated mark is its row's class
    (``c``, ``x``: a symbol the table's legend explains), so that 2,000 rows stay small."""
    marks = []
    if row.get("advances"):
        marks.append(f"<b>✓ {said['advances']}</b>")
    if row.get("next"):
        title = _("the first below the cut of the quota for %(pool)s") % {"pool": row["next"]}
        marks.append(f'<b class="next" title="{escape(title)}">→ {said["next"]}</b>')
    if not row.get("official"):
        marks.append(f"<i>{said['outside']}</i>")
    if row.get("playoff"):
        marks.append(f'<b class="playoff badge">{said["playoff"]}</b>')
    if row.get("prize"):
        marks.append(f'<b class="prize">{said["prize"]}</b>')
    if row.get("unverified"):
        marks.append(f"<i>{said['unverified']}</i>")
    outlook = row.get("outlook")
    if outlook:
        marks.append(_outlook_marks(outlook, said, lean))
    return " ".join(marks)


def _outlook_marks(outlook: dict[str, Any], said: dict[str, str], lean: bool) -> str:
    """A live row's outlook (``standings.selectors.outlook``): clinched or eliminated, and the
    places it can still reach (a lean row: only the places, and only while it can advance)."""
    marks = []
    verdict = outlook["advances"]
    if verdict == "certain" and not lean:
        marks.append(f'<b class="clinched">✓✓ {said["clinched"]}</b>')
    elif verdict == "out" and not lean:
        marks.append(f'<i class="eliminated">✗ {said["eliminated"]}</i>')
    best, worst = outlook["best"], outlook["worst"]
    bound = "" if outlook["exact"] else "≈"
    if best != worst and not lean:
        places = escape(_("can finish %(best)s–%(worst)s") % {"best": best, "worst": worst})
        marks.append(f'<small class="range">{bound}{places}</small>')
    elif best != worst and verdict != "out":
        marks.append(f"<small>{bound}{best}–{worst}</small>")
    return " ".join(marks)


def outlook_kind(row: dict[str, Any]) -> str | None:
    """A linked row's class for its outlook: ``c`` clinched, ``x`` eliminated."""
    outlook = row.get("outlook")
    verdict = outlook["advances"] if outlook else None
    return "c" if verdict == "certain" else "x" if verdict == "out" else None


@register.filter
def has_outlook(table: dict[str, Any]) -> bool:
    return any(row.get("outlook") for row in table["rows"])


def _said() -> dict[str, str]:
    """The marks' words in the active language, escaped once for a whole table."""
    return {
        "advances": escape(_("advances")),
        "next": escape(_("next by quota")),
        "outside": escape(_("outside the competition")),
        "playoff": escape(_("play-off pending")),
        "prize": escape(_("prize")),
        "unverified": escape(_("unverified")),
        "clinched": escape(_("sure to advance")),
        "eliminated": escape(_("cannot advance")),
    }


@register.filter
def marks(row: dict[str, Any]) -> SafeString:
    """A row's marks (see the vocabulary)."""
    return mark_safe(_marks(row, _said()))  # built from escaped words above


def linked(
    key: str, rows: Iterable[dict[str, Any]], why_link: str, points_format: str | None
) -> str:
    said = _said()
    link = escape(why_link) + escape(key)
    written = []
    for row in rows:
        number = escape(row.get("number") or row["id"])
        kinds = [k for k, on in (("outside", not row.get("official")),
                                 ("advances", row.get("advances"))) if on]  # fmt: skip
        kind = outlook_kind(row)
        if kind is not None:
            kinds.append(kind)
        attributes = f' class="{" ".join(kinds)}"' if kinds else ""
        place = (
            _span(row["official_rank"], row["official_rank_to"])
            if row.get("official_rank")
            else "—"
        )
        points = ""
        if points_format is not None:
            value = row.get("points")
            shown = floatformat(value, points_format) if value is not None else ""
            points = f"<td>{shown}</td>"
        written.append(
            f'<tr id="row-{escape(key)}-{number}"{attributes}>'
            f"<td>{place}</td><td>{_span(row['rank'], row['rank_to'])}</td><td>{number}</td>"
            f'<td><a href="{link}.{number}">{escape(row["name"])}</a></td>'
            f"<td>{escape(score_text(row))}</td>{points}<td>{_marks(row, said, True)}</td></tr>\n"
        )
    return "".join(written)


@register.simple_tag
def linked_rows(
    table: dict[str, Any], why_link: str, points: bool, points_format: str
) -> SafeString:
    """A table's rows, each name linking to its "why" (see the vocabulary)."""
    shown = linked(table["key"], table["rows"], why_link, points_format if points else None)
    return mark_safe(shown)  # every value above is escaped
