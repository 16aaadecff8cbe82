"""Entrants from a spreadsheet: the column mapping guessed from the header, a preview with every
problem per row and column before anything is saved, and an import of all rows or none through
the registration service. Files that cannot be read, and the pages:
``test_imports_entrants_upload``.

Hand-worked cases:
- cz-jigsaw (no approval, no window), a Czech sheet ``Jméno;Příjmení;Datum narození;Stát;…``:
  row 2 Jana Nováková, 12.3.1990, CZ, Jednotlivci (the Czech title of "Individuals") → entry #1
  "Jana Nováková", confirmed; row 3 Petr Horák (SK) with the partner Eva Horáková (2.2.1987, SK),
  Dvojice → entry #2 "Petr Horák / Eva Horáková", confirmed. Two entries, three people, one
  audit entry for the import (and one per registration, as the service writes).
- it-puzzle-party (pairs; age 16 or more on the event day, 24 May 2026; approval required),
  imported on 1 May 2026: row 2 a complete pair → pending; row 3 a pair with one member; row 4
  a partner born "31.2.1990" and a country "XX"; row 5 Nina Mladá born 2010-06-01 is 15 on
  24 May 2026; row 6 Giulia Bianchi again (as on row 2); row 7 the category "Seniors". Every one
  of these is listed with its row and column, and nothing is saved.
- over the cap: a Puzzle Party of 2 places with 1 taken: the file's first pair fits, the second
  is over the cap (2 places, 1 taken, entry 2 of the file).
- cba-qualifier (born on or before 30.6.1999), on 1 March 2012: Jan Dvořák, M, born 1975-09-16,
  average 195 → Master — men; Petr Mladý born 1999-07-01 may not enter.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import pytest

from podium.web.files.fields import guess_mapping
from podium.web.files.services.imports import (
    ImportRefused,
    entrants_import,
    entrants_preview,
    member_slots,
)
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Entry, EntryMember, Person, Squad
from podium.web.readers.tables import Sheet, read_upload

UTC = dt.UTC
MAY_1 = dt.datetime(2026, 5, 1, 10, 0, tzinfo=UTC)

CZECH = (
    "Jméno;Příjmení;Datum narození;Stát;E-mail;Kategorie;Jméno partnera;Příjmení partnera;"
    "Datum narození partnera;Stát partnera\n"
    "Jana;Nováková;12.3.1990;CZ;jana@example.org;Jednotlivci;;;;\n"
    "Petr;Horák;1985-07-01;SK;;Dvojice;Eva;Horáková;2.2.1987;SK\n"
)
ITALIAN = (
    "Nome,Cognome,Data di nascita,Paese,Nome partner,Cognome partner,Data di nascita partner,"
    "Paese partner,Categoria\n"
    "Giulia,Bianchi,1990-01-01,IT,Luca,Romano,1989-05-05,IT,Coppie\n"  # 2: fine
    "Chiara,Colombo,1991-02-02,IT,,,,,Coppie\n"  # 3: one member
    "Sara,Greco,1992-03-03,IT,Andrea,Bruno,31.2.1990,XX,Coppie\n"  # 4: bad date, country
    "Nina,Mladá,2010-06-01,CZ,Marco,Ricci,1988-08-08,IT,Coppie\n"  # 5: 15 on the day
    "Giulia,Bianchi,1990-01-01,IT,Paolo,Conti,1980-01-01,IT,Coppie\n"  # 6: Giulia again
    "Anna,Gallo,1993-04-04,IT,Marta,Gallo,1994-04-04,IT,Seniors\n"  # 7: no such category
)


def counts() -> dict[str, int]:
    return {
        "entries": Entry.objects.count(),
        "people": Person.objects.count(),
        "members": EntryMember.objects.count(),
        "audit": AuditEntry.objects.count(),
    }


def sheet(text: str, name: str = "entrants.csv", encoding: str = "utf-8") -> Sheet:
    return read_upload(name, text.encode(encoding))


def mapped(event: Any, data: Sheet) -> dict[int, str]:
    return guess_mapping(data.header, member_slots(event))


def issues(refused_or_plan: Any) -> list[tuple[int | None, str, str]]:
    found = getattr(refused_or_plan, "issues", ())
    return [(i.row, i.column, i.message) for i in found]


def organizer(event: Any) -> Any:
    return event.roles.get(role="organizer").user


# --- the mapping ------------------------------------------------------------------------------


def test_headers_in_four_languages_are_guessed(cz: Any) -> None:
    header = [
        "Příjmení", "Cognome", "Фамилия", "Jméno", "E-mail", "Datum narození", "Stát",
        "Jméno partnera", "Příjmení partnera", "Hráč 3 příjmení", "Tým", "Kategorie", "Skupina",
        "Poznámka",
    ]  # fmt: skip
    got = guess_mapping(header, member_slots(cz))
    # Each field once: "Cognome" and "Фамилия" also name the last name, already taken.
    assert got == {
        0: "m0_last_name", 3: "m0_first_name", 4: "m0_email", 5: "m0_birth_date",
        6: "m0_country", 7: "m1_first_name", 8: "m1_last_name", 9: "m2_last_name",
        10: "name", 11: "category", 12: "group",
    }  # fmt: skip
    assert guess_mapping(["Имя", "Фамилия", "Дата рождения", "Страна", "Пол"], 1) == {
        0: "m0_first_name", 1: "m0_last_name", 2: "m0_birth_date", 3: "m0_country",
        4: "m0_gender",
    }  # fmt: skip


# --- a good import ----------------------------------------------------------------------------


def test_czech_sheet_is_imported_through_the_registration_service(cz: Any) -> None:
    data = sheet(CZECH)
    by = organizer(cz)
    plan = entrants_preview(event=cz, sheet=data, mapping=mapped(cz, data), by=by)
    assert plan.ok, issues(plan)
    assert [(r.row, r.category, r.status) for r in plan.rows] == [
        (2, "individuals", "confirmed"),
        (3, "pairs", "confirmed"),
    ]
    assert counts() == {"entries": 0, "people": 0, "members": 0, "audit": 0}  # a preview only

    entries = entrants_import(event=cz, sheet=data, mapping=mapped(cz, data), by=by, token="t1")
    assert [(e.number, e.name, e.category, e.status) for e in entries] == [
        (1, "Jana Nováková", "individuals", "confirmed"),
        (2, "Petr Horák / Eva Horáková", "pairs", "confirmed"),
    ]
    jana = Person.objects.get(last_name="Nováková")
    assert (jana.birth_date, jana.country, jana.email) == (
        dt.date(1990, 3, 12), "CZ", "jana@example.org",
    )  # fmt: skip
    eva = Person.objects.get(last_name="Horáková")
    assert (eva.birth_date, eva.country) == (dt.date(1987, 2, 2), "SK")
    assert jana.user is None  # the organizer registered on their behalf
    assert counts() == {"entries": 2, "people": 3, "members": 3, "audit": 3}
    [done] = AuditEntry.objects.filter(action="entries.import")
    assert done.data["entries"] == [1, 2]
    assert done.data["rows"] == 2
    assert AuditEntry.objects.filter(action="entry.register").count() == 2
    # The same upload again is refused, and changes nothing.
    with pytest.raises(Refused, match="already imported"):
        entrants_import(event=cz, sheet=data, mapping=mapped(cz, data), by=by, token="t1")
    assert counts()["entries"] == 2


def test_approval_makes_imported_pairs_pending(party: Any) -> None:
    data = sheet(ITALIAN.splitlines()[0] + "\n" + ITALIAN.splitlines()[1] + "\n")
    [entry] = entrants_import(
        event=party, sheet=data, mapping=mapped(party, data), by=organizer(party), token="a",
        now=MAY_1,
    )  # fmt: skip
    assert (entry.status, entry.name) == ("pending", "Giulia Bianchi / Luca Romano")


def test_xlsx_reads_the_first_worksheet_with_data_and_says_which(cz: Any) -> None:
    from openpyxl import Workbook

    book = Workbook()
    book.active.title = "Pokyny"  # an empty first sheet, as organizers' templates often have
    entrants = book.create_sheet("Přihlášky")
    entrants.append(["First name", "Last name", "Country", "Category", "Group"])
    entrants.append(["Tomáš", "Svoboda", "CZ", "individuals", "B"])
    book.create_sheet("Prázdný")
    buffer = io.BytesIO()
    book.save(buffer)
    data = read_upload("entrants.xlsx", buffer.getvalue())
    assert data.rows == ((2, ("Tomáš", "Svoboda", "CZ", "individuals", "B")),)
    assert data.note == "Read the worksheet “Přihlášky”, the first one with data."
    archive = book.create_sheet("2025")
    archive.append(["First name", "Last name"])
    buffer = io.BytesIO()
    book.save(buffer)
    again = read_upload("entrants.xlsx", buffer.getvalue())
    assert again.rows == data.rows
    assert again.note == (
        "Read the worksheet “Přihlášky”; the workbook's other worksheets with data (“2025”) "
        "were not read."
    )


def test_xlsx_with_date_cells_and_a_group(cz: Any) -> None:
    from openpyxl import Workbook

    book = Workbook()
    ws = book.active
    ws.append(["First name", "Last name", "Birth date", "Country", "Category", "Group"])
    ws.append(["Tomáš", "Svoboda", dt.date(1970, 1, 31), "CZ", "individuals", "B"])
    buffer = io.BytesIO()
    book.save(buffer)
    data = read_upload("entrants.xlsx", buffer.getvalue())
    assert data.rows == ((2, ("Tomáš", "Svoboda", "1970-01-31", "CZ", "individuals", "B")),)
    [entry] = entrants_import(
        event=cz, sheet=data, mapping=mapped(cz, data), by=organizer(cz), token="x"
    )
    assert (entry.name, entry.group) == ("Tomáš Svoboda", "B")
    assert entry.members.get().person.birth_date == dt.date(1970, 1, 31)


# --- every problem, nothing saved -------------------------------------------------------------


def test_every_problem_is_listed_per_row_and_column_and_nothing_is_saved(party: Any) -> None:
    data = sheet(ITALIAN)
    by = organizer(party)
    before = counts()
    plan = entrants_preview(event=party, sheet=data, mapping=mapped(party, data), by=by, now=MAY_1)
    assert issues(plan) == [
        (3, "Cognome partner", "An entry of Pairs has exactly 2 members; this row has 1."),
        (4, "Data di nascita partner",
         "“31.2.1990” is not a date of the calendar"),
        (4, "Paese partner",
         "“XX” is not a country: write its two-letter ISO code (CZ, SK, IT…)"),
        (5, "Data di nascita",
         "Nina Mladá may not enter: 15 years old on 2026-05-24; at least 16 required "
         "(rulebook: Art. 3.1: Possono partecipare persone di età pari o superiore a 16 anni.)"),
        (6, "Cognome", "Giulia Bianchi is already on row 2"),
        (7, "Categoria",
         "“Seniors” is not a category of this event (Pairs)"),
    ]  # fmt: skip
    assert [r.status for r in plan.rows] == ["pending", "", "", "", "", ""]
    with pytest.raises(ImportRefused) as refused:
        entrants_import(
            event=party, sheet=data, mapping=mapped(party, data), by=by, token="bad", now=MAY_1
        )
    assert issues(refused.value) == issues(plan)
    assert str(refused.value) == "Nothing was imported: the file has 6 problems."
    assert counts() == before  # not even the good row 2


def test_over_the_cap_is_refused_per_row(party: Any, add_entry: Any) -> None:
    party.rulebook_text = party.rulebook_text.replace("cap: 50", "cap: 2", 1)
    party.save()
    add_entry(party, 1, "Già iscritti", "IT/IT")
    text = "\n".join(ITALIAN.splitlines()[0:2]) + "\n"
    text += "Sara,Greco,1992-03-03,IT,Andrea,Bruno,1990-02-03,IT,Coppie\n"
    data = sheet(text)
    plan = entrants_preview(
        event=party, sheet=data, mapping=mapped(party, data), by=organizer(party), now=MAY_1
    )
    assert issues(plan) == [
        (3, "Categoria",
         "over the cap: Pairs has 2 places, 1 are taken, and this is entry 2 of the file"),
    ]  # fmt: skip


def test_bowling_eligibility_and_divisions(make_event: Any, make_user: Any) -> None:
    cba = make_event(
        "cba-qualifier",
        organizer=make_user("cyril"),
        starts_at=dt.datetime(2012, 3, 24, 8, 0, tzinfo=UTC),
    )
    data = sheet(
        "Jméno;Příjmení;Pohlaví;Datum narození;Průměr\n"
        "Jan;Dvořák;M;16.9.1975;195,40\n"
        "Petr;Mladý;muž;1.7.1999;150\n"
    )
    plan = entrants_preview(
        event=cba, sheet=data, mapping=mapped(cba, data), by=organizer(cba),
        category="players", now=dt.datetime(2012, 3, 1, tzinfo=UTC),
    )  # fmt: skip
    assert issues(plan) == [
        (3, "Datum narození",
         "Petr Mladý may not enter: Born 1999-07-01, after 1999-06-30: not eligible (rulebook: "
         "§ 3.1 Dodatkový kvalifikační turnaj je určen pro registrované i neregistrované hráče "
         "a hráčky (dále jen \"hráči\") narození do 30.6.1999)"),
    ]  # fmt: skip
    assert (plan.rows[0].status, plan.rows[0].division) == ("confirmed", "master-men")
    assert Entry.objects.count() == 0


def test_an_entrant_registered_before_is_a_duplicate(cz: Any) -> None:
    by = organizer(cz)
    first = sheet("Jméno;Příjmení;Datum narození;Kategorie\nJana;Nováková;12.3.1990;Jednotlivci\n")
    entrants_import(event=cz, sheet=first, mapping=mapped(cz, first), by=by, token="one")
    again = sheet(
        "Jméno;Příjmení;Datum narození;Kategorie\n"
        "Karel;Malý;1.1.1980;Jednotlivci\n"
        "jana;NOVÁKOVÁ;12.3.1990;Jednotlivci\n"
    )
    plan = entrants_preview(event=cz, sheet=again, mapping=mapped(cz, again), by=by)
    assert issues(plan) == [
        (3, "Příjmení",
         "jana NOVÁKOVÁ is already registered in this category (#1 Jana Nováková)"),
    ]  # fmt: skip


def test_a_refusal_only_the_service_knows_is_shown_on_its_row(
    make_event: Any, make_user: Any, add_entry: Any
) -> None:
    """A full squad: the registration service checks its capacity."""
    start = dt.datetime(2012, 3, 24, 8, 0, tzinfo=UTC)
    cba = make_event("cba-qualifier", organizer=make_user("cyril"), starts_at=start)
    full = Squad.objects.create(event=cba, name="A", starts_at=start, capacity=1)
    Squad.objects.create(event=cba, name="B", starts_at=start, capacity=5)
    add_entry(cba, 1, "Karel Hruška", squad=full)
    data = sheet(
        "Jméno;Příjmení;Pohlaví;Datum narození;Runda\n"
        "Jan;Dvořák;M;16.9.1975;b\n"
        "Petr;Novotný;M;21.8.1960;A\n"
    )
    plan = entrants_preview(
        event=cba, sheet=data, mapping=mapped(cba, data), by=organizer(cba),
        category="players", now=dt.datetime(2012, 3, 1, tzinfo=UTC),
    )  # fmt: skip
    assert issues(plan) == [
        (
            3,
            "Runda",
            "Squad A is full; choose another squad. (rulebook: "
            + cba.rulebook.registration.clause
            + ")",
        )
    ]
    assert plan.rows[0].entry.squad.name == "B"


def test_the_mapping_must_name_the_people_and_a_category(cz: Any) -> None:
    data = sheet(CZECH)
    plan = entrants_preview(event=cz, sheet=data, mapping={0: "m0_first_name"}, by=organizer(cz))
    assert [i.message for i in plan.general] == [
        "Choose the column of the last name.",
        "Choose the category of every row, or the column that holds it.",
    ]
    plan = entrants_preview(
        event=cz, sheet=data, mapping={0: "m0_first_name", 1: "m0_first_name"}, by=organizer(cz)
    )
    assert "“First name” is already the field of column “Jméno”." in [
        i.message for i in plan.general
    ]


def test_only_an_organizer_imports(cz: Any, make_user: Any) -> None:
    data = sheet(CZECH)
    with pytest.raises(Refused, match="Only an organizer"):
        entrants_preview(event=cz, sheet=data, mapping=mapped(cz, data), by=make_user("mallory"))


def test_a_refusal_every_row_meets_is_said_once(make_event: Any, make_user: Any) -> None:
    draft = make_event("cz-jigsaw", organizer=make_user("dana"), status="draft")
    data = sheet(CZECH)
    plan = entrants_preview(
        event=draft, sheet=data, mapping=mapped(draft, data), by=organizer(draft)
    )
    assert issues(plan) == [
        (None, "", "Registration for this event is not open. (rulebook: Soutěže se smí účastnit "
                   "osoby nejen z České republiky.)"),
    ]  # fmt: skip
    assert Entry.objects.count() == 0
