"""Question forms: a packet handed in, a replacement, the coordinator's choices, an import.

Vocabulary:
- packet: a text in the packet notation (see ``podium.web.chgk.packets``); the forms only carry
  it, the service parses it and names every bad line.
- import file: a plain-text file in the same notation, UTF-8 (or Windows-1251, the usual
  encoding of older Russian packets, or UTF-16 as Windows Notepad saves "Unicode", with or
  without its byte-order mark).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from podium.web.kernel.text import TextForm, limit
from podium.web.models import Question
from podium.web.readers.tables import utf16_text

IMPORT_MAX_BYTES = 2_000_000

PACKET_HELP = gettext_lazy(
    "One question after another: “1. text”, then lines “Ответ: …”, and if needed “Зачёт: …”, "
    "“Незачёт: …”, “Комментарий: …”, “Источник: …”, “Автор: …” (English labels work too). "
    "Lines starting with “#” are titles."
)


def _packet_field(rows: int = 16) -> forms.CharField:
    return forms.CharField(
        label=gettext_lazy("Questions"),
        help_text=PACKET_HELP,
        strip=False,
        widget=forms.Textarea(attrs={"rows": rows, "spellcheck": "false"}),
    )


class SubmitForm(TextForm):
    discipline = forms.ChoiceField(label=gettext_lazy("Discipline"))
    packet = _packet_field()
    consent = forms.BooleanField(
        label=gettext_lazy(
            "The authors agree that these questions enter the public database right after "
            "the tour (otherwise a year after it)"
        ),
        required=False,
    )
    note = forms.CharField(
        label=gettext_lazy("Note to the coordinator (optional)"), required=False, max_length=2000
    )

    def __init__(self, choices: Sequence[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["discipline"].choices = list(choices)
        if len(choices) == 1:
            self.fields["discipline"].initial = choices[0][0]


class ReplacementForm(TextForm):
    packet = _packet_field(rows=6)


class AskForm(TextForm):
    note = forms.CharField(
        label=gettext_lazy("Why (published before where, or what is wrong)"), max_length=2000
    )


class SelectForm(TextForm):
    questions = forms.TypedMultipleChoiceField(
        label=gettext_lazy("Packet"), coerce=int, required=False,
        widget=forms.CheckboxSelectMultiple,
    )  # fmt: skip

    def __init__(self, ids: Sequence[int], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["questions"].choices = [(str(i), str(i)) for i in ids]


class DisqualifyForm(TextForm):
    reason = forms.CharField(
        label=gettext_lazy("What else to record (optional)"), required=False, max_length=2000
    )
    confirm = forms.BooleanField(
        label=gettext_lazy(
            "I confirm: the team and every player it registered before the tour are banned "
            "until the end of the next season"
        )
    )


class ImportForm(TextForm):
    discipline = forms.ChoiceField(label=gettext_lazy("Discipline"))
    file = forms.FileField(label=gettext_lazy("Packet file (plain text)"), help_text=PACKET_HELP)
    source = forms.CharField(
        label=gettext_lazy("Source (tournament, site)"), max_length=limit(Question, "source")
    )
    played_on = forms.DateField(
        label=gettext_lazy("Played on"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    consent = forms.BooleanField(
        label=gettext_lazy("The authors agree to publication now"), required=False
    )

    def __init__(self, choices: Sequence[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["discipline"].choices = list(choices)

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        if upload.size > IMPORT_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(mb)d MB.") % {"mb": IMPORT_MAX_BYTES // 1_000_000}
            )
        raw = upload.read()
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with its byte-order mark
            try:
                return raw.decode("utf-16")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("This is not a text file.")) from None
        if b"\x00" in raw:
            # Notepad's "Unicode" without a byte-order mark, or no text at all.
            text = utf16_text(raw)
            if text is None:
                raise forms.ValidationError(_("This is not a text file."))
            return text
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            return raw.decode("cp1251", errors="replace")
