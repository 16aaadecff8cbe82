"""Registration pages: refusals on their fields, own entries only, organizer-only pages."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.models import AuditEntry, Entry, EventRole, Person, Squad
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.registering import entry_register

UTC = dt.UTC
LOGIN = reverse("accounts:login")


def member(i: int, first: str, last: str, born: str = "1990-01-01", country: str = "CZ"):
    return {
        f"m{i}_first_name": first,
        f"m{i}_last_name": last,
        f"m{i}_birth_date": born,
        f"m{i}_country": country,
    }


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(event: Any, category: str) -> str:
    return reverse("participant:register", kwargs={"slug": event.slug, "category": category})


def with_cap(event: Any, old: str, new: str) -> Any:
    event.rulebook_text = event.rulebook_text.replace(old, new, 1)
    event.save()
    return event


def errors(response: Any) -> dict[str, list[str]]:
    form = response.context["form"]
    return {k: [str(m) for m in v] for k, v in form.errors.items()}


@pytest.fixture
def cz(make_event: Any, make_user: Any) -> Any:
    return make_event("cz-jigsaw", organizer=make_user("cz-org"))


@pytest.fixture
def it(make_event: Any, make_user: Any) -> Any:
    # Registration is open 23 Apr – 21 May 2026: only a frozen clock would make this test
    # depend on today, so the window is widened to cover any day the suite runs on.
    event = make_event(
        "it-puzzle-party",
        organizer=make_user("it-org"),
        starts_at=dt.datetime(2099, 5, 24, 8, 0, tzinfo=UTC),
        timezone="Europe/Rome",
    )
    return with_cap(event, "closes: 2026-05-21", "closes: 2099-05-21")


# --- the registration form ------------------------------------------------------------------------


def test_get_shows_member_slots_and_prefills_the_users_person(cz: Any, make_user: Any) -> None:
    ann = make_user("ann")
    Person.objects.create(user=ann, first_name="Anna", last_name="Malá", country="CZ")
    response = signed_in(ann).get(url(cz, "teams"))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("<fieldset") == 4  # a CZ team is 3–4
    assert 'name="m0_first_name" value="Anna"' in html
    assert 'name="accompanying_adult"' in html
    assert "50 places left." in html


def test_register_individual_then_see_it_in_my_entries(cz: Any, make_user: Any) -> None:
    ann = make_user("ann")
    client = signed_in(ann)
    response = client.post(url(cz, "individuals"), member(0, "Anna", "Malá"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("participant:entries")
    html = response.content.decode()
    assert "Anna Malá is registered." in html
    assert "#1 Anna Malá" in html
    assert Person.objects.get(user=ann).last_name == "Malá"


@pytest.mark.parametrize(
    ("category", "data", "field", "text"),
    [
        (
            "teams",
            {"name": "Dva", **member(0, "A", "Jedna"), **member(1, "B", "Dva")},
            "__all__",
            "A team size outside 3–4 is not allowed; this one has 2. (Tým tvoří 3-4 jednotlivci.)",
        ),
        (
            "individuals",
            member(0, "Petr", "Malý", "2010-06-21"),
            "accompanying_adult",
            "Petr Malý may not enter: 15 years old: under 16 only with an accompanying adult.",
        ),
        ("individuals", member(0, "Petr", "Malý", "2010-02-30"), "m0_birth_date", "real date"),
        ("pairs", member(0, "Sólo", "Sám"), "__all__", "exactly 2 members"),
    ],
)
def test_refusals_show_on_the_field(
    cz: Any, make_user: Any, category: str, data: dict[str, str], field: str, text: str
) -> None:
    response = signed_in(make_user("u")).post(url(cz, category), data)
    assert response.status_code == 200
    assert any(text in message for message in errors(response)[field])
    assert Entry.objects.count() == 0


def test_duplicate_is_refused_on_the_name(cz: Any, make_user: Any) -> None:
    client = signed_in(make_user("ann"))
    client.post(url(cz, "individuals"), member(0, "Anna", "Malá"))
    response = client.post(url(cz, "individuals"), member(0, "Anna", "Malá"))
    assert "Anna Malá is already registered in this category." in errors(response)["m0_last_name"]


def test_full_category_offers_the_waiting_list(cz: Any, make_user: Any) -> None:
    cz = with_cap(cz, "cap: 200", "cap: 1")
    signed_in(make_user("a")).post(url(cz, "individuals"), member(0, "A", "Jedna"))
    client = signed_in(make_user("b"))
    response = client.post(url(cz, "individuals"), member(0, "B", "Dva"))
    (message,) = errors(response)["waiting"]
    assert "The category is full (1 place). You may join the waiting list" in message
    assert "you would be number 1" in message
    response = client.post(
        url(cz, "individuals"), {**member(0, "B", "Dva"), "waiting": "on"}, follow=True
    )
    html = response.content.decode()
    assert "B Dva is on the waiting list at position 1." in html
    assert "Position 1 on the waiting list" in html


def test_cba_squad_and_division_on_the_form(make_event: Any, make_user: Any) -> None:
    event = make_event("cba-qualifier", starts_at=dt.datetime(2099, 3, 24, 8, 0, tzinfo=UTC))
    with_cap(event, "closes: 2012-03-16", "closes: 2099-03-16")
    full = Squad.objects.create(
        event=event, name="Ráno", starts_at=dt.datetime(2099, 3, 24, 8, tzinfo=UTC), capacity=1
    )
    entry_register(
        event=event,
        category="players",
        by=make_user("first"),
        members=[PersonData("Jan", "Prvni", dt.date(1980, 1, 1), "CZ", "M", Decimal(180))],
        squad=full,
    )
    client = signed_in(make_user("eva"))
    data = {**member(0, "Eva", "Koule", "1985-05-05"), "m0_gender": "F", "squad": full.pk}
    data["m0_ladder_average"] = "176"
    response = client.post(url(event, "players"), data)
    assert "Squad Ráno is full; choose another squad." in errors(response)["squad"][0]
    other = Squad.objects.create(
        event=event,
        name="Odpoledne",
        starts_at=dt.datetime(2099, 3, 24, 13, tzinfo=UTC),
        capacity=8,
    )
    response = client.post(url(event, "players"), {**data, "squad": other.pk}, follow=True)
    html = response.content.decode()
    assert "Master — women" in html
    assert "ladder average 176 as of 2011-07-01" in html


def test_chgk_roster_form_refuses_a_player_of_another_team(make_event: Any, make_user: Any) -> None:
    event = make_event("deti-kolomny", starts_at=dt.datetime(2099, 11, 14, 9, tzinfo=UTC))
    entry_register(
        event=event,
        category="teams",
        by=make_user("first"),
        members=[PersonData("Иван", "Иванов", dt.date(1990, 1, 1), "RU")],
        name="Знатоки",
    )
    owner = make_user("owner")
    client = signed_in(owner)
    client.post(url(event, "teams"), {"name": "Эрудиты", **member(0, "Пётр", "Петров")})
    mine = Entry.objects.get(name="Эрудиты")
    add = reverse("participant:add_player", kwargs={"pk": mine.pk})
    response = client.post(
        add, {"first_name": "Иван", "last_name": "Иванов", "birth_date": "1990-01-01",
              "country": "RU"},
    )  # fmt: skip
    message = response.context["form"].errors["last_name"][0]
    assert "Иван Иванов already plays for Знатоки" in message
    assert "п. 8" in message
    response = client.post(
        add, {"first_name": "Олег", "last_name": "Новый", "country": "RU"}, follow=True
    )
    assert "The player is on the roster." in response.content.decode()
    assert mine.members.count() == 2


# --- cancelling: terms first, then applied -----------------------------------------------


def test_cancel_shows_the_terms_then_promotes_the_waiting(cz: Any, make_user: Any) -> None:
    cz = with_cap(cz, "cap: 200", "cap: 1")
    cz.starts_at = dt.datetime(2099, 6, 20, 9, tzinfo=UTC)
    cz.save()
    ann, bob = make_user("ann"), make_user("bob")
    signed_in(ann).post(url(cz, "individuals"), member(0, "Anna", "Malá"))
    signed_in(bob).post(url(cz, "individuals"), {**member(0, "Bob", "Velký"), "waiting": "on"})
    entry = Entry.objects.get(name="Anna Malá")
    cancel = reverse("participant:cancel", kwargs={"pk": entry.pk})
    page = signed_in(ann).get(cancel).content.decode()
    assert "nothing to refund" in page
    assert "15 dní před začátkem soutěže" in page
    # Nobody else's entry can be seen or cancelled, whether it exists or not.
    assert signed_in(bob).get(cancel).status_code == 404
    assert signed_in(bob).post(cancel).status_code == 404
    signed_in(ann).post(cancel)
    assert Entry.objects.get(name="Bob Velký").status == "confirmed"
    mine = signed_in(bob).get(reverse("participant:entries")).content.decode()
    assert "Bob Velký" in mine
    assert "Anna Malá" not in mine


# --- organizer pages ---------------------------------------------------------------------


def test_organizer_approves_an_it_pair_and_the_table_is_assigned(it: Any, make_user: Any) -> None:
    client = signed_in(make_user("luca"))
    client.post(
        url(it, "pairs"),
        {**member(0, "Luca", "Rossi", country="IT"), **member(1, "Sara", "Bianchi", country="IT")},
    )
    entry = Entry.objects.get()
    assert entry.status == "pending"
    organizer = EventRole.objects.get(event=it).user
    approve = reverse("registrations:approve", kwargs={"slug": it.slug, "pk": entry.pk})
    response = signed_in(organizer).post(approve, follow=True)
    assert "Luca Rossi / Sara Bianchi is approved at table 1." in response.content.decode()
    entry.refresh_from_db()
    assert (entry.status, entry.table_number) == ("confirmed", 1)


def test_organizer_reorders_the_waiting_list_only_with_a_reason(cz: Any, make_user: Any) -> None:
    cz = with_cap(cz, "cap: 200", "cap: 1")
    for name in ("a", "b", "c"):
        signed_in(make_user(name)).post(
            url(cz, "individuals"), {**member(0, name.upper(), "X"), "waiting": "on"}
        )
    c = Entry.objects.get(name="C X")
    organizer = signed_in(EventRole.objects.get(event=cz).user)
    move = reverse("registrations:reorder", kwargs={"slug": cz.slug, "pk": c.pk})
    response = organizer.post(move, {"position": 1, "reason": ""}, follow=True)
    assert "Give the new position and a reason." in response.content.decode()
    organizer.post(move, {"position": 1, "reason": "Paid first"})
    c.refresh_from_db()
    assert c.waiting_position == 1
    assert AuditEntry.objects.get(action="waiting.reorder").data["reason"] == "Paid first"
    page = organizer.get(reverse("registrations:index", kwargs={"slug": cz.slug}))
    assert page.status_code == 200
    assert "Waiting list" in page.content.decode()


def test_organizer_pages_are_404_for_everyone_else(
    cz: Any, it: Any, make_user: Any, client: Client
) -> None:
    entry = entry_register(
        event=cz,
        category="individuals",
        by=make_user("p"),
        members=[PersonData("A", "B", dt.date(1990, 1, 1))],
    )
    it_organizer = EventRole.objects.get(event=it).user
    referee = make_user("ref")
    EventRole.objects.create(event=cz, user=referee, role=EventRole.Role.REFEREE)
    urls = [
        ("get", reverse("registrations:index", kwargs={"slug": cz.slug})),
        ("get", reverse("registrations:index", kwargs={"slug": "no-such-event"})),
    ] + [
        ("post", reverse(f"registrations:{name}", kwargs={"slug": cz.slug, "pk": entry.pk}))
        for name in ("approve", "reorder", "promote", "cancel")
    ]
    for user in (it_organizer, referee, make_user("participant")):
        other = signed_in(user)
        for method, address in urls:
            assert getattr(other, method)(address).status_code == 404, (user, address)
    for method, address in urls:
        response = getattr(client, method)(address)
        assert response.status_code == 302
        assert response["Location"].startswith(LOGIN)
    entry.refresh_from_db()
    assert entry.status == "confirmed"


def test_participant_pages_need_login(cz: Any, client: Client) -> None:
    for address in (
        reverse("participant:entries"),
        url(cz, "individuals"),
        reverse("participant:cancel", kwargs={"pk": 1}),
        reverse("participant:add_player", kwargs={"pk": 1}),
    ):
        assert client.get(address)["Location"].startswith(LOGIN)


def test_draft_events_and_unknown_categories_are_404(
    make_event: Any, make_user: Any, cz: Any
) -> None:
    draft = make_event("it-puzzle-party", slug="secret", status="draft")
    client = signed_in(make_user("u"))
    assert client.get(url(draft, "pairs")).status_code == 404
    assert client.get(url(cz, "no-such")).status_code == 404


def test_the_cancel_page_names_the_category_and_the_currency(
    it: Any, cba: Any, make_user: Any
) -> None:
    luca_user = make_user("luca")
    luca = signed_in(luca_user)
    pair = {
        **member(0, "Luca", "Rossi", country="IT"),
        **member(1, "Sara", "Bianchi", country="IT"),
    }
    luca.post(url(it, "pairs"), pair)
    entry = Entry.objects.get()
    page = luca.get(reverse("participant:cancel", kwargs={"pk": entry.pk})).content.decode()
    assert "<p>it-puzzle-party — Pairs — awaiting approval</p>" in page  # not the key "pairs"
    assert "None: nothing to refund, nothing owed." in page  # Puzzle Party has no entry fee
    assert "0.00" not in page
    # The ČBA qualifier's fee (600 CZK, half owed from 5 days before the squad) far ahead.
    cba.starts_at = dt.datetime(2099, 3, 24, 8, tzinfo=UTC)
    cba.save()
    squad = Squad.objects.get(event=cba, name="A")
    squad.starts_at = cba.starts_at
    squad.save()
    player = PersonData("Jan", "Kuželka", dt.date(1980, 1, 1), "CZ", "M", Decimal(150))
    entry = entry_register(
        event=cba, category="players", by=luca_user, members=[player], squad=squad
    )
    page = luca.get(reverse("participant:cancel", kwargs={"pk": entry.pk})).content.decode()
    assert '<dd class="refund">0.00\xa0CZK</dd>' in page
    assert '<dd class="owed">0.00\xa0CZK</dd>' in page
    mine = luca.get(reverse("participant:entries")).content.decode()
    assert "Refund 0.00\xa0CZK, owed 0.00\xa0CZK if cancelled today" in mine
