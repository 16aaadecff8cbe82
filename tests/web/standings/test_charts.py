"""Charts drawn on the server as SVG: the ChGK season's progression and a tour's question strip,
finish times per group with the quota cut, bowling lines per squad; what the public sees of a
draft; every text escaped. The SVG is parsed with xml.etree, never compared as a string.

Hand-worked (deti-kolomny; points 12, 10, 8, 7 for places 1–4; team 3 is named ``<b>&"``):
- Tour 1 (preliminary, by masks; question 15 withdrawn for everyone):
  Alfa ``11111111110000X`` = 10, Beta ``11011111100000X`` = 8, ``<b>&"`` ``10111110000000X`` = 6,
  Delta absent → 12, 10, 8, 0 points. Questions 1–14 were taken by
  3, 2, 2, 3, 3, 3, 3, 2, 2, 1, 0, 0, 0, 0 teams (question 3: Alfa and ``<b>&"``, 2 of 3).
- Tour 2 (preliminary): Beta 11, Alfa 9, Delta 7, ``<b>&"`` 5 → Beta 12, Alfa 10, Delta 8,
  ``<b>&"`` 7.
- Tour 3 (draft, by masks: the first n questions taken): ``<b>&"`` 12, Delta 10, Alfa 9, Beta 4
  → ``<b>&"`` 12, Delta 10, Alfa 8, Beta 7; question 12 was taken by 1 team, 13–15 by none.
- Staff, after each tour: Alfa 12, 22, 30; Beta 10, 22, 29; ``<b>&"`` 8, 15, 27; Delta 0, 8, 18
  (absent from tour 1: 0). Leaders: 1. Alfa 30, 2. Beta 29, 3. ``<b>&"`` 27.
- The public sums tours 1 and 2 only: Alfa 12, 22; Beta 10, 22; ``<b>&"`` 8, 15; Delta 0, 8;
  Alfa and Beta share 1st–2nd (22 points, 19 questions, places 1 + 2 = 3 each).
- Scale (``charts.lines.lines_box(3)``): plot x 42…338, y 14…174; the tours sit at
  x = 54, 190, 326 (12 inside, 136 apart); the axis is 0…30 (steps of 10),
  y = 174 − v × 160 / 30: 12 → 110, 22 → 56.7, 30 → 14; 10 → 120.7, 29 → 19.3.
- Strip (``charts.bars.STRIP``): plot y 20…150, top = 3 teams: question 3's bar of 2 is
  130 × 2 / 3 = 86.7 high, from y = 63.3.

Hand-worked (cz-jigsaw, individual qualification, group A; limit 90 min, pools 50 Czech + 5
foreign): Czech #i (i = 1…53) finishes at 45:00 + i × 30 s; #9 at 49:30 with 3 missing pieces
→ 50:00 (ties #10); foreigners 47:00 and 72:00; two Czechs do not finish. Bins of 5 minutes from
0:45 to 1:30: 45–50: #1–#8 and the 47:00 foreigner = 9; 50–55: #9–#19 = 11; 55–60, 60–65,
65–70: 10 each; 70–75: #50–#53 and the 72:00 foreigner = 5; 75–90: 0; not finished: 2. The
50th Czech (#50) is at 70:00 → the cut line at 1:10:00, x = 38 + (70 − 45) / 45 × 240 = 171.3
(``charts.histogram.histogram_box``: plot x 38…278). Group B: one finisher at 1:00:00 → bins
from 1:00 to 1:30: 1, 0, 0, 0, 0, 0.

Hand-worked (cba-qualifier, squad "Runda 1"): Adam 200 180 190 210 170 160 (6 games, 1110),
Bára 150 160 170 180 (4, 660), Cyril 220 140 (2, 360), Dan no games → three lines of 6, 4 and
2 points, ranked 1. Adam, 2. Bára, 3. Cyril; once Dan bowls 99 in game 1, his line is one
point. Axis 140…220 (steps of 20): y = 174 − (v − 140) × 2,
games at x = 54 + (g − 1) × 54.4 → Cyril: (54, 14) and (108.4, 174).
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.models import Entry, EntryMember, Person, Round, Squad
from podium.web.results.services.results import result_record
from podium.web.standings.charts.bars import Bar, bar_strip
from podium.web.standings.charts.lines import Series, line_chart
from podium.web.standings.selectors.charts.common import Chart
from podium.web.standings.selectors.charts.stage import stage_charts
from podium.web.standings.services.publication import publication_set

NS = "{http://www.w3.org/2000/svg}"
TOUR, SEASON = "chgk-tour", "chgk-season"
ODD = '<b>&"'
MASKS = {"Alfa": "11111111110000X", "Beta": "11011111100000X", ODD: "10111110000000X"}
TOURS = {
    2: {"Beta": 11, "Alfa": 9, "Delta": 7, ODD: 5},
    3: {ODD: 12, "Delta": 10, "Alfa": 9, "Beta": 4},
}


def parse(chart: Chart) -> ET.Element:
    return ET.fromstring(str(chart.svg))


def by_key(charts: list[Chart]) -> dict[str, Chart]:
    return {c.key: c for c in charts}


def points(group: ET.Element) -> list[tuple[float, float]]:
    """The points of a series' polyline."""
    polyline = group.find(f"{NS}polyline")
    assert polyline is not None
    pairs = (p.split(",") for p in (polyline.get("points") or "").split())
    return [(float(x), float(y)) for x, y in pairs]


def count_text(group: ET.Element) -> str:
    found = group.find(f"{NS}text[@class='count']")
    assert found is not None
    return "".join(found.itertext())


def series(svg: ET.Element) -> dict[str, ET.Element]:
    """Series group by the name before the colon of its data-name (``Alfa: 30`` → ``Alfa``)."""
    found = [g for g in svg.iter(f"{NS}g") if "series" in (g.get("class") or "").split()]
    return {g.get("data-name", "").rsplit(":", 1)[0].rsplit(" (", 1)[0]: g for g in found}


def texts(svg: ET.Element, kind: str) -> list[str]:
    return ["".join(t.itertext()) for t in svg.iter(f"{NS}text") if t.get("class") == kind]


def page_svgs(html: str) -> list[ET.Element]:
    return [ET.fromstring(m) for m in re.findall(r"<svg .*?</svg>", html, re.S)]


def msk(day: int, h: int = 18) -> dt.datetime:
    return dt.datetime(2026, 11, day, h, 0, tzinfo=dt.UTC)


@pytest.fixture
def chgk(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("deti-kolomny", language="en")
    people = staff(event, organizer="ilya", referee="roman")
    names = ("Alfa", "Beta", ODD, "Delta")
    teams = {
        name: add_entry(event, n, name, "RU", category="teams") for n, name in enumerate(names, 1)
    }
    for number, day in ((1, 1), (2, 8), (3, 15)):
        Round.objects.create(event=event, stage=TOUR, number=number, starts_at=msk(day, 16))

    def record(number: int, name: str, cells: dict[str, str]) -> None:
        result_record(
            event=event, stage=TOUR, round=number, entry=teams[name], cells=cells,
            by=people["referee"], idempotency_key=f"t{number}-{name}", now=msk(number * 7 - 6),
        )  # fmt: skip

    for name, mask in MASKS.items():
        record(1, name, {"mask": mask})
    for name, count in TOURS[2].items():
        record(2, name, {"questions": str(count)})
    for name, count in TOURS[3].items():  # by masks: the first ``count`` questions taken
        record(3, name, {"mask": "1" * count + "0" * (15 - count)})
    org = people["organizer"]
    for stage, number in ((TOUR, 1), (TOUR, 2), (SEASON, 1)):
        publication_set(event=event, stage=stage, round=number, state="preliminary", by=org)
    return event, people


def test_the_season_lines_add_up_the_tours_the_visitor_may_see(chgk: Any) -> None:
    event, _people = chgk
    season = event.rulebook.stage(SEASON)

    staff_chart = by_key(stage_charts(event, season, 1, staff=True))["season"]
    svg = parse(staff_chart)
    lines = series(svg)
    assert set(lines) == {"Alfa", "Beta", ODD, "Delta"}
    line = {name: points(g) for name, g in lines.items()}
    assert line["Alfa"] == [(54, 110), (190, 56.7), (326, 14)]
    assert line["Beta"] == [(54, 120.7), (190, 56.7), (326, 19.3)]
    assert line[ODD] == [(54, 131.3), (190, 94), (326, 30)]
    assert line["Delta"] == [(54, 174), (190, 131.3), (326, 78)]  # absent from tour 1: 0
    assert texts(svg, "x-label") == ["1", "2", "3"]
    assert texts(svg, "tick") == ["0", "10", "20", "30"]
    # The leaders: coloured, ranked at their line's end and named in the legend; Delta is not.
    assert texts(svg, "legend-label") == ["1. Alfa 30", "2. Beta 29", f"3. {ODD} 27"]
    assert {g.get("data-rank") for g in lines.values()} == {"1", "2", "3", "0"}
    assert lines["Delta"].get("data-rank") == "0"
    assert sorted(texts(svg, "end-mark")) == ["1", "2", "3"]
    # The numbers, in words and as a table.
    desc = svg.find(f"{NS}desc")
    assert desc is not None
    assert desc.text is not None
    assert f"After tour 3: 1. Alfa 30; 2. Beta 29; 3. {ODD} 27; 4. Delta 18." in desc.text
    assert staff_chart.table is not None
    assert staff_chart.table.rows[3] == ("Delta", "0", "8", "18")
    assert "Includes tours still in draft (only staff sees them): 3." in staff_chart.caption

    # The public: tours 1 and 2 only (tour 3 is a draft).
    public_chart = by_key(stage_charts(event, season, 1, staff=False))["season"]
    assert "draft" not in public_chart.caption
    public = parse(public_chart)
    assert texts(public, "x-label") == ["1", "2"]
    alfa = points(series(public)["Alfa"])
    assert [x for x, _y in alfa] == [54, 326]
    # Alfa and Beta share 1st–2nd on 22 points (the same questions and places): a shared place.
    assert sorted(texts(public, "legend-label")) == ["1–2. Alfa 22", "1–2. Beta 22", f"3. {ODD} 15"]


def test_a_past_moment_charts_the_season_as_it_stood_then(chgk: Any) -> None:
    """Staff looking at the table as of 10 November (after tour 2, before tour 3 was played)
    see the chart of that table: two tours, Delta's 8 points of tour 2 and no draft."""
    event, people = chgk
    season = event.rulebook.stage(SEASON)
    then = by_key(stage_charts(event, season, 1, staff=True, at=msk(10)))["season"]
    assert texts(parse(then), "x-label") == ["1", "2"]
    assert then.table is not None
    assert then.table.rows[3] == ("Delta", "0", "8")
    assert "draft" not in then.caption
    organizer = Client()
    organizer.force_login(people["organizer"])
    url = reverse("standings:stage", args=[event.slug, SEASON])
    html = organizer.get(url, {"as_of": "2026-11-10T12:00"}).content.decode()
    assert "As it stood on" in html
    assert [texts(svg, "x-label") for svg in page_svgs(html)] == [["1", "2"]]


def test_the_question_strip_counts_the_teams_per_question_and_marks_the_withdrawn(
    chgk: Any,
) -> None:
    event, _people = chgk
    chart = by_key(stage_charts(event, event.rulebook.stage(TOUR), 1, staff=False))["questions-1"]
    svg = parse(chart)
    bars = [g for g in svg.iter(f"{NS}g") if "bar" in (g.get("class") or "").split()]
    assert [b.get("data-label") for b in bars] == [str(n) for n in range(1, 16)]
    counts = [int(b.get("data-count") or 0) for b in bars[:14]]
    assert counts == [3, 2, 2, 3, 3, 3, 3, 2, 2, 1, 0, 0, 0, 0]
    third = bars[2]
    assert count_text(third) == "2"
    rect = third.find(f"{NS}rect")
    assert rect is not None
    assert (float(rect.get("y") or 0), float(rect.get("height") or 0)) == (63.3, 86.7)
    assert "withdrawn" in (bars[14].get("class") or "")
    assert count_text(bars[14]) == "✕"
    assert bars[10].find(f"{NS}rect") is None  # nobody took question 11: no bar, a 0
    assert "3 teams" in chart.caption
    assert "✕" in chart.caption
    assert chart.table is not None
    assert chart.table.rows[14] == ("15", "withdrawn")
    # Tour 2 was entered by totals only: no strip.
    assert "questions-2" not in by_key(stage_charts(event, event.rulebook.stage(TOUR), 2, True))


def test_the_public_page_of_a_draft_tour_shows_no_chart_of_it(chgk: Any) -> None:
    event, people = chgk
    url = reverse("standings:round", args=[event.slug, TOUR, 3])
    public = Client().get(url).content.decode()
    assert "These results are not published yet." in public
    assert not page_svgs(public)
    assert 'class="charts"' not in public
    assert stage_charts(event, event.rulebook.stage(TOUR), 3, staff=False) == []
    referee = Client()
    referee.force_login(people["referee"])
    staff_page = referee.get(url).content.decode()
    (strip,) = page_svgs(staff_page)  # staff see the draft tour's strip
    assert strip.get("aria-label") == "Questions taken — tour 3"
    assert [g.get("data-count") for g in strip.iter(f"{NS}g") if g.get("class") == "bar"][11:] == [
        "1",
        "0",
        "0",
        "0",
    ]  # fmt: skip (question 12: only the team that took 12)

    tour1 = Client().get(reverse("standings:round", args=[event.slug, TOUR, 1])).content.decode()
    assert 'id="figure-questions-1"' in tour1
    assert [s.get("aria-label") for s in page_svgs(tour1)] == ["Questions taken — tour 1"]
    season = Client().get(reverse("standings:stage", args=[event.slug, SEASON])).content.decode()
    (svg,) = page_svgs(season)
    assert texts(svg, "x-label") == ["1", "2"]  # the draft tour 3 is not in the public season


def test_every_text_is_escaped_and_the_drawing_is_accessible(chgk: Any) -> None:
    event, _people = chgk
    client = Client()
    client.force_login(_people["organizer"])
    html = client.get(reverse("standings:stage", args=[event.slug, SEASON])).content.decode()
    raw = re.search(r"<svg .*?</svg>", html, re.S)
    assert raw is not None
    assert "<b>" not in raw.group(0)
    assert "&lt;b&gt;&amp;&quot;" in raw.group(0)
    svg = ET.fromstring(raw.group(0))
    assert svg.get("role") == "img"
    assert svg.get("aria-label") == "Season points after each tour"
    assert svg.get("width") == "100%"
    assert svg.get("viewBox", "").startswith("0 0 360 ")
    title, desc = svg.find(f"{NS}title"), svg.find(f"{NS}desc")
    assert title is not None
    assert title.text == "Season points after each tour"
    assert desc is not None
    assert svg.get("aria-describedby") == desc.get("id")
    assert ODD in "".join(texts(svg, "legend-label"))
    assert '<th scope="row">&lt;b&gt;&amp;&quot;</th>' in html  # the table of the numbers
    # The drawing alone escapes what it is given, title and description too.
    alone = line_chart(
        key="x", title=ODD, desc=ODD, x_labels=[ODD],
        series=[Series(ODD, (1.0,), 1, ODD, ODD)],
    )  # fmt: skip
    parsed = ET.fromstring(alone)
    assert parsed.get("aria-label") == ODD
    control = bar_strip(key="y", title="a\x01b", desc="", bars=[Bar("1", 1)], top=1)
    assert ET.fromstring(control).get("aria-label") == "ab"  # XML cannot hold \x01: dropped
    assert texts(parsed, "x-label") == [ODD]
    assert texts(parsed, "legend-label") == [f"1. {ODD} {ODD}"]


# --- Finish times ---------------------------------------------------------------------------

QUALI = "individual-qualification"


def person_entry(event: Any, number: int, name: str, country: str, group: str) -> Entry:
    made = Entry.objects.create(
        event=event, number=number, name=name, status=Entry.Status.CONFIRMED,
        category="individuals", group=group,
    )  # fmt: skip
    person = Person.objects.create(first_name=name, last_name=str(number), country=country)
    EntryMember.objects.create(entry=made, person=person, captain=True)
    return made


def clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


@pytest.fixture
def jigsaw(make_event: Any, staff: Any) -> Any:
    event = make_event("cz-jigsaw", language="en")
    people = staff(event, organizer="olga", referee="rudolf")
    rows: list[tuple[int, str, str, dict[str, str]]] = []
    for i in range(1, 54):
        cells = {"time": clock(45 * 60 + 30 * i)}
        if i == 9:
            cells["missing"] = "3"  # 49:30 + 30 s = 50:00
        rows.append((i, "CZ", "A", cells))
    rows += [
        (54, "DE", "A", {"time": "47:00"}),
        (55, "DE", "A", {"time": "72:00"}),
        (56, "CZ", "A", {"pieces": "300"}),
        (57, "CZ", "A", {"pieces": "250"}),
        (58, "CZ", "B", {"time": "1:00:00"}),
    ]
    for number, country, group, cells in rows:
        entry = person_entry(event, number, f"Solver {number}", country, group)
        result_record(
            event=event, stage=QUALI, entry=entry, cells=cells, by=people["referee"],
            idempotency_key=f"q{number}", now=dt.datetime(2026, 6, 20, 11, 0, tzinfo=dt.UTC),
        )  # fmt: skip
    return event, people


def test_the_finish_times_fill_their_bins_and_the_cut_is_at_the_50th_czech(jigsaw: Any) -> None:
    event, people = jigsaw
    stage = event.rulebook.stage(QUALI)
    charts = by_key(stage_charts(event, stage, 1, staff=True))
    assert set(charts) == {"finish-A", "finish-B"}
    svg = parse(charts["finish-A"])
    bins = [g for g in svg.iter(f"{NS}g") if g.get("class") == "bin"]
    assert [(b.get("data-low"), b.get("data-high")) for b in bins][:2] == [
        ("45", "50"),
        ("50", "55"),
    ]
    assert [int(b.get("data-count") or 0) for b in bins] == [9, 11, 10, 10, 10, 5, 0, 0, 0]
    assert list(texts(svg, "count")) == ["9", "11", "10", "10", "10", "5", "2"]
    extra = svg.find(f".//{NS}g[@class='extra']")
    assert extra is not None
    assert extra.get("data-count") == "2"
    cut = svg.find(f".//{NS}g[@class='cut']")
    assert cut is not None
    assert cut.get("data-value") == "70"
    line = cut.find(f"{NS}line")
    assert line is not None
    assert float(line.get("x1") or 0) == 171.3 == float(line.get("x2") or 0)
    assert texts(svg, "cut-label") == ["Czech entrants: cut at 1:10:00"]
    assert texts(svg, "x-label")[:4] == ["0:45", "1:00", "1:15", "1:30"]
    caption = charts["finish-A"].caption
    assert "2 did not finish" in caption
    assert "Czech entrants: 50 advance, the last at 1:10:00 (the dashed line)." in caption
    table = charts["finish-A"].table
    assert table is not None
    assert table.rows[1] == ("0:50–0:55", "11")
    assert table.rows[-1] == ("not finished", "2")
    group_b = parse(charts["finish-B"])
    assert [
        int(b.get("data-count") or 0) for b in group_b.iter(f"{NS}g") if b.get("class") == "bin"
    ] == [1, 0, 0, 0, 0, 0]

    # A draft: the public sees no chart; published preliminary, the same chart.
    assert stage_charts(event, stage, 1, staff=False) == []
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"])
    html = Client().get(reverse("standings:stage", args=[event.slug, QUALI])).content.decode()
    labels = [s.get("aria-label") for s in page_svgs(html)]
    assert labels == ["Finish times — group A", "Finish times — group B"]


# --- Bowling ---------------------------------------------------------------------------------

GAMES = {
    "Adam": (200, 180, 190, 210, 170, 160),
    "Bára": (150, 160, 170, 180),
    "Cyril": (220, 140),
    "Dan": (),
}


@pytest.fixture
def bowling(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cba-qualifier", language="en")
    people = staff(event, organizer="olga", referee="rudolf")
    squad = Squad.objects.create(event=event, name="Runda 1", starts_at=event.starts_at, capacity=8)
    for number, (name, games) in enumerate(GAMES.items(), 1):
        entry = add_entry(event, number, name, division="master-men", squad=squad)
        if games:
            result_record(
                event=event, stage="qualification", entry=entry,
                cells={f"g{i}": str(g) for i, g in enumerate(games, 1)}, by=people["referee"],
                idempotency_key=f"g{number}",
            )  # fmt: skip
    return event, people, squad


def test_the_bowling_lines_have_a_point_per_game_recorded(bowling: Any) -> None:
    event, people, squad = bowling
    stage = event.rulebook.stage("qualification")
    chart = by_key(stage_charts(event, stage, 1, staff=True))[f"squad-{squad.pk}"]
    svg = parse(chart)
    lines = series(svg)
    assert set(lines) == {"#1 Adam", "#2 Bára", "#3 Cyril"}  # Dan has no game yet: no line
    circles = {name: len(g.findall(f"{NS}circle")) for name, g in lines.items()}
    assert circles == {"#1 Adam": 6, "#2 Bára": 4, "#3 Cyril": 2}
    cyril = points(lines["#3 Cyril"])
    assert cyril == [(54, 14), (108.4, 174)]
    adam = points(lines["#1 Adam"])
    assert [x for x, _y in adam] == [54, 108.4, 162.8, 217.2, 271.6, 326]
    assert adam[0][1] == 174 - (200 - 140) * 2
    assert texts(svg, "legend-label") == ["1. Adam 1110", "2. Bára 660", "3. Cyril 360"]
    assert texts(svg, "tick") == ["140", "160", "180", "200", "220"]
    assert chart.table is not None
    assert chart.table.rows[2] == ("#3 Cyril", "220", "140", "", "", "", "", "360")

    # The charts are kept per version tag: Dan's first game draws them again, with his line.
    dan = Entry.objects.get(event=event, name="Dan")
    result_record(
        event=event, stage="qualification", entry=dan, cells={"g1": "99"}, by=people["referee"],
        idempotency_key="g4",
    )  # fmt: skip
    again = parse(by_key(stage_charts(event, stage, 1, staff=True))[f"squad-{squad.pk}"])
    assert len(series(again)["#4 Dan"].findall(f"{NS}circle")) == 1  # one game: one point

    # The lane sheet (staff) shows the squad's chart; the public page waits for publication.
    client = Client()
    client.force_login(people["referee"])
    sheet = client.get(reverse("bowling:lanes", args=[event.slug, squad.pk])).content.decode()
    assert f'id="figure-squad-{squad.pk}"' in sheet
    assert [s.get("aria-label") for s in page_svgs(sheet)] == ["Games — Runda 1"]
    public = Client().get(reverse("standings:stage", args=[event.slug, "qualification"]))
    assert not page_svgs(public.content.decode())
