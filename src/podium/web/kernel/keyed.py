"""Forms that a dropped connection may send twice: each carries a key made when it is shown."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms

from podium.web.kernel.text import TextForm, limit
from podium.web.models import Result


class KeyedForm(TextForm):
    """A form with a hidden idempotency key; the service records its submission once."""

    idempotency_key = forms.CharField(
        widget=forms.HiddenInput, max_length=limit(Result, "idempotency_key")
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        initial = kwargs.pop("initial", None) or {}
        initial.setdefault("idempotency_key", uuid.uuid4().hex)
        super().__init__(*args, initial=initial, **kwargs)
