"""The appeal pages through Django's test client: filing (a team's captain, the staff), the
organizer's overview with the jury, the jury's anonymous desk and the verdicts on the public
tour page.

Hand-worked (deti-kolomny, 15 questions, Moscow time):
- Tour 1 was played 12 days ago, tour 2 two days ago (every result recorded at the hour of
  play). Tour 2: Sovy 10, Ezhi 9, Lisy 8, Volki 7 (with a ``?`` at question 12) → 12, 10, 8, 7
  points. Appeals on tour 2 close 7 days after its results, verdicts are due after 14 days; on
  tour 1 a verdict is due in 2 days → the overview warns.
- Ezhi's captain files appeal 1 (withdraw question 15) with the fee ticked as paid: 100 RUB,
  receipt 1, by bank transfer. Without the tick it is refused with the rule's reason (п. 14)
  next to the tick, and nothing is stored.
- The jury upholds it on its desk, which never names Ezhi.
- Lisy appeals to accept «Колокол» on question 11. On the jury's desk the credit picker lists
  all four teams, the same whoever appealed; a tick on Lisy is dropped (it is credited anyway),
  so ticking Lisy and Volki credits Volki alone. Upheld without other teams: Lisy 9, so Ezhi and
  Lisy share 2nd–3rd with (10 + 8) / 2 = 9.000 points each; the public tour 2 page shows it at
  once (the verdict changes the table's version tag) with "Appeal 1, question 11: accept the
  answer — «Колокол» upheld" and its reasons.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from podium.web.disputes.selectors.appeals import pending_disputes
from podium.web.disputes.services.appeals import appeal_file, jury_appoint
from podium.web.models import Appeal, EventRole, Payment, Person, Round, Verdict
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

MSK = zoneinfo.ZoneInfo("Europe/Moscow")
TOUR = "chgk-tour"
MASKS = {
    "Sovy": "111111111100000",
    "Ezhi": "111111111000000",
    "Lisy": "111111110000000",
    "Volki": "11111110000?000",
}


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def counts() -> tuple[int, int, int]:
    return Appeal.objects.count(), Verdict.objects.count(), Payment.objects.count()


def local(moment: dt.datetime) -> str:
    return date_format(moment.astimezone(MSK), "DATETIME_FORMAT") + " MSK"


@pytest.fixture
def club(make_event: Any, staff: Any, add_entry: Any, make_user: Any) -> SimpleNamespace:
    event = make_event("deti-kolomny", timezone="Europe/Moscow", language="en")
    roles = staff(event, organizer="ilya", head="mikhail", referee="roman")
    teams = {
        name: add_entry(event, n, name, country="RU", category="teams")
        for n, name in enumerate(MASKS, start=1)
    }
    captains = {}
    for name, entry in teams.items():
        captains[name] = make_user(f"cap-{name.lower()}")
        Person.objects.filter(memberships__entry=entry).update(user=captains[name])
    hour = timezone.now().replace(minute=0, second=0, microsecond=0)
    played = {1: hour - dt.timedelta(days=12), 2: hour - dt.timedelta(days=2)}
    for number, at in played.items():
        Round.objects.create(event=event, stage=TOUR, number=number, starts_at=at)
        for name, marks in MASKS.items():
            result_record(
                event=event, stage=TOUR, round=number, entry=teams[name],
                cells={"questions": "", "mask": marks}, by=roles["referee"],
                idempotency_key=f"{number}-{name}", now=at,
            )  # fmt: skip
    jury = [make_user(u) for u in ("yulia", "yakov", "yana")]
    for user in jury:
        jury_appoint(event=event, user=user, by=roles["organizer"])
    return SimpleNamespace(
        event=event, org=roles["organizer"], head=roles["head"], referee=roles["referee"],
        teams=teams, captains=captains, jury=jury, played=played,
    )  # fmt: skip


def url(name: str, event: Any, **kw: Any) -> str:
    return reverse(name, kwargs={"slug": event.slug, **kw})


def file(club: Any, team: str, kind: str = "withdraw-question", round: int = 2, **kw: Any) -> Any:
    kw.setdefault("question", 15)
    kw.setdefault("statement", "Question 15 had two answers.")
    return appeal_file(
        event=club.event, rule="chgk-question", kind=kind, stage=TOUR, round=round,
        entry=club.teams[team], by=club.captains[team], method="transfer", **kw,
    )  # fmt: skip


def field_html(page: str, name: str) -> str:
    """The form field's block (its input and its errors)."""
    found = re.search(rf'<(div|fieldset) class="field[^"]*" id="field-{name}">.*?</\1>', page, re.S)
    assert found, name
    return found.group(0)


def points_of(page: str) -> dict[str, tuple[str, str]]:
    """name → (official place, points) of every row of the standings table (its columns:
    place, position, number, name, score, points, marks)."""
    found = {}
    for row in re.findall(r'<tr id="row-all-\d+".*?</tr>', page, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", row)]
        place, _position, _number, name, _score, points = cells[:6]
        found[name] = (place, points)
    return found


def no_csrf(page: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)


# --- who may open what ------------------------------------------------------------------------


def test_outsiders_get_404_and_the_anonymous_are_sent_to_log_in(
    club: Any, make_user: Any, make_event: Any
) -> None:
    event = club.event
    pages = {
        "list": url("appeals:list", event),
        "file": url("appeals:file", event),
        "jury": url("jury:index", event),
    }
    for address in pages.values():
        assert Client().get(address).status_code == 302
    nobody = client_for(make_user("nobody"))
    assert {k: nobody.get(v).status_code for k, v in pages.items()} == {
        "list": 404, "file": 404, "jury": 404,
    }  # fmt: skip
    captain = client_for(club.captains["Ezhi"])
    assert {k: captain.get(v).status_code for k, v in pages.items()} == {
        "list": 404, "file": 200, "jury": 404,
    }  # fmt: skip
    juror = client_for(club.jury[0])
    assert {k: juror.get(v).status_code for k, v in pages.items()} == {
        "list": 404, "file": 404, "jury": 200,
    }  # fmt: skip
    referee = client_for(club.referee)
    assert {k: referee.get(v).status_code for k, v in pages.items()} == {
        "list": 200, "file": 200, "jury": 404,
    }  # fmt: skip
    # A jury member of another event is nobody here.
    other = make_event("deti-kolomny", slug="other-club")
    stranger = make_user("stranger")
    other_org = make_user("other-org")
    EventRole.objects.create(event=other, user=other_org, role=EventRole.Role.ORGANIZER)
    jury_appoint(event=other, user=stranger, by=other_org)
    assert client_for(stranger).get(pages["jury"]).status_code == 404
    # The appointment form is the organizer's; a referee's POST is 404 and stores nothing.
    appoint = url("appeals:appoint", event)
    assert referee.post(appoint, {"username": "nobody"}).status_code == 404
    # Another team's captain does not see Ezhi's confirmation; the jury posts only as jury.
    appeal = file(club, "Ezhi")
    filed = url("appeals:filed", event, number=appeal.number)
    assert client_for(club.captains["Lisy"]).get(filed).status_code == 404
    assert captain.get(filed).status_code == 200
    verdict = url("jury:verdict", event, number=appeal.number)
    data = {"a1-outcome": "upheld", "a1-reasons": "yes"}
    assert client_for(club.org).post(verdict, data).status_code == 404
    assert captain.post(verdict, data).status_code == 404
    assert counts() == (1, 0, 1)


# --- filing -----------------------------------------------------------------------------------


def test_a_captain_files_an_appeal_and_sees_its_number_and_dates(club: Any) -> None:
    client = client_for(club.captains["Ezhi"])
    page = client.get(url("appeals:file", club.event)).content.decode()
    # Ezhi is the only team offered; tour 2 first, with its window; tour 1's is closed.
    assert re.findall(r'<option value="(\d+)"', page) == [str(club.teams["Ezhi"].pk)]
    closes2 = club.played[2] + dt.timedelta(days=7)
    closes1 = club.played[1] + dt.timedelta(days=7)
    assert f'value="chgk-tour:2">Tour 2 — appeals until {local(closes2)}</option>' in page
    assert f'value="chgk-tour:1">Tour 1 — appeals closed on {local(closes1)}</option>' in page
    assert "We paid the fee of 100 RUB by bank transfer" in page
    answer = client.post(
        url("appeals:file", club.event),
        {
            "entry": club.teams["Ezhi"].pk, "tour": "chgk-tour:2", "question": "15",
            "kind": "withdraw-question", "answer": "", "paid": "on",
            "statement": "Question 15 had two correct answers.",
        },
        follow=True,
    )  # fmt: skip
    assert answer.redirect_chain[-1][0] == url("appeals:filed", club.event, number=1)
    page = answer.content.decode()
    assert "Appeal 1 is filed" in page
    assert re.search(r'class="closes">' + re.escape(local(closes2)) + "<", page)
    due = club.played[2] + dt.timedelta(days=14)
    assert re.search(r'class="due">' + re.escape(local(due)) + "<", page)
    assert "100 RUB, receipt 1 (bank transfer)" in page
    appeal = Appeal.objects.get()
    assert (appeal.entry, appeal.round, appeal.question, appeal.filed_by) == (
        club.teams["Ezhi"], 2, 15, club.captains["Ezhi"],
    )  # fmt: skip
    assert (appeal.fee.amount, appeal.fee.method) == (100, "transfer")


def test_a_refusal_is_shown_next_to_its_field_and_nothing_is_stored(club: Any) -> None:
    client = client_for(club.captains["Ezhi"])
    base = {
        "entry": club.teams["Ezhi"].pk, "tour": "chgk-tour:2", "question": "11",
        "kind": "accept-answer", "answer": "Колокол", "statement": "",
    }  # fmt: skip
    answer = client.post(url("appeals:file", club.event), base)  # the fee not ticked
    assert answer.status_code == 400
    paid = field_html(answer.content.decode(), "paid")
    assert "Appeal on a ChGK question needs the fee of 100 RUB, paid when filed." in paid
    assert "rulebook: п. 14" in paid
    answer = client.post(url("appeals:file", club.event), {**base, "answer": "", "paid": "on"})
    assert "Write the answer the team asks to be accepted." in field_html(
        answer.content.decode(), "answer"
    )
    answer = client.post(
        url("appeals:file", club.event), {**base, "tour": "chgk-tour:1", "paid": "on"}
    )
    closed = re.search(r'<ul class="errorlist nonfield">(.*?)</ul>', answer.content.decode())
    assert closed
    closes1 = local(club.played[1] + dt.timedelta(days=7))
    assert f"The time for appeals on this round is over: it closed {closes1}" in closed.group(1)
    # A captain cannot file for another team: it is not among the choices.
    answer = client.post(
        url("appeals:file", club.event), {**base, "entry": club.teams["Sovy"].pk, "paid": "on"}
    )
    assert "Select a valid choice" in field_html(answer.content.decode(), "entry")
    assert counts() == (0, 0, 0)


def test_the_staff_record_an_emailed_appeal_for_any_team_with_the_payment(club: Any) -> None:
    client = client_for(club.referee)
    page = client.get(url("appeals:file", club.event)).content.decode()
    assert len(re.findall(r'<option value="\d+"', page)) == 4  # every team
    assert "The fee of 100 RUB was paid by" in page
    data = {
        "entry": club.teams["Lisy"].pk, "tour": "chgk-tour:2", "question": "11",
        "kind": "accept-answer", "answer": "Колокол", "statement": "By e-mail.",
    }  # fmt: skip
    answer = client.post(url("appeals:file", club.event), data)
    assert "needs the fee of 100 RUB" in field_html(answer.content.decode(), "method")
    assert counts() == (0, 0, 0)
    answer = client.post(url("appeals:file", club.event), {**data, "method": "cash"})
    assert answer.status_code == 302
    appeal = Appeal.objects.get()
    assert (appeal.entry, appeal.filed_by, appeal.fee.method) == (
        club.teams["Lisy"], club.referee, "cash",
    )  # fmt: skip


# --- the organizer's overview -----------------------------------------------------------------


def test_the_overview_lists_every_appeal_warns_and_appoints_the_jury(
    club: Any, make_user: Any
) -> None:
    file(club, "Ezhi")
    old = file(club, "Sovy", round=1, now=club.played[1] + dt.timedelta(days=1))
    client = client_for(club.org)
    page = client.get(url("appeals:list", club.event)).content.decode()
    row = re.search(r'<tr id="appeal-1".*?</tr>', page, re.S)
    assert row
    cells = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row.group(0))).strip()
    due = club.played[2] + dt.timedelta(days=14)
    assert cells == (
        f"1 #2 Ezhi Tour 2 15 withdraw the question 100 RUB, receipt 1 (bank transfer) open "
        f"{local(due)}"
    )
    # Tour 1's verdict is due in 2 days: warned, and listed first.
    assert page.index('id="appeal-2"') < page.index('id="appeal-1"')
    warnings = re.search(r'<section class="warnings".*?</section>', page, re.S)
    assert warnings
    old_due = local(club.played[1] + dt.timedelta(days=14))
    assert f"Appeal {old.number} (Tour 1, question 15): due by {old_due}" in warnings.group(0)
    # The organizer's event page warns too, and leads to the list.
    dashboard = client.get(reverse("organizer:dashboard", args=[club.event.slug])).content.decode()
    soon = re.search(r'<p class="warn" id="verdicts-soon">.*?</p>', dashboard, re.S)
    assert soon
    assert "1 appeal needs its verdict soon" in soon.group(0)
    assert f"{url('appeals:list', club.event)}#warnings" in soon.group(0)
    # Volki's ? on question 12 is open in both tours: counted per question, never named.
    disputes = re.search(r'<ul class="disputes">.*?</ul>', page, re.S)
    assert disputes
    assert re.findall(r"<li>(.*?)</li>", disputes.group(0)) == [
        "Tour 1, question 12: 1 disputed answer", "Tour 2, question 12: 1 disputed answer",
    ]  # fmt: skip
    assert [m for m in ("yakov", "yana", "yulia") if f"<li>{m}</li>" in page] == [
        "yakov", "yana", "yulia",
    ]  # fmt: skip
    # Appointing: an unknown name, a player, a full jury — each refused next to the field.
    appoint = url("appeals:appoint", club.event)
    answer = client.post(appoint, {"username": "ghost"})
    assert "There is no user named “ghost”." in field_html(answer.content.decode(), "username")
    answer = client.post(appoint, {"username": "cap-sovy"})
    assert answer.status_code == 400
    assert "cap-sovy plays in this championship and may not sit on the jury." in field_html(
        answer.content.decode(), "username"
    )
    make_user("fourth")
    answer = client.post(appoint, {"username": "fourth"})
    assert "The jury has 3 members already." in answer.content.decode()


def test_the_organizer_appoints_a_jury_member(club: Any, make_user: Any) -> None:
    dashboard = client_for(club.org).get(url("organizer:dashboard", club.event)).content.decode()
    assert f'href="{url("appeals:list", club.event)}">Appeals</a>' in dashboard
    EventRole.objects.filter(event=club.event, user=club.jury[2]).delete()
    make_user("zoya")
    answer = client_for(club.org).post(
        url("appeals:appoint", club.event), {"username": "zoya"}, follow=True
    )
    assert "zoya is on the appeal jury." in answer.content.decode()
    assert EventRole.objects.filter(
        event=club.event, user__username="zoya", role=EventRole.Role.JURY
    ).exists()


# --- the jury's desk --------------------------------------------------------------------------


def test_the_jury_page_never_names_the_team_that_appealed(club: Any) -> None:
    appeal = file(club, "Ezhi")
    juror = client_for(club.jury[0])
    page = juror.get(url("jury:index", club.event)).content.decode()
    assert "Appeal 1" in page
    assert "Question 15 had two answers." in page  # the statement
    assert "withdraw the question" in page
    assert "Ezhi" not in page
    assert "#2 " not in page
    assert str(club.teams["Ezhi"].pk) not in re.findall(r'value="(\d+)"', page)
    assert "cap-ezhi" not in page
    # Volki's disputed answers are there by tour and question only.
    assert "Tour 2, question 12, disputed answer A" in page
    assert "Volki" not in page
    # The verdict, then the decided card (still without the team).
    answer = juror.post(
        url("jury:verdict", club.event, number=appeal.number),
        {"a1-outcome": "upheld", "a1-reasons": "Two answers fit the question."},
        follow=True,
    )
    page = answer.content.decode()
    assert "Verdict on appeal 1 recorded: upheld." in page
    assert "Ezhi" not in page
    verdict = Verdict.objects.get()
    assert (verdict.upheld, verdict.decided_by, verdict.fee) == (True, club.jury[0], "refunded")


def test_the_credit_picker_does_not_tell_who_appealed(club: Any) -> None:
    appeal = file(club, "Lisy", kind="accept-answer", question=11, answer="Колокол")
    juror = client_for(club.jury[1])
    page = juror.get(url("jury:index", club.event)).content.decode()
    picker = field_html(page, "a1-credited")
    names = re.findall(r"#\d (\w+)", picker)
    assert names == ["Sovy", "Ezhi", "Lisy", "Volki"]  # every team of the tour, unmarked
    # The page would be the same, letter for letter, had Ezhi filed it.
    Appeal.objects.filter(pk=appeal.pk).update(entry=club.teams["Ezhi"])
    assert no_csrf(juror.get(url("jury:index", club.event)).content.decode()) == no_csrf(page)
    Appeal.objects.filter(pk=appeal.pk).update(entry=club.teams["Lisy"])
    # No reasons: refused on the card, nothing stored.
    data = {
        "a1-outcome": "upheld", "a1-reasons": "",
        "a1-credited": [club.teams["Lisy"].pk, club.teams["Volki"].pk],
    }  # fmt: skip
    answer = juror.post(url("jury:verdict", club.event, number=1), data)
    assert answer.status_code == 400
    assert "A verdict gives its reasons." in field_html(answer.content.decode(), "a1-reasons")
    assert counts() == (1, 0, 1)
    # Ticking the appellant along with Volki: the tick on Lisy is dropped without a word.
    data["a1-reasons"] = "«Колокол» is the Tsar Bell."
    answer = juror.post(url("jury:verdict", club.event, number=1), data)
    assert answer.status_code == 302
    verdict = Verdict.objects.get()
    assert list(verdict.credited.all()) == [club.teams["Volki"]]
    # Rejecting while naming teams is refused the same whoever is ticked.
    other = file(club, "Sovy", kind="accept-answer", question=13, answer="Нил")
    for ticked in (club.teams["Sovy"], club.teams["Ezhi"]):
        answer = juror.post(
            url("jury:verdict", club.event, number=other.number),
            {"a2-outcome": "rejected", "a2-reasons": "No.", "a2-credited": [ticked.pk]},
        )
        assert "Other teams are credited only when an answer is accepted." in field_html(
            answer.content.decode(), "a2-credited"
        )
    assert Verdict.objects.count() == 1


def test_the_jury_decides_a_disputed_answer(club: Any) -> None:
    juror = client_for(club.jury[2])
    page = juror.get(url("jury:index", club.event)).content.decode()
    cards = re.findall(
        r'<section class="card dispute" id="dispute-(\w+)">\s*<h3>([^<]+)</h3>', page
    )
    assert [title for _token, title in cards] == [
        "Tour 1, question 12, disputed answer A", "Tour 2, question 12, disputed answer A",
    ]  # fmt: skip
    token = cards[1][0]
    action = url("jury:dispute", club.event, token=token)
    assert f'action="{action}"' in page
    answer = juror.post(action, {f"d{token}-outcome": "accepted", f"d{token}-reasons": ""})
    assert answer.status_code == 400
    assert "A verdict gives its reasons." in answer.content.decode()
    assert counts() == (0, 0, 0)
    answer = juror.post(
        action,
        {f"d{token}-outcome": "accepted", f"d{token}-reasons": "«Нил» on the sheet."},
        follow=True,
    )
    page = answer.content.decode()
    assert "Tour 2, question 12, disputed answer A: accepted." in page
    assert "Volki" not in page
    stage = club.event.rulebook.stage(TOUR)
    assert pending_disputes(club.event, stage, 2) == []
    assert len(pending_disputes(club.event, stage, 1)) == 1
    # The same token again: decided meanwhile.
    answer = juror.post(action, {f"d{token}-outcome": "accepted", f"d{token}-reasons": "x"})
    assert "This disputed answer is no longer open" in answer.content.decode()
    assert counts() == (1, 1, 0)


# --- the public tour page ---------------------------------------------------------------------


def test_the_public_tour_page_shows_the_verdicts_and_the_new_table(club: Any) -> None:
    event = club.event
    publication_set(
        event=event, stage=TOUR, round=2, state="preliminary", by=club.org,
        now=timezone.now() + dt.timedelta(days=1),
    )  # fmt: skip
    page_url = reverse("standings:round", args=[event.slug, TOUR, 2])
    public = Client()
    page = public.get(page_url).content.decode()
    assert "Verdicts of the appeal jury" not in page
    before = {"Sovy": ("1.", "12"), "Ezhi": ("2.", "10"), "Lisy": ("3.", "8"), "Volki": ("4.", "7")}
    assert points_of(page) == before
    appeal = file(club, "Lisy", kind="accept-answer", question=11, answer="Колокол")
    juror = client_for(club.jury[0])
    juror.post(
        url("jury:verdict", event, number=appeal.number),
        {"a1-outcome": "upheld", "a1-reasons": "«Колокол» is the Tsar Bell."},
    )
    page = public.get(page_url).content.decode()
    verdicts = re.search(r'<section class="verdicts".*?</section>', page, re.S)
    assert verdicts
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", verdicts.group(0).split("</style>")[1]))
    assert text.strip() == (
        "Verdicts of the appeal jury Appeal 1, question 11: accept the answer — «Колокол» "
        "upheld «Колокол» is the Tsar Bell."
    )
    assert "Lisy" not in verdicts.group(0)
    # The table itself follows the verdict: Ezhi and Lisy share 2nd–3rd, 9.000 points each.
    assert points_of(page) == {
        "Sovy": ("1.", "12"), "Ezhi": ("2–3.", "9"), "Lisy": ("2–3.", "9"), "Volki": ("4.", "7"),
    }  # fmt: skip
    # A stage that is not a ChGK tour has no such section.
    season = public.get(reverse("standings:stage", args=[event.slug, "chgk-season"]))
    assert "Verdicts of the appeal jury" not in season.content.decode()


def test_a_team_finds_the_appeal_form_from_its_entries(club: Any) -> None:
    page = client_for(club.captains["Ezhi"]).get(reverse("participant:entries")).content.decode()
    assert (
        f'href="{url("appeals:file", club.event)}" aria-label="File an appeal for Ezhi">'
        "File an appeal</a>"
    ) in page
