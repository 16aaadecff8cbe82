"""Reading a results CSV: UTF-8, ``,`` or ``;`` detected, header names matter, order does not."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from podium.engine.errors import InputError, Problem, Problems
from podium.engine.inputs import RawRow

KNOWN = {
    "id", "name", "country", "group", "gender", "average", "birth_date", "qualified", "scored",
    "time", "missing", "pieces", "done", "questions", "mask", "tour", "round", "team1", "team2",
    "score1", "score2", "discipline", "division",
}  # fmt: skip


def _column(name: str) -> str:
    """Known column names match in any case; others (team names) keep theirs."""
    stripped = name.strip().lstrip("\ufeff").strip()
    lowered = stripped.casefold()
    if lowered in KNOWN or (lowered.startswith("g") and lowered[1:].isdigit()):
        return lowered
    return stripped


def read_rows(path: Path) -> list[RawRow]:
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError([Problem(name, f"cannot read the file ({exc.strerror})")]) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            [Problem(name, f"not UTF-8 text (byte {exc.start}); save the file as UTF-8")]
        ) from None
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        raise InputError([Problem(name, "the file is empty: a header and rows are needed")])
    header_line = next(line for line in lines if line.strip())
    delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    problems = Problems()
    header: list[str] | None = None
    rows: list[RawRow] = []
    for record in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in record):
            continue
        if header is None:
            header = [_column(c) for c in record]
            seen: set[str] = set()
            for column in header:
                if not column:
                    problems.add(f"line {line}", "a column has no name in the header")
                elif column in seen:
                    problems.add(f"line {line}", f"column '{column}' appears twice in the header")
                seen.add(column)
            continue
        if len(record) != len(header):
            problems.add(
                f"row {line}", f"{len(record)} cells, but the header has {len(header)} columns"
            )
            continue
        rows.append(RawRow(line, dict(zip(header, record, strict=True))))
    problems.raise_if_any()
    if not rows:
        raise InputError([Problem(name, "the file has a header but no rows")])
    return rows
