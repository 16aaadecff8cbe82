"""Disputed answers stay anonymous until the verdict (deti-kolomny п. 14: the jury decides
without the team's name), on every page, export and API answer that shows the tour.

Hand-worked (deti-kolomny, 15 questions, tour 1 played two days ago, published preliminary):
- Sovy 10 (``111111111100000``), Ezhi 9, Lisy 8, and two teams that each took questions 1–7:
  Volki with a ``?`` at question 12 (``11111110000?000``) and Bobry with a plain miss there
  (``111111100000000``). A ``?`` counts as not taken until the verdict, so both have 7 and share
  4th–5th with (7 + 6) / 2 = 6.500 points.
- While the dispute is open, Volki and Bobry look the same everywhere but their names and
  numbers: the same cells, the same reasons (but for which of two tied rows comes first; every
  row of the tour says "Question 12 is under appeal…"), the same mask ``111111100000000`` in
  the rating JSON; the chart says question 12 was taken by 0 of 5 teams "(under appeal)", and
  the staff's overview counts "Tour 1, question 12: 1 disputed answer". Only the screens where
  results are recorded show the ``?``: the referees' grid and the results console's
  correction form.
- The jury accepts the answer: Volki 8 (``111111100001000``), sharing 3rd–4th with Lisy at
  (8 + 7) / 2 = 7.500 points, its row saying "Question 12: disputed answer accepted by the
  jury"; the chart says 1 of 5. Or it does not: Volki stays at 7 beside Bobry (6.500), its row
  saying "…not accepted by the jury". Either way nothing is under appeal any more.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from html import unescape
from types import SimpleNamespace
from typing import Any

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from podium.engine.inputs import RawRow
from podium.rules.loader import load
from podium.web.disputes.selectors.anonymity import blind_rows
from podium.web.disputes.services.appeals import dispute_decide, jury_appoint
from podium.web.events.services.tokens import token_create
from podium.web.models import Appeal, Result, Verdict
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

TOUR, SEASON = "chgk-tour", "chgk-season"
MASKS = {
    "Sovy": "111111111100000",
    "Ezhi": "111111111000000",
    "Lisy": "111111110000000",
    "Volki": "11111110000?000",
    "Bobry": "111111100000000",
}
BLIND = "111111100000000"
NOTE = (
    "Question 12 is under appeal: a disputed answer waits for the jury's verdict and counts as "
    "not taken until then, so the results are preliminary"
)
CAPTION = "Under appeal: a disputed answer counts as not taken until the verdict."
# A mask with a ? anywhere: what no page but the entry screen may show.
DISPUTED_MASK = re.compile(r"[01X?]{14}\?|\?[01X?]{14}|[01X?]{1,13}\?[01X?]{1,13}")


@pytest.fixture
def club(make_club: Any, make_user: Any) -> SimpleNamespace:
    """The club of ``make_club`` (olga organizes, hana is head referee, rudolf referee) with
    tour 1 recorded two days ago, published preliminary the day after, and a jury member."""
    played = timezone.now().replace(minute=0, second=0, microsecond=0) - dt.timedelta(days=2)
    club = make_club(list(MASKS), [played])
    for name, marks in MASKS.items():
        result_record(
            event=club.event, stage=TOUR, round=1, entry=club.teams[name],
            cells={"questions": "", "mask": marks}, by=club.rudolf, idempotency_key=name,
            now=played,
        )  # fmt: skip
    club.jury = make_user("yulia")
    jury_appoint(event=club.event, user=club.jury, by=club.org)
    later = played + dt.timedelta(days=1)  # preliminary results come out the day after
    for stage in (TOUR, SEASON):
        publication_set(event=club.event, stage=stage, state="preliminary", by=club.org,
                        now=later)  # fmt: skip
    club.event.language = "en"
    club.event.save(update_fields=["language"])
    return club


def client_for(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def viewers(club: Any) -> dict[str, Client]:
    """The public, the staff (organizer, head referee, referee) and the jury."""
    return {
        "public": client_for(),
        "organizer": client_for(club.org),
        "head referee": client_for(club.hana),
        "referee": client_for(club.rudolf),
        "jury": client_for(club.jury),
    }


def decide(club: Any, upheld: bool) -> None:
    dispute_decide(
        event=club.event, stage=TOUR, round=1, entry=club.teams["Volki"], question=12,
        upheld=upheld, reasons="The answer was heard at the table.", by=club.jury,
    )  # fmt: skip


def text_of(response: Any) -> str:
    """What a person reads in an answer: a page or a CSV as text, a workbook's cells, a PDF's
    text."""
    assert response.status_code == 200, (response.status_code, response.get("Content-Type"))
    body = b"".join(response.streaming_content) if response.streaming else response.content
    kind = response["Content-Type"]
    if "spreadsheet" in kind:
        book = openpyxl.load_workbook(io.BytesIO(body))
        return "\n".join(
            "\t".join("" if v is None else str(v) for v in row)
            for sheet in book
            for row in sheet.iter_rows(values_only=True)
        )
    if "pdf" in kind:
        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    return str(body.decode("utf-8"))


# --- The pages, exports and API answers that show the tour ------------------------------------


def tour_urls(event: Any) -> dict[str, str]:
    slug = event.slug
    tour = [slug, TOUR, 1]
    season = [slug, SEASON]
    return {
        "tour page": reverse("standings:round", args=tour),
        "tour table": reverse("standings:round-table", args=tour),
        "tour projector": reverse("standings:projector", args=tour),
        "tour projector table": reverse("standings:projector-table", args=tour),
        "season page": reverse("standings:stage", args=season),
        "season projector": reverse("standings:projector", args=season),
        **{
            f"tour {fmt}": reverse("exports:standings", args=[slug, TOUR, 1, fmt])
            for fmt in ("csv", "xlsx", "pdf")
        },
        **{
            f"season {fmt}": reverse("exports:standings", args=[slug, SEASON, 1, fmt])
            for fmt in ("csv", "xlsx", "pdf")
        },
        "tour API": f"/api/events/{slug}/stages/{TOUR}/rounds/1/standings",
        "season API": f"/api/events/{slug}/stages/{SEASON}/rounds/1/standings",
        "tour rating JSON": reverse("imports:rating_round", args=[slug, TOUR, 1]),
        "season rating JSON": reverse("imports:rating_season", args=[slug, TOUR]),
    }


def staff_urls(event: Any) -> dict[str, str]:
    slug = event.slug
    return {
        "appeals overview": reverse("appeals:list", args=[slug]),
        "publication": reverse("publication:index", args=[slug]),
        "dashboard": reverse("organizer:dashboard", args=[slug]),
        "second scorer's sheet": reverse("chgk:check", args=[slug, TOUR, 1]),
    }


def staff_as_of(event: Any) -> str:
    """The tour as it stood a moment ago (the staff's view of a past table)."""
    moment = timezone.localtime(timezone.now(), event.zone).strftime("%Y-%m-%dT%H:%M:%S")
    return reverse("standings:round", args=[event.slug, TOUR, 1]) + f"?as_of={moment}"


def urls_for(event: Any, who: str, urls: dict[str, str]) -> dict[str, str]:
    """What ``who`` may open of the tour: ``urls``, and for the staff the tour as of a moment
    ago, and for the organizer their own pages too."""
    shown = {**urls, "tour as of": staff_as_of(event)} if who != "public" else urls
    if who == "organizer":
        shown |= staff_urls(event)
    return shown


def without_alike(text: str) -> str:
    """The text but the words every row and the chart say alike (the note and the caption)."""
    for alike in (NOTE, NOTE.replace("'", "&#x27;"), CAPTION):
        text = text.replace(alike, "")
    return text


def api_rows(text: str) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in json.loads(text)["tables"][0]["rows"]}


def csv_rows(text: str) -> dict[str, dict[str, str]]:
    return {row["Name"]: row for row in csv.DictReader(io.StringIO(text.lstrip("\ufeff")))}


def xlsx_rows(response: Any) -> dict[str, dict[str, Any]]:
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    rows = list(book.worksheets[0].iter_rows(values_only=True))
    head = next(i for i, row in enumerate(rows) if "Name" in row)
    names = rows[head]
    return {
        str(row[names.index("Name")]): dict(zip(names, row, strict=True))
        for row in rows[head + 1 :]
        if row[names.index("Name")]
    }


# The reasons that place a row against its neighbours: two tied rows differ in them only by
# which comes first (by name), dispute or not.
PLACING = ("Below ", "Shares places ")


def without(row: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The row but ``keys``, and but the reasons that place it (see ``PLACING``)."""
    kept = {k: v for k, v in row.items() if k not in keys}
    if isinstance(kept.get("reasons"), list):
        kept["reasons"] = [r for r in kept["reasons"] if not r["text"].startswith(PLACING)]
    if isinstance(kept.get("Why"), str):  # a file's reasons, one a line
        kept["Why"] = [line for line in kept["Why"].split("\n") if not line.startswith(PLACING)]
    return kept


def reasons(html: str) -> list[str]:
    """A row's reasons as the page shows them, but those that place it (``PLACING``)."""
    items = [re.sub(r"<[^>]+>", "", item) for item in re.findall(r"<li>(.*?)</li>", html, re.S)]
    return [unescape(item) for item in items if not item.startswith(PLACING)]


def flat(text: str) -> str:
    """Text with every run of white space one space (a PDF wraps its lines anywhere)."""
    return " ".join(text.split())


def rating_masks(data: Any) -> dict[str, tuple[str, int, float]]:
    return {t["team"]["name"]: (t["mask"], t["questionsTotal"], t["position"]) for t in data}


# --- While the dispute is open ------------------------------------------------------------------


@pytest.mark.slow
def test_no_page_export_or_api_answer_tells_the_disputing_team(club: Any, why: Any) -> None:
    event = club.event
    urls = tour_urls(event)
    for who, client in viewers(club).items():
        for name, url in urls_for(event, who, urls).items():
            text = text_of(client.get(url))
            place = f"{name} for the {who}"
            assert not DISPUTED_MASK.search(text), place
            assert "disputed answer pending" not in text, place
            assert "disputed)" not in text, place  # the old per-question count
            if "Volki" in text:
                # Nowhere does Volki's line, row or item speak of a dispute, but in the words
                # every row and the chart say alike.
                for line in re.split(r"</tr>|</li>|\n", without_alike(text)):
                    if "Volki" in line:
                        assert "disput" not in line.casefold(), (place, line)

    public = client_for()
    # The standings API: Volki's row is Bobry's row but for the name and number, and every row
    # of the tour says question 12 is under appeal.
    tour = api_rows(text_of(public.get(urls["tour API"])))
    assert without(tour["Volki"], "id", "name", "number") == without(
        tour["Bobry"], "id", "name", "number"
    )
    assert (tour["Volki"]["rank"], tour["Volki"]["rank_to"], tour["Volki"]["points"]) == (4, 5, 6.5)
    assert tour["Volki"]["metrics"] == {"questions": 7}
    for name, row in tour.items():
        assert [r["text"] for r in row["reasons"]].count(NOTE) == 1, name
    season = api_rows(text_of(public.get(urls["season API"])))
    assert without(season["Volki"], "id", "name", "number") == without(
        season["Bobry"], "id", "name", "number"
    )
    assert season["Volki"]["score"] == "6.500 pts (7 q)"

    # The files: the same cells but for number and name; the PDF says it once, as the note
    # every team's row points at (identical reasons share a note).
    tour_csv = csv_rows(text_of(public.get(urls["tour csv"])))
    assert without(tour_csv["Volki"], "No.", "Name") == without(tour_csv["Bobry"], "No.", "Name")
    assert tour_csv["Volki"]["Score"] == "7 q"
    assert all(NOTE in row["Why"] for row in tour_csv.values())
    workbook = xlsx_rows(public.get(urls["tour xlsx"]))
    assert without(workbook["Volki"], "No.", "Name") == without(workbook["Bobry"], "No.", "Name")
    assert flat(text_of(public.get(urls["tour pdf"]))).count(NOTE) == 1
    season_csv = csv_rows(text_of(public.get(urls["season csv"])))
    assert without(season_csv["Volki"], "No.", "Name") == without(
        season_csv["Bobry"], "No.", "Name"
    )

    # The rating site's JSON: a ? is written as the miss it counts as until the verdict.
    for client in (public, client_for(club.org)):
        masks = rating_masks(client.get(urls["tour rating JSON"]).json())
        assert masks["Volki"] == masks["Bobry"] == (BLIND, 7, 4.5)
        [tour_1] = client.get(urls["season rating JSON"]).json()["tours"]
        assert rating_masks(tour_1["results"])["Volki"] == (BLIND, 7, 4.5)

    # The page: the question strip says question 12 is under appeal, and a row's reasons are
    # the same for Volki and Bobry (each row names nobody else).
    page = text_of(public.get(urls["tour page"]))
    assert "Question 12: taken by 0 of 5 (under appeal)" in page
    assert CAPTION in page
    volki, bobry = (reasons(why(urls["tour page"], "all", n)) for n in (4, 5))
    assert volki == bobry
    assert volki[-1].startswith(NOTE + " п. 14:")
    russian = reasons(why("/ru" + urls["tour page"], "all", 4))
    assert russian[-1].startswith(
        "Вопрос 12 на апелляции: спорный ответ ждёт вердикта жюри и до тех пор считается "
        "невзятым, поэтому результаты предварительные"
    )
    assert "Вопрос 12: взяли 0 из 5 (на апелляции)" in text_of(
        public.get("/ru" + urls["tour page"])
    )
    projector = text_of(public.get(urls["tour projector table"]))
    rows = dict(re.findall(r'<tr id="row-all-(\d+)".*?>(.*?)</tr>', projector, re.S))
    assert rows["4"].replace("Volki", "?") == rows["5"].replace("Bobry", "?").replace(
        "why=all.5", "why=all.4"
    )


def test_the_staff_count_open_disputes_and_the_jury_sees_no_team(club: Any) -> None:
    page = text_of(client_for(club.org).get(reverse("appeals:list", args=[club.event.slug])))
    disputes = re.search(r'<ul class="disputes">.*?</ul>', page, re.S)
    assert disputes
    assert re.findall(r"<li>(.*?)</li>", disputes.group(0)) == [
        "Tour 1, question 12: 1 disputed answer"
    ]
    jury = text_of(client_for(club.jury).get(reverse("jury:index", args=[club.event.slug])))
    assert "Tour 1, question 12, disputed answer A" in jury
    assert not any(name in jury for name in MASKS)


def test_the_entry_screen_still_shows_the_disputed_mark(club: Any) -> None:
    """The referees who record the sheet see (and keep) the ?: a sheet saved again from a
    blind grid, or a correction from a blind form, would turn the dispute into a miss."""
    grid = text_of(
        client_for(club.rudolf).get(reverse("chgk:grid", args=[club.event.slug, TOUR, 1]))
    )
    volki = club.teams["Volki"]
    assert re.search(rf'name="mask-{volki.pk}" value="11111110000\?000"', grid)
    # The results console's correction form is filled with the mask as recorded, for the same
    # reason; its card shows the score the rules give (7 q), as for Bobry.
    console = text_of(
        client_for(club.rudolf).get(reverse("results:round", args=[club.event.slug, TOUR, 1]))
    )
    assert re.search(rf'name="e{volki.pk}-mask" value="11111110000\?000"', console)
    cards = dict(
        re.findall(
            r'<h3><span>#\d <bdi>(\w+)</bdi></span></h3>\s*<p class="score">([^<]+)</p>', console
        )
    )
    assert cards["Volki"] == cards["Bobry"] == "7 q"
    # A scoring token reads back the results it writes as recorded (a client that corrects a
    # result sends its cells again), but the standings it reads are as blind as anyone's.
    _token, secret = token_create(event=club.event, name="sheet scanner", user=club.rudolf,
                                  by=club.org)  # fmt: skip
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    api = f"/api/events/{club.event.slug}/stages/{TOUR}/rounds/1"
    recorded = Client().get(f"{api}/results", **bearer).json()["items"]
    assert [r["cells"]["mask"] for r in recorded if r["entry"] == 4] == ["11111110000?000"]
    standings = text_of(Client().get(f"{api}/standings", **bearer))
    assert not DISPUTED_MASK.search(standings)
    assert api_rows(standings)["Volki"]["metrics"] == {"questions": 7}
    assert Result.objects.filter(entry=volki).get().cells["mask"] == "11111110000?000"


# --- After the verdict --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("upheld", "mask", "taken", "place", "position", "outcome"),
    [
        (True, "111111100001000", 8, (3, 4, 7.5), 3.5, "disputed answer accepted by the jury"),
        (False, BLIND, 7, (4, 5, 6.5), 4.5, "disputed answer not accepted by the jury"),
    ],
)
def test_after_the_verdict_the_table_shows_the_outcome(
    club: Any,
    upheld: bool,
    mask: str,
    taken: int,
    place: tuple[int, int, float],
    position: float,
    outcome: str,
) -> None:
    outcome = f"Question 12: {outcome}"
    decide(club, upheld)
    assert (Appeal.objects.get().kind, Verdict.objects.get().upheld) == ("disputed", upheld)
    urls = tour_urls(club.event)
    public = client_for()
    tour = api_rows(text_of(public.get(urls["tour API"])))
    volki = tour["Volki"]
    assert volki["metrics"] == {"questions": taken}
    assert (volki["rank"], volki["rank_to"], volki["points"]) == place
    assert outcome in [r["text"] for r in volki["reasons"]]
    assert not any("under appeal" in r["text"] for row in tour.values() for r in row["reasons"])
    assert outcome not in [r["text"] for r in tour["Bobry"]["reasons"]]
    assert outcome in csv_rows(text_of(public.get(urls["tour csv"])))["Volki"]["Why"]
    rating = rating_masks(public.get(urls["tour rating JSON"]).json())
    assert rating["Volki"] == (mask, taken, position)
    page = text_of(public.get(urls["tour page"]))
    assert f"Question 12: taken by {int(upheld)} of 5;" in page
    assert "under appeal" not in page.casefold()
    overview = text_of(client_for(club.org).get(reverse("appeals:list", args=[club.event.slug])))
    assert "None: no mask has an undecided ? mark." in overview


def test_several_questions_under_appeal_are_named_on_every_row_and_nothing_else_changes() -> None:
    """The helper alone: a withdrawn question (X) stays, a team with a count and no mask gets
    the same note, a row without a ? is the row it was."""
    rulebook = load("deti-kolomny")
    rows = [
        RawRow(1, {"id": "1", "mask": "1?X1111111?0000", "questions": ""}),
        RawRow(2, {"id": "2", "mask": "10X111111100000", "questions": ""}),
        RawRow(3, {"id": "3", "mask": "", "questions": "6"}),
    ]
    blinded = blind_rows(rulebook, rows)
    assert [r.cells["mask"] for r in blinded.rows] == ["10X111111100000", "10X111111100000", ""]
    assert blinded.rows[1:] == rows[1:]
    assert blinded.questions == (2, 11)
    [note] = {reason for reasons in blinded.notes.values() for reason in reasons}
    assert sorted(blinded.notes) == ["1", "2", "3"]
    assert note.text == (
        "Questions 2, 11 are under appeal: disputed answers wait for the jury's verdict and "
        "count as not taken until then, so the results are preliminary"
    )
    assert (note.clause or "").startswith("п. 14:")
    # Without a ? nothing is said and nothing is copied.
    plain = blind_rows(rulebook, rows[1:])
    assert (plain.rows, dict(plain.notes), plain.questions) == (rows[1:], {}, ())
