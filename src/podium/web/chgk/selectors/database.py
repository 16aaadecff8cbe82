"""Reads of the club's question database: normalized text, the near-duplicate search and what
the public may read.

Vocabulary:
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
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from podium.web.models import Question

STEM = 5
PUBLISHED = 0.5
CLOSEST = 3
# The prefilter: a stem in more than 1/COMMON_SHARE of the database (and COMMON_MIN questions)
# is common; at most CANDIDATES questions sharing the most stems are scored.
COMMON_SHARE = 20
COMMON_MIN = 50
CANDIDATES = 200

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
    plain = unicodedata.normalize("NFC", plain).casefold().replace("ё", "е")
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
