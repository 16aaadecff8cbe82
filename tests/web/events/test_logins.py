"""Log-in throttling: failures counted per account (in any capitals, from any address) and per
address (the one the proxy saw), the lock and its window, the refusal in the visitor's
language, and each process still counting with the shared cache down."""

from __future__ import annotations

import time
import tracemalloc
from typing import Any

import pytest
from django.test import Client, override_settings
from tests.web.events.test_accounts import LOGIN, PASSWORD, WRONG, log_in, users

from podium.web.events import logins

ACCOUNT_LIMITED = "Too many failed log-ins for this account. Try again in 15 minutes."
ADDRESS_LIMITED = "Too many failed log-ins from your address. Try again in 15 minutes."


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
