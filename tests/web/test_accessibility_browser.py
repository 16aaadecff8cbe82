"""Every kind of page of the four demo events, for the people who use them, passes axe-core
(WCAG 2.2 AA) on a desktop screen and on a 360 px phone, with every target at least 24 × 24 px
(WCAG 2.2, 2.5.8) and no sideways scrolling on the phone.

Each person starts where their work is and the browser follows the links of each page (inside
the places their role opens), one page of each kind: the same page for another entry, squad,
tour or game is the same template. A kind seen by one person is not opened again by the next.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from tests.web.test_phones_browser import MEASURE as PHONE_MEASURE
from tests.web.test_phones_browser import _bare, _shape

from podium.web.demo import load_demo

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}
TARGET = 24
EVENTS = ["cz-jigsaw-2027", "puzzle-party", "cba-kvalifikace-2012", "deti-kolomny-xv"]

# Who walks (None: nobody signed in), where they start, and the paths their links may lead to.
WALKS: list[tuple[str | None, list[str], tuple[str, ...]]] = [
    (None, ["/", *(f"/e/{slug}/" for slug in EVENTS), "/accounts/login/", "/accounts/signup/",
            "/accounts/password/reset/", "/no/such/page/"],
     ("/e/", "/standings/", "/prizes/", "/draws/")),
    ("organizer", ["/organize/"], ("/organize/", "/draws/", "/questions/", "/appeals/")),
    ("head", ["/desk/"], ("/desk/",)),
    ("referee", ["/desk/"], ("/desk/",)),
    ("player", ["/me/entries/"], ("/me/", "/appeals/")),
    ("jury", ["/jury/deti-kolomny-xv/"], ("/jury/",)),
]  # fmt: skip

# The results console and the check-in desk are tested in their own domains' browser tests.
ELSEWHERE = re.compile(r"^/desk/[^/]+/(results/[^/]+/\d+/|$)")

# Every target on the page, not only a form's (the phone walk's own measure, at 24 px).
MEASURE = PHONE_MEASURE.replace(
    "'main form button, main form a, main form select, main form summary, '\n"
    "    + 'main form input[type=submit], main a.button, main summary, header.top summary'",
    "'a[href], button, select, summary, input:not([type=hidden]), textarea'",
)
assert MEASURE != PHONE_MEASURE, "the phone walk's measure changed: update the selector here"


def _links(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("main a[href]", "a => a.map(e => e.pathname)"))


def _check(page: Any, axe: Any, path: str, label: str, phone: bool) -> list[str]:
    answer = page.goto(path)
    if answer is not None and answer.status >= 500:
        return [f"{label} {path}: HTTP {answer.status}"]
    if answer is not None and "text/html" not in answer.headers.get("content-type", ""):
        return []  # a file the page offers (JSON, CSV): not a page
    problems = [f"{label} {path}: {v}" for v in axe(page)]
    if phone:
        measured = page.evaluate(MEASURE, TARGET)
        if measured["width"] > PHONE["width"]:
            problems.append(f"{label} {path}: {measured['width']} px wide")
        problems += [f"{label} {path}: {s} (under {TARGET} px)" for s in measured["small"]]
    return problems


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_page_kind_passes_axe_on_a_desktop_and_a_phone(
    new_context: Any, sign_in: Any, axe: Any
) -> None:
    load_demo()
    users = get_user_model().objects
    problems: list[str] = []
    kinds: set[str] = set()
    visited: dict[str | None, list[str]] = {}
    for username, starts, inside in WALKS:
        desktop = new_context(viewport=DESKTOP)
        phone = new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        if username:
            for context in (desktop, phone):
                sign_in(context, users.get(username=username))
        wide, narrow = desktop.new_page(), phone.new_page()
        queue, visited[username] = list(starts), []
        while queue:
            path = queue.pop(0)
            visited[username].append(path)
            label = username or "anonymous"
            problems += _check(wide, axe, path, f"{label} desktop", phone=False)
            links = _links(wide)
            problems += _check(narrow, axe, path, f"{label} phone", phone=True)
            for href in links:
                kind = _shape(href)
                if (
                    _bare(href).startswith(inside)
                    and kind not in kinds
                    and "/export/" not in href
                    and not ELSEWHERE.match(_bare(href))
                ):
                    kinds.add(kind)
                    queue.append(href)
    print(f"{sum(map(len, visited.values()))} pages, each at two sizes")
    assert problems == [], "\n".join(problems)
    # The walks reached each person's pages (not a log-in page and stop).
    assert len(visited["organizer"]) > 20
    assert any("/chgk/" in p for p in visited["referee"] + visited["head"])
    assert any("/checks/" in p for p in visited["head"])
