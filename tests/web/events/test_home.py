"""The public home page lists the events that are not drafts."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from podium.web.models import Event


@pytest.mark.django_db
def test_home_lists_public_events_only(make_event: Any) -> None:
    make_event("cz-jigsaw", title="Czech Jigsaw 2026")
    make_event("it-puzzle-party", title="Puzzle Party 2026", status=Event.Status.DRAFT)
    html = Client().get("/").content.decode()
    assert "Czech Jigsaw 2026" in html
    assert "Puzzle Party 2026" not in html
