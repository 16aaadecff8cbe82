"""Accounts: sign up (confirmed by e-mail), log in (throttled), log out, change a password, and
reset a forgotten one by e-mail.

Vocabulary:
- the same answer: sign-up and password-reset pages answer identically whether or not the name
  or the address belongs to an account; only the e-mail to the address differs
  (``podium.web.events.services.accounts``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse, reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from podium.web.events.forms.accounts import (
    LanguagePasswordResetForm,
    SignUpForm,
    ThrottledLoginForm,
)
from podium.web.events.selectors.places import my_places
from podium.web.events.services.accounts import account_language_set, signup_confirm, signup_request
from podium.web.kernel.languages import remember
from podium.web.kernel.mail import site_url
from podium.web.kernel.refusals import Refused

app_name = "accounts"
NOTICE = "podium/accounts/notice.html"


def _link(request: HttpRequest) -> Any:
    # From the one site address, never the request's Host (a header any client writes).
    def link(name: str, *args: str) -> str:
        return site_url(reverse(name, args=args))

    return link


def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        signup_request(
            username=data["username"],
            email=data["email"],
            password=data["password1"],
            language=translation.get_language() or "en",
            link=_link(request),
        )
        return redirect("accounts:signup_sent")
    return render(request, "podium/accounts/signup.html", {"form": form})


def signup_sent(request: HttpRequest) -> HttpResponse:
    text = _(
        "We sent a message to the address you gave: it says how to go on (confirm your new "
        "account, or log in to the one you have). Nothing came within a few minutes? Look in "
        "the spam folder, or sign up again."
    )
    return render(request, NOTICE, {"title": _("Check your e-mail"), "text": text})


def confirm(request: HttpRequest, uid: str, token: str) -> HttpResponse:
    """GET shows a button and POST confirms: mail scanners that open links confirm nothing."""
    refusal = ""
    if request.method == "POST":
        try:
            user = signup_confirm(uid=uid, token=token)
        except Refused as refused:
            refusal = refused.message
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Your account is confirmed; you are logged in."))
            return redirect("home")
    return render(request, "podium/accounts/confirm.html", {"refusal": refusal})


class LoginView(auth_views.LoginView):
    form_class = ThrottledLoginForm
    template_name = "podium/accounts/login.html"

    def form_valid(self, form: Any) -> HttpResponse:
        answer = super().form_valid(form)
        language = translation.get_language() or settings.LANGUAGE_CODE
        account_language_set(user=form.get_user(), language=language)
        # The page's language goes on after the log-in, whatever address ``next`` names.
        remember(answer, language)
        return answer

    def get_default_redirect_url(self) -> str:
        # No ``next``: the person's own work, not the public list (organizer, desk, jury, entries).
        return my_places(self.request.user).landing()


class PasswordResetView(auth_views.PasswordResetView):
    form_class = LanguagePasswordResetForm
    template_name = "podium/accounts/password_reset.html"
    email_template_name = "podium/accounts/password_reset_email.txt"
    subject_template_name = "podium/accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    @property
    def extra_email_context(self) -> dict[str, str]:  # type: ignore[override]
        # The link's address is the site's (PODIUM_SITE_URL), not the request's Host.
        return {"site": site_url("")}

    def get_form_kwargs(self) -> dict[str, Any]:
        return super().get_form_kwargs() | {"request": self.request}


def _notice(title: Any, text: Any) -> dict[str, Any]:
    return {"template_name": NOTICE, "extra_context": {"title": title, "text": text}}


urlpatterns = [
    path("signup/", signup, name="signup"),
    path("signup/sent/", signup_sent, name="signup_sent"),
    path("confirm/<str:uid>/<str:token>/", confirm, name="confirm"),
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(
            template_name="podium/accounts/password_form.html",
            success_url=reverse_lazy("accounts:password_change_done"),
            extra_context={"title": gettext_lazy("Change your password")},
        ),
        name="password_change",
    ),
    path(
        "password/changed/",
        auth_views.PasswordChangeDoneView.as_view(
            **_notice(gettext_lazy("Password changed"), gettext_lazy("Your password is changed."))
        ),
        name="password_change_done",
    ),
    path("password/reset/", PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(
            **_notice(
                gettext_lazy("Check your e-mail"),
                gettext_lazy(
                    "If an account has this address, we sent it a link to choose a new "
                    "password. Nothing came within a few minutes? Look in the spam folder, "
                    "or check the address you typed."
                ),
            )
        ),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="podium/accounts/password_form.html",
            success_url=reverse_lazy("accounts:password_reset_complete"),
            extra_context={"title": gettext_lazy("Choose a new password")},
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            **_notice(
                gettext_lazy("Password changed"),
                gettext_lazy("Your new password is set; you can log in with it."),
            )
        ),
        name="password_reset_complete",
    ),
]
