"""Accounts: the password rules, changing and resetting a password by e-mail, and a sign-up
that tells nobody which names exist. Log-in throttling is tested in ``test_logins``, who may
create events in ``test_event_creators``."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from podium.web.models import Account, AuditEntry

PASSWORD = "correct horse battery"
LOGIN = "/accounts/login/"
WRONG = "Please enter a correct username and password."
users = get_user_model()


def log_in(client: Client, username: str, password: str, **headers: Any) -> str:
    """Posts the log-in form; the page's text when refused, "" when logged in."""
    response = client.post(LOGIN, {"username": username, "password": password}, **headers)
    if response.status_code == 302:
        return ""
    assert response.status_code == 200
    return str(response.content.decode())


def counts() -> tuple[int, int, int]:
    return users.objects.count(), Account.objects.count(), AuditEntry.objects.count()


# --- the password rules ---------------------------------------------------------------------------


def signup_form(username: str, email: str, password: str) -> dict[str, str]:
    return {"username": username, "email": email, "password1": password, "password2": password}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("48151623424", "This password is entirely numeric."),
        ("marie.curie", "The password is too similar to the username."),
        (
            "podium-demo",
            "This password is the demo&#x27;s, published for everyone; choose another.",
        ),
        (
            "PODIUM-DEMO ",
            "This password is the demo&#x27;s, published for everyone; choose another.",
        ),
        ("k9#x", "This password is too short. It must contain at least 8 characters."),
        ("password123", "This password is too common."),
    ],
)
def test_weak_passwords_are_refused_at_sign_up(password: str, message: str) -> None:
    before = counts()
    form = signup_form("marie.curie", "marie@example.org", password)
    response = Client().post("/accounts/signup/", form)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert counts() == before
    assert mail.outbox == []


@pytest.mark.django_db
def test_the_demo_password_is_refused_when_changing_a_password(make_user: Any) -> None:
    user = make_user("olga")
    client = Client()
    client.force_login(user)
    form = {"old_password": PASSWORD, "new_password1": "podium-demo"}
    response = client.post("/accounts/password/", form | {"new_password2": "podium-demo"})
    assert "This password is the demo&#x27;s" in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


# --- changing and resetting a password ------------------------------------------------------------


@pytest.mark.django_db
def test_a_logged_in_user_changes_the_password(make_user: Any) -> None:
    user = make_user("olga")
    client = Client()
    client.force_login(user)
    assert "Change your password" in client.get("/accounts/password/").content.decode()
    new = {"new_password1": "tulip ledger 77", "new_password2": "tulip ledger 77"}
    wrong = client.post("/accounts/password/", new | {"old_password": "guess"})
    assert "Your old password was entered incorrectly." in wrong.content.decode()
    done = client.post("/accounts/password/", new | {"old_password": PASSWORD}, follow=True)
    assert "Your password is changed." in done.content.decode()
    user.refresh_from_db()
    assert user.check_password("tulip ledger 77")


def reset_link(message: Any) -> str:
    found = re.search(
        rf"{re.escape(settings.PODIUM_SITE_URL)}(/\S*/password/reset/\S+/)", message.body
    )
    assert found, message.body
    return found.group(1)


@pytest.mark.django_db
def test_a_forgotten_password_is_reset_by_e_mail(make_user: Any) -> None:
    user = make_user("olga")
    client = Client()
    sent = client.post("/accounts/password/reset/", {"email": "OLGA@example.org"}, follow=True)
    assert "If an account has this address, we sent it a link" in sent.content.decode()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["olga@example.org"]
    assert message.subject == "A new password for Podium"
    assert "your Podium account “olga”" in message.body
    link = reset_link(message)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    chosen = {"new_password1": "tulip ledger 77", "new_password2": "tulip ledger 77"}
    done = client.post(form.redirect_chain[-1][0], chosen, follow=True)
    assert "Your new password is set; you can log in with it." in done.content.decode()
    user.refresh_from_db()
    assert user.check_password("tulip ledger 77")
    # The link works once.
    again = Client().get(link, follow=True)
    assert "it was used already or is too old" in again.content.decode()


@pytest.mark.django_db
def test_a_reset_for_an_unknown_address_answers_exactly_as_for_a_known_one(
    make_user: Any,
) -> None:
    make_user("olga")
    known = Client().post("/accounts/password/reset/", {"email": "olga@example.org"})
    unknown = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    shown = [Client().get(r["Location"]).content for r in (known, unknown)]
    assert shown[0] == shown[1]
    assert [m.to for m in mail.outbox] == [["olga@example.org"]]


@pytest.mark.django_db
def test_the_reset_e_mail_is_in_the_accounts_language_else_the_pages(make_user: Any) -> None:
    olga = make_user("olga")
    make_user("ivan")
    Account.objects.create(user=olga, language="cs")
    Client().post("/it/accounts/password/reset/", {"email": "olga@example.org"})
    Client().post("/it/accounts/password/reset/", {"email": "ivan@example.org"})
    czech, italian = mail.outbox
    assert czech.subject == "Nové heslo pro Podium"
    assert "/cs/accounts/password/reset/" in czech.body
    assert italian.subject == "Una nuova password per Podium"
    assert "/it/accounts/password/reset/" in italian.body


@pytest.mark.django_db
def test_logging_in_remembers_the_pages_language(make_user: Any) -> None:
    make_user("olga")
    Client().post(f"/ru{LOGIN}", {"username": "olga", "password": PASSWORD})
    assert Account.objects.get(user__username="olga").language == "ru"


@pytest.mark.django_db
def test_reset_requests_from_one_address_are_limited(make_user: Any) -> None:
    client = Client(REMOTE_ADDR="192.0.2.50")
    for _ in range(10):
        assert (
            client.post("/accounts/password/reset/", {"email": "x@example.org"}).status_code == 302
        )
    refused = client.post("/accounts/password/reset/", {"email": "x@example.org"})
    assert refused.status_code == 200
    assert (
        "Too many requests from your address. Try again in 60 minutes." in refused.content.decode()
    )


# --- signing up -----------------------------------------------------------------------------------


@pytest.fixture
def sign_up(django_capture_on_commit_callbacks: Any) -> Any:
    """Posts the sign-up form; its e-mail goes once the transaction commits, as in production."""

    def post(client: Client, form: dict[str, str], prefix: str = "") -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(f"{prefix}/accounts/signup/", form)

    return post


def without_tokens(html: bytes) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html.decode())


@pytest.mark.django_db
def test_sign_up_answers_the_same_for_taken_and_free_names_and_addresses(
    make_user: Any, sign_up: Any
) -> None:
    make_user("olga")  # olga@example.org
    tries = {
        "free": signup_form("marta", "marta@example.org", "tulip ledger 77"),
        "name taken": signup_form("Olga", "another@example.org", "tulip ledger 77"),
        "address taken": signup_form("olinka", "Olga@Example.org", "tulip ledger 77"),
    }
    answers = {}
    for case, form in tries.items():
        client = Client()
        response = sign_up(client, form)
        page = client.get(response["Location"])
        answers[case] = (response.status_code, response["Location"], without_tokens(page.content))
        assert "_auth_user_id" not in client.session
    assert answers["free"] == answers["name taken"] == answers["address taken"]
    assert answers["free"][1] == "/accounts/signup/sent/"
    assert "Check your e-mail" in answers["free"][2]
    # Only the free name made an account, and it waits for its confirmation.
    assert sorted(users.objects.values_list("username", "is_active")) == [
        ("marta", False),
        ("olga", True),
    ]
    free, taken, known = mail.outbox
    assert free.to == ["marta@example.org"]
    assert "To confirm the account and log in, open:" in free.body
    assert taken.to == ["another@example.org"]
    assert "but another account has that name; no account was made" in taken.body
    assert known.to == ["Olga@Example.org"]
    assert "it already belongs to your account “olga”" in known.body
    assert "/accounts/password/reset/" in known.body


@pytest.mark.django_db
def test_a_pending_account_logs_in_only_once_confirmed(sign_up: Any) -> None:
    client = Client()
    sign_up(client, signup_form("marta", "marta@example.org", "tulip ledger 77"))
    # Before confirming: the same answer as a wrong password.
    assert WRONG in log_in(Client(), "marta", "tulip ledger 77")
    link = re.search(
        rf"{re.escape(settings.PODIUM_SITE_URL)}(/accounts/confirm/\S+/)", mail.outbox[0].body
    )
    assert link
    shown = client.get(link.group(1))
    assert "Confirm and log in" in shown.content.decode()
    assert not users.objects.get(username="marta").is_active  # opening the link is not enough
    confirmed = client.post(link.group(1), follow=True)
    assert "Your account is confirmed; you are logged in." in confirmed.content.decode()
    assert client.session["_auth_user_id"] == str(users.objects.get(username="marta").pk)
    again = Client().post(link.group(1))
    assert "This confirmation link is not valid" in again.content.decode()
    assert log_in(Client(), "marta", "tulip ledger 77") == ""


@pytest.mark.django_db
def test_signing_up_again_before_confirming_sends_the_link_again(sign_up: Any) -> None:
    form = signup_form("marta", "marta@example.org", "tulip ledger 77")
    sign_up(Client(), form)
    sign_up(Client(), form)
    assert users.objects.filter(username="marta").count() == 1
    assert ["confirm the account" in m.body for m in mail.outbox] == [True, True]


@pytest.mark.django_db
def test_the_confirmation_e_mail_is_in_the_pages_language(sign_up: Any) -> None:
    sign_up(Client(), signup_form("marta", "m@example.org", "tulip ledger 77"), "/ru")
    (message,) = mail.outbox
    assert message.subject == "Подтвердите учётную запись Podium"
    assert "/ru/accounts/confirm/" in message.body


@pytest.mark.django_db(transaction=True)
def test_sign_ups_for_one_name_at_the_same_moment_make_one_account() -> None:
    """On PostgreSQL in real threads (the loser meets the unique name and is told by e-mail);
    SQLite's in-memory test database takes them one after another."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    from podium.web.events.services.accounts import signup_request

    def sign_up(n: int) -> str:
        return signup_request(
            username="marta",
            email=f"marta{n}@example.org",
            password="tulip ledger 77",
            language="en",
            link=lambda name, *args: f"http://testserver/{name}/{'/'.join(args)}",
        )

    def in_a_thread(n: int) -> str:
        try:
            return sign_up(n)
        finally:
            connection.close()  # each thread's own connection

    racers = 6
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        with ThreadPoolExecutor(racers) as pool:
            outcomes = list(pool.map(in_a_thread, range(racers)))
    else:
        outcomes = [sign_up(n) for n in range(racers)]
    assert sorted(outcomes) == ["name-taken"] * (racers - 1) + ["pending"]
    assert users.objects.filter(username="marta").count() == 1
    bodies = [m.body for m in mail.outbox]
    assert sum("another account has that name" in b for b in bodies) == racers - 1
