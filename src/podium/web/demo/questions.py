"""The question duty in the demo (deti-kolomny): the club's database and tour 4's packet.

- database: five questions of an earlier cup, imported by the coordinator as played in 2009.
- tour 4: its host team handed in 15 ChGK questions ten days before the tour (on time: п. 20
  asks for 7). Question 3 retells a question of the database in other words; the coordinator
  asked for a replacement and the host handed one in. Question 9 is close to another one of the
  database and waits for the newcomer: the check page shows both with their score; the packet
  is not selected yet.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from podium.web.chgk.services.questions import (
    questions_import,
    questions_submit,
    replacement_ask,
    replacement_submit,
)
from podium.web.models import Event, Question, Round

DATABASE = """# Кубок Коломны 2009, тур 2
1. Этот русский полководец не проиграл ни одного сражения. Назовите его.
Ответ: Александр Суворов
Автор: Сергей Кротов

2. В каком городе находится Коломенский кремль?
Ответ: в Коломне
Автор: Сергей Кротов

3. Какая пастила, по преданию, понравилась Екатерине Второй во время её приезда в Коломну?
Ответ: коломенская
Автор: Мария Ежова

4. Сколько башен было у Коломенского кремля при постройке?
Ответ: семнадцать
Автор: Мария Ежова

5. Какая река впадает в Оку у Коломны?
Ответ: Москва
Автор: Олег Соколов
"""

TOUR = """# Тур 4. Вопросы команды-хозяйки
1. Какой химический элемент назван в честь России?
Ответ: рутений
Автор: Анна Лисицына

2. Как называется самое глубокое озеро в мире?
Ответ: Байкал
Автор: Анна Лисицына

3. По преданию, Екатерине Второй в Коломне понравилась эта пастила. Какая?
Ответ: коломенская
Автор: Анна Лисицына

4. Какой писатель написал «Мёртвые души»?
Ответ: Николай Гоголь
Автор: Павел Волков

5. Какая планета Солнечной системы вращается «лёжа на боку»?
Ответ: Уран
Автор: Павел Волков

6. Как звали собаку, которая первой из живых существ вышла на орбиту Земли?
Ответ: Лайка
Автор: Павел Волков

7. Какой музыкальный инструмент Страдивари делал чаще всего?
Ответ: скрипку
Автор: Анна Лисицына

8. На гербе какого города изображён Георгий Победоносец?
Ответ: Москвы
Автор: Анна Лисицына

9. Какая река у Коломны впадает в Оку?
Ответ: Москва
Автор: Павел Волков

10. Как называется столица Австралии?
Ответ: Канберра
Автор: Павел Волков

11. Какой учёный сформулировал периодический закон?
Ответ: Дмитрий Менделеев
Автор: Анна Лисицына

12. Какой цвет получится, если смешать синий и жёлтый?
Ответ: зелёный
Автор: Анна Лисицына

13. Сколько клеток на шахматной доске?
Ответ: шестьдесят четыре
Автор: Павел Волков

14. Какой полуостров омывается Чёрным и Азовским морями?
Ответ: Крым
Автор: Павел Волков

15. Как называется самая длинная река Европы?
Ответ: Волга
Автор: Анна Лисицына
"""

REPLACEMENT = """3. Какое ремесло прославило город Гжель?
Ответ: керамика
Автор: Анна Лисицына
"""


def deti_kolomny(event: Event, accounts: dict[str, Any]) -> None:
    org = accounts["organizer"]
    tour = Round.objects.get(event=event, stage="chgk-tour", number=4)
    handed_in = tour.starts_at - dt.timedelta(days=10)
    source = "Кубок Коломны 2009, тур 2"
    # The club's database outlives the event: a demo loaded again (reset) finds it there.
    if not Question.objects.filter(source=source, submission__isnull=True).exists():
        questions_import(
            event=event, discipline="chgk", packet=DATABASE, source=source,
            played_on=dt.date(2009, 11, 8), by=org, now=handed_in,
        )  # fmt: skip
    submission = questions_submit(
        tour=tour, discipline="chgk", packet=TOUR, by=org, now=handed_in,
        note="Передано капитаном команды-хозяйки.",
    )  # fmt: skip
    retold = submission.questions.get(number=3)
    replacement_ask(
        question=retold, by=org,
        note="Уже был: Кубок Коломны 2009, тур 2, вопрос 3.",
    )  # fmt: skip
    replacement_submit(
        question=retold, packet=REPLACEMENT, by=org, now=handed_in + dt.timedelta(days=1)
    )
