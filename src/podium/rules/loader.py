"""Reading a rulebook from YAML, with errors that point at the file, line and field.

Vocabulary:
- preset: a rulebook shipped in the package, named by its key (``cz-jigsaw``…).
- source: what a rulebook was read from: a preset name or a file path.
- rulebook error: every problem found in one document, each as ``file:line: field.path: message``.
- limits: what the loader refuses before building anything, so that a hostile document cannot
  hang or exhaust a server: more than ``MAX_BYTES`` of text, nesting deeper than ``MAX_DEPTH``,
  or more than ``MAX_NODES`` settings and values once every alias is expanded (the "billion
  laughs" of nested aliases). All three are counted while the document is composed, in time
  linear in its text; each is one problem that names the rule and the line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from podium.rules.schema import Rulebook

PRESETS = ("cz-jigsaw", "it-puzzle-party", "cba-qualifier", "deti-kolomny")

BOOL_TAG = "tag:yaml.org,2002:bool"

# The shipped presets are 5–22 KB, 7–9 levels deep and under 600 nodes: the limits leave a
# rulebook ten times larger room, and refuse long before Python's recursion limit (1000 frames,
# two per level of YAML) or the memory of an expanded alias bomb.
MAX_BYTES = 256 * 1024
MAX_DEPTH = 50
MAX_NODES = 50_000
DEEP = f"nested deeper than {MAX_DEPTH} levels; a rulebook needs far fewer"
# Problems reported at most: each is located by a walk of the document, so thousands of
# unknown settings would cost time for a list nobody reads to its end.
MAX_PROBLEMS = 50


class LimitError(yaml.YAMLError):
    """A document over one of the limits (see the vocabulary), at ``line`` when known."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


if yaml.__with_libyaml__:

    class _Loader(
        yaml.composer.Composer,
        yaml._yaml.CParser,
        yaml.constructor.SafeConstructor,
        yaml.resolver.Resolver,
    ):
        """LibYAML's scanner and parser (ten times faster than Python's, and without
        recursion), with Python's composer, so the limits are counted as nodes are made."""

        def __init__(self, stream: str) -> None:
            yaml._yaml.CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

else:  # pragma: no cover - PyYAML built without LibYAML
    _Loader = yaml.SafeLoader  # type: ignore[misc,assignment]


class RulebookLoader(_Loader):
    """YAML 1.2 booleans (only ``true`` and ``false``), and the limits of the vocabulary.

    YAML 1.1 also reads ``on``, ``off``, ``yes`` and ``no`` as booleans, which would turn the
    setting ``on:`` (the day an age is taken on) into the key ``True``.

    Depth and expanded size are counted as each node is composed: a node's expanded size is
    the growth of the running total while it is composed, so an alias adds the size of the
    node it repeats without walking it again.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.total = 0
        self.sizes: dict[int, int] = {}

    def _line(self) -> int:
        event = self.peek_event()
        mark = event.start_mark if event is not None else None
        return int(mark.line) + 1 if mark is not None else 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            line = self._line()
            node = super().compose_node(parent, index)
            size = self.sizes.get(id(node))
            if size is None:  # the anchor's node is still being composed: it contains itself
                raise LimitError("an alias refers to the value that contains it (a cycle)", line)
            self._grow(size, line)
            return node
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise LimitError(DEEP, self._line())
        before = self.total
        node = super().compose_node(parent, index)
        self.depth -= 1
        self._grow(1, node.start_mark.line + 1 if node is not None else 0)
        self.sizes[id(node)] = self.total - before
        return node

    def _grow(self, size: int, line: int) -> None:
        self.total += size
        if self.total > MAX_NODES:
            raise LimitError(
                f"more than {MAX_NODES:,} settings and values once its aliases are expanded; "
                "a rulebook needs far fewer (write repeated values out instead of nesting aliases)",
                line,
            )


RulebookLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != BOOL_TAG]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
RulebookLoader.add_implicit_resolver(
    BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


@dataclass(frozen=True)
class RulebookProblem:
    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class RulebookError(ValueError):
    def __init__(self, problems: Sequence[RulebookProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def preset_text(name: str) -> str:
    if name not in PRESETS:
        raise KeyError(name)
    return resources.files("podium.rules").joinpath("presets", f"{name}.yaml").read_text("utf-8")


def too_large(size: int, filename: str) -> RulebookError:
    msg = (
        f"the rulebook is {size / 1024:,.0f} KB; "
        f"Podium reads rulebooks of up to {MAX_BYTES // 1024} KB"
    )
    return RulebookError([RulebookProblem(filename, None, "", msg)])


def load(source: str | Path) -> Rulebook:
    """Load a preset by name, or a rulebook file by path."""
    if isinstance(source, str) and source in PRESETS:
        return parse(preset_text(source), f"preset:{source}")
    path = Path(source)
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_BYTES + 1)  # never more: the size is refused before parsing
            if len(raw) > MAX_BYTES:
                file.seek(0, 2)
                raise too_large(file.tell(), str(source))
        text = raw.decode("utf-8")
    except FileNotFoundError:
        known = ", ".join(PRESETS)
        msg = f"no such file, and not a preset name (presets: {known})"
        raise RulebookError([RulebookProblem(str(source), None, "", msg)]) from None
    except UnicodeDecodeError as exc:
        msg = f"not UTF-8 text (byte {exc.start})"
        raise RulebookError([RulebookProblem(str(source), None, "", msg)]) from None
    except OSError as exc:  # a directory, no permission…: still one line, not a traceback
        msg = f"cannot read: {exc.strerror or exc}"
        raise RulebookError([RulebookProblem(str(source), None, "", msg)]) from None
    return parse(text, str(path))


def parse(text: str, filename: str = "<rulebook>") -> Rulebook:
    # More characters than the limit is too large whatever they are, and is not copied to
    # be measured; otherwise the bytes count (a Cyrillic letter is two).
    size = len(text) if len(text) > MAX_BYTES else len(text.encode("utf-8", "replace"))
    if size > MAX_BYTES:
        raise too_large(size, filename)
    loader = RulebookLoader(text)
    try:
        node = loader.get_single_node()
        # Built from the composed (and so already bounded) nodes; a SafeLoader: plain data only.
        data = loader.construct_document(node) if node is not None else None
    except LimitError as exc:
        raise RulebookError([RulebookProblem(filename, exc.line, "", exc.message)]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        if problem == "exceeded maximum nesting depth":  # LibYAML's own bound, met first
            raise RulebookError([RulebookProblem(filename, line, "", DEEP)]) from None
        raise RulebookError(
            [RulebookProblem(filename, line, "", f"not valid YAML: {problem}")]
        ) from None
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        msg = "a rulebook is a mapping of settings (key: value), not empty or a list"
        raise RulebookError([RulebookProblem(filename, 1, "", msg)])
    # YAML keeps the last of two equal keys without a word; a rulebook must not lose a setting.
    problems = _repeated_keys(filename, node, [])
    try:
        rulebook = Rulebook.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        # A list whose items failed is also reported as too short; the item errors say it all.
        locs = [tuple(e["loc"]) for e in errors]
        errors = [
            e
            for e in errors
            if not (e["type"] == "too_short" and any(_below(tuple(e["loc"]), o) for o in locs))
        ]
        problems += [_problem(filename, node, err) for err in errors[:MAX_PROBLEMS]]
        if len(errors) > MAX_PROBLEMS:
            more = f"and {len(errors) - MAX_PROBLEMS} more problems not listed"
            problems.append(RulebookProblem(filename, None, "", more))
    if problems:
        raise RulebookError(problems)
    return rulebook


def _repeated_keys(
    filename: str, node: yaml.Node | None, parts: list[str]
) -> list[RulebookProblem]:
    problems: list[RulebookProblem] = []
    if isinstance(node, yaml.MappingNode):
        first: dict[object, int] = {}
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else None
            line = key.start_mark.line + 1
            if name in first:
                path = ".".join([*parts, str(name)])
                msg = f"setting repeated (first at line {first[name]}); write it once"
                problems.append(RulebookProblem(filename, line, path, msg))
            elif name is not None:
                first[name] = line
            problems += _repeated_keys(filename, value, [*parts, str(name)])
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            indexed = [*parts[:-1], f"{parts[-1]}[{i}]"] if parts else [f"[{i}]"]
            problems += _repeated_keys(filename, item, indexed)
    return problems


def _below(parent: tuple[Any, ...], other: tuple[Any, ...]) -> bool:
    return len(other) > len(parent) and other[: len(parent)] == parent


def _problem(filename: str, root: yaml.Node | None, err: Any) -> RulebookProblem:
    loc = tuple(err["loc"])
    tag = ""
    if err["type"] in ("union_tag_invalid", "union_tag_not_found"):
        # The setting that picks the variant (format:, kind:) is what is wrong or missing.
        tag = err["ctx"]["discriminator"].strip("'")
        loc = (*loc, tag)
    elif err["type"] == "invalid_key":
        loc = (*loc[:-1], str(loc[-1]))  # the offending key itself, e.g. '2020' written as 2020
    line, path = _locate(root, loc)
    message = err["msg"]
    if err["type"] in ("missing", "union_tag_not_found"):
        message = "required setting is missing"
    elif err["type"] == "extra_forbidden":
        message = "unknown setting (check its spelling and where it is placed)"
    elif err["type"] == "union_tag_invalid":
        message = (
            f"unknown {tag} '{err['ctx']['tag']}'; expected one of: {err['ctx']['expected_tags']}"
        )
    elif err["type"] == "invalid_key":
        message = "a setting's name must be text, not a number or a date"
    elif err["type"] == "literal_error":
        message = f"expected {err['ctx']['expected']}"
    if message.startswith("Value error, "):
        message = message.removeprefix("Value error, ")
    return RulebookProblem(filename, line, path, message)


def _locate(root: yaml.Node | None, loc: Sequence[str | int]) -> tuple[int | None, str]:
    """The line of the deepest YAML node along ``loc``, and ``loc`` as a dotted path.

    A setting's line is the line of its key, where a reader looks for it, not the first line of
    its nested value.
    """
    node = root
    line = node.start_mark.line + 1 if node is not None else None
    parts: list[str] = []
    tagged = False
    for part in loc:
        if _is_tag(node, part) and not tagged:
            tagged = True  # discriminated unions add the tag (e.g. 'games') to the path
            continue
        tagged = False
        if isinstance(part, int):
            parts[-1:] = [f"{parts[-1]}[{part}]"] if parts else [f"[{part}]"]
        else:
            parts.append(part)
        found = _child(node, part)
        if found is None:
            break
        mark, node = found
        line = mark.start_mark.line + 1
    return line, ".".join(parts)


# The settings whose value picks a variant of a discriminated union (stages, eligibility rules).
TAG_KEYS = ("format", "kind")


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def lines_of(text: str, paths: Sequence[str]) -> list[int | None]:
    """The line of each setting named by its path (``stages[0].ranking.criteria[1]``) in a
    rulebook's text that loaded, the text read once for all of them: a problem the engine finds
    after loading is shown beside its line too."""
    loader = RulebookLoader(text)
    try:
        root = loader.get_single_node()
    except (LimitError, yaml.YAMLError):
        return [None for _path in paths]
    finally:
        loader.dispose()
    lines = []
    for path in paths:
        loc = [int(m[2]) if m[2] else m[1] for m in _PATH_PART.finditer(path)]
        lines.append(_locate(root, loc)[0])
    return lines


def _is_tag(node: yaml.Node | None, part: str | int) -> bool:
    if not isinstance(node, yaml.MappingNode):
        return False
    for key in TAG_KEYS:
        found = _child(node, key)
        if found is not None and isinstance(found[1], yaml.ScalarNode) and found[1].value == part:
            return True
    return False


def _child(node: yaml.Node | None, part: str | int) -> tuple[yaml.Node, yaml.Node] | None:
    """The node that marks the child's line (its key, or the list item) and the child itself."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.value == part:
                return key, value
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
        item: yaml.Node = node.value[part]
        return item, item
    return None


def json_schema() -> str:
    schema = Rulebook.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Podium rulebook"
    return json.dumps(schema, indent=2, ensure_ascii=False)
