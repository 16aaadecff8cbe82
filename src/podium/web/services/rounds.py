"""The calendar of a stage that sits in several rounds (ChGK tours): dates and host teams.

Vocabulary:
- round, host: see ``podium.web.models.rounds``. Rounds are numbered 1, 2, … in the order the
  organizer adds them; a tour's host must be a team of the stage's category.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from podium.web.models import Entry, Event, Round
from podium.web.selectors.roles import is_organizer
from podium.web.selectors.stages import has_calendar
from podium.web.services.base import Refused, audit


def round_add(
    *,
    event: Event,
    stage: str,
    starts_at: dt.datetime,
    by: Any,
    title: str = "",
    host: Entry | None = None,
    number: int | None = None,
) -> Round:
    """Adds a round to the stage's calendar (the next number unless one is given)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer of this event sets its calendar."))
        try:
            the_stage = event.rulebook.stage(stage)
        except KeyError:
            raise Refused(_("This event has no such stage."), field="stage") from None
        if not has_calendar(the_stage):
            raise Refused(
                _("%(stage)s sits once: it has no calendar.") % {"stage": the_stage.title}
            )
        if host is not None and (
            host.event_id != event.pk
            or (the_stage.category and host.category != the_stage.category)
        ):
            raise Refused(_("The host must be a team of this stage."), field="host")
        if starts_at.tzinfo is None:
            raise Refused(_("A round starts at a time with its time zone."), field="starts_at")
        taken = Round.objects.filter(event=event, stage=stage)
        number = number or (max(taken.values_list("number", flat=True), default=0) + 1)
        try:
            with transaction.atomic():
                made = Round.objects.create(
                    event=event, stage=stage, number=number, starts_at=starts_at,
                    title=title.strip(), host=host,
                )  # fmt: skip
        except IntegrityError:
            raise Refused(
                _("Round %(number)d is already on the calendar.") % {"number": number},
                field="number",
            ) from None
        audit(
            event=event, actor=by, action="round.add", target=made, stage=stage, number=number,
            starts_at=starts_at.isoformat(), host=host.number if host else None,
        )  # fmt: skip
    return made
