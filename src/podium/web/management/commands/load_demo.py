"""``podium manage load_demo [--reset]``: the four demo events and the demo accounts
(idempotent; ``--reset`` wipes the demo events and loads them afresh)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Count

from podium.web.demo import LOADERS, DemoRefused, load_demo, reset_demo
from podium.web.demo.accounts import ACCOUNTS, PASSWORD
from podium.web.models import Event


class Command(BaseCommand):
    help = (
        "Load the demo events and accounts; what already exists is left as it is "
        "(--reset: wipe the demo events and load them again)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--reset", action="store_true", help="Wipe the demo events and load them again."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            summary = reset_demo() if options.get("reset") else load_demo()
        except DemoRefused as refused:
            raise CommandError(str(refused)) from None
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
