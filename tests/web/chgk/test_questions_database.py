"""The club's question database: the near-duplicate search, import and the public rule
(services and selectors).

Hand-worked (deti-kolomny):
- Similarity of "Красная шапочка несла бабушке пирожки" (answer Волк) and "Красная шапочка
  несла пирожки" (answer волк): stems красн шапоч несла бабуш пирож vs the same without бабуш;
  cosine 4 / (√5 · √4) = 0.894; trigrams 20 of 25 = 0.8 (five per stem, none shared between
  stems); answers 1. Score 0.5 · 0.894 + 0.3 · 0.8 + 0.2 · 1 = 0.887. The same words in
  another order, case, ё for е and other punctuation: 1.0.
- Public: played 1 Mar 2025 → public from 1 Mar 2026 (not on 28 Feb 2026); played 29 Feb
  2024 → public from 28 Feb 2025; with consent at once; a question not yet played never.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from typing import Any

import pytest
from tests.web.chgk.questions_scenario import msk, packet

from podium.web.chgk.packets import parse_packet
from podium.web.chgk.selectors.database import (
    PUBLISHED,
    DatabaseIndex,
    Profile,
    database_index,
    normalize,
    public_questions,
    similarity,
)
from podium.web.chgk.services.questions import (
    PacketRefused,
    consent_record,
    questions_import,
    questions_submit,
)
from podium.web.kernel.refusals import Refused
from podium.web.models import Question

# --- Near-duplicates ------------------------------------------------------------------------


def test_similarity_hand_worked() -> None:
    a = Profile.of(normalize("Красная шапочка несла бабушке пирожки"), "Волк")
    b = Profile.of(normalize("Красная шапочка несла пирожки"), "волк")
    assert normalize("Красная шапочка несла бабушке пирожки") == "красн шапоч несла бабуш пирож"
    assert similarity(a, b) == 0.887
    c = Profile.of(normalize("ПИРОЖКИ — бабушке!.. Несла их «красная» Шапочка"), "ВОЛК.")
    assert similarity(a, c) == 1.0


def test_normalized_text_ignores_case_yo_punctuation_stress_and_stop_words() -> None:
    assert normalize("Ёлка, которую ПЁТР за́мок срубил!") == normalize("елка петр замок срубил")
    assert normalize("Ёлка, которую ПЁТР за́мок срубил!") == "елка петр замок сруби"


@pytest.fixture
def archive(season: Any) -> list[Question]:
    return questions_import(
        event=season.event, discipline="chgk", packet=packet("archive.txt"),
        source="Кубок Коломны 2024", played_on=dt.date(2024, 3, 9), by=season.olga,
        now=msk(1, 10),
    )  # fmt: skip


def test_a_reworded_question_is_found_and_an_unrelated_one_is_not(
    season: Any, archive: list[Question]
) -> None:
    index = database_index(dt.date(2026, 11, 1))
    tour = {q.number: q for q in parse_packet(packet("tour-packet.txt"))[0]}

    # Tour question 1 is archive question 1 reworded (other words, order and punctuation).
    found = index.closest(tour[1].text, tour[1].answer)
    assert found[0].question == archive[0].pk
    assert found[0].score >= PUBLISHED
    assert found[0].published
    assert (found[0].source, found[0].played_on) == ("Кубок Коломны 2024", dt.date(2024, 3, 9))
    assert found[0].public  # played over a year before
    # Borodino shares the battle with archive question 2 but asks for something else.
    borodino = index.closest(tour[4].text, tour[4].answer)
    assert all(not m.published for m in borodino)
    # Baikal, Mars and the chessboard have nothing like them.
    for n in (8, 10, 13):
        assert all(m.score < 0.3 for m in index.closest(tour[n].text, tour[n].answer))

    word_order = (
        "НАЗОВИТЕ ПЕРВОЕ название, которое получил город: его начала крепость, заложенная "
        "Петром I в 1703 г. на Заячьем острове!"
    )
    found = index.closest(word_order, "Санкт-Питербурх")
    assert found[0].question == archive[0].pk
    assert found[0].published


def test_the_prefilter_keeps_thousands_of_questions_fast(season: Any) -> None:
    rng = random.Random(2026)
    syllables = ["ка", "ро", "ми", "ту", "ле", "са", "но", "ви", "да", "пе", "ло", "жу"]
    words = ["".join(rng.choices(syllables, k=4)) for _ in range(3000)]
    texts = [" ".join(rng.choices(words, k=18)) for _ in range(3000)]
    Question.objects.bulk_create(
        Question(
            discipline="chgk",
            number=i,
            text=t,
            answer=rng.choice(words),
            normalized=normalize(t),
            status=Question.Status.ARCHIVE,
            source="synthetic",
        )
        for i, t in enumerate(texts)
    )
    target = texts[1234].split()
    rng.shuffle(target)
    reworded = " ".join(target[:15]).upper()

    start = time.process_time()  # CPU time: a busy machine stretches the wall clock
    index = database_index()
    results = [index.closest(t, "x") for t in [reworded, *texts[:14]]]
    cpu = time.process_time() - start

    assert results[0][0].score >= PUBLISHED
    assert Question.objects.get(pk=results[0][0].question).text == texts[1234]
    assert len(index) == 3000
    assert cpu < 3.0, f"{cpu:.2f} s of CPU time"


def test_database_index_compares_only_questions_sharing_stems() -> None:
    rows = [
        (1, normalize("альфа бета гамма дельта"), "ответ", "", "", None, None, False),
        (2, normalize("эпсилон дзета эта тета"), "ответ", "", "", None, None, False),
    ]
    index = DatabaseIndex(rows, dt.date(2026, 1, 1))
    found = index.closest("альфа бета гамма дельта", "ответ")
    assert [m.question for m in found] == [1]
    assert found[0].score == 1.0
    assert found[0].public is False


# --- Import ---------------------------------------------------------------------------------


def test_import_is_all_or_nothing(season: Any) -> None:
    broken = packet("archive.txt").replace("Ответ: сова", "Ответ сова")
    with pytest.raises(PacketRefused) as refused:
        questions_import(
            event=season.event, discipline="chgk", packet=broken, source="Кубок Коломны 2024",
            played_on=dt.date(2024, 3, 9), by=season.olga,
        )  # fmt: skip
    assert [e.message for e in refused.value.errors] == [
        "Question 3 (line 10): no answer; add a line “Ответ: …”."
    ]
    assert Question.objects.count() == 0

    made = questions_import(
        event=season.event, discipline="chgk", packet=packet("archive.txt"),
        source="Кубок  Коломны 2024 ", played_on=dt.date(2024, 3, 9), by=season.olga,
    )  # fmt: skip
    assert len(made) == 3
    stored = Question.objects.order_by("number")
    assert {(q.status, q.submission_id, q.source) for q in stored} == {
        ("archive", None, "Кубок Коломны 2024")
    }
    assert {q.public_from for q in stored} == {dt.date(2025, 3, 9)}
    assert stored[0].normalized == normalize(stored[0].text)

    with pytest.raises(PacketRefused) as again:
        questions_import(
            event=season.event, discipline="chgk", packet=packet("archive.txt"),
            source="Кубок Коломны 2024", played_on=dt.date(2024, 3, 9), by=season.olga,
        )  # fmt: skip
    assert len(again.value.errors) == 3
    assert again.value.errors[0].message == (
        "Question 1 (line 2) is already in the database from “Кубок Коломны 2024”."
    )
    assert Question.objects.count() == 3


def test_import_refuses_without_source_or_date_and_for_others(season: Any) -> None:
    args = {"event": season.event, "discipline": "chgk", "packet": packet("archive.txt")}
    with pytest.raises(Refused) as refused:
        questions_import(**args, source=" ", played_on=dt.date(2024, 3, 9), by=season.olga)
    assert refused.value.field == "source"
    with pytest.raises(Refused) as refused:
        questions_import(
            **args, source="Кубок", played_on=dt.date(2027, 1, 1), by=season.olga,
            now=msk(1, 10),
        )  # fmt: skip
    assert refused.value.field == "played_on"
    with pytest.raises(Refused, match="Only the coordinator"):
        questions_import(**args, source="Кубок", played_on=dt.date(2024, 3, 9), by=season.sova)
    assert Question.objects.count() == 0


# --- The public rule ------------------------------------------------------------------------


def test_public_a_year_after_play_or_with_consent(season: Any) -> None:
    common = {"event": season.event, "discipline": "chgk", "by": season.olga}
    questions_import(
        **common, packet="1. Старый вопрос о сове?\nОтвет: сова", source="A",
        played_on=dt.date(2025, 3, 1),
    )  # fmt: skip
    questions_import(
        **common, packet="1. Високосный вопрос о ёже?\nОтвет: ёж", source="B",
        played_on=dt.date(2024, 2, 29),
    )  # fmt: skip
    questions_import(
        **common, packet="1. Свежий вопрос о лисе?\nОтвет: лиса", source="C",
        played_on=dt.date(2026, 10, 1), consent=True,
    )  # fmt: skip
    # A question handed in with consent but not yet played is never public.
    questions_submit(
        tour=season.tour, discipline="chgk", packet="1. Секрет тура?\nОтвет: да",
        by=season.sova, consent=True, now=msk(1, 10),
    )  # fmt: skip

    def sources(day: dt.date) -> list[str]:
        return sorted(q.source for q in public_questions(day))

    assert Question.objects.get(source="B").public_from == dt.date(2025, 2, 28)
    assert sources(dt.date(2025, 2, 27)) == ["C"]
    assert sources(dt.date(2025, 2, 28)) == ["B", "C"]
    assert sources(dt.date(2026, 2, 28)) == ["B", "C"]
    assert sources(dt.date(2026, 3, 1)) == ["A", "B", "C"]
    assert [q.source for q in public_questions(dt.date(2026, 3, 1), query="СОВЫ")] == ["A"]

    fresh = Question.objects.get(source="C")
    consent_record(event=season.event, question=fresh, consent=False, by=season.olga)
    assert sources(dt.date(2026, 3, 1)) == ["A", "B"]
