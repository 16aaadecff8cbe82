"""The API's URLs, mounted at ``api/`` (outside the language prefixes): the operations, the
OpenAPI document and its page, a JSON index at the root, and a JSON 404 for any other path
(a program never gets an HTML page from the API).

Vocabulary:
- index: ``GET /api/`` — where the OpenAPI document, its page and the first list are.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.urls import path, re_path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from podium.web.api import api
from podium.web.kernel.errors import body


@csrf_exempt
@require_safe
def index(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {
            "openapi": reverse("api:openapi-json"),
            "docs": reverse("api:openapi-view"),
            "events": reverse("api:events_list"),
        }
    )


@csrf_exempt  # a program posting to a wrong path gets the JSON 404, not the CSRF page
def unknown(request: HttpRequest, rest: str = "") -> JsonResponse:
    return JsonResponse(body("not-found", _("Not found.")), status=404)


urlpatterns = [
    path("", index, name="api-index"),
    path("", api.urls),
    re_path(r"^(?P<rest>.*)$", unknown),
]
