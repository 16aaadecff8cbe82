"""A preset's dates moved with its event (``podium.rules.moving``): the registration window by
days from the event day, birth-date cut-offs and reference dates by whole years."""

from __future__ import annotations

import datetime as dt

from podium.rules.loader import parse, preset_text
from podium.rules.moving import moved_to


def test_the_bowling_qualifier_moved_to_2027() -> None:
    """ČBA 2012: event 24 March 2012, registration closes 16 March (8 days before), players
    born by 30 June 1999, averages from 1 July 2011. Moved to 6 March 2027: closes 26 February
    2027, born by 30 June 2014, averages from 1 July 2026."""
    text = moved_to(preset_text("cba-qualifier"), dt.date(2027, 3, 6))
    book = parse(text)
    assert book.event_date == dt.date(2027, 3, 6)
    assert book.registration.closes == dt.date(2027, 2, 26)
    assert book.registration.eligibility[0].date == dt.date(2014, 6, 30)  # type: ignore[union-attr]
    assert book.divisions is not None
    assert book.divisions.reference_date == dt.date(2026, 7, 1)
    # Only those four lines change: clauses and comments stay as written.
    changed = [
        (a, b)
        for a, b in zip(preset_text("cba-qualifier").splitlines(), text.splitlines(), strict=True)
        if a != b
    ]
    assert len(changed) == 4


def test_the_puzzle_party_window_keeps_its_days_before_the_event() -> None:
    """24 May 2026, window 23 April – 21 May (31 and 3 days before); on 6 March 2027 the
    window is 3 February – 3 March 2027."""
    book = parse(moved_to(preset_text("it-puzzle-party"), dt.date(2027, 3, 6)))
    assert (book.registration.opens, book.registration.closes) == (
        dt.date(2027, 2, 3),
        dt.date(2027, 3, 3),
    )


def test_a_rulebook_without_an_event_day_gets_the_events() -> None:
    text = preset_text("cz-jigsaw")
    assert parse(text).event_date is None
    assert parse(moved_to(text, dt.date(2027, 6, 19))).event_date == dt.date(2027, 6, 19)
    same = preset_text("it-puzzle-party")
    assert moved_to(same, dt.date(2026, 5, 24)) == same


def test_a_29_february_cut_off_moves_to_the_28th_in_a_common_year() -> None:
    text = preset_text("cba-qualifier").replace("date: 1999-06-30", "date: 2000-02-29")
    book = parse(moved_to(text, dt.date(2013, 3, 24)))
    assert book.registration.eligibility[0].date == dt.date(2001, 2, 28)  # type: ignore[union-attr]
