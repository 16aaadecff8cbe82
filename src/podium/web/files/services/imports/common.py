"""What the three imports share: problems by row and column, a preview that is rolled back,
and the organizer's lock and guard (see ``podium.web.files.services.imports``)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.engine.errors import InputError
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.texts import problem_text, shown_value
from podium.web.models import AuditEntry, Event
from podium.web.readers.tables import Sheet, column_letter

T = TypeVar("T")
ACTIONS = ("record", "correct", "unchanged", "recorded", "corrected", "skipped")
_WHERE = re.compile(r"^row (\d+)(?:, column (.+))?$")


@dataclass(frozen=True)
class Issue:
    row: int | None
    column: str
    message: str

    def __str__(self) -> str:
        where = []
        if self.row is not None:
            where.append(_("row %(row)d") % {"row": self.row})
        if self.column:
            where.append(_("column “%(column)s”") % {"column": self.column})
        return f"{', '.join(where)}: {self.message}" if where else self.message


class Checked:
    """What every import's plan has: the problems of the whole file and of each of its rows."""

    general: list[Issue]
    rows: Sequence[Any]

    @property
    def issues(self) -> list[Issue]:
        return self.general + [i for r in self.rows for i in r.issues]

    @property
    def ok(self) -> bool:
        return not self.issues


class ImportRefused(Refused):
    """An import refused as a whole: ``issues`` lists every problem, nothing was saved."""

    def __init__(self, issues: Sequence[Issue]):
        self.issues = tuple(sorted(issues, key=lambda i: (i.row is not None, i.row or 0)))
        n = len(self.issues)
        message = ngettext(
            "Nothing was imported: the file has %(n)d problem.",
            "Nothing was imported: the file has %(n)d problems.",
            n,
        ) % {"n": n}
        super().__init__(message, field="file")


class _Rollback(Exception):
    """Ends a preview's transaction, so nothing it wrote is kept."""


def dry_run(work: Callable[[], T]) -> T:
    done: list[T] = []
    try:
        with transaction.atomic():
            done.append(work())
            raise _Rollback
    except _Rollback:
        pass
    return done[0]


def guard(event: Event, by: Any) -> None:
    if not is_organizer(by, event):
        raise Refused(_("Only an organizer of this event may import."))


def once(event: Event, action: str, token: str) -> None:
    """Refuses an upload imported before (a second click, or the page sent again)."""
    if not token:
        raise Refused(_("This upload has no token; upload the file again."))
    if AuditEntry.objects.filter(event=event, action=action, data__token=token).exists():
        raise Refused(_("This file was already imported."))


def column(sheet: Sheet, index: int) -> str:
    return sheet.header[index] or _("column %(letter)s") % {"letter": column_letter(index)}


def extra_cells(sheet: Sheet, row: int) -> Issue | None:
    count = sheet.extra.get(row, 0)
    if not count:
        return None
    return Issue(
        row,
        "",
        ngettext(
            "%(n)d cell is filled beyond the header's last column.",
            "%(n)d cells are filled beyond the header's last column.",
            count,
        )
        % {"n": count},
    )


def engine_issues(exc: InputError) -> tuple[dict[int, list[Issue]], list[Issue]]:
    """The engine's problems by row (the file's row numbers), and those of no row."""
    by_row: dict[int, list[Issue]] = defaultdict(list)
    general: list[Issue] = []
    for problem in exc.problems:
        where = _WHERE.match(problem.where)
        if where:
            row = int(where.group(1))
            by_row[row].append(Issue(row, where.group(2) or "", shown_value(problem.message)))
        else:
            general.append(Issue(None, "", problem_text(problem)))
    return by_row, general
