"""The rules page says who confirms the results where the rulebook names them
(``recording.confirmed_by``), with the clause it cites; silent rulebooks keep Podium's default
(a head referee or an organizer) without a line of their own."""

from __future__ import annotations

from typing import Any

from django.test import Client


def test_the_rules_page_names_who_confirms(make_event: Any) -> None:
    event = make_event("cz-jigsaw", language="en")
    page = Client().get(f"/e/{event.slug}/rules/").content.decode()
    assert "Who confirms the results" not in page
    event.rulebook_text = event.rulebook_text.replace(
        "verification: head-referee",
        "verification: head-referee\n      confirmed_by: [head-referee, jury]\n"
        "      confirmation_clause: 'Čl. 9: výsledky potvrzuje porota'",
    )
    event.save()
    page = Client().get(f"/e/{event.slug}/rules/").content.decode()
    assert "Who confirms the results: head referee or jury member." in page
    assert "Čl. 9: výsledky potvrzuje porota" in page
