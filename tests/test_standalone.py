"""The suite stands alone: a fresh clone passes ``make test`` with nothing beside it.

Vocabulary:
- project: the folder this repository is checked out in (``ROOT``). A test reads only below it;
  it may write to temporary folders and start Debian's browser.
- test data: the real-world files the tests compare with, in ``tests/data``, each listed with its
  provenance and licence in ``tests/data/README.md``.
- reach: a path in a test module that leads out of the project — ``Path(__file__)`` climbed
  above the root, a ``..`` segment, an absolute path to anything but a temporary folder or the
  system's programs, or a folder taken from the environment.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
DATA = TESTS / "data"
README = DATA / "README.md"

# Absolute paths a test may name: its temporary files, /usr/bin/chromium and /usr/sbin/nginx.
OUTSIDE_ALLOWED = ("/tmp/", "/usr/bin/", "/usr/sbin/")


def levels_up(node: ast.expr) -> int | None:
    """How many folders above its own file an expression ``Path(__file__)…`` names (the file
    itself is 0, its folder 1), or None when the expression does not start from ``__file__``."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute):  # .resolve(), .absolute()
            return levels_up(node.func.value)
        from_file = any(isinstance(a, ast.Name) and a.id == "__file__" for a in node.args)
        return 0 if from_file else None
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        up = levels_up(node.value)
        return None if up is None else up + 1
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "parents"
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, int)
    ):
        up = levels_up(node.value.value)
        return None if up is None else up + 1 + node.slice.value
    return None


def reads_environment(node: ast.expr) -> bool:
    return any(
        (isinstance(n, ast.Attribute) and n.attr in {"environ", "getenv"})
        or (isinstance(n, ast.Name) and n.id in {"environ", "getenv"})
        for n in ast.walk(node)
    )


def reaches(path: Path, root: Path = ROOT) -> list[str]:
    """Each place in a test module whose path leads out of the project ``root``, as
    ``file line N: why``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    # Climbing as many folders as the file is deep from the root lands on the root itself.
    depth = len(path.relative_to(root).parts)
    found: dict[int, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.expr):
            continue
        up = levels_up(node)
        if up is not None and up > depth:
            found.setdefault(node.lineno, f"Path(__file__) climbs {up - depth} above the project")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if os.pardir in re.split(r"[/\\]", node.value):
                found.setdefault(node.lineno, f"{node.value!r} has a '..' segment")
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in {"Path", "open"}:
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                absolute = first.value.startswith("/")
                if absolute and not first.value.startswith(OUTSIDE_ALLOWED):
                    found.setdefault(node.lineno, f"absolute path {first.value!r}")
            elif first is not None and reads_environment(first):
                found.setdefault(node.lineno, "a path taken from the environment")
    return [f"{path.relative_to(root)} line {line}: {why}" for line, why in sorted(found.items())]


def test_no_test_module_reads_outside_the_project() -> None:
    modules = sorted(TESTS.rglob("*.py"))
    assert len(modules) > 100  # the whole suite, not an empty glob
    found = [reach for module in modules for reach in reaches(module)]
    assert not found, "tests read outside the project:\n" + "\n".join(found)


def test_the_guard_finds_each_way_out(tmp_path: Path) -> None:
    module = tmp_path / "tests" / "web" / "test_example.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        "\n".join(
            [
                'A = Path(__file__).resolve().parents[3] / "shared" / "data"',
                'B = Path(__file__).resolve().parents[2] / ".." / "shared"',
                'C = Path("/work/shared/data/bowling")',
                'D = Path(__file__).parent.parent.parent.parent / "shared"',
                'E = Path(os.environ["PODIUM_SHARED"]) / "data"',
                'F = open("../shared/data/jigsaw/wjpc2024-individual.json")',
                # Inside the project, a temporary file, the browser, and prose.
                'G = Path(__file__).resolve().parents[1] / "data" / "chgk"',
                'H = Path(__file__).resolve().parents[2] / "examples"',
                'I = Path(__file__).parent / "data" / "questions"',
                'J = Path("/tmp/podium-home-ru.png")',
                'K = Path("/usr/bin/chromium")',
                'L = "a shared place, places 1..3"',
            ]
        ),
        encoding="utf-8",
    )
    assert reaches(module, root=tmp_path) == [
        "tests/web/test_example.py line 1: Path(__file__) climbs 1 above the project",
        "tests/web/test_example.py line 2: '..' has a '..' segment",
        "tests/web/test_example.py line 3: absolute path '/work/shared/data/bowling'",
        "tests/web/test_example.py line 4: Path(__file__) climbs 1 above the project",
        "tests/web/test_example.py line 5: a path taken from the environment",
        "tests/web/test_example.py line 6: '../shared/data/jigsaw/wjpc2024-individual.json' "
        "has a '..' segment",
    ]


def test_every_data_file_is_listed_with_its_size_source_and_licence() -> None:
    # | `path` | bytes | what it is | source (repository @ commit, path) | licence |
    rows = re.findall(
        r"^\| `([^`]+)` \| ([\d,]+) \|(.+)\|(.+)\|(.+)\|$", README.read_text("utf-8"), re.M
    )
    listed = {
        path: (int(size.replace(",", "")), source, licence)
        for path, size, _, source, licence in rows
    }
    files = {p.relative_to(DATA).as_posix(): p for p in DATA.rglob("*") if p.is_file()}
    del files["README.md"]
    assert sorted(listed) == sorted(files)
    assert len(files) == 45  # 2 bowling, 1 jigsaw, 42 ChGK venue sheets
    for path, (size, source, licence) in listed.items():
        # A changed size is a re-saved or trimmed file: the tests compare published numbers.
        assert files[path].stat().st_size == size, path
        assert all(cell.strip() for cell in (source, licence)), path
