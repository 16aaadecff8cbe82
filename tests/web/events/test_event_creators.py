"""Who may create events: anyone in development, only accounts an administrator approved where
the site requires it (in production by default), and the production settings read from the
environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from django.test import Client, override_settings
from tests.web.events.test_accounts import PASSWORD, users

from podium.web.events.services.accounts import account_approve
from podium.web.kernel.refusals import Refused
from podium.web.models import Account, AuditEntry, Event

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
