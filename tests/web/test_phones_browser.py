"""Every page a participant, referee, head referee or juror opens in the demo, on a 360 px
phone: the page never scrolls sideways, and what a thumb hits in a form (buttons, links,
menus) is at least 44 px each way.

Each person signs in and the browser follows the links of each page (inside the places their
role opens) from where they start, one page of each kind: the same page for another entry,
squad, tour or game is the same template.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from podium.web.demo import load_demo

PHONE = {"width": 360, "height": 740}
TARGET = 44

# What each person opens first, and the paths their links may lead to.
WALKS = {
    "player": (
        ["/me/entries/", "/e/cz-jigsaw-2027/", "/e/puzzle-party/", "/e/cba-kvalifikace-2012/"],
        ("/me/", "/appeals/"),
    ),
    "referee": (["/desk/"], ("/desk/",)),
    "head": (["/desk/"], ("/desk/",)),
    "jury": (["/jury/deti-kolomny-xv/"], ("/jury/",)),
}

MEASURE = """(min) => {
  const small = [];
  const hit = 'main form button, main form a, main form select, main form summary, '
    + 'main form input[type=submit], main a.button, main summary, header.top summary';
  for (const el of document.querySelectorAll(hit)) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;  // not shown
    if (box.width < min || box.height < min) {
      const text = (el.textContent || el.value || '').trim().slice(0, 30);
      small.push(`${el.tagName} "${text}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  return {width: document.documentElement.scrollWidth, small: small};
}"""


def _bare(path: str) -> str:
    """The path without its language prefix (an event's pages link in the event's language)."""
    return re.sub(r"^/(cs|it|ru|en)/", "/", path)


def _shape(path: str) -> str:
    """A page's kind: its path with the numbers out (entries, squads, tours, games)."""
    return re.sub(r"/\d+/", "/N/", _bare(path))


def walk(page: Any, starts: list[str], inside: tuple[str, ...]) -> dict[str, Any]:
    """Path → what was measured there, for one page of each kind reachable from ``starts``."""
    seen: dict[str, Any] = {}
    kinds: set[str] = set()
    queue = list(starts)
    while queue:
        path = queue.pop(0)
        if path in seen:
            continue
        answer = page.goto(path)
        seen[path] = {"status": answer.status, **page.evaluate(MEASURE, TARGET)}
        for href in page.eval_on_selector_all("main a[href]", "a => a.map(e => e.pathname)"):
            if (
                _bare(href).startswith(inside)
                and _shape(href) not in kinds
                and "/export/" not in href
            ):
                kinds.add(_shape(href))
                queue.append(href)
    return seen


@pytest.mark.django_db(transaction=True)
def test_no_page_of_a_participant_or_referee_scrolls_sideways_at_360_px(
    new_context: Any, sign_in: Any
) -> None:
    load_demo()
    users = get_user_model().objects
    problems = []
    visited = {}
    for username, (starts, inside) in WALKS.items():
        context = new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        sign_in(context, users.get(username=username))
        page = context.new_page()
        measured = walk(page, starts, inside)
        visited[username] = {_bare(path) for path in measured}
        for path, m in measured.items():
            if m["status"] != 200:
                problems.append(f"{username} {path}: HTTP {m['status']}")
            if m["width"] > PHONE["width"]:
                problems.append(f"{username} {path}: {m['width']} px wide")
            problems += [f"{username} {path}: {s} (under {TARGET} px)" for s in m["small"]]
        page.goto("/me/entries/")
        page.screenshot(path=f"/tmp/podium-phone-{username}.png", full_page=True)
    assert problems == [], "\n".join(problems)

    # The walks reached the pages the demo has for each (not a login page and stop).
    def reached(username: str, *kinds: str) -> bool:
        return all(any(p.startswith(k) for p in visited[username]) for k in kinds)

    assert reached("player", "/me/register/puzzle-party/", "/me/entries/")
    assert any(p.endswith("/cancel/") for p in visited["player"])
    assert reached(
        "referee", "/desk/cz-jigsaw-2027/results/individual-qualification/1/",
        "/desk/deti-kolomny-xv/chgk/chgk-tour/", "/desk/cba-kvalifikace-2012/bowling/squads/",
        "/desk/deti-kolomny-xv/battles/brainball/", "/desk/cba-kvalifikace-2012/protests/",
        "/desk/puzzle-party/",
    )  # fmt: skip
    assert reached("head", "/desk/cz-jigsaw-2027/checks/", "/desk/deti-kolomny-xv/checks/")
    assert reached("jury", "/jury/deti-kolomny-xv/")
    assert len(visited["head"]) > len(visited["referee"]) >= 25


@pytest.mark.django_db(transaction=True)
def test_the_phone_menu_opens_on_a_tap_and_leads_to_the_desks(
    new_context: Any, sign_in: Any
) -> None:
    load_demo()
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    sign_in(context, get_user_model().objects.get(username="head"))
    page = context.new_page()
    page.goto("/")
    assert page.get_by_role("link", name="Organize", exact=True).is_hidden()  # in the menu
    menu = page.locator("details.places")
    menu.locator("summary").tap()
    checks = menu.locator('a[href="/desk/deti-kolomny-xv/checks/"]')
    assert checks.is_visible()
    assert checks.bounding_box()["height"] >= TARGET
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path="/tmp/podium-phone-menu.png")
    with page.expect_navigation():
        checks.tap()
    assert page.locator("h1").inner_text() == "Checks"
