"""Finding entries by name: the words of a visitor's search and the entries whose names match.

Vocabulary:
- query words: the visitor's search text (cleaned by ``podium.web.kernel.text.search_text``), split
  into words and case-folded; an entry matches when every word is part of its name or of one
  of its members' names (``nová anna`` finds Anna Nová, ``nov`` finds her too)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from podium.web.kernel.text import search_text
from podium.web.models import Entry, EntryMember, Event
from podium.web.registration.selectors.public import CategoryLists


def query_words(query: str) -> list[str]:
    return search_text(query).casefold().split()


def matches(words: list[str], names: Iterable[str]) -> bool:
    """Every query word is part of one of the names (see the vocabulary)."""
    haystack = " ".join(names).casefold()
    return all(word in haystack for word in words)


def matching_numbers(event: Event, words: list[str]) -> set[str]:
    """The numbers (as text, as table rows carry them) of the event's entries that match."""
    names: dict[int, list[str]] = defaultdict(list)
    for number, name, first, last in EntryMember.objects.filter(entry__event=event).values_list(
        "entry__number", "entry__name", "person__first_name", "person__last_name"
    ):
        names[number] += [name, f"{first} {last}"]
    for number, name in Entry.objects.filter(event=event, members=None).values_list(
        "number", "name"
    ):
        names[number].append(name)
    return {str(number) for number, found in names.items() if matches(words, found)}


def filter_lists(categories: list[CategoryLists], words: list[str]) -> int:
    """Keeps the entry lists' rows that match (in place); the number of rows kept."""
    kept = 0
    for category in categories:
        for table in category.tables:
            table.rows = [r for r in table.rows if matches(words, [r.entry.name, *r.members])]
            kept += len(table.rows)
        category.tables = [t for t in category.tables if t.rows]
        category.waiting = [
            r for r in category.waiting if matches(words, [r.entry.name, *r.members])
        ]
        kept += len(category.waiting)
    return kept
