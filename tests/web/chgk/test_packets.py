"""The packet notation (``podium.web.chgk.packets``): a good packet read question by question
and field by field, English labels and a second tour numbered from one, every kind of bad line
named by its line and question, long authors and an empty packet."""

from __future__ import annotations

from tests.web.chgk.questions_scenario import packet

from podium.web.chgk.packets import parse_packet

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
