"""The discipline page through Django's test client: who may open it, the forms for an
ineligible player, unpaid fees, a withdrawal and lifting, and how refusals are shown.

The club (``deti-kolomny``, Moscow time): #1 Sovy, #2 Ezhi, #3 Lisy, #4 Volki; Pavel Igrokov is
on the roster of Lisy. Four tours (6 Nov, 20 Nov, 4 Dec, 18 Dec 2025, 19:00): the middle tour is
tour 3 (⌊4/2⌋ + 1). Tour 2: Ezhi 11, Sovy 9, Lisy 7, Volki 5. Battles of round 1: Sovy 4:2 Ezhi,
Ezhi 5:1 Lisy, Lisy 3:2 Volki.

Hand-worked:
- Pavel, picked from Lisy's roster, played tour 2 for Ezhi: Ezhi's tour counts 0 → Sovy 12,
  Lisy 10, Volki 8, Ezhi (0 questions, 4th) 7. Pavel is barred until 30 June 2026.
- Oleg Novikov (typed in, born 3 Mar 2002) played Ezhi – Lisy for Ezhi: a 0:6 loss → Lisy 4
  points (that win and 3:2 over Volki; 2 before), Ezhi 0 (2 before).
- Volki has not paid the second-half fee (tours 3 and 4): "not admitted" bars it from tour 3
  and from tour 4, one sanction each.
- Volki withdraws in writing, received 25 Nov at 15:30 (before tour 3): its one battle (Lisy
  3:2 Volki; it met 1 of 3 teams, no full round) is annulled; Volki and its captain are barred
  until 30 June 2027 (the end of the next season). A ban from last season's championship (to
  30 June 2026) is listed as still in force; one that ended on 30 June 2025, and one from a
  bowling event, are not.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.disputes.services.discipline import sanction_impose
from podium.web.kernel.refusals import Refused
from podium.web.models import (
    Ban,
    EntryMember,
    Person,
    Result,
    Sanction,
    Withdrawal,
)
from podium.web.registration.services.payments import payment_record
from podium.web.results.selectors.rows import battle_item, standings_as_of
from podium.web.results.services.results import result_record

TOUR, BRAINBALL = "chgk-tour", "brainball"


def moment(month: int, day: int, hour: int = 18) -> dt.datetime:
    return dt.datetime(2025, month, day, hour, tzinfo=dt.UTC)


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def club(make_club: Any) -> SimpleNamespace:
    days = [(11, 6), (11, 20), (12, 4), (12, 18)]
    made = make_club(["Sovy", "Ezhi", "Lisy", "Volki"], [moment(*day, 16) for day in days])
    event, teams, rudolf = made.event, made.teams, made.rudolf
    pavel = Person.objects.create(
        first_name="Pavel", last_name="Igrokov", birth_date=dt.date(2001, 4, 23)
    )
    EntryMember.objects.create(entry=teams["Lisy"], person=pavel)
    keys = iter(range(1000))
    for name, taken in {"Ezhi": 11, "Sovy": 9, "Lisy": 7, "Volki": 5}.items():
        result_record(
            event=event, stage=TOUR, round=2, entry=teams[name], by=rudolf,
            cells={"questions": str(taken), "mask": ""}, idempotency_key=f"k{next(keys)}",
            now=moment(11, 20),
        )  # fmt: skip
    for a, b, score_a, score_b in [("Sovy", "Ezhi", 4, 2), ("Ezhi", "Lisy", 5, 1),
                                   ("Lisy", "Volki", 3, 2)]:  # fmt: skip
        one, two = teams[a], teams[b]
        result_record(
            event=event, stage=BRAINBALL, item=battle_item(1, one.number, two.number), by=rudolf,
            cells={"round": "1", "team1": str(one.number), "team2": str(two.number),
                   "score1": str(score_a), "score2": str(score_b)},
            idempotency_key=f"k{next(keys)}", now=moment(11, 20),
        )  # fmt: skip
    made.pavel = pavel
    return made


def url(club: SimpleNamespace, name: str = "index", **kwargs: Any) -> str:
    return reverse(f"discipline:{name}", kwargs={"slug": club.event.slug, **kwargs})


def counts() -> tuple[int, int, int, int]:
    return (
        Sanction.objects.count(), Ban.objects.count(), Withdrawal.objects.count(),
        Person.objects.count(),
    )  # fmt: skip


def text_of(fragment: str) -> str:
    """HTML as the reader sees it: no tags, entities decoded, whitespace squeezed."""
    fragment = re.sub(r"<style>.*?</style>", " ", fragment, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def text(response: Any) -> str:
    return text_of(response.content.decode())


def between(page: str, start: str, end: str) -> str:
    """The part of the page from ``start`` to the next ``end``."""
    first = page.index(start)
    return page[first : page.index(end, first)]


def ineligible(club: SimpleNamespace, who: Any, **data: Any) -> Any:
    """Posts the ineligible-player form of Ezhi (``who``: a user, or a client signed in)."""
    fields = {"team": "2", "what": "other-team", "where": "chgk", "round": "2"} | data
    client = who if isinstance(who, Client) else client_for(who)
    return client.post(url(club, "ineligible"), fields)


def test_only_head_referees_and_organizers_open_the_page(
    club: SimpleNamespace, make_user: Any, make_event: Any
) -> None:
    other_org = make_user("oskar")
    make_event("deti-kolomny", slug="other-club", organizer=other_org)
    index = url(club)
    assert Client().get(index).status_code == 302  # to the login page
    for user in (make_user("petr"), club.rudolf, other_org):
        client = client_for(user)
        assert client.get(index).status_code == 404
        assert client.get(url(club, "ineligible") + "?team=2").status_code == 404
        assert (
            client.post(url(club, "withdraw"), {"team": club.teams["Volki"].pk}).status_code == 404
        )
        assert client.post(url(club, "not_admitted", stage=TOUR, round=3)).status_code == 404
        assert ineligible(club, user, details="seen").status_code == 404
    assert counts() == (0, 0, 0, 5)
    assert client_for(club.hana).get(index).status_code == 200
    assert client_for(club.org).get(index).status_code == 200
    assert client_for(club.org).get(url(club, "withdraw")).status_code == 405
    dashboard = client_for(club.org).get(
        reverse("organizer:dashboard", kwargs={"slug": club.event.slug})
    )
    assert f'href="{index}"' in dashboard.content.decode()


def test_an_ineligible_player_from_a_roster_zeroes_the_tour_and_is_barred(
    club: SimpleNamespace, why: Any
) -> None:
    client = client_for(club.hana)
    page = client.get(url(club, "ineligible") + "?team=2").content.decode()
    # Only Ezhi's recorded battles are offered.
    assert re.findall(r'name="items" value="([^"]+)"', page) == ["b1-1-2", "b1-2-3"]
    assert f'<option value="{club.pavel.pk}">Pavel Igrokov (#3 Lisy)</option>' in page
    answer = ineligible(
        club, client, player=str(club.pavel.pk), details="seen at table 3 by the host",
    )  # fmt: skip
    assert answer.status_code == 302
    assert answer["Location"] == url(club) + "#sanctions"
    sanction = Sanction.objects.get()
    assert (sanction.key, sanction.entry, sanction.person, sanction.stage, sanction.round) == (
        "ineligible-player", club.teams["Ezhi"], club.pavel, TOUR, 2,
    )  # fmt: skip
    assert sanction.reason == (
        "Pavel Igrokov played for #2 Ezhi after playing for #3 Lisy in tour 2: seen at table 3 "
        "by the host"
    )
    shown = text(client.get(url(club)))
    assert (
        "Sanction recorded on #2 Ezhi: ChGK tour, tour 2. Pavel Igrokov is barred until June 30, "
        "2026: adding them to any roster is refused." in shown
    )
    assert "In force · ChGK tour, tour 2 · the tour result counts 0; the player is barred" in shown
    assert "Pavel Igrokov June 30, 2026 " + sanction.reason in shown  # the bans table
    assert (
        "Barred until June 30, 2026, refused at registration and on any roster: Pavel Igrokov."
        in shown
    )
    tour = [
        (r.entry.name, r.points)
        for t in standings_as_of(club.event, TOUR, round=2).tables
        for r in t.rows
    ]
    assert tour == [("Sovy", 12), ("Lisy", 10), ("Volki", 8), ("Ezhi", 7)]
    tour_page = reverse(
        "standings:round", kwargs={"slug": club.event.slug, "stage": TOUR, "round": 2}
    )
    ezhi = why(tour_page, "all", club.teams["Ezhi"].number, client_for(club.org))
    assert "Sanction: " + sanction.reason in re.sub(r"<[^>]+>", " ", ezhi)


def test_a_player_typed_in_loses_the_battle_0_6(club: SimpleNamespace) -> None:
    people = Person.objects.count()
    data = {
        "what": "not-on-roster", "where": "brainball", "round": "", "items": ["b1-2-3"],
        "first_name": "Oleg", "last_name": "Novikov", "birth_date": "2002-03-03",
        "details": "he was never on the roster",
    }  # fmt: skip
    assert ineligible(club, club.org, **data).status_code == 302
    oleg = Person.objects.get(last_name="Novikov")
    assert Person.objects.count() == people + 1
    sanction = Sanction.objects.get()
    assert (sanction.person, sanction.stage, sanction.items) == (oleg, BRAINBALL, ["b1-2-3"])
    assert sanction.reason == (
        "Oleg Novikov played for #2 Ezhi without being on its roster in battles b1-2-3: he was "
        "never on the roster"
    )
    league = {
        r.entry.name: r.entry.metrics["match_points"]
        for t in standings_as_of(club.event, BRAINBALL).tables
        for r in t.rows
    }
    assert (league["Lisy"], league["Ezhi"]) == (4, 0)
    shown = text(client_for(club.org).get(url(club)))
    assert "Brainball, battles b1-2-3 · each battle a 0:6 loss;" in shown
    # The same name and birth date again is the same person.
    data["items"] = ["b1-1-2"]
    assert ineligible(club, club.org, **data).status_code == 302
    assert Person.objects.count() == people + 1
    assert Sanction.objects.filter(person=oleg).count() == 2


def test_refusals_are_shown_on_the_form_and_nothing_is_stored(club: SimpleNamespace) -> None:
    before = counts()
    answer = ineligible(club, club.hana, player=str(club.pavel.pk), details="  ")
    assert answer.status_code == 400
    assert "Say what happened: a sanction gives its reason." in text(answer)
    answer = ineligible(
        club, club.hana, first_name="Oleg", last_name="Novikov", details="not on the roster"
    )
    assert answer.status_code == 400
    assert "Give the birth date of a player typed in: the ban is checked by it." in text(answer)
    answer = ineligible(club, club.hana, player=str(club.pavel.pk), round="", details="x")
    assert "Pick the tour the player took part in." in text(answer)
    answer = ineligible(
        club, club.hana, player=str(club.pavel.pk), where="brainball", details="in a battle"
    )
    assert answer.status_code == 400
    shown = text(answer)
    assert "Name the team and the battles it loses 0:6. (rulebook: п. 8:" in shown
    answer = ineligible(
        club, club.hana, player=str(club.pavel.pk), where="brainball", items=["b1-3-4"],
        details="in a battle",
    )  # fmt: skip
    assert answer.status_code == 400  # Lisy – Volki is not Ezhi's battle: not even offered
    assert counts() == before

    client = client_for(club.org)
    volki = club.teams["Volki"]
    withdrawal = {"team": volki.pk, "date": "2025-11-25", "time": "15:30", "statement": ""}
    answer = client.post(url(club, "withdraw"), withdrawal)
    assert answer.status_code == 400
    assert "A team withdraws in writing: enter its statement." in text(answer)
    withdrawal["statement"] = "Volki stop playing."
    assert client.post(url(club, "withdraw"), withdrawal).status_code == 302
    before = counts()
    answer = client.post(url(club, "withdraw"), withdrawal)
    assert answer.status_code == 400
    assert "This team has already withdrawn; there is no return." in text(answer)
    assert counts() == before

    sanction = sanction_impose(
        event=club.event, key="ineligible-player", by=club.hana, entry=club.teams["Ezhi"],
        person=club.pavel, stage=TOUR, round=2, reason="Pavel played for Ezhi",
    )  # fmt: skip
    answer = client.post(url(club, "lift", pk=sanction.pk), {f"lift-{sanction.pk}-reason": ""})
    assert answer.status_code == 400
    assert "Say why the sanction is lifted." in text(answer)
    sanction.refresh_from_db()
    assert sanction.lifted_at is None
    answer = client.post(
        url(club, "lift", pk=sanction.pk),
        {f"lift-{sanction.pk}-reason": "Pavel was added to Ezhi's roster orally before tour 2"},
        follow=True,
    )
    shown = text(answer)
    assert "The sanction is lifted; the standings recompute." in shown
    assert "Pavel was added to Ezhi's roster orally before tour 2" in shown
    sanction.refresh_from_db()
    assert sanction.lifted_by == club.org


def test_unpaid_teams_are_not_admitted_with_one_button(club: SimpleNamespace) -> None:
    for name, entry in club.teams.items():
        payment_record(entry=entry, fee_key="entry-first-half", amount="900", method="cash",
                       by=club.org)  # fmt: skip
        if name != "Volki":
            payment_record(entry=entry, fee_key="entry-second-half", amount="900",
                           method="transfer", by=club.org)  # fmt: skip
    client = client_for(club.hana)
    page = client.get(url(club)).content.decode()
    tour1 = between(page, 'id="tour-1"', 'id="tour-2"')
    assert "Every team has paid." in tour1
    tour3 = between(page, 'id="tour-3"', 'id="tour-4"')
    assert "Team fee, second half of the season" in tour3
    assert '<span class="unpaid-team">#4 <bdi>Volki</bdi></span>' in tour3
    answer = client.post(url(club, "not_admitted", stage=TOUR, round=3), follow=True)
    assert answer.redirect_chain[-1][0] == url(club) + "#tour-3"
    shown = text(answer)
    assert "Not admitted to tour 3, counted as absent: #4 Volki." in shown
    page = answer.content.decode()
    tour3 = between(page, 'id="tour-3"', 'id="tour-4"')
    assert "#4 <bdi>Volki</bdi> — the fee “Team fee, second half of the season” is unpaid" in tour3
    assert "Not admitted: count as absent" not in tour3
    answer = client.post(url(club, "not_admitted", stage=TOUR, round=3), follow=True)
    assert "Nobody to bar from tour 3." in text(answer)
    assert Sanction.objects.filter(round=3).count() == 1
    assert client.post(url(club, "not_admitted", stage=TOUR, round=9)).status_code == 404
    assert client.post(url(club, "not_admitted", stage=BRAINBALL, round=1)).status_code == 404
    # Recording Volki's tour 3 is refused now.
    stored = Result.objects.count()
    with pytest.raises(Refused):
        result_record(
            event=club.event, stage=TOUR, round=3, entry=club.teams["Volki"], by=club.rudolf,
            cells={"questions": "4", "mask": ""}, idempotency_key="late",
        )  # fmt: skip
    assert Result.objects.count() == stored


def test_a_withdrawal_shows_its_rule_annulled_battles_and_bans(
    club: SimpleNamespace, make_event: Any
) -> None:
    earlier = make_event("deti-kolomny", slug="dk-2024", starts_at=moment(11, 7, 16).replace(2024))
    old = Person.objects.create(first_name="Gleb", last_name="Staryi")
    Ban.objects.create(
        person=old, until=dt.date(2026, 6, 30), reason="Host without questions",
        clause="п. 23", event=earlier, created_at=moment(3, 1),
    )  # fmt: skip
    Ban.objects.create(
        team_name="Prosrochka", until=dt.date(2025, 6, 30), reason="expired",
        event=earlier, created_at=moment(3, 1),
    )  # fmt: skip
    bowling = make_event("cba-qualifier", slug="cba-2025", starts_at=moment(3, 10, 8))
    Ban.objects.create(
        team_name="Kuželky", until=dt.date(2026, 6, 30), reason="another federation's ban",
        event=bowling, created_at=moment(3, 11),
    )  # fmt: skip
    client = client_for(club.org)
    volki = club.teams["Volki"]
    answer = client.post(
        url(club, "withdraw"),
        {"team": volki.pk, "date": "2025-11-25", "time": "15:30",
         "statement": "Volki stop playing: most of us moved away."},
        follow=True,
    )  # fmt: skip
    assert answer.redirect_chain[-1][0] == url(club) + "#withdrawals"
    made = Withdrawal.objects.get()
    assert made.received_at == dt.datetime(2025, 11, 25, 12, 30, tzinfo=dt.UTC)  # 15:30 MSK
    shown = text(answer)
    assert (
        "#4 Volki has withdrawn (received Nov. 25, 2025, 3:30 p.m. MSK, before the middle tour 3)."
        in shown
    )
    page = answer.content.decode()
    block = text_of(between(page, 'id="withdrawal-4"', 'id="bans"'))
    assert (
        "Before the middle tour (tour 3). Its ChGK results stay. 1 Brainball battle is annulled: "
        "Round 1: Lisy 3:2 Volki (b1-3-4)" in block
    )
    assert (
        "Barred until June 30, 2027, refused at registration and on any roster: the team name "
        "“Volki”, Volki Kapitanov." in block
    )
    league = [r.entry.name for t in standings_as_of(club.event, BRAINBALL).tables for r in t.rows]
    assert league == ["Sovy", "Ezhi", "Lisy"]
    bans = between(page, 'id="bans"', 'id="sanctions"')
    earlier_part = text_of(bans[bans.index("From earlier events") :])
    assert "Gleb Staryi" in earlier_part
    assert "Host without questions" in earlier_part
    assert "No birth date" in earlier_part
    assert "Prosrochka" not in bans  # it ended before this championship
    assert "Kuželky" not in bans  # another rulebook's ban does not bar here
    # Volki is no longer offered for a withdrawal or an ineligible player.
    assert f'value="{volki.pk}"' not in between(page, 'id="withdrawal-form"', "</form>")
    assert '<option value="4">' not in between(page, 'id="ineligible"', 'id="unpaid"')


def test_a_sanction_reads_in_the_readers_language(club: SimpleNamespace) -> None:
    """The rulebook's sanction by what it is for and the stage by its title, not their keys."""
    sanction_impose(
        event=club.event, key="ineligible-player", by=club.hana, entry=club.teams["Ezhi"],
        person=club.pavel, stage=TOUR, round=2, reason="Pavel played for Ezhi",
    )  # fmt: skip
    page = text(client_for(club.org).get("/ru" + url(club)))
    assert "— в туре играет игрок, не заявленный за команду" in page
    assert "Тур ЧГК, тур 2" in page
    assert "ineligible-player" not in page
    assert "ChGK tour" not in page
