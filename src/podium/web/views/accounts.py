"""Accounts: sign up, log in, log out."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext_lazy as _

app_name = "accounts"


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(label=_("E-mail"))

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = get_user_model()
        fields = ("username", "email")


def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("home")
    return render(request, "podium/accounts/signup.html", {"form": form})


urlpatterns = [
    path("signup/", signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="podium/accounts/login.html"),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
