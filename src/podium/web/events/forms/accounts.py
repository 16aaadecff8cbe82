"""Forms of the account pages: sign-up, a throttled log-in, a password reset in the reader's
language, and the password rule against the demo's password.

Vocabulary:
- throttled log-in: the log-in form refuses, before checking the password, an account or an
  address with too many recent failures (``podium.web.events.logins``), saying when to try again.
- demo password: ``podium-demo``, published in the README for the demo's accounts (made by
  code, which keeps it); a person's own account may not use it.
"""

from __future__ import annotations

import math
from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UsernameField
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from podium.web.events import logins
from podium.web.events.selectors.accounts import language_of
from podium.web.kernel.throttle import client_address

# Published in the README for the demo's accounts (``podium.web.demo`` makes them with it).
DEMO_PASSWORD = "podium-demo"


class NotTheDemoPassword:
    """Refuses the demo's published password (any capitals, spaces around it)."""

    def validate(self, password: str, user: Any = None) -> None:
        if password.strip().casefold() == DEMO_PASSWORD:
            raise ValidationError(
                _("This password is the demo's, published for everyone; choose another."),
                code="password_is_demo",
            )

    def get_help_text(self) -> str:
        return str(_("Your password can’t be the demo’s password."))


def _try_again(wait: int) -> str:
    minutes = max(1, math.ceil(wait / 60))
    return ngettext(
        "Try again in %(minutes)d minute.", "Try again in %(minutes)d minutes.", minutes
    ) % {"minutes": minutes}


def refuse_too_often(request: HttpRequest) -> None:
    """Counts one request that sends e-mail from the client's address; too many: refused."""
    address = client_address(request)
    wait = logins.MAIL.wait(address)
    if wait:
        raise ValidationError(
            _("Too many requests from your address.") + " " + _try_again(wait), code="throttled"
        )
    logins.MAIL.fail(address)


class SignUpForm(forms.Form):
    """A user name, an e-mail address and a password twice. Unlike Django's form it never says
    whether the name is taken: ``signup_request`` tells that to the address's mailbox only."""

    username = UsernameField(
        label=_("User name"),
        max_length=150,
        validators=[get_user_model().username_validator],
        help_text=_("Up to 150 letters, digits and @ . + - _"),
    )
    email = forms.EmailField(label=_("E-mail"), max_length=254)
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        self.request = request
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        elif first:
            # Compared with the name and address typed, as Django's own form does.
            probe = get_user_model()(username=data.get("username", ""), email=data.get("email", ""))
            try:
                password_validation.validate_password(first, probe)
            except ValidationError as error:
                self.add_error("password1", error)
        if not self.errors:
            refuse_too_often(self.request)
        return data


class Throttled:
    """Log-in throttling for an ``AuthenticationForm`` (Podium's log-in and the admin's)."""

    cleaned_data: dict[str, Any]
    request: HttpRequest | None

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request) if self.request else "unknown"
        if wait := logins.ACCOUNT.wait(username):
            why = _("Too many failed log-ins for this account.")
        elif wait := logins.ADDRESS.wait(address):
            why = _("Too many failed log-ins from your address.")
        if wait:
            raise ValidationError(f"{why} {_try_again(wait)}", code="throttled")
        try:
            data: dict[str, Any] = super().clean()  # type: ignore[misc]
        except ValidationError:
            logins.ACCOUNT.fail(username)
            logins.ADDRESS.fail(address)
            raise
        logins.ACCOUNT.clear(username)
        return data


class ThrottledLoginForm(Throttled, AuthenticationForm):
    pass


class ThrottledAdminLoginForm(Throttled, AdminAuthenticationForm):
    pass


class LanguagePasswordResetForm(PasswordResetForm):
    """Django's reset form, counted per address, whose e-mail is in the account's language
    (else the page's)."""

    def __init__(self, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        self.request = request
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors and self.request is not None:
            refuse_too_often(self.request)
        return data

    def send_mail(self, *args: Any, **kwargs: Any) -> None:
        context = args[2] if len(args) > 2 else kwargs["context"]
        with translation.override(language_of(context["user"]) or translation.get_language()):
            super().send_mail(*args, **kwargs)
