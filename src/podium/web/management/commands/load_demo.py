"""``podium manage load_demo``: the four demo events and the demo accounts (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db.models import Count

from podium.web.demo import ACCOUNTS, LOADERS, PASSWORD, load_demo
from podium.web.models import Event


class Command(BaseCommand):
    help = "Load the demo events and accounts; what already exists is left as it is."

    def handle(self, *args: Any, **options: Any) -> None:
        summary = load_demo()
        for slug in summary.created:
            self.stdout.write(f"Created demo event {slug}")
        for slug in summary.skipped:
            self.stdout.write(f"Demo event {slug} exists: left as it is")
        for note in summary.notes:
            self.stdout.write(f"Note: {note}")
        slugs = [slug for slug, _loader in LOADERS]
        events = Event.objects.filter(slug__in=slugs).annotate(n=Count("entries")).order_by("slug")
        for event in events:
            status = event.get_status_display()
            self.stdout.write(f"  /e/{event.slug}/  {event.title} — {status}, {event.n} entries")
        self.stdout.write(f"Demo accounts (password: {PASSWORD}):")
        for username, _first, _last, role in ACCOUNTS:
            self.stdout.write(f"  {username:<10} {role}")
