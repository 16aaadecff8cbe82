"""People: the data of a person, entered once and reused for every entry they are part of.

Vocabulary:
- person: someone who competes (alone, in a pair or team) or accompanies a minor. A person may
  have a user account (the participant who signs up) or not (a partner entered by them).
- country: ISO 3166 alpha-2 of the registered address, which decides who is domestic.
- ladder average: a bowler's average on the federation ladder as of the rulebook's date.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Person(models.Model):
    class Gender(models.TextChoices):
        MALE = "M", _("man")
        FEMALE = "F", _("woman")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    birth_date = models.DateField(null=True, blank=True)
    country = models.CharField(max_length=2, blank=True)
    gender = models.CharField(max_length=1, choices=Gender.choices, blank=True)
    ladder_average = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    email = models.EmailField(blank=True)

    class Meta:
        ordering = ["last_name", "first_name", "id"]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"
