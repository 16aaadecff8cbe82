"""The standings tests' shared scenario: the cz-jigsaw event of the live standings pages
(hand-worked in ``test_standings_pages``), with its organizer, a referee and a head referee.
A module that makes its own ``cz`` uses its own.
"""

from __future__ import annotations

from typing import Any

import pytest

from podium.web.models import EventRole


@pytest.fixture
def cz(make_user: Any, make_event: Any) -> Any:
    org, ref1, ref2 = make_user("olga"), make_user("rudolf"), make_user("renata")
    event = make_event("cz-jigsaw", organizer=org, language="en")
    EventRole.objects.create(event=event, user=ref1, role=EventRole.Role.REFEREE)
    EventRole.objects.create(event=event, user=ref2, role=EventRole.Role.HEAD_REFEREE)
    return event, org, ref1, ref2
