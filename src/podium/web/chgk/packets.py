"""The question-packet notation: the plain text a tour's host hands questions in as, read into
questions, every error named by its line.

Vocabulary:
- packet notation: the usual ChGK plain text, one question after another::

      # A title line (ignored)
      1. The question's text, on as many lines as it needs.
      Ответ: the answer
      Зачёт: other accepted answers
      Незачёт: answers not accepted
      Комментарий: the comment
      Источник: the sources
      Автор: the authors

  A question starts with its number (``1.``, ``1)``, ``Вопрос 1``); numbers go up by one, or
  start again at 1 (the next tour of a file of several). The labels are Russian or English
  (``Answer:``, ``Accepted:``, ``Not accepted:``, ``Comment:``, ``Source:``, ``Author:``), any
  case, ``е`` or ``ё``; a label's value runs on to the next label or question. Only the text
  and ``Ответ`` are required; ``Незачёт`` and ``Источник`` are kept in the comment, under their
  label. Lines starting with ``#`` are comments. ``parse_packet`` returns every question it
  read and every error, each naming its line (and question number).
- stray number: a numbered line read as text (a list in a comment, a year) because it does not
  have the next question's number; when an answer follows it, it was a question out of order,
  and the question starts there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from podium.web.kernel.text import text_problem

AUTHORS_MAX = 300

_LABELS = {
    "answer": ("ответ", "answer"),
    "accepted": ("зачет", "accepted", "also accepted"),
    "rejected": ("незачет", "not accepted"),
    "comment": ("комментарий", "comment"),
    "sources": ("источники", "источник(и)", "источник", "sources", "source(s)", "source"),
    "authors": ("авторы", "автор(ы)", "автор", "authors", "author(s)", "author"),
}
_LABEL_KEY = {name: key for key, names in _LABELS.items() for name in names}
_LABEL_RE = re.compile(
    r"^\s*(?P<label>"
    + "|".join(re.escape(n) for n in sorted(_LABEL_KEY, key=len, reverse=True))
    + r")\s*:\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_HEADER_RE = re.compile(
    r"^\s*(?:(?:вопрос|question)\s*№?\s*(?P<named>\d{1,3})\b\s*[.):]?"
    r"|(?P<bare>\d{1,3})\s*[.)](?!\d))\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
# Kept in the comment, under the label the packet wrote.
_INTO_COMMENT = ("rejected", "sources")


@dataclass(frozen=True)
class PacketError:
    line: int
    number: int | None
    message: str


@dataclass(frozen=True)
class ParsedQuestion:
    number: int
    line: int
    text: str
    answer: str
    accepted: str = ""
    comment: str = ""
    authors: str = ""


@dataclass
class _Draft:
    number: int
    line: int
    parts: dict[str, list[str]] = field(default_factory=lambda: {"text": []})
    labels: dict[str, tuple[str, int]] = field(default_factory=dict)

    def value(self, key: str) -> str:
        lines = self.parts.get(key, [])
        return re.sub(r"\n{2,}", "\n", "\n".join(lines)).strip()


def _fold(text: str) -> str:
    return text.casefold().replace("ё", "е")


def _finish(draft: _Draft, errors: list[PacketError]) -> ParsedQuestion | None:
    text, answer = draft.value("text"), draft.value("answer")
    n, line = draft.number, draft.line
    if not text:
        errors.append(
            PacketError(line, n, _("Question %(number)d (line %(line)d): no question text.")
            % {"number": n, "line": line})
        )  # fmt: skip
    if not answer:
        errors.append(
            PacketError(
                line, n, _("Question %(number)d (line %(line)d): no answer; add a line “Ответ: …”.")
                % {"number": n, "line": line},
            )
        )  # fmt: skip
    authors = draft.value("authors")
    if len(authors) > AUTHORS_MAX:
        at = draft.labels["authors"][1]
        errors.append(
            PacketError(
                at, n, _("Question %(number)d, line %(line)d: the authors are longer than "
                "%(max)d characters.") % {"number": n, "line": at, "max": AUTHORS_MAX},
            )
        )  # fmt: skip
    if not text or not answer or len(authors) > AUTHORS_MAX:
        return None
    comment = [draft.value("comment")]
    for key in _INTO_COMMENT:
        if draft.value(key):
            comment.append(f"{draft.labels[key][0]}: {draft.value(key)}")
    return ParsedQuestion(
        number=n, line=line, text=text, answer=answer, accepted=draft.value("accepted"),
        comment="\n".join(c for c in comment if c), authors=" ".join(authors.split()),
    )  # fmt: skip


def _numbering(line: int, n: int, previous: int) -> PacketError:
    return PacketError(
        line, n, _("Line %(line)d: question %(number)d follows question %(previous)d; number "
        "the questions 1, 2, 3, … in order.") % {"line": line, "number": n, "previous": previous},
    )  # fmt: skip


def _label(line: str) -> re.Match[str] | None:
    # Labels are matched with ё read as е (the same length, so positions hold).
    return _LABEL_RE.match(line.replace("ё", "е").replace("Ё", "Е"))


def _answered(lines: list[str], at: int, n: int) -> bool:
    """Whether the numbered line ``at`` (1-based) that follows a finished question starts
    question ``n``: an answer comes before any other label and before question ``n`` itself.
    Otherwise it is an item of a list in the previous question's comment."""
    for line in lines[at:]:
        label = _label(line)
        if label:
            return _LABEL_KEY[_fold(label["label"])] == "answer"
        header = _HEADER_RE.match(line)
        if header and int(header["named"] or header["bare"]) <= n:
            return False
    return False


@dataclass
class _Reader:
    """A packet read line by line: the question being read (``current``) and the field its
    lines go to (``key``)."""

    lines: list[str]
    questions: list[ParsedQuestion] = field(default_factory=list)
    errors: list[PacketError] = field(default_factory=list)
    current: _Draft | None = None
    key: str = "text"
    preamble_reported: bool = False
    after_break: bool = True
    # A numbered line taken as text: its line, number, field, and place in that field.
    stray: tuple[int, int, str, int] | None = None

    def close(self) -> None:
        if self.current is not None:
            made = _finish(self.current, self.errors)
            if made is not None:
                self.questions.append(made)

    def start(self, line: int, n: int, first: list[str]) -> None:
        """Closes the question being read and starts question ``n`` at ``line``."""
        self.close()
        draft = _Draft(number=n, line=line)
        while first and not first[0]:
            first = first[1:]
        draft.parts["text"] = list(first)
        self.current, self.key, self.stray = draft, "text", None

    def read(self, number: int, line: str) -> None:
        """One line of the packet (``number``: its line number)."""
        problem = text_problem(line, multiline=True)
        if problem is not None:  # a NUL no database keeps, an override that hides the text
            self.errors.append(
                PacketError(
                    number,
                    None,
                    _("Line %(line)d: %(problem)s") % {"line": number, "problem": problem},
                )
            )
        if not line or line.startswith("#"):
            if self.current is not None and not line:
                self.current.parts.setdefault(self.key, []).append("")
            self.after_break = True
            return
        broke, self.after_break = self.after_break, False
        header = _HEADER_RE.match(line)
        if header and self._numbered(number, header, broke):
            return
        label = _label(line)
        if label:
            self._labelled(number, line, label)
        elif self.current is None:
            self._preamble(number)
        else:
            self.current.parts.setdefault(self.key, []).append(line)

    def _numbered(self, number: int, header: re.Match[str], broke: bool) -> bool:
        """Whether a numbered line starts a question (it has the next number, or 1 after a
        break); otherwise it is text, kept as a stray number."""
        n, rest = int(header["named"] or header["bare"]), header["rest"].strip()
        current = self.current
        complete = current is not None and bool(current.value("answer"))
        if (
            current is None
            or (n == current.number + 1 and (not complete or _answered(self.lines, number, n)))
            or (n == 1 and broke)
        ):
            self.start(number, n, [rest])
            return True
        if self.key == "authors":
            # Authors never run to a numbered line: a question out of order starts here.
            if n != current.number + 1:
                self.errors.append(_numbering(number, n, current.number))
            self.start(number, n, [rest])
            return True
        self.stray = (number, n, self.key, len(current.parts.setdefault(self.key, [])))
        return False

    def _labelled(self, number: int, line: str, label: re.Match[str]) -> None:
        """A labelled line starts its field in the question being read."""
        written = line[: label.end("label")].strip()
        found = _LABEL_KEY[_fold(written)]
        rest = line[label.start("rest") :].strip()
        if self.current is None:
            self.errors.append(
                PacketError(number, None, _("Line %(line)d: “%(label)s:” before the first "
                "question.") % {"line": number, "label": written})
            )  # fmt: skip
            return
        if found in self.current.labels and self.stray is not None:
            self._restart(self.current, self.stray)
        elif found in self.current.labels:
            n = self.current.number
            self.errors.append(
                PacketError(
                    number, n, _("Question %(number)d, line %(line)d: a "
                    "second “%(label)s:” line; is a question's number missing before "
                    "it?") % {"number": n, "line": number, "label": written},
                )
            )  # fmt: skip
        current = self.current
        if found not in current.labels:
            current.labels[found] = (written, number)
        self.key, self.stray = found, None
        current.parts.setdefault(found, [])
        if rest:
            current.parts[found].append(rest)

    def _restart(self, current: _Draft, stray: tuple[int, int, str, int]) -> None:
        """The stray number was a question out of order: it starts there."""
        at, n, field_key, index = stray
        self.errors.append(_numbering(at, n, current.number))
        moved = current.parts[field_key][index:]
        del current.parts[field_key][index:]
        first = _HEADER_RE.match(moved[0])
        moved[0] = first["rest"].strip() if first else moved[0]
        self.start(at, n, moved)

    def _preamble(self, number: int) -> None:
        """Text before the first question, reported once."""
        if not self.preamble_reported:
            self.errors.append(
                PacketError(
                    number, None, _("Line %(line)d: text before the first question. Start "
                    "each question with its number (“1. …”); a title line starts with “#”.")
                    % {"line": number},
                )
            )  # fmt: skip
            self.preamble_reported = True

    def finish(self) -> tuple[list[ParsedQuestion], list[PacketError]]:
        self.close()
        if not self.questions and not self.errors:
            self.errors.append(PacketError(0, None, _("The packet has no questions.")))
        self.errors.sort(key=lambda e: e.line)
        return self.questions, self.errors


def parse_packet(text: str) -> tuple[list[ParsedQuestion], list[PacketError]]:
    """The questions of a packet in the packet notation, and every error in it by line.

    A numbered line starts the next question when it has the next number (or 1 after a blank
    or title line: the next tour of a file); any other numbered line is text (a list in a
    comment, a year), and when an answer follows it, it was a question out of order."""
    lines = [raw.strip().lstrip("\ufeff") for raw in re.split(r"\r\n|\r|\n", text)]
    reader = _Reader(lines)
    for number, line in enumerate(lines, 1):
        reader.read(number, line)
    return reader.finish()
