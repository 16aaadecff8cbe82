"""Events and who runs them.

Vocabulary:
- event: one run of a competition under one rulebook (a preset, or a YAML document the organizer
  uploaded); the rulebook text is stored with the event, so later edits of a preset never change
  an event already created.
- role: what a user may do for ONE event: ``organizer`` (everything), ``head-referee`` (what a
  referee does, and confirms results, resolves mismatches and corrects agreed results),
  ``referee`` (results and the check-in desk), ``jury`` (ChGK appeals). Permissions never cross
  events.
"""

from __future__ import annotations

import zoneinfo
from functools import cached_property, lru_cache

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from podium.rules.loader import parse
from podium.rules.schema import Rulebook


@lru_cache(maxsize=128)
def parsed_rulebook(text: str, source: str) -> Rulebook:
    """A rulebook parsed once per process: parsing and checking one takes tens of milliseconds,
    and every request and every write of an event needs it. A rulebook is immutable, so the
    same object serves every request; a changed text is a new key."""
    return parse(text, source)


class Event(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        OPEN = "open", _("registration open")
        CLOSED = "closed", _("registration closed")
        FINISHED = "finished", _("finished")

    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=200)
    rulebook_key = models.CharField(max_length=60)
    rulebook_text = models.TextField()
    starts_at = models.DateTimeField()
    timezone = models.CharField(max_length=64, default="Europe/Prague")
    venue = models.CharField(max_length=200, blank=True)
    language = models.CharField(max_length=5, choices=settings.LANGUAGES, default="en")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at", "slug"]

    def __str__(self) -> str:
        return self.title

    @cached_property
    def rulebook(self) -> Rulebook:
        return parsed_rulebook(self.rulebook_text, f"event:{self.slug}")

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)

    @property
    def local_start(self):  # type: ignore[no-untyped-def]
        return self.starts_at.astimezone(self.zone)


class EventRole(models.Model):
    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("organizer")
        HEAD_REFEREE = "head-referee", _("head referee")
        REFEREE = "referee", _("referee")
        JURY = "jury", _("jury member")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    role = models.CharField(max_length=12, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "user", "role"], name="one_role_each")
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.role} of {self.event}"
