"""The question duty and the question database: the packet notation, the count and deadline,
the near-duplicate search, import, the public rule and п. 23 (services and selectors).

Hand-worked (deti-kolomny, Europe/Moscow, UTC+3 since 2014):
- Tour 1 starts Thu 12 Nov 2026 19:00 MSK (16:00 UTC); the ChGK duty is 15 questions 7 days
  before: due Thu 5 Nov 19:00 MSK (16:00 UTC). Handed in at 18:59 and at 19:00 → on time;
  19:01 → late. 12 on time and 3 late: count 15 (not short), 12 on time, marked late.
- Tour of Fri 1 Apr 2011 19:00 MSK: Moscow moved from UTC+3 to UTC+4 on 27 Mar 2011, so the
  tour starts 15:00 UTC and the deadline, Fri 25 Mar 19:00 MSK on the wall clock, is 16:00 UTC
  — 169 hours before. Handed in at 15:30 UTC (18:30 MSK) → on time, though less than 7 × 24 h
  before; 16:01 UTC (19:01 MSK) → late.
- Similarity of "Красная шапочка несла бабушке пирожки" (answer Волк) and "Красная шапочка
  несла пирожки" (answer волк): stems красн шапоч несла бабуш пирож vs the same without бабуш;
  cosine 4 / (√5 · √4) = 0.894; trigrams 20 of 25 = 0.8 (five per stem, none shared between
  stems); answers 1. Score 0.5 · 0.894 + 0.3 · 0.8 + 0.2 · 1 = 0.887. The same words in
  another order, case, ё for е and other punctuation: 1.0.
- п. 23: the event starts in Nov 2026; the season (Nov–Jun) ends 30 Jun 2027, the next one
  30 Jun 2028. Host Sovy, players Sova and Filin registered before the tour and Puhach after
  it: bans for the team name "Sovy", Sova and Filin, until 30 Jun 2028 — not Puhach.
- Public: played 1 Mar 2025 → public from 1 Mar 2026 (not on 28 Feb 2026); played 29 Feb
  2024 → public from 28 Feb 2025; with consent at once; a question not yet played never.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

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
from podium.web.chgk.selectors.duty import deadline, duty_of, duty_state, host_missed, packet_of
from podium.web.chgk.services.questions import (
    PacketRefused,
    consent_record,
    host_disqualify,
    packet_play,
    packet_select,
    questions_import,
    questions_submit,
    replacement_ask,
    replacement_submit,
)
from podium.web.kernel.refusals import Refused
from podium.web.models import (
    AuditEntry,
    Ban,
    Entry,
    EntryMember,
    Event,
    Person,
    Question,
    QuestionSubmission,
    Round,
    Sanction,
)

DATA = Path(__file__).parents[1] / "data" / "questions"
TOUR = "chgk-tour"
UTC = dt.UTC


def packet(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def numbered(n: int, start: int = 1, word: str = "вопрос") -> str:
    """A packet of ``n`` distinct plain questions numbered from ``start``."""
    return "\n".join(
        f"{i}. Простой {word} номер {i} о предмете {i * 7919 % 1000}.\nОтвет: ответ {i}\n"
        for i in range(start, start + n)
    )


def player(entry: Entry, name: str, user: Any = None, added_at: dt.datetime | None = None) -> Any:
    person = Person.objects.create(first_name=name, last_name="Test", country="RU", user=user)
    member = EntryMember.objects.create(entry=entry, person=person)
    if added_at is not None:
        EntryMember.objects.filter(pk=member.pk).update(added_at=added_at)
    return person


@pytest.fixture
def season(make_user: Any, make_event: Any) -> SimpleNamespace:
    olga, sova_user, ezh_user = make_user("olga"), make_user("sova"), make_user("ezh")
    event = make_event(
        "deti-kolomny", organizer=olga, timezone="Europe/Moscow", status=Event.Status.CLOSED,
        starts_at=dt.datetime(2026, 11, 1, 16, tzinfo=UTC), title="Дети Коломны XV",
    )  # fmt: skip
    sovy = Entry.objects.create(
        event=event, category="teams", number=1, name="Sovy", status=Entry.Status.CONFIRMED
    )
    ezhi = Entry.objects.create(
        event=event, category="teams", number=2, name="Ezhi", status=Entry.Status.CONFIRMED
    )
    before = dt.datetime(2026, 10, 20, 12, tzinfo=UTC)
    player(sovy, "Sova", sova_user, added_at=before)
    player(sovy, "Filin", added_at=before)
    player(ezhi, "Ezh", ezh_user, added_at=before)
    tour = Round.objects.create(
        event=event, stage=TOUR, number=1, host=sovy,
        starts_at=dt.datetime(2026, 11, 12, 16, tzinfo=UTC),
    )  # fmt: skip
    return SimpleNamespace(
        event=event, olga=olga, sova=sova_user, ezh=ezh_user, sovy=sovy, ezhi=ezhi, tour=tour
    )


def msk(day: int, hour: int, minute: int = 0) -> dt.datetime:
    """A moment of November 2026 in Moscow time (UTC+3)."""
    return dt.datetime(2026, 11, day, hour - 3, minute, tzinfo=UTC)


# --- The packet notation --------------------------------------------------------------------


def test_a_good_packet_reads_every_question_and_field() -> None:
    questions, errors = parse_packet(packet("tour-packet.txt"))

    assert errors == []
    assert [q.number for q in questions] == list(range(1, 16))
    first = questions[0]
    assert first.line == 4
    assert first.text == (
        "В 1703 году Пётр Первый заложил на Заячьем острове крепость,\n"
        "ставшую началом нового города. Как назывался этот город сначала?"
    )
    assert first.answer == "Санкт-Питер-Бурх."
    assert first.accepted == "Санкт-Питербурх; Питербурх."
    # The numbered list of the comment stays in the comment (it is no question 2), and the
    # not-accepted answers and the source are kept under their labels.
    assert first.comment == (
        "у города было несколько названий:\n1) Санкт-Питер-Бурх;\n2) Санкт-Петербург;\n"
        "3) Петроград.\nНезачёт: Петербург.\nИсточник: Энциклопедия «Санкт-Петербург»."
    )
    assert first.authors == "Ольга Ветрова (Коломна)"
    assert questions[1].accepted == "Чайковский."  # "Зачет:" without ё
    assert questions[2].text.startswith("Какой остров")  # "Вопрос 3:"
    # "1812." inside the unfinished question 4 is text, not a question.
    assert "1812. Так начинается" in questions[3].text
    assert questions[3].answer == "Бородинское сражение."


def test_english_labels_and_a_second_tour_numbered_from_one() -> None:
    text = (
        "Question 1. What is the capital of France?\nAnswer: Paris\nAuthor(s): Ann\n\n"
        "# Tour 2\n1) Which river flows through Kolomna?\nAnswer: the Moskva\n"
        "Accepted: Moskva\nComment: and the Kolomenka\nSource: a map\n"
    )
    questions, errors = parse_packet(text)

    assert errors == []
    assert [(q.number, q.answer) for q in questions] == [(1, "Paris"), (1, "the Moskva")]
    assert questions[0].authors == "Ann"
    assert questions[1].comment == "and the Kolomenka\nSource: a map"


def test_every_kind_of_bad_line_is_reported_with_its_line_and_number() -> None:
    questions, errors = parse_packet(packet("bad-packet.txt"))

    assert [(e.line, e.number) for e in errors] == [
        (1, None), (2, None), (6, 2), (11, 3), (12, 5), (14, 6), (17, 8)
    ]  # fmt: skip
    messages = [e.message for e in errors]
    assert messages[0].startswith("Line 1: text before the first question.")
    assert messages[1] == "Line 2: “Ответ:” before the first question."
    assert messages[2] == "Question 2 (line 6): no answer; add a line “Ответ: …”."
    assert messages[3].startswith("Question 3, line 11: a second “Комментарий:” line")
    assert messages[4] == (
        "Line 12: question 5 follows question 3; number the questions 1, 2, 3, … in order."
    )
    assert messages[5] == "Question 6 (line 14): no question text."
    assert messages[6].startswith("Line 17: question 8 follows question 6")
    # What could be read is still read (5 and 8 after resynchronising on their numbers).
    assert [q.number for q in questions] == [1, 3, 5, 8]


def test_long_authors_and_an_empty_packet_are_refused() -> None:
    _, errors = parse_packet("1. Вопрос?\nОтвет: да\nАвтор: " + "А" * 301)
    assert [e.message for e in errors] == [
        "Question 1, line 3: the authors are longer than 300 characters."
    ]
    _, errors = parse_packet("# only a title\n\n")
    assert [e.message for e in errors] == ["The packet has no questions."]


# --- The count and the deadline -------------------------------------------------------------


def test_deadline_is_seven_days_before_on_the_moscow_wall_clock(season: Any) -> None:
    due = deadline(season.event, season.tour, duty_of(season.event, "chgk"))
    assert due == msk(5, 19)
    assert due.astimezone(UTC) == dt.datetime(2026, 11, 5, 16, tzinfo=UTC)


@pytest.mark.parametrize(
    ("at", "late"),
    [((5, 18, 59), False), ((5, 19, 0), False), ((5, 19, 1), True), ((5, 20, 0), True)],
)
def test_on_time_and_late_around_the_seven_day_mark(
    season: Any, at: tuple[int, int, int], late: bool
) -> None:
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(15), by=season.sova, now=msk(*at)
    )
    state = duty_state(season.event, season.tour, "chgk")
    assert state.late is late
    assert (state.count, state.on_time) == (15, 0 if late else 15)
    assert AuditEntry.objects.get(action="questions.submit").data["late"] is late


def test_the_deadline_follows_the_wall_clock_across_moscows_2011_change(
    make_event: Any, make_user: Any
) -> None:
    event = make_event(
        "deti-kolomny", slug="dk-2010", timezone="Europe/Moscow",
        starts_at=dt.datetime(2010, 11, 1, 16, tzinfo=UTC),
    )  # fmt: skip
    host = Entry.objects.create(
        event=event, category="teams", number=1, name="Sovy", status=Entry.Status.CONFIRMED
    )
    tour = Round.objects.create(
        event=event, stage=TOUR, number=1, host=host,
        starts_at=dt.datetime(2011, 4, 1, 15, tzinfo=UTC),  # 19:00 MSK (UTC+4)
    )  # fmt: skip
    due = deadline(event, tour, duty_of(event, "chgk"))
    assert due is not None
    assert due.astimezone(UTC) == dt.datetime(2011, 3, 25, 16, tzinfo=UTC)  # 19:00 MSK (UTC+3)
    assert tour.starts_at - due == dt.timedelta(days=7, hours=-1)
    staff = make_user("clerk")
    event.roles.create(user=staff, role="referee")
    questions_submit(
        tour=tour, discipline="chgk", packet=numbered(10), by=staff,
        now=dt.datetime(2011, 3, 25, 15, 30, tzinfo=UTC),
    )  # fmt: skip
    questions_submit(
        tour=tour, discipline="chgk", packet=numbered(5, 11), by=staff,
        now=dt.datetime(2011, 3, 25, 16, 1, tzinfo=UTC),
    )  # fmt: skip
    rows = duty_state(event, tour, "chgk").submissions
    assert [r.late for r in rows] == [False, True]


def test_count_against_the_minimum_short_then_complete_but_late(season: Any) -> None:
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(12), by=season.sova, now=msk(4, 12)
    )
    state = duty_state(season.event, season.tour, "chgk")
    assert (state.count, state.minimum, state.missing, state.short) == (12, 15, 3, True)
    assert state.late is False

    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(3, 13), by=season.sova,
        now=msk(6, 10),
    )  # fmt: skip
    state = duty_state(season.event, season.tour, "chgk")
    assert (state.count, state.on_time, state.short, state.late) == (15, 12, False, True)
    assert [r.late for r in state.submissions] == [False, True]

    brainball = duty_state(season.event, season.tour, "brainball")
    assert (brainball.count, brainball.minimum, brainball.short) == (0, 36, True)


def test_only_the_host_or_staff_hands_in_and_a_bad_packet_stores_nothing(season: Any) -> None:
    with pytest.raises(Refused, match="Only the host team"):
        questions_submit(tour=season.tour, discipline="chgk", packet=numbered(15), by=season.ezh)
    with pytest.raises(PacketRefused) as refused:
        questions_submit(
            tour=season.tour, discipline="chgk", packet=packet("bad-packet.txt"), by=season.sova
        )
    assert len(refused.value.errors) == 7
    assert QuestionSubmission.objects.count() == 0
    assert Question.objects.count() == 0
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(2), by=season.olga, now=msk(1, 10)
    )
    assert QuestionSubmission.objects.get().entry == season.sovy


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

    start = time.perf_counter()
    index = database_index()
    results = [index.closest(t, "x") for t in [reworded, *texts[:14]]]
    elapsed = time.perf_counter() - start

    assert results[0][0].score >= PUBLISHED
    assert Question.objects.get(pk=results[0][0].question).text == texts[1234]
    assert len(index) == 3000
    assert elapsed < 3.0


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


# --- The packet, replacements and play ------------------------------------------------------


@pytest.fixture
def handed_in(season: Any) -> list[Question]:
    questions_submit(
        tour=season.tour, discipline="chgk", packet=packet("tour-packet.txt"), by=season.sova,
        now=msk(4, 20),
    )  # fmt: skip
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(2, 16), by=season.sova,
        now=msk(4, 21),
    )  # fmt: skip
    return list(Question.objects.order_by("submission__submitted_at", "number"))


def test_the_coordinator_selects_15_asks_a_replacement_and_the_host_replaces(
    season: Any, handed_in: list[Question]
) -> None:
    ids = [q.pk for q in handed_in]
    with pytest.raises(Refused, match="The packet has 15 questions; 14 are chosen"):
        packet_select(tour=season.tour, discipline="chgk", questions=ids[:14], by=season.olga)
    with pytest.raises(Refused, match="Only the coordinator"):
        packet_select(tour=season.tour, discipline="chgk", questions=ids[:15], by=season.sova)
    assert not Question.objects.filter(status="selected").exists()

    chosen = packet_select(tour=season.tour, discipline="chgk", questions=ids[:15], by=season.olga)
    assert [q.pk for q in chosen] == ids[:15]

    first = handed_in[0]
    with pytest.raises(Refused) as refused:
        replacement_ask(question=first, note="  ", by=season.olga)
    assert refused.value.field == "note"
    replacement_ask(question=first, note="Кубок Коломны 2024, вопрос 1", by=season.olga)
    first.refresh_from_db()
    assert (first.status, first.note) == ("replace", "Кубок Коломны 2024, вопрос 1")
    assert len(packet_of(season.tour, "chgk")) == 14
    with pytest.raises(Refused, match="asked to be replaced"):
        packet_select(tour=season.tour, discipline="chgk", questions=ids[:15], by=season.olga)

    with pytest.raises(Refused, match="one question"):
        replacement_submit(question=first, packet=numbered(2), by=season.sova)
    new = replacement_submit(
        question=first, packet="1. Новый вопрос о крепости?\nОтвет: Петропавловская",
        by=season.sova, now=msk(10, 12),
    )  # fmt: skip
    first.refresh_from_db()
    assert first.replaced_by == new
    assert new.number == 1
    state = duty_state(season.event, season.tour, "chgk")
    # 17 handed in, one replaced by its replacement: still 17; the replacement is not late.
    assert (state.count, state.late, state.asked) == (17, False, [])
    assert [r.replacement for r in state.submissions] == [False, False, True]

    packet_select(
        tour=season.tour, discipline="chgk", questions=[new.pk, *ids[1:15]], by=season.olga
    )
    assert len(packet_of(season.tour, "chgk")) == 15
    assert Question.objects.get(pk=ids[15]).status == "submitted"


def test_the_played_packet_enters_the_database_after_the_tour(
    season: Any, handed_in: list[Question]
) -> None:
    ids = [q.pk for q in handed_in]
    packet_select(tour=season.tour, discipline="chgk", questions=ids[2:17], by=season.olga)
    with pytest.raises(Refused, match="starts"):
        packet_play(tour=season.tour, by=season.olga, now=msk(12, 18, 59))

    moved = packet_play(tour=season.tour, by=season.olga, now=msk(12, 22))

    assert len(moved) == 15
    played = Question.objects.filter(status="archive").order_by("number")
    assert [q.number for q in played] == list(range(1, 16))
    assert played[0].pk == ids[2]
    assert {(q.played_on, q.public_from) for q in played} == {
        (dt.date(2026, 11, 12), dt.date(2027, 11, 12))
    }
    assert {q.source for q in played} == {"Дети Коломны XV, tour 1"}
    assert Question.objects.filter(status="submitted").count() == 2
    assert not public_questions(dt.date(2027, 11, 11)).exists()
    assert public_questions(dt.date(2027, 11, 12)).count() == 15
    # Played: nothing changes any more.
    with pytest.raises(Refused, match="was played"):
        questions_submit(tour=season.tour, discipline="chgk", packet=numbered(1), by=season.sova)
    with pytest.raises(Refused, match="was played"):
        packet_play(tour=season.tour, by=season.olga, now=msk(13, 10))
    # The played questions are now what later packets are checked against.
    index = database_index(dt.date(2026, 11, 13))
    text = Question.objects.get(pk=ids[2]).text
    assert index.closest(text, "Корсика")[0].score == 1.0


# --- п. 23 ----------------------------------------------------------------------------------


def test_a_host_without_questions_is_disqualified_with_its_players(season: Any) -> None:
    late_player = player(season.sovy, "Puhach", added_at=msk(12, 20))
    assert host_missed(season.event, season.tour, msk(12, 18)) is False
    with pytest.raises(Refused, match="has not started"):
        host_disqualify(tour=season.tour, by=season.olga, now=msk(12, 18))
    assert host_missed(season.event, season.tour, msk(12, 19)) is True
    with pytest.raises(Refused, match="Only the coordinator"):
        host_disqualify(tour=season.tour, by=season.sova, now=msk(12, 20))

    sanction = host_disqualify(
        tour=season.tour, by=season.olga, reason="Не отвечали на письма.", now=msk(12, 21)
    )

    assert (sanction.key, sanction.entry, sanction.stage, sanction.round) == (
        "host-without-questions", season.sovy, TOUR, 1
    )  # fmt: skip
    assert sanction.reason == (
        "Host of tour 1: no ChGK questions handed in to the coordinator before the tour "
        "started. Не отвечали на письма."
    )
    assert sanction.clause.startswith("п. 23:")
    bans = Ban.objects.filter(sanction=sanction)
    assert sorted((b.team_name or b.person.first_name) for b in bans) == ["Filin", "Sova", "Sovy"]
    assert {b.until for b in bans} == {dt.date(2028, 6, 30)}
    assert not bans.filter(person=late_player).exists()
    assert host_missed(season.event, season.tour, msk(12, 22)) is False
    with pytest.raises(Refused, match="already disqualified"):
        host_disqualify(tour=season.tour, by=season.olga, now=msk(12, 22))
    assert Sanction.objects.count() == 1


def test_a_host_that_handed_in_before_the_start_is_not_disqualified(season: Any) -> None:
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(3), by=season.sova,
        now=msk(12, 18, 30),
    )  # fmt: skip
    with pytest.raises(Refused, match="handed in 3 ChGK questions"):
        host_disqualify(tour=season.tour, by=season.olga, now=msk(12, 20))
    assert Sanction.objects.count() == 0
    assert Ban.objects.count() == 0


def test_questions_handed_in_only_after_the_start_do_not_save_the_host(season: Any) -> None:
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(15), by=season.sova,
        now=msk(12, 19, 30),
    )  # fmt: skip
    assert host_missed(season.event, season.tour, msk(12, 20)) is True
    host_disqualify(tour=season.tour, by=season.olga, now=msk(12, 20))
    assert Ban.objects.count() == 3


def test_a_brainball_packet_has_as_many_questions_as_the_coordinator_ticks(season: Any) -> None:
    questions_submit(
        tour=season.tour, discipline="brainball", packet=numbered(40, word="бой"),
        by=season.sova, now=msk(4, 12),
    )  # fmt: skip
    state = duty_state(season.event, season.tour, "brainball")
    assert (state.count, state.minimum, state.short) == (40, 36, False)
    ids = list(Question.objects.values_list("pk", flat=True))
    with pytest.raises(Refused, match="Tick the questions"):
        packet_select(tour=season.tour, discipline="brainball", questions=[], by=season.olga)
    chosen = packet_select(
        tour=season.tour, discipline="brainball", questions=ids[:24], by=season.olga
    )
    assert len(chosen) == 24
    # The ChGK packet is another one: the Brainball questions are not in it.
    with pytest.raises(Refused, match="Choose among the questions handed in"):
        packet_select(tour=season.tour, discipline="chgk", questions=ids[:15], by=season.olga)
