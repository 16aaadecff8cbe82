"""What every single-result format shares: reading the common columns and building tables.

Vocabulary:
- scored row: a competitor (the common columns) with its format's metrics, score and notes.
- table key: the group (``A``), the division (``master-men``) or ``all``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from podium.engine.classification import Classifier
from podium.engine.entries import Entry, Number, Reason
from podium.engine.errors import Problems
from podium.engine.inputs import (
    Competitor,
    RawRow,
    Reader,
    columns_of,
    read_competitors,
    require_columns,
)
from podium.engine.messages import Value
from podium.engine.standings import Table, build_table
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import Stage


class Scored(NamedTuple):
    """A named tuple: one is made per row, and a tuple is made fastest."""

    metrics: Mapping[str, Number | None]
    score: Value
    notes: tuple[Reason, ...] = ()
    table: str | None = None


ScoreRow = Callable[[RawRow, Reader, Competitor | None], Scored | None]


def members_range(rulebook: Rulebook, stage: Stage) -> tuple[int, int]:
    entrants = rulebook.category(stage.category).entrants
    return entrants.min_size, entrants.max_size


def single_result_tables(
    rulebook: Rulebook,
    stage: Stage,
    rows: Sequence[RawRow],
    required: Sequence[str],
    score_row: ScoreRow,
    table_order: Sequence[str] = (),
    titles: Mapping[str, str] | None = None,
) -> list[Table]:
    """Tables of a stage where each row is one entrant's whole result."""
    problems = Problems()
    require_columns(columns_of(rows), ["id", *required], problems)
    problems.raise_if_any()
    competitors = read_competitors(rows, problems, groups=stage.groups)
    reader = Reader(problems)
    entries: list[Entry] = []
    classify = Classifier(rulebook, members=members_range(rulebook, stage))
    for row, competitor in zip(rows, competitors, strict=True):
        scored = score_row(row, reader, competitor)
        if competitor is None or scored is None:
            continue
        klass, outside = classify(competitor, problems)
        table = scored.table or competitor.group or "all"
        notes = scored.notes
        if reader.normalised:  # a count written with a thousands separator, said on its row
            notes += tuple(Reason(None, m) for m in reader.normalised.pop(row.line, ()))
        # By position, in the order of Entry's fields: one is made per row.
        entries.append(Entry(competitor.id, competitor.name, scored.metrics, scored.score, table,
                             klass, outside, notes))  # fmt: skip
    problems.raise_if_any()
    order = list(table_order) or list(stage.groups) or ["all"]
    titles = titles or {}
    tables = []
    for key in order:
        members_of = [e for e in entries if e.table == key]
        if members_of:
            title = titles.get(key) or (
                f"{stage.title} — group {key}" if key != "all" else stage.title
            )
            tables.append(build_table(key, title, members_of, stage))
    return tables
