"""Sentences for people: written here in English, shown by the web in the visitor's language.

Vocabulary:
- message: an English template with named fields (``%(name)s``) and the values of its fields.
  ``str(message)`` is the English sentence (what the CLI prints); the engine never translates.
  Templates are marked with ``_`` and ``ngettext`` so that the catalogue finds them.
- value: a text or whole number shown as it is (a name, a time, an amount), a decimal (points,
  a mean place, an average: written with the language's decimal sign, to the places it has), a
  message of its own (a criterion's label, a fragment of a sentence), a span of places, or a
  list of values joined.
- term: a message without fields, such as a criterion's label; a rulebook's own phrase (a
  quota's label) is a term too, so that a preset's phrases read in the visitor's language.
- plural: a message with a second template for counts other than one; the language chooses.
- span: places ``first``–``last`` written as the language writes ordinals (``3rd–5th``).
- line: a row of the input file named in a problem (``row 5``); a program that knows the rows
  better (a team's sheet) names them itself (``relabel``).
- message error: a ``ValueError`` whose text is a message (a time or a mask that cannot be
  read), so that the problem it becomes can be shown in any language too.
- language: what shows a message — looks templates up, chooses plurals, writes spans and
  decimals.
- data: a message as JSON, so that frozen tables and cached pages can be shown in any language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol, Union

Value = Union[str, int, Decimal, "Message", "Span", "Joined", "Line"]


class Language(Protocol):
    def gettext(self, text: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def span(self, first: int, last: int) -> str: ...

    def number(self, value: Decimal) -> str: ...


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class English:
    """The templates as written."""

    def gettext(self, text: str) -> str:
        return text

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def span(self, first: int, last: int) -> str:
        return ordinal(first) if first == last else f"{ordinal(first)}–{ordinal(last)}"

    def number(self, value: Decimal) -> str:
        return format(value, "f")


ENGLISH = English()


@dataclass(frozen=True, slots=True)
class Span:
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class Line:
    number: int


@dataclass(frozen=True, slots=True)
class Joined:
    items: tuple[Value, ...]
    separator: str = ", "


_NO_ARGS: Mapping[str, Value] = MappingProxyType({})
_AS_WRITTEN = frozenset({str, int})  # the values a message shows as they are, in any language


class Message(NamedTuple):
    """A tuple, not a dataclass: tables make one per reason, and a tuple is made fastest."""

    template: str
    args: Mapping[str, Value] = _NO_ARGS
    plural: str | None = None
    n: int = 0

    def render(self, language: Language = ENGLISH) -> str:
        if self.plural is None:
            # English is the templates as written: no lookup (a table renders a message a row).
            template = self.template if language is ENGLISH else language.gettext(self.template)
        else:
            template = language.ngettext(self.template, self.plural, self.n)
        args = self.args
        if not args:
            return template
        # ``%s`` writes a text or a whole number as ``render`` would, so only the rest is rendered
        # (and most messages have only those: they are filled in as they are).
        if _AS_WRITTEN.issuperset(map(type, args.values())):
            return template % args
        return template % {
            k: v if type(v) in _AS_WRITTEN else render(v, language) for k, v in args.items()
        }

    def __str__(self) -> str:
        return self.render()


def _(template: str, **args: Value) -> Message:
    """A message (or a term, without fields); the name lets the catalogue find the template."""
    return Message(template, args)


ROW = _("row %(n)s")


class MessageError(ValueError):
    """A ``ValueError`` that says what is wrong as a message (see the vocabulary)."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


def reason_of(error: ValueError) -> Value:
    """What a ``ValueError`` says: its message, or its text when it has none."""
    return error.message if isinstance(error, MessageError) else str(error)


def term(text: str) -> Message:
    """A phrase of the rulebook's own: shown translated where the catalogue has it."""
    return Message(text)


def ngettext(singular: str, plural: str, n: int, **args: Value) -> Message:
    """A message whose wording follows the count ``n`` (a field of its own too)."""
    return Message(singular, {"n": n, **args}, plural, n)


def render(value: Value, language: Language = ENGLISH) -> str:
    if type(value) is str:
        return value
    if isinstance(value, Message):
        return value.render(language)
    if isinstance(value, Span):
        return language.span(value.first, value.last)
    if isinstance(value, Joined):
        return value.separator.join(render(v, language) for v in value.items)
    if isinstance(value, Line):
        return language.gettext(ROW.template) % {"n": value.number}
    if isinstance(value, Decimal):
        return language.number(value)
    return str(value)


def relabel(value: Value, name: Callable[[int], Value | None]) -> Value:
    """``value`` with each line that ``name`` knows replaced by what it returns."""
    if isinstance(value, Line):
        named = name(value.number)
        return value if named is None else named
    if isinstance(value, Message):
        args = {k: relabel(v, name) for k, v in value.args.items()}
        return Message(value.template, args, value.plural, value.n)
    if isinstance(value, Joined):
        return Joined(tuple(relabel(v, name) for v in value.items), value.separator)
    return value


def to_data(value: Value) -> Any:
    """JSON for a value: texts and numbers as they are, the rest as small tagged objects."""
    if isinstance(value, Message):
        data: dict[str, Any] = {"t": value.template}
        if value.args:
            data["a"] = {k: to_data(v) for k, v in value.args.items()}
        if value.plural is not None:
            data |= {"p": value.plural, "n": value.n}
        return data
    if isinstance(value, Span):
        return {"span": [value.first, value.last]}
    if isinstance(value, Joined):
        return {"join": [to_data(v) for v in value.items], "by": value.separator}
    if isinstance(value, Line):
        return {"line": value.number}
    if isinstance(value, Decimal):
        return {"dec": format(value, "f")}
    return value


def from_data(data: Any) -> Value:
    """The value that ``to_data`` wrote."""
    if isinstance(data, dict):
        if "span" in data:
            return Span(*data["span"])
        if "line" in data:
            return Line(data["line"])
        if "dec" in data:
            return Decimal(data["dec"])
        if "join" in data:
            return Joined(tuple(from_data(v) for v in data["join"]), data["by"])
        args = {k: from_data(v) for k, v in data.get("a", {}).items()}
        return Message(data["t"], args, data.get("p"), data.get("n", 0))
    if isinstance(data, str | int):
        return data
    raise ValueError(f"not a message value: {data!r}")
