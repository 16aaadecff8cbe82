"""E-mail to the people of an entry about what happened to it: registration received (confirmed,
awaiting approval or on the waiting list), approved, moved up from the waiting list (with the day
by which to give the place back free of charge) and cancelled (with the refund and what is
still owed). How a message is composed, in whose language, and sent: ``podium.web.kernel.mail``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.utils import formats

from podium.web.kernel.mail import send
from podium.web.kernel.moments import moment_text
from podium.web.kernel.texts import money
from podium.web.models import Cancellation, Entry


def registered(entry: Entry) -> None:
    send("registered", lambda: [entry], lambda e: {})


def approved(entry: Entry) -> None:
    send("approved", lambda: [entry], lambda e: {})


def promoted(
    entry: Entry, *, reason: Callable[[], str], free_until: dt.date | None, starts: dt.datetime
) -> None:
    """``reason``: why, made in the active language; ``free_until``: the last day a
    cancellation is refunded in full (``None``: no such day is left); ``starts``: the start
    the place is for (the event's, or the squad's)."""

    def context(_entry: Entry) -> dict[str, Any]:
        return {
            "reason": reason(),
            "free_until": formats.date_format(free_until, "DATE_FORMAT") if free_until else "",
            "starts": moment_text(starts, entry.event),
        }

    send("promoted", lambda: [entry], context)


def cancelled(entry: Entry, cancellation: Cancellation, *, reason: Callable[[], str]) -> None:
    """``reason``: the terms' reason, made in the active language."""

    def context(_entry: Entry) -> dict[str, Any]:
        currency = cancellation.currency
        return {
            "refund": money(cancellation.refund, currency) if currency else "",
            "owed": money(cancellation.owed, currency) if currency and cancellation.owed else "",
            "reason": reason(),
            "clause": cancellation.clause,
        }

    send("cancelled", lambda: [entry], context)
