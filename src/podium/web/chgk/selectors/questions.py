"""Reads of the question duty and the club's question database: the packet notation, the duty's
count and deadline, the near-duplicate search, and what the public may read.

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
- duty: the rulebook's ``host-chgk-questions`` / ``host-brainball-questions``: a minimum number
  of questions, ``days_before`` the tour. The host of a tour on the calendar owes the ChGK duty
  (the calendar holds ChGK tours; it does not say who hosts Brainball, so Brainball questions
  are counted against their minimum when a host hands them in, but п. 23 is offered on ChGK).
- deadline: the tour's start on the wall clock of the event's time zone, ``days_before`` days
  earlier (19:00 on the 12th → 19:00 on the 5th, whatever the UTC offset did in between);
  handed in at the deadline is on time. A late submission (п. 22) is checked by its own team;
  a replacement the coordinator asked for is never late.
- count: the questions handed in for the tour in the discipline, less those replaced (their
  replacement counts instead); short: fewer than the duty's minimum.
- normalized text: lowercase, ``ё`` → ``е``, stress marks, punctuation and stop-words dropped,
  each word cut to its first ``STEM`` letters (a crude stem that survives Russian endings).
- similarity: ``0.5`` × cosine of the two texts' stem counts + ``0.3`` × Jaccard of their
  stems' character trigrams + ``0.2`` × Jaccard of the answers' stems, from 0 to 1; word order
  does not matter. ``PUBLISHED`` and above: "published before".
- database: every question with status ``archive`` (imported or played). The search compares
  a question only with the database questions that share enough of its rarer stems with it
  (``min_shared``; a stem in more than a twentieth of the database is common and does not
  count), at most ``CANDIDATES`` of them, those sharing the most — the prefilter that keeps it
  fast for thousands of questions — and returns the closest.
- public: an archive question whose ``public_from`` (a year after it was played) has come, or
  whose authors consented (п. 24).
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from podium.rules.schema.discipline import Duty
from podium.rules.schema.stages import Stage
from podium.web.disputes.selectors.appeals import member_of
from podium.web.kernel.roles import is_staff
from podium.web.kernel.stages import has_calendar
from podium.web.kernel.text import text_problem
from podium.web.models import Event, Question, QuestionSubmission, Round, Sanction
from podium.web.models.questions import Discipline

DUTY_KEYS = {
    Discipline.CHGK: "host-chgk-questions",
    Discipline.BRAINBALL: "host-brainball-questions",
}
HOST_SANCTION = "host-without-questions"
AUTHORS_MAX = 300
STEM = 5
PUBLISHED = 0.5
CLOSEST = 3
# The prefilter: a stem in more than 1/COMMON_SHARE of the database (and COMMON_MIN questions)
# is common; at most CANDIDATES questions sharing the most stems are scored.
COMMON_SHARE = 20
COMMON_MIN = 50
CANDIDATES = 200

# --- The packet notation --------------------------------------------------------------------

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


def parse_packet(text: str) -> tuple[list[ParsedQuestion], list[PacketError]]:
    """The questions of a packet in the packet notation, and every error in it by line.

    A numbered line starts the next question when it has the next number (or 1 after a blank
    or title line: the next tour of a file); any other numbered line is text (a list in a
    comment, a year), and when an answer follows it, it was a question out of order."""
    questions: list[ParsedQuestion] = []
    errors: list[PacketError] = []
    current: _Draft | None = None
    key = "text"
    preamble_reported = False
    after_break = True
    # A numbered line taken as text: its line, number, field, and place in that field.
    stray: tuple[int, int, str, int] | None = None

    def close() -> None:
        if current is not None:
            made = _finish(current, errors)
            if made is not None:
                questions.append(made)

    def start(line: int, n: int, first: list[str]) -> _Draft:
        close()
        draft = _Draft(number=n, line=line)
        while first and not first[0]:
            first = first[1:]
        draft.parts["text"] = list(first)
        return draft

    lines = [raw.strip().lstrip("\ufeff") for raw in re.split(r"\r\n|\r|\n", text)]
    for number, line in enumerate(lines, 1):
        problem = text_problem(line, multiline=True)
        if problem is not None:  # a NUL no database keeps, an override that hides the text
            errors.append(
                PacketError(
                    number,
                    None,
                    _("Line %(line)d: %(problem)s") % {"line": number, "problem": problem},
                )
            )
        if not line or line.startswith("#"):
            if current is not None and not line:
                current.parts.setdefault(key, []).append("")
            after_break = True
            continue
        broke, after_break = after_break, False
        header = _HEADER_RE.match(line)
        if header:
            n, rest = int(header["named"] or header["bare"]), header["rest"].strip()
            complete = current is not None and bool(current.value("answer"))
            if (
                current is None
                or (n == current.number + 1 and (not complete or _answered(lines, number, n)))
                or (n == 1 and broke)
            ):
                current, key, stray = start(number, n, [rest]), "text", None
                continue
            if key == "authors":
                # Authors never run to a numbered line: a question out of order starts here.
                if n != current.number + 1:
                    errors.append(_numbering(number, n, current.number))
                current, key, stray = start(number, n, [rest]), "text", None
                continue
            stray = (number, n, key, len(current.parts.setdefault(key, [])))
        label = _label(line)
        if label:
            written = line[: label.end("label")].strip()
            found = _LABEL_KEY[_fold(written)]
            rest = line[label.start("rest") :].strip()
            if current is None:
                errors.append(
                    PacketError(number, None, _("Line %(line)d: “%(label)s:” before the first "
                    "question.") % {"line": number, "label": written})
                )  # fmt: skip
                continue
            if found in current.labels and stray is not None:
                # The numbered line taken as text was a question out of order: it starts there.
                at, n, field_key, index = stray
                errors.append(_numbering(at, n, current.number))
                moved = current.parts[field_key][index:]
                del current.parts[field_key][index:]
                first = _HEADER_RE.match(moved[0])
                moved[0] = first["rest"].strip() if first else moved[0]
                current = start(at, n, moved)
            elif found in current.labels:
                errors.append(
                    PacketError(
                        number, current.number, _("Question %(number)d, line %(line)d: a "
                        "second “%(label)s:” line; is a question's number missing before "
                        "it?") % {"number": current.number, "line": number, "label": written},
                    )
                )  # fmt: skip
            if found not in current.labels:
                current.labels[found] = (written, number)
            key, stray = found, None
            current.parts.setdefault(key, [])
            if rest:
                current.parts[key].append(rest)
            continue
        if current is None:
            if not preamble_reported:
                errors.append(
                    PacketError(
                        number, None, _("Line %(line)d: text before the first question. Start "
                        "each question with its number (“1. …”); a title line starts with “#”.")
                        % {"line": number},
                    )
                )  # fmt: skip
                preamble_reported = True
            continue
        current.parts.setdefault(key, []).append(line)
    close()
    if not questions and not errors:
        errors.append(PacketError(0, None, _("The packet has no questions.")))
    errors.sort(key=lambda e: e.line)
    return questions, errors


# --- Normalized text and similarity ---------------------------------------------------------

_STOP_TEXT = """
    а без более бы был была были было быть в вам вас ведь весь во вот все всего всех всю вы где
    да даже для до его ее ей ему если есть еще же за здесь и из или им их к как какая какой
    какие каким какое когда кто ли либо между меня мне много может можно мой мы на над надо наш
    не него нее нет ни них но ну о об однако он она они оно от очень по под после при про раз
    с сам свое свой свою себе себя со так также такой там тем то тогда того тоже той только
    том тот ту тут ты у уже хотя чего чей чем что чтобы чье эта эти это этого этой этом этот
    эту я который которая которое которые которого которой котором которых которую которым которыми
    какую каком каких чему тех теми этим этими вопрос внимание
    назовите назовем напишите ответьте
    a an and are as at be but by for from has have he her his in is it its of on or she that
    the their them they this to was were what which who will with you your
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
_WORD_RE = re.compile(r"[^\W_]+")
_STRESS = {"\u0301", "\u0300"}


def stems(text: str) -> list[str]:
    """The stems of a text's words in order (see the vocabulary), without stop-words."""
    plain = "".join(c for c in unicodedata.normalize("NFD", text) if c not in _STRESS)
    plain = _fold(unicodedata.normalize("NFC", plain))
    words = _WORD_RE.findall(plain)
    return [w[:STEM] for w in words if w not in STOP_WORDS and (len(w) > 1 or w.isdigit())]


def normalize(text: str) -> str:
    """The text as the near-duplicate search compares it (``Question.normalized``)."""
    return " ".join(stems(text))


def _trigrams(words: Iterable[str]) -> frozenset[str]:
    grams: set[str] = set()
    for w in words:
        padded = f" {w} "
        grams.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return frozenset(grams)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


@dataclass(frozen=True)
class Profile:
    """What the similarity compares of one question."""

    counts: Counter[str]
    norm: float
    grams: frozenset[str]
    answer: frozenset[str]

    @classmethod
    def of(cls, normalized: str, answer: str) -> Profile:
        words = normalized.split()
        counts = Counter(words)
        norm = math.sqrt(sum(v * v for v in counts.values()))
        return cls(counts, norm, _trigrams(counts), frozenset(stems(answer)))


def similarity(a: Profile, b: Profile) -> float:
    """How alike two questions are, 0 to 1 (see the vocabulary)."""
    if not a.norm or not b.norm:
        cosine = 0.0
    else:
        small, large = sorted((a.counts, b.counts), key=len)
        dot = sum(v * large[w] for w, v in small.items() if w in large)
        cosine = dot / (a.norm * b.norm)
    return round(
        0.5 * cosine + 0.3 * _jaccard(a.grams, b.grams) + 0.2 * _jaccard(a.answer, b.answer), 3
    )


def published_before(score: float) -> bool:
    return score >= PUBLISHED


def min_shared(distinct: int) -> int:
    """How many stems a database question must share with one of ``distinct`` stems to be
    compared at all: a reworded question keeps most of its rare words."""
    return 1 if distinct < 4 else 2 if distinct < 10 else 3


@dataclass(frozen=True)
class Match:
    question: int
    score: float
    text: str
    answer: str
    source: str
    played_on: dt.date | None
    public: bool

    @property
    def published(self) -> bool:
        return published_before(self.score)


class DatabaseIndex:
    """The database questions, indexed by stem for the near-duplicate search."""

    def __init__(self, rows: Iterable[tuple[Any, ...]], today: dt.date | None = None) -> None:
        # rows: (id, normalized, answer, text, source, played_on, public_from, consent)
        self.rows = list(rows)
        self.today = today or dt.date.today()
        self.postings: dict[str, list[int]] = {}
        for i, row in enumerate(self.rows):
            for stem in set(row[1].split()):
                self.postings.setdefault(stem, []).append(i)
        self._profiles: dict[int, Profile] = {}
        self.common = max(COMMON_MIN, len(self.rows) // COMMON_SHARE)

    def __len__(self) -> int:
        return len(self.rows)

    def _profile(self, i: int) -> Profile:
        if i not in self._profiles:
            self._profiles[i] = Profile.of(self.rows[i][1], self.rows[i][2])
        return self._profiles[i]

    def closest(
        self, text: str, answer: str, limit: int = CLOSEST, exclude: Iterable[int] = ()
    ) -> list[Match]:
        """The database questions closest to one, best first (at most ``limit``)."""
        query = Profile.of(normalize(text), answer)
        # Stems found in many questions ("город") pick nothing out; the rarer ones do.
        rare = [s for s in query.counts if len(self.postings.get(s, ())) <= self.common]
        counted = rare if len(rare) >= 3 else list(query.counts)
        hits: Counter[int] = Counter()
        for stem in counted:
            hits.update(self.postings.get(stem, ()))
        needed = min_shared(len(counted))
        skip = set(exclude)
        candidates = [
            i
            for i, shared in hits.most_common()
            if shared >= needed and self.rows[i][0] not in skip
        ][:CANDIDATES]
        scored = sorted(
            ((similarity(query, self._profile(i)), i) for i in candidates),
            key=lambda pair: (-pair[0], pair[1]),
        )
        out = []
        for score, i in scored[:limit]:
            pk, _norm, ans, txt, source, played_on, public_from, consent = self.rows[i]
            public = consent or (public_from is not None and public_from <= self.today)
            out.append(Match(pk, score, txt, ans, source, played_on, public))
        return out


def database_index(today: dt.date | None = None) -> DatabaseIndex:
    rows = Question.objects.filter(status=Question.Status.ARCHIVE).values_list(
        "id", "normalized", "answer", "text", "source", "played_on", "public_from", "consent"
    )
    return DatabaseIndex(rows.order_by("id"), today)


# --- The duty of a tour's host --------------------------------------------------------------


def tour_stage(event: Event) -> Stage | None:
    """The event's stage of tours on the calendar (the one the question pages serve)."""
    return next((s for s in event.rulebook.stages if has_calendar(s)), None)


def duty_of(event: Event, discipline: str) -> Duty | None:
    key = DUTY_KEYS.get(discipline)  # type: ignore[call-overload]
    return next((d for d in event.rulebook.duties if d.key == key), None)


def disciplines(event: Event) -> list[str]:
    """The disciplines the event's hosts hand questions in for: those with a duty (ChGK when
    the rulebook sets none)."""
    found = [d for d in Discipline.values if duty_of(event, d) is not None]
    return found or [Discipline.CHGK]


def deadline(event: Event, tour: Round, duty: Duty | None) -> dt.datetime | None:
    """When the host's questions are due (see the vocabulary; ``None``: no deadline)."""
    if duty is None or duty.days_before is None:
        return None
    wall = tour.starts_at.astimezone(event.zone).replace(tzinfo=None)
    return (wall - dt.timedelta(days=duty.days_before)).replace(tzinfo=event.zone)


@dataclass(frozen=True)
class SubmissionRow:
    submission: QuestionSubmission
    questions: list[Question]
    late: bool
    replacement: bool


@dataclass(frozen=True)
class DutyState:
    """What the host of a tour handed in in one discipline, against its duty."""

    discipline: str
    duty: Duty | None
    deadline: dt.datetime | None
    submissions: list[SubmissionRow]
    count: int
    on_time: int
    asked: list[Question]

    @property
    def minimum(self) -> int:
        return (self.duty.minimum or 0) if self.duty else 0

    @property
    def short(self) -> bool:
        return self.count < self.minimum

    @property
    def late(self) -> bool:
        return any(row.late for row in self.submissions)

    @property
    def missing(self) -> int:
        return max(self.minimum - self.count, 0)

    @property
    def title(self) -> str:
        return Discipline(self.discipline).label


def _submissions(**where: Any) -> QuerySet[QuestionSubmission]:
    return (
        QuestionSubmission.objects.filter(**where)
        .select_related("submitted_by")
        .prefetch_related("questions")
    )


def duty_state(event: Event, tour: Round, discipline: str) -> DutyState:
    found = _submissions(round=tour, discipline=discipline)
    return _duty_state(event, tour, discipline, list(found))


def _duty_state(
    event: Event, tour: Round, discipline: str, submissions: list[QuestionSubmission]
) -> DutyState:
    """The duty's state from the tour's submissions in the discipline (questions read)."""
    duty = duty_of(event, discipline)
    due = deadline(event, tour, duty)
    rows = []
    count = on_time = 0
    asked: list[Question] = []
    replacements = {
        q.replaced_by_id for sub in submissions for q in sub.questions.all() if q.replaced_by_id
    }
    for sub in submissions:
        questions = sorted(sub.questions.all(), key=lambda q: (q.number, q.pk))
        replacement = any(q.pk in replacements for q in questions)
        late = not replacement and due is not None and sub.submitted_at > due
        rows.append(SubmissionRow(sub, questions, late, replacement))
        kept = [q for q in questions if q.replaced_by_id is None]
        count += len(kept)
        if not late:
            on_time += len(kept)
        asked += [
            q for q in questions if q.status == Question.Status.REPLACE and not q.replaced_by_id
        ]
    return DutyState(discipline, duty, due, rows, count, on_time, asked)


def duty_states(event: Event, tour: Round) -> list[DutyState]:
    return tours_duty_states(event, [tour])[tour.pk]


def tours_duty_states(event: Event, tours: Sequence[Round]) -> dict[int, list[DutyState]]:
    """Tour id → ``duty_states`` of it, for all of ``tours`` in two reads."""
    kinds = disciplines(event)
    by_tour: dict[tuple[int, str], list[QuestionSubmission]] = defaultdict(list)
    for sub in _submissions(round__in=list(tours), discipline__in=kinds):
        by_tour[sub.round_id, sub.discipline].append(sub)
    return {t.pk: [_duty_state(event, t, d, by_tour[t.pk, d]) for d in kinds] for t in tours}


def may_submit(user: Any, event: Event, tour: Round) -> bool:
    """A player of the tour's host team, or the event's staff on its behalf."""
    if tour.host is not None and member_of(user, tour.host):
        return True
    return is_staff(user, event)


def hosts_of(user: Any, event: Event) -> list[Round]:
    """The tours on the calendar the user's team hosts."""
    stage = tour_stage(event)
    if stage is None or user is None or not user.is_authenticated:
        return []
    tours = Round.objects.filter(event=event, stage=stage.key, host__isnull=False)
    return [t for t in tours.select_related("host").order_by("number") if member_of(user, t.host)]


def tour_questions(tour: Round, discipline: str | None = None) -> QuerySet[Question]:
    found = Question.objects.filter(submission__round=tour)
    if discipline is not None:
        found = found.filter(discipline=discipline)
    return found.select_related("submission", "replaced_by", "replaces").order_by(
        "discipline", "submission__submitted_at", "submission_id", "number", "id"
    )


def packet_of(tour: Round, discipline: str) -> list[Question]:
    """The tour's packet in the discipline, in the order it is read."""
    selected = (Question.Status.SELECTED, Question.Status.ARCHIVE)
    return list(tour_questions(tour, discipline).filter(status__in=selected))


def packet_size(event: Event, discipline: str) -> int | None:
    """How many questions a packet has (``None``: as many as the coordinator picks)."""
    stage = tour_stage(event)
    if discipline == Discipline.CHGK and stage is not None:
        return getattr(stage, "questions", None)
    return None


def played(tour: Round) -> bool:
    """Whether the tour's packet went into the database (played)."""
    return tour_questions(tour).filter(status=Question.Status.ARCHIVE).exists()


def host_sanction(event: Event, tour: Round) -> Sanction | None:
    if tour.host is None:
        return None
    return Sanction.objects.filter(
        event=event, key=HOST_SANCTION, entry=tour.host, stage=tour.stage, round=tour.number,
        lifted_at__isnull=True,
    ).first()  # fmt: skip


def host_missed(event: Event, tour: Round, now: dt.datetime) -> bool:
    """Whether п. 23 applies: the tour has started and its host had handed in no ChGK question
    before the start (and is not sanctioned for it yet)."""
    if tour.host is None or now < tour.starts_at:
        return False
    if not any(s.key == HOST_SANCTION for s in event.rulebook.sanctions):
        return False
    handed = Question.objects.filter(
        submission__round=tour, submission__entry=tour.host,
        submission__discipline=Discipline.CHGK, submission__submitted_at__lt=tour.starts_at,
    )  # fmt: skip
    return not handed.exists() and host_sanction(event, tour) is None


def sanction_rule(event: Event, key: str = HOST_SANCTION) -> Any:
    return next((s for s in event.rulebook.sanctions if s.key == key), None)


# --- The public database --------------------------------------------------------------------


def is_public(question: Question, today: dt.date) -> bool:
    if question.status != Question.Status.ARCHIVE:
        return False
    return question.consent or (question.public_from is not None and question.public_from <= today)


def search_keys(query: str) -> list[str]:
    """What a search of the database looks for in normalized texts: each word's stem, and of
    a word shorter than a stem all but its last letter (``совы`` finds ``сове``)."""
    keys = []
    for stem in stems(query):
        keys.append(stem if len(stem) == STEM or len(stem) <= 3 else stem[: max(3, len(stem) - 1)])
    return list(dict.fromkeys(keys))


def public_questions(today: dt.date, discipline: str = "", query: str = "") -> QuerySet[Question]:
    """The questions anyone may read (see the vocabulary), newest played first; ``query``
    keeps those whose normalized text has every key of it (``search_keys``)."""
    found = Question.objects.filter(status=Question.Status.ARCHIVE).filter(
        Q(consent=True) | Q(public_from__lte=today)
    )
    if discipline:
        found = found.filter(discipline=discipline)
    for key in search_keys(query):
        found = found.filter(normalized__contains=key)
    return found.order_by("-played_on", "source", "number", "id")


def public_from(played_on: dt.date) -> dt.date:
    """A year after the day it was played (29 February → 28 February)."""
    try:
        return played_on.replace(year=played_on.year + 1)
    except ValueError:
        return played_on.replace(year=played_on.year + 1, day=28)
