"""Accounts: log-in throttling per account and per address, the password rules, changing and
resetting a password by e-mail, a sign-up that tells nobody which names exist, and who may
create events."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import tracemalloc
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client, override_settings

from podium.web.events import logins
from podium.web.events.services.accounts import account_approve
from podium.web.kernel.refusals import Refused
from podium.web.models import Account, AuditEntry, Event

PASSWORD = "correct horse battery"
LOGIN = "/accounts/login/"
ACCOUNT_LIMITED = "Too many failed log-ins for this account. Try again in 15 minutes."
ADDRESS_LIMITED = "Too many failed log-ins from your address. Try again in 15 minutes."
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


# --- log-in throttling ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_five_failures_lock_the_account_even_for_the_right_password(make_user: Any) -> None:
    make_user("olga")
    client = Client()
    for _ in range(5):
        assert WRONG in log_in(client, "olga", "guess")
    page = log_in(client, "olga", PASSWORD)
    assert ACCOUNT_LIMITED in page
    assert "_auth_user_id" not in client.session
    # The name counts in any capitals, and from another address too.
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert ACCOUNT_LIMITED in log_in(other, "OLGA", PASSWORD)


@pytest.mark.django_db
def test_fifty_wrong_passwords_then_the_right_one_is_refused_quickly(make_user: Any) -> None:
    """The issue's case: 50 wrong passwords in 19 s, then the right one worked."""
    make_user("olga")
    client = Client()
    answers, slowest = [], 0.0
    tracemalloc.start()
    for n in range(51):
        started = time.process_time()  # CPU time: a busy machine stretches the wall clock
        answers.append(log_in(client, "olga", PASSWORD if n == 50 else f"guess {n}"))
        if n >= 5:
            slowest = max(slowest, time.process_time() - started)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert all(WRONG in page for page in answers[:5])
    assert all(ACCOUNT_LIMITED in page for page in answers[5:])
    assert "_auth_user_id" not in client.session
    assert slowest < 2.0, f"a refusal took {slowest:.3f} s of CPU time"
    assert peak < 100 * 2**20, f"{peak / 2**20:.1f} MB"
    print(f"throttled refusal: slowest {slowest * 1000:.1f} ms CPU, peak {peak / 2**20:.1f} MB")


@pytest.mark.django_db
def test_a_success_resets_the_accounts_count(make_user: Any) -> None:
    make_user("olga")
    client = Client()
    for _ in range(4):
        assert WRONG in log_in(client, "olga", "guess")
    assert log_in(client, "olga", PASSWORD) == ""
    client = Client()
    for _ in range(4):
        assert WRONG in log_in(client, "olga", "guess")
    assert log_in(client, "olga", PASSWORD) == ""


@pytest.mark.django_db
def test_the_admins_log_in_counts_with_the_sites() -> None:
    users.objects.create_superuser("root", "root@example.org", PASSWORD)
    client = Client()
    for _ in range(5):
        assert WRONG in log_in(client, "root", "guess")
    page = client.post("/admin/login/", {"username": "root", "password": PASSWORD})
    assert ACCOUNT_LIMITED in page.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_an_unknown_name_is_counted_like_a_known_one() -> None:
    """The refusal must not tell which names exist."""
    client = Client()
    for _ in range(5):
        assert WRONG in log_in(client, "nobody-here", "guess")
    assert ACCOUNT_LIMITED in log_in(client, "nobody-here", "guess")


@pytest.mark.django_db
def test_twenty_failures_from_one_address_lock_the_address(make_user: Any) -> None:
    make_user("olga")
    client = Client(REMOTE_ADDR="192.0.2.7")
    for n in range(20):
        assert WRONG in log_in(client, f"name-{n % 4}", "guess")
    assert ADDRESS_LIMITED in log_in(client, "olga", PASSWORD)
    # Another address is not concerned.
    assert log_in(Client(REMOTE_ADDR="192.0.2.8"), "olga", PASSWORD) == ""


@pytest.mark.django_db
@override_settings(PODIUM_API_PROXIES=1)
def test_behind_the_proxy_the_address_is_the_one_the_proxy_saw(make_user: Any) -> None:
    make_user("olga")
    client = Client(REMOTE_ADDR="127.0.0.1")
    for n in range(20):
        # A client cannot escape by writing its own X-Forwarded-For: the proxy appends the
        # address it saw, and that last hop is the one counted.
        forged = f"198.51.100.{n}, 203.0.113.5"
        assert WRONG in log_in(client, f"name-{n}", "guess", HTTP_X_FORWARDED_FOR=forged)
    refused = log_in(client, "olga", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert ADDRESS_LIMITED in refused
    assert log_in(client, "olga", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.6") == ""


@pytest.mark.django_db
def test_the_lock_ends_with_its_window(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    make_user("olga")
    client = Client()
    for _ in range(5):
        log_in(client, "olga", "guess")
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 10 * 60)
    assert "Try again in 5 minutes." in log_in(client, "olga", PASSWORD)
    monkeypatch.setattr(time, "time", lambda: real() + 15 * 60 + 2)
    assert log_in(client, "olga", PASSWORD) == ""


@pytest.mark.django_db
def test_the_refusal_is_translated(make_user: Any) -> None:
    make_user("olga")
    client = Client()
    for _ in range(5):
        client.post(f"/cs{LOGIN}", {"username": "olga", "password": "guess"})
    page = client.post(f"/cs{LOGIN}", {"username": "olga", "password": PASSWORD})
    assert "Příliš mnoho neúspěšných přihlášení k tomuto účtu." in page.content.decode()
    assert "Zkuste to znovu za 15 minut." in page.content.decode()


@pytest.mark.django_db
def test_with_the_shared_cache_down_each_process_still_counts(make_user: Any) -> None:
    """Redis gone: nobody is locked out by it, and attempts are still limited (per process)."""
    make_user("olga")
    logins._LOCAL.clear()  # each process's own counters, kept between tests
    down = {
        "default": {
            "BACKEND": "podium.web.live.cache.SharedRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
        }
    }
    with override_settings(CACHES=down):
        client = Client()
        assert log_in(client, "olga", PASSWORD) == ""
        client = Client()
        for _ in range(5):
            assert WRONG in log_in(client, "olga", "guess")
        assert ACCOUNT_LIMITED in log_in(client, "olga", PASSWORD)


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
    found = re.search(r"http://testserver(/\S*/password/reset/\S+/)", message.body)
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
    link = re.search(r"http://testserver(/accounts/confirm/\S+/)", mail.outbox[0].body)
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


# --- who may create events ------------------------------------------------------------------------

FORM = {
    "title": "Czech Jigsaw 2026",
    "slug": "cz-2026",
    "preset": "cz-jigsaw",
    "starts_at": "2026-06-20T09:00",
    "timezone": "Europe/Prague",
    "venue": "Praha",
    "language": "cs",
}
NOT_APPROVED = "On this site only accounts approved by an administrator may create events."


@pytest.mark.django_db
@override_settings(PODIUM_EVENT_CREATORS="approved")
def test_where_approval_is_required_an_ordinary_account_is_refused(make_user: Any) -> None:
    client = Client()
    client.force_login(make_user("alice"))
    page = client.get("/organize/new/")
    assert page.status_code == 403
    assert NOT_APPROVED in page.content.decode()
    assert "approve your account “alice”" in page.content.decode()
    before = (Event.objects.count(), AuditEntry.objects.count())
    refused = client.post("/organize/new/", FORM)
    assert refused.status_code == 403
    assert (Event.objects.count(), AuditEntry.objects.count()) == before


@pytest.mark.django_db
@override_settings(PODIUM_EVENT_CREATORS="approved")
def test_an_administrator_approves_an_account_in_the_admin(make_user: Any) -> None:
    alice = make_user("alice")
    admin = users.objects.create_superuser("root", "root@example.org", PASSWORD)
    staff = Client()
    staff.force_login(admin)
    listed = staff.get("/admin/auth/user/")
    assert "Approve to create events" in listed.content.decode()
    staff.post(
        "/admin/auth/user/",
        {"action": "approve", "_selected_action": [alice.pk], "index": 0},
    )
    account = Account.objects.get(user=alice)
    assert (account.may_create_events, account.approved_by) == (True, admin)
    assert AuditEntry.objects.filter(action="account.approve", actor=admin).count() == 1
    client = Client()
    client.force_login(alice)
    assert client.post("/organize/new/", FORM)["Location"] == "/organize/cz-2026/"
    account_approve(user=alice, by=admin, approved=False)
    assert client.get("/organize/new/").status_code == 403


@pytest.mark.django_db
def test_only_an_administrator_approves(make_user: Any) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    with pytest.raises(Refused, match=r"Only an administrator may approve accounts\."):
        account_approve(user=alice, by=bob)
    assert not Account.objects.filter(may_create_events=True).exists()


@pytest.mark.django_db
def test_by_default_in_development_anyone_may_create_an_event(make_user: Any) -> None:
    client = Client()
    client.force_login(make_user("alice"))
    assert client.post("/organize/new/", FORM)["Location"] == "/organize/cz-2026/"


def settings_under(env: dict[str, str]) -> dict[str, Any]:
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({k: getattr(s, k) for k in ('PODIUM_EVENT_CREATORS', 'EMAIL_BACKEND', "
        "'PODIUM_MAIL_SENDER', 'EMAIL_HOST', 'EMAIL_PORT', 'EMAIL_HOST_USER', 'EMAIL_USE_TLS', "
        "'DEFAULT_FROM_EMAIL')}))"
    )
    base = {k: v for k, v in os.environ.items() if not k.startswith("PODIUM_")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=base | {"DJANGO_SETTINGS_MODULE": "podium.web.settings"} | env,
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    return dict(json.loads(done.stdout))


def test_production_requires_approval_and_smtp_comes_from_the_environment(tmp_path: Any) -> None:
    production = {
        "PODIUM_PRODUCTION": "1",
        "PODIUM_SECRET_KEY": "k3Jq-9vXz_" * 7,
        "PODIUM_ALLOWED_HOSTS": "results.example.org",
        "PODIUM_DATA_DIR": str(tmp_path),
        "PODIUM_EMAIL_HOST": "smtp.example.org",
        "PODIUM_EMAIL_USER": "podium",
        "PODIUM_EMAIL_PASSWORD": "secret",
        "PODIUM_EMAIL_TLS": "1",
        "PODIUM_FROM_EMAIL": "results@example.org",
    }
    found = settings_under(production)
    assert found == {
        "PODIUM_EVENT_CREATORS": "approved",
        "EMAIL_BACKEND": "podium.web.kernel.outbox.BackgroundBackend",
        "PODIUM_MAIL_SENDER": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "smtp.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "podium",
        "EMAIL_USE_TLS": True,
        "DEFAULT_FROM_EMAIL": "results@example.org",
    }
    development = settings_under({"PODIUM_DATA_DIR": str(tmp_path)})
    assert development["PODIUM_EVENT_CREATORS"] == "anyone"
    assert development["PODIUM_MAIL_SENDER"] == "django.core.mail.backends.console.EmailBackend"


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
