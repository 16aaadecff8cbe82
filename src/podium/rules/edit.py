"""Changing single settings of a rulebook's YAML text (a cap, a fee's price, a registration
date), keeping the rest of the document as its author wrote it.

Vocabulary:
- setting path: the keys and list positions from the top of the document to one setting,
  e.g. ``("categories", 0, "cap")`` or ``("fees", 1, "price", "amount")``.
- in place: the setting's value is a plain scalar of its own; only its characters are
  replaced, so comments, quoting, anchors and the order of everything else stay as written.
- inserted: an absent setting whose mapping is written in block style gets a line of its own
  above the mapping's first setting that begins a line, at its indentation.
- removed: a setting set to ``None`` written on a line of its own loses that line.
- rewritten: a setting that is absent from a mapping in flow style or absent with its mapping,
  removed from a line it shares (``None``), or shared through an anchor or an
  alias cannot be changed in place; then the document is read and written out again (its
  values kept, its comments and anchors lost). A caller validates the result either way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import yaml

from podium.rules.loader import RulebookLoader

SettingPath = tuple[str | int, ...]
Value = int | Decimal | dt.date | str | None


def _text(value: Value) -> str:
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        return yaml.safe_dump(value, default_style='"', width=10**6).strip()
    return str(value)


def _plain(value: Value) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _child(node: yaml.Node | None, part: str | int) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode) and isinstance(part, str):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == part:
                child: yaml.Node = value
                return child
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
        item: yaml.Node = node.value[part]
        return item
    return None


def _seen_twice(root: yaml.Node) -> set[int]:
    """The nodes an alias reaches as well as their anchor (one object, two places)."""
    seen: set[int] = set()
    twice: set[int] = set()
    stack: list[yaml.Node] = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            twice.add(id(node))
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in node.value for n in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return twice


def _inserted(text: str, root: yaml.Node, path: SettingPath, value: Value) -> tuple[int, str]:
    """Where and what to insert for an absent setting (see the vocabulary), or ``(-1, "")``."""
    *parents, last = path
    parent: yaml.Node | None = root
    for part in parents:
        parent = _child(parent, part)
    if (
        value is None
        or not isinstance(last, str)
        or not isinstance(parent, yaml.MappingNode)
        or parent.flow_style
        or not parent.value
    ):
        return -1, ""
    # Above the first setting that begins its own line (in a list item, the first one follows
    # the item's "- ").
    for key, _value in parent.value:
        mark = key.start_mark
        line_start = mark.index - mark.column
        if not text[line_start : mark.index].strip():
            indent = " " * mark.column
            break
    else:
        return -1, ""
    return line_start, f"{indent}{last}: {_text(value)}\n"


def _removed(text: str, root: yaml.Node, path: SettingPath) -> tuple[int, int]:
    """The span of the line of a setting to remove (see the vocabulary), or ``(-1, -1)``."""
    *parents, last = path
    parent: yaml.Node | None = root
    for part in parents:
        parent = _child(parent, part)
    if not isinstance(parent, yaml.MappingNode) or parent.flow_style:
        return -1, -1
    for key, value in parent.value:
        if isinstance(key, yaml.ScalarNode) and key.value == last:
            line_start = key.start_mark.index - key.start_mark.column
            line_end = text.find("\n", value.end_mark.index)
            line_end = len(text) if line_end < 0 else line_end + 1
            alone = not text[line_start : key.start_mark.index].strip()
            if alone and isinstance(value, yaml.ScalarNode) and not value.style:
                rest = text[value.end_mark.index : line_end].strip()
                if not rest or rest.startswith("#"):
                    return line_start, line_end
    return -1, -1


def _in_place(text: str, root: yaml.Node, path: SettingPath, value: Value) -> tuple[int, int]:
    """The span of the setting's characters, or ``(-1, -1)`` when it cannot change in place."""
    node: yaml.Node | None = root
    for part in path:
        node = _child(node, part)
        if node is None:
            return -1, -1
    # A plain scalar has no style: None from the Python parser, "" from LibYAML's.
    if value is None or not isinstance(node, yaml.ScalarNode) or node.style:
        return -1, -1
    start, end = node.start_mark.index, node.end_mark.index
    if text[start:end] != node.value:  # an anchor, a tag or an escape in the way
        return -1, -1
    return start, end


def _set(data: Any, path: SettingPath, value: Value) -> None:
    *parents, last = path
    for part in parents:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.setdefault(part, {})
        else:
            data = data[part]
    if value is None:
        if isinstance(data, dict):
            data.pop(last, None)
    else:
        data[last] = _plain(value)


def with_settings(text: str, changes: Mapping[SettingPath, Value]) -> str:
    """The rulebook text with each setting of ``changes`` set (``None``: removed); see the
    vocabulary. ``text`` is a rulebook that was already read without problems."""
    if not changes:
        return text
    root, data = _read(text)
    twice = _seen_twice(root) if root is not None else set()
    spans: list[tuple[int, int, str]] = []
    for path, value in changes.items():
        if root is None or any(id(n) in twice for n in _nodes_along(root, path)):
            return _rewritten(data, changes)
        if len(_nodes_along(root, path)) == len(path) and value is None:
            start, end = _removed(text, root, path)
            spans.append((start, end, ""))
        elif len(_nodes_along(root, path)) == len(path):
            start, end = _in_place(text, root, path, value)
            spans.append((start, end, _text(value)))
        elif value is None:
            continue  # absent already
        elif len(_nodes_along(root, path)) == len(path) - 1:
            start, line = _inserted(text, root, path, value)
            spans.append((start, start, line))
        else:
            start = -1
        if start < 0:
            return _rewritten(data, changes)
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _nodes_along(root: yaml.Node, path: SettingPath) -> list[yaml.Node]:
    nodes: list[yaml.Node] = []
    node: yaml.Node | None = root
    for part in path:
        node = _child(node, part)
        if node is None:
            break
        nodes.append(node)
    return nodes


def _read(text: str) -> tuple[yaml.Node | None, Any]:
    """The composed nodes and the plain data of ``text``, read within the loader's limits."""
    loader = RulebookLoader(text)
    try:
        root = loader.get_single_node()
        return root, loader.construct_document(root) if root is not None else None
    finally:
        loader.dispose()


def _rewritten(data: Any, changes: Mapping[SettingPath, Value]) -> str:
    """``data`` (the document as read, changed here) with ``changes`` set, written out again."""
    for path, value in changes.items():
        _set(data, path, value)
    dumped: str = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    return dumped
