"""Accounts: signing up without telling anyone which names or addresses exist, confirming by
e-mail, the language a person reads, and approving accounts to create events.

Vocabulary:
- sign-up request: a user name, an e-mail address and a password. The page answers the same
  "check your e-mail" whatever follows (``signup_request``), and the message to the address
  says what happens next: confirm a new account; or "you already have an account" with the
  password-reset link (the address belongs to an account); or "that name is taken, choose
  another" (the name belongs to someone else). Only whoever reads the mailbox learns anything.
- pending account: made by a sign-up, inactive (it cannot log in: the log-in page says the same
  as for a wrong password) until its confirmation link is opened.
- confirmation link: ``/accounts/confirm/<uid>/<token>/``, Django's password-reset token: it
  stops working once used (the log-in changes it) and after ``PASSWORD_RESET_TIMEOUT``.
- approval: an administrator's permission for an account to create events (see
  ``podium.web.models.accounts``), given or withdrawn with an audit entry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _

from podium.web.kernel.audit import Actor, audit
from podium.web.kernel.refusals import Refused
from podium.web.models import Account

# Builds an absolute address from a URL name and its arguments (the view knows the host).
Link = Callable[..., str]


def _mail(address: str, language: str, compose: Callable[[], tuple[str, str]]) -> None:
    """Sends one message in ``language`` once the transaction commits."""
    with translation.override(language):
        subject, body = compose()
    transaction.on_commit(lambda: send_mail(subject, body, None, [address], fail_silently=True))


def _confirmation(user: Any, link: Link) -> tuple[str, str]:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    url = link("accounts:confirm", uid, default_token_generator.make_token(user))
    return _("Confirm your Podium account"), _(
        "Someone, probably you, signed up at Podium as “%(name)s” with this address.\n\n"
        "To confirm the account and log in, open:\n%(url)s\n\n"
        "If it was not you, ignore this message: the account stays inactive."
    ) % {"name": user.get_username(), "url": url}


def _already_yours(user: Any, link: Link) -> tuple[str, str]:
    return _("You already have a Podium account"), _(
        "Someone, probably you, tried to sign up at Podium with this address, but it already "
        "belongs to your account “%(name)s”; no new account was made.\n\n"
        "Log in at:\n%(login)s\n\n"
        "Forgot your password? Ask for a new one at:\n%(reset)s"
    ) % {
        "name": user.get_username(),
        "login": link("accounts:login"),
        "reset": link("accounts:password_reset"),
    }


def _name_taken(username: str, link: Link) -> tuple[str, str]:
    return _("Choose another user name at Podium"), _(
        "Someone, probably you, tried to sign up at Podium with this address as “%(name)s”, "
        "but another account has that name; no account was made.\n\n"
        "Sign up again with another name at:\n%(signup)s"
    ) % {"name": username, "signup": link("accounts:signup")}


def signup_request(*, username: str, email: str, password: str, language: str, link: Link) -> str:
    """Handles a sign-up (see the vocabulary) and says which way it went, for the audit and the
    tests only: ``"pending"``, ``"address-known"`` or ``"name-taken"``. The caller shows the
    same page in every case."""
    users = get_user_model()
    # Hashed in every case, so the time the answer takes does not tell the cases apart either.
    hashed = make_password(password)
    with transaction.atomic():
        known = users.objects.filter(email__iexact=email).order_by("id").first()
        if known is not None and not known.is_active and known.last_login is None:
            _mail(email, language, lambda: _confirmation(known, link))  # still pending: again
            return "pending"
        if known is not None:
            _mail(email, language, lambda: _already_yours(known, link))
            return "address-known"
        user = users(username=username, email=email, password=hashed, is_active=False)
        try:
            if users.objects.filter(username__iexact=username).exists():
                raise IntegrityError
            with transaction.atomic():  # a sign-up for the same name at the same moment
                user.save()
        except IntegrityError:
            _mail(email, language, lambda: _name_taken(username, link))
            return "name-taken"
        Account.objects.create(user=user, language=language)
        audit(event=None, actor=None, action="account.signup", target=user)
        _mail(email, language, lambda: _confirmation(user, link))
    return "pending"


def signup_confirm(*, uid: str, token: str) -> Any:
    """Activates the pending account of a confirmation link; the user, to log in."""
    users = get_user_model()
    try:
        user = users.objects.get(pk=urlsafe_base64_decode(uid).decode())
    except (ValueError, TypeError, OverflowError, users.DoesNotExist):
        user = None
    if user is None or not default_token_generator.check_token(user, token):
        raise Refused(
            _(
                "This confirmation link is not valid: it was used already or is too old. "
                "Sign up again to get a new one."
            )
        )
    with transaction.atomic():
        user.is_active = True
        user.save(update_fields=["is_active"])
        audit(event=None, actor=user, action="account.confirm", target=user)
    return user


def account_language_set(*, user: Any, language: str) -> None:
    """Remembers the language a person reads (e-mail to them is written in it)."""
    if language not in dict(settings.LANGUAGES):
        return
    with transaction.atomic():
        account = Account.of(user)
        if account.language != language:
            account.language = language
            account.save(update_fields=["language"])
            audit(event=None, actor=user, action="account.language", target=user, to=language)


def account_approve(*, user: Any, by: Actor, approved: bool = True) -> Account:
    """Gives (or withdraws) an account the right to create events, where the site requires it."""
    if by is None or not getattr(by, "is_superuser", False):
        raise Refused(_("Only an administrator may approve accounts."))
    with transaction.atomic():
        account = Account.of(user)
        account.may_create_events = approved
        account.approved_by = by if approved else None  # type: ignore[assignment]
        account.approved_at = timezone.now() if approved else None
        account.save(update_fields=["may_create_events", "approved_by", "approved_at"])
        audit(
            event=None,
            actor=by,
            action="account.approve" if approved else "account.withdraw",
            target=user,
        )
    return account
