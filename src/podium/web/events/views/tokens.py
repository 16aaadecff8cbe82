"""API tokens of an event: the organizer lists them, creates one (its secret shown once, on
the page that answers the creation) and revokes one.

Organizers only; anyone else gets 404.

Vocabulary:
- API token, secret, revoked, last used: see ``podium.web.models.tokens``; holder: see
  ``podium.web.events.selectors.tokens``.
- shown once: the secret is only in the answer to the creation (never stored, never in a
  redirect or the session); reloading that page asks the browser to resubmit, and a second
  active token of the same name is refused, so nothing is created twice.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.events.forms.tokens import TokenForm
from podium.web.events.selectors.tokens import event_tokens, holders
from podium.web.events.services.tokens import token_create, token_revoke
from podium.web.kernel.lookup import event_for
from podium.web.kernel.refusals import Refused, refusal_text, refuse_on
from podium.web.kernel.roles import is_organizer
from podium.web.models import ApiToken, Event, EventRole

app_name = "tokens"


def _roles(event: Event) -> dict[int, list[str]]:
    roles: dict[int, list[str]] = {}
    for role in EventRole.objects.filter(event=event):
        roles.setdefault(role.user_id, []).append(str(role.get_role_display()))
    return roles


def _page(
    request: HttpRequest,
    event: Event,
    form: TokenForm | None = None,
    created: tuple[ApiToken, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    roles = _roles(event)
    tokens = [{"token": t, "roles": roles.get(t.user_id, [])} for t in event_tokens(event)]
    context: dict[str, Any] = {
        "event": event,
        "tokens": tokens,
        "form": form or TokenForm(holders(event, request.user), initial={"user": request.user}),
        "created": created[0] if created else None,
        "secret": created[1] if created else "",
        "api_url": request.build_absolute_uri("/api/"),
        "docs_url": reverse("api:openapi-view"),
    }
    response = render(request, "podium/tokens/index.html", context, status=status)
    if created:
        response["Cache-Control"] = "no-store"  # the secret must not stay in any cache
    return response


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, event_for(request, slug, is_organizer))


@login_required
@require_POST
def create(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    form = TokenForm(holders(event, request.user), request.POST)
    if form.is_valid():
        try:
            token, secret = token_create(
                event=event, name=form.cleaned_data["name"], user=form.cleaned_data["user"],
                by=request.user,
            )  # fmt: skip
        except Refused as refused:
            refuse_on(form, refused)
        else:
            fresh = TokenForm(holders(event, request.user), initial={"user": request.user})
            return _page(request, event, fresh, created=(token, secret), status=201)
    return _page(request, event, form, status=400)


@login_required
@require_POST
def revoke(request: HttpRequest, slug: str, token_id: int) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    token = get_object_or_404(ApiToken, event=event, pk=token_id)
    try:
        token_revoke(token=token, by=request.user)
    except Refused as refused:
        messages.error(request, refusal_text(refused))
    else:
        messages.success(
            request,
            _("The token “%(name)s” is revoked: it no longer works.") % {"name": token.name},
        )
    return redirect("tokens:index", slug=event.slug)


urlpatterns = [
    path("", index, name="index"),
    path("new/", create, name="create"),
    path("<int:token_id>/revoke/", revoke, name="revoke"),
]
