"""The top bar's "my places" on every page (see ``podium.web.events.selectors.places``).

Vocabulary:
- my places: read lazily, so a page that does not draw the top bar (an export, an API answer)
  never queries for it, and a signed-in page pays one query for it.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from podium.web.events.selectors.places import my_places


def places(request: HttpRequest) -> dict[str, Any]:
    return {"my_places": SimpleLazyObject(lambda: my_places(getattr(request, "user", None)))}
