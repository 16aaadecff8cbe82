"""What Podium keeps about a user account beyond Django's user.

Vocabulary:
- account: one per user, made when first needed (``Account.of``).
- language: the language of the pages the person last signed up or logged in with; e-mail to
  them (a password reset) is written in it. Empty: not known yet.
- approved: an administrator allowed the account to create events, which matters where the
  site lets only approved accounts do it (``PODIUM_EVENT_CREATORS=approved``, production's
  default); who approved it and when are kept.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Account(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="podium_account"
    )
    language = models.CharField(max_length=5, choices=settings.LANGUAGES, blank=True)
    may_create_events = models.BooleanField(_("may create events"), default=False)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return str(self.user)

    @classmethod
    def of(cls, user: Any) -> Account:
        return cls.objects.get_or_create(user=user)[0]
