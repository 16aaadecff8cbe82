"""Reading a results CSV: the delimiter from the header, the rows with the lines they stand on."""

from __future__ import annotations

from pathlib import Path

import pytest

from podium.cli.csvfile import read_rows
from podium.engine.errors import InputError


def rows_of(tmp_path: Path, data: bytes) -> list[tuple[int, dict[str, str]]]:
    path = tmp_path / "results.csv"
    path.write_bytes(data)
    return [(row.line, dict(row.cells)) for row in read_rows(path)]


def problems_of(tmp_path: Path, data: bytes) -> list[str]:
    path = tmp_path / "results.csv"
    path.write_bytes(data)
    with pytest.raises(InputError) as caught:
        read_rows(path)
    return [str(p) for p in caught.value.problems]


def test_blank_lines_before_the_header_and_between_rows_are_passed_over(tmp_path: Path) -> None:
    data = "\ufeff\n  \n\t\nID;Name;g1\n1;Anna;200\n\n;  ;\n2;Bára;190".encode()
    assert rows_of(tmp_path, data) == [
        (5, {"id": "1", "name": "Anna", "g1": "200"}),
        (8, {"id": "2", "name": "Bára", "g1": "190"}),  # the last line has no line end
    ]


def test_the_header_alone_decides_the_delimiter(tmp_path: Path) -> None:
    # Commas in the header's own line outnumber its semicolons; the rows' semicolons do not count.
    data = b"id,name,note\n1,Anna,a;b;c;d\n"
    assert rows_of(tmp_path, data) == [(2, {"id": "1", "name": "Anna", "note": "a;b;c;d"})]


def test_windows_line_ends_and_a_quoted_cell_over_two_lines(tmp_path: Path) -> None:
    data = b'id,name,note\r\n1,Anna,"first line\r\nsecond line"\r\n2,Bara,\r\n'
    assert rows_of(tmp_path, data) == [
        (3, {"id": "1", "name": "Anna", "note": "first line\r\nsecond line"}),
        (4, {"id": "2", "name": "Bara", "note": ""}),
    ]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "the file is empty: a header and rows are needed"),
        (b" \n\t\r\n\x0c\n", "the file is empty: a header and rows are needed"),
        (b"\n\nid,name\n\n", "the file has a header but no rows"),
        (b"id,name\n1,\xe9\n", "not UTF-8 text (byte 10); save the file as UTF-8"),
    ],
)
def test_a_file_without_rows_is_refused(tmp_path: Path, data: bytes, expected: str) -> None:
    (problem,) = problems_of(tmp_path, data)
    assert problem == f"{tmp_path / 'results.csv'}: {expected}"


def test_a_row_of_another_length_is_named_by_its_line(tmp_path: Path) -> None:
    data = b"\nid,name\n1,Anna\n2,Bara,extra\n"
    assert problems_of(tmp_path, data) == ["row 4: 3 cells, but the header has 2 columns"]
