"""The organizer's one action that advances entrants: from a final table into the next stage,
or the season winners into the superfinal (see ``podium.web.standings.services.advancement``).

Organizers only; anyone else gets 404. The outcome is shown on the publication page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.text import plain
from podium.web.standings.services.advancement import advance_from, superfinal_winners

app_name = "advancement"


def _back(slug: str, stage: str) -> HttpResponse:
    return redirect(reverse("publication:index", kwargs={"slug": slug}) + f"#stage-{stage}")


@login_required
@require_POST
def advance(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    the_stage = stage_or_404(event, stage)
    act = superfinal_winners if the_stage.format == "superfinal" else advance_from
    try:
        made = act(
            event=event, stage=stage, by=request.user, reason=plain(request.POST.get("reason", ""))
        )
    except Refused as refusal:
        messages.error(request, refusal_text(refusal))
    else:
        messages.success(
            request,
            _("%(n)d entrants advance: %(names)s.")
            % {"n": len(made), "names": ", ".join(f"#{a.entry.number}" for a in made[:12])}
            + (" …" if len(made) > 12 else ""),
        )
    return _back(slug, stage)


urlpatterns = [path("<slug:stage>/", advance, name="advance")]
