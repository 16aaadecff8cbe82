"""Import forms: the uploads, the column mapping of an entrants sheet, and the confirmation.

Vocabulary:
- upload: the file, and for results the stage and round it is for (``<stage>:<round>``).
- mapping form: one choice per column of the sheet (``col-<index>``), its initial value the
  field guessed from the header, and the category of rows that do not name one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from podium.rules.schema.registration import Category
from podium.web.files import fields as F
from podium.web.kernel.text import TextForm
from podium.web.kernel.texts import rt
from podium.web.readers.tables import MAX_BYTES, Sheet, too_large


class UploadForm(TextForm):
    file = forms.FileField(label=gettext_lazy("File"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:  # its declared size: refused before it is read
            raise forms.ValidationError(too_large(upload.size))
        return upload


class RoundUploadForm(UploadForm):
    """A results file for one round of one stage, chosen from ``rounds``."""

    target = forms.ChoiceField(label=gettext_lazy("Stage and round"))

    def __init__(self, rounds: Sequence[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = list(rounds)
        self.order_fields(["target", "file"])

    def stage_round(self) -> tuple[str, int]:
        stage, _sep, number = self.cleaned_data["target"].rpartition(":")
        return stage, int(number)


class MappingForm(TextForm):
    def __init__(
        self,
        sheet: Sheet,
        members: int,
        categories: Sequence[Category],
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.sheet = sheet
        options = F.choices(members)
        guessed = F.guess_mapping(sheet.header, members)
        for index, header in enumerate(sheet.header):
            self.fields[f"col-{index}"] = forms.ChoiceField(
                label=header or _("(no name)"),
                choices=options,
                required=False,
                initial=guessed.get(index, ""),
            )
        self.fields["category"] = forms.ChoiceField(
            label=_("Category of rows without one"),
            choices=[("", _("— from the column mapped to “Category” —"))]
            + [(c.key, rt(c.title)) for c in categories],
            required=False,
            initial=categories[0].key if len(categories) == 1 else "",
        )

    def columns(self) -> list[tuple[int, forms.BoundField, list[str]]]:
        """Each column: its index, its field, and its first values (a sample)."""
        sample = [cells for _n, cells in self.sheet.rows[:4]]
        return [
            (i, self[f"col-{i}"], [c[i] for c in sample]) for i in range(len(self.sheet.header))
        ]

    def mapping(self) -> dict[int, str]:
        return {
            i: self.cleaned_data.get(f"col-{i}") or ""
            for i in range(len(self.sheet.header))
            if self.cleaned_data.get(f"col-{i}")
        }


class ConfirmForm(TextForm):
    reason = forms.CharField(
        label=gettext_lazy("Reason for correcting results already recorded"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    skip_unmatched = forms.BooleanField(
        label=gettext_lazy("Import without the teams that are not entries of this stage"),
        required=False,
    )
