"""A static copy of the public results, for any static host or object store: ``podium publish``.

Vocabulary:
- copy folder: the folder the copy is written to (served by a static host, or synced to an
  object store); its paths are the site's own, so the copied pages poll their copied tables.
- piece: one file of the copy, made by asking Podium itself as an anonymous visitor (the same
  bytes the site serves): per public round its page (``standings/<event>/<stage>/<round>/
  index.html``), its polled table (``…/<round>/table/index.html``) and the API's standings
  (``api/events/<event>/stages/<stage>/rounds/<round>/standings.json``); per event its stages
  (``api/events/<event>/stages.json``); and ``published.json``: when each event's copy was made
  (its as-of time) and the version tag of each stage it holds.
- as-of line: the time a round's copy was made, written into its page and table, so a
  spectator who keeps an old copy (the venue's line dropped) sees how old it is.
- new version: a stage whose version tag (``podium.web.live.versions``) is not the one in
  ``published.json``; only such stages are asked again, and only files whose bytes changed are
  written, each atomically (a temporary file in the same folder, then a rename).
- watch: publish, then again whenever a stage has a new version; a copy that cannot be written
  (the folder's mount or line is gone) is tried again at the next turn, until it goes out.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.test import Client
from django.utils import formats, timezone, translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from podium.web.kernel.lookup import public_events
from podium.web.live import versions
from podium.web.models import Event

MANIFEST = "published.json"
MARK = '<section id="standings"'
POLLED = re.compile(r'<section id="standings"[^>]*\shx-get="(/[-a-z0-9/_]+/)"')


@dataclass
class Published:
    """What one turn did: the files written, how many were already current, and the failures."""

    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    failed: list[str] = field(default_factory=list)


def write_atomically(path: Path, data: bytes) -> bool:
    """Writes ``data`` to ``path`` unless it already holds them; ``True`` when written."""
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".publish-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.chmod(temporary, 0o644)  # readable by the web server, as any published file
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return True


def _host() -> str:
    return next((h for h in settings.ALLOWED_HOSTS if h and h[0] not in ".*"), "localhost")


def as_of_line(event: Event, now: dt.datetime) -> str:
    with translation.override(event.language):
        moment = formats.date_format(timezone.localtime(now, event.zone), "DATETIME_FORMAT")
        text = _("Results as of %(time)s") % {"time": moment}
    return f'<p class="as-of" role="status">{escape(text)}</p>'


def with_as_of(html: bytes, line: str) -> bytes:
    """The page or table with the as-of line first inside its standings section."""
    text = html.decode()
    start = text.find(MARK)
    if start < 0:
        return html
    end = text.index(">", start) + 1
    return (text[:end] + line + text[end:]).encode()


def _polled(table: bytes) -> str | None:
    """The address a round's table is polled at (its ``hx-get``)."""
    found = POLLED.search(table[:2000].decode(errors="replace"))
    return found[1] if found else None


def _pieces(client: Client, event: Event, now: dt.datetime) -> dict[str, bytes]:
    """The files of an event's copy, by path (the site's addresses in the event's language)."""
    base = f"/api/events/{event.slug}"
    stages = client.get(f"{base}/stages")
    if stages.status_code != 200:
        return {}
    pieces = {f"{base[1:]}/stages.json": stages.content}
    line = as_of_line(event, now)
    prefix = "" if event.language == settings.LANGUAGE_CODE else f"/{event.language}"
    for stage in json.loads(stages.content):
        for round in (r for r in stage["rounds"] if r["visible"]):
            where = f"{event.slug}/{stage['key']}/{round['number']}"
            api = client.get(f"{base}/stages/{stage['key']}/rounds/{round['number']}/standings")
            page = client.get(f"{prefix}/standings/{where}/")
            table = client.get(f"{prefix}/standings/{where}/table/")
            polled = _polled(table.content)
            if polled is None or any(a.status_code != 200 for a in (api, page, table)):
                continue  # not public (yet)
            pieces[f"{base[1:]}/stages/{stage['key']}/rounds/{round['number']}/standings.json"] = (
                api.content
            )
            pieces[f"{prefix[1:]}/standings/{where}/index.html".lstrip("/")] = with_as_of(
                page.content, line
            )
            pieces[f"{polled.strip('/')}/index.html"] = with_as_of(table.content, line)
    return pieces


def tags_of(event: Event) -> dict[str, str]:
    return {stage.key: versions.stage_tag(event.slug, stage) for stage in event.rulebook.stages}


def read_manifest(folder: Path) -> dict[str, Any]:
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return {"events": {}}
    return manifest if isinstance(manifest.get("events"), dict) else {"events": {}}


def publish(
    folder: Path, slugs: Iterable[str] = (), now: Callable[[], dt.datetime] = timezone.now
) -> Published:
    """One turn: every public event (or those of ``slugs``) whose stages have a new version is
    copied into ``folder`` (see the vocabulary)."""
    done = Published()
    manifest = read_manifest(folder)
    events = public_events()
    if slugs:
        events = events.filter(slug__in=list(slugs))
    client = Client(SERVER_NAME=_host())
    for event in events:
        tags = tags_of(event)
        if manifest["events"].get(event.slug, {}).get("tags") == tags:
            continue
        moment = now()
        pieces = _pieces(client, event, moment)
        try:
            for path, data in pieces.items():
                if write_atomically(folder / path, data):
                    done.written.append(path)
                else:
                    done.unchanged += 1
        except OSError as error:
            done.failed.append(f"{event.slug}: {error}")
            continue  # its tags stay old: the next turn tries again
        manifest["events"][event.slug] = {"as_of": moment.isoformat(), "tags": tags}
        data = json.dumps(manifest, indent=1, sort_keys=True).encode()
        try:
            write_atomically(folder / MANIFEST, data)
        except OSError as error:
            done.failed.append(f"{MANIFEST}: {error}")
    return done


def watch(
    folder: Path,
    slugs: Iterable[str] = (),
    interval: float = 3.0,
    turns: int = 0,
    report: Callable[[Published], None] = lambda done: None,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Publishes, then again every ``interval`` seconds when a stage has a new version (see the
    vocabulary); ``turns`` bounds the turns (0: until stopped)."""
    turn = 0
    while True:
        report(publish(folder, slugs))
        turn += 1
        if turns and turn >= turns:
            return
        sleep(interval)
