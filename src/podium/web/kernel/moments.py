"""Moments as people read them: every date and time shown, printed, e-mailed or exported is in
the event's time zone and says which.

Vocabulary:
- moment: an aware ``datetime`` (a date alone has no zone and reads as it is).
- zone label: the short name of the zone at that moment (``CET``, ``CEST``, ``MSK``), or its
  offset from UTC where the zone has no short name (``UTC+03``); a reader never has to guess
  whether "19:30" is in Prague or in Greenwich.
- moment text: the moment in the zone, in a Django format (``DATETIME_FORMAT`` unless told;
  ``TIME_FORMAT``, ``H:i:s``…), followed by the zone label: ``Dec. 7, 2026, 7:30 p.m. CET``.
- ISO moment: ISO 8601 with the zone's offset (``2026-12-07T19:30:00+01:00``), for the API,
  the ``<time datetime>`` attribute and scripts that format the moment themselves.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

from django.utils import formats

Zone = dt.tzinfo


def zone_of(where: Any) -> Zone:
    """The zone of an event (anything with ``zone``), a zone's name, or a zone itself."""
    if isinstance(where, dt.tzinfo):
        return where
    if isinstance(where, str):
        return zoneinfo.ZoneInfo(where)
    zone = where.zone
    assert isinstance(zone, dt.tzinfo)
    return zone


def zone_label(moment: dt.datetime) -> str:
    """The zone label of an aware moment already in its zone (see the vocabulary)."""
    name = moment.tzname() or ""
    if name and name[0] not in "+-":
        return name
    offset = moment.utcoffset() or dt.timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    sign, minutes = ("+" if minutes >= 0 else "-"), abs(minutes)
    hours, rest = divmod(minutes, 60)
    return f"UTC{sign}{hours:02d}" + (f":{rest:02d}" if rest else "")


def moment_text(moment: dt.datetime | dt.date | None, where: Any, fmt: str = "") -> str:
    """The moment in the zone of ``where`` (an event, a zone or its name) with its zone label;
    a date reads in ``fmt`` (``DATE_FORMAT`` unless told); ``None`` reads as ""."""
    if moment is None:
        return ""
    if not isinstance(moment, dt.datetime):
        return formats.date_format(moment, fmt or "DATE_FORMAT")
    if moment.tzinfo is None:  # stored moments are aware; a naive one is taken as UTC
        moment = moment.replace(tzinfo=dt.UTC)
    local = moment.astimezone(zone_of(where))
    return f"{formats.date_format(local, fmt or 'DATETIME_FORMAT')} {zone_label(local)}"


def moment_iso(moment: dt.datetime | None, where: Any) -> str | None:
    """ISO 8601 with the zone's offset (see the vocabulary); ``None`` stays ``None``."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(zone_of(where)).isoformat()
