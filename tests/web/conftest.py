"""Web test helpers: users with roles, events from presets, and a real browser (Playwright)."""

from __future__ import annotations

import datetime as dt
import itertools
import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import translation

from podium.rules.loader import preset_text
from podium.web.live import flight, versions
from podium.web.models import Event, EventRole

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _at_commit_or_now(call: Any) -> None:
    """``versions.on_commit`` in tests: a test that runs in a transaction rolled back at its end
    never commits, so what production does on commit is done at once there; a test that really
    commits (a live server for the browser) keeps the real order."""
    connection = transaction.get_connection()
    blocks = connection.atomic_blocks
    if blocks and getattr(blocks[0], "_from_testcase", False):
        call()
    else:
        transaction.on_commit(call)


@pytest.fixture(autouse=True)
def _versions_bumped_in_test_transactions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(versions, "on_commit", _at_commit_or_now)


@pytest.fixture(autouse=True)
def _tables_rendered_at_every_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests read a table right after each write; a venue's spectators, who poll every few
    seconds, get it within ``flight.SETTLE_S`` (tested in ``test_flight.py``)."""
    monkeypatch.setattr(flight, "SETTLE_S", 0)


@pytest.fixture(autouse=True)
def _fresh_cache_and_english_afterwards() -> Iterator[None]:
    """Each test starts with an empty cache (it holds rendered tables and charts by version tag,
    and the API's rate counters; ids repeat between tests); a page activates its language in
    the test's thread, so English is left for the next test."""
    cache.clear()
    versions.forget()  # the poll gate's memo: ids and slugs repeat between tests
    yield
    translation.activate("en")


@pytest.fixture
def why() -> Any:
    """A row's reasons on a standings page, as the page's script fetches them when the row's
    name is tapped (``url``: the page; ``table``: the table's key; ``number``: the row's)."""
    from django.test import Client

    def fetch(url: str, table: str, number: int | str, client: Any = None) -> str:
        response = (client or Client()).get(f"{url}?why={table}.{number}", HTTP_HX_REQUEST="true")
        assert response.status_code == 200, f"no row {number} in table {table} of {url}"
        return str(response.content.decode())

    return fetch


@pytest.fixture
def make_user(db: None) -> Any:
    def make(username: str, password: str = "correct horse battery") -> Any:
        return get_user_model().objects.create_user(username, f"{username}@example.org", password)

    return make


@pytest.fixture
def make_event(db: None, make_user: Any) -> Any:
    def make(
        preset: str,
        *,
        slug: str | None = None,
        organizer: Any = None,
        starts_at: dt.datetime | None = None,
        status: str = Event.Status.OPEN,
        **fields: Any,
    ) -> Event:
        event = Event.objects.create(
            slug=slug or preset,
            title=fields.pop("title", preset),
            rulebook_key=preset,
            rulebook_text=preset_text(preset),
            starts_at=starts_at or dt.datetime(2026, 6, 20, 9, 0, tzinfo=dt.UTC),
            status=status,
            **fields,
        )
        if organizer is not None:
            EventRole.objects.create(event=event, user=organizer, role=EventRole.Role.ORGANIZER)
        return event

    return make


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser)."""
    # Playwright's sync API runs an event loop in this thread; the tests still use the ORM.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_context(browser: Any, live_server: Any) -> Iterator[Any]:
    """Opens browser contexts on the live server and closes them all after the test, so that
    no page keeps polling a server whose test is over."""
    opened: list[Any] = []

    def new(**options: Any) -> Any:
        options.setdefault("locale", "en-GB")
        context = browser.new_context(base_url=live_server.url, **options)
        opened.append(context)
        return context

    yield new
    for context in opened:
        context.close()


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def put_in_stage(db: None) -> Any:
    """Puts entries on a fed stage's entry list directly (as if they had advanced into it)."""
    from django.utils import timezone

    from podium.web.models import Advancement

    def put(event: Event, stage: str, *entries: Any, source: str = "qualification") -> None:
        for entry in entries:
            Advancement.objects.create(
                event=event, from_stage=source, to_stage=stage, entry=entry,
                reason="Advances (test set-up)", made_at=timezone.now(),
            )  # fmt: skip

    return put


@pytest.fixture
def add_entry(db: None) -> Any:
    """Adds a confirmed entry with one member per country given (``"CZ"``, ``"CZ/SK"``…)."""
    from podium.web.models import Entry, EntryMember, Person

    def add(event: Event, number: int, name: str, country: str = "CZ", **fields: Any) -> Entry:
        fields.setdefault("status", Entry.Status.CONFIRMED)
        fields.setdefault("category", event.rulebook.categories[0].key)
        made = Entry.objects.create(event=event, number=number, name=name, **fields)
        for i, code in enumerate(country.split("/")):
            person = Person.objects.create(first_name=name, last_name=str(i), country=code)
            EntryMember.objects.create(entry=made, person=person, captain=i == 0)
        return made

    return add


@pytest.fixture
def staff(make_user: Any) -> Any:
    """Gives users roles in an event: ``staff(event, referee="rudolf", head="renata")``."""

    def appoint(event: Event, **roles: str) -> dict[str, Any]:
        kinds = {"organizer": "organizer", "head": "head-referee", "referee": "referee"}
        users = {}
        for key, username in roles.items():
            kind = kinds[key.rstrip("0123456789")]
            user = make_user(username)
            EventRole.objects.create(event=event, user=user, role=kind)
            users[key] = user
        return users

    return appoint


@pytest.fixture
def make_club(make_event: Any, staff: Any) -> Any:
    """A ChGK club championship (deti-kolomny, Moscow time) run by ``olga`` with ``hana`` as
    head referee and ``rudolf`` as referee: confirmed teams numbered from 1, each with a captain
    "<name> Kapitanov", and ChGK tours starting at the moments given."""
    from types import SimpleNamespace

    from podium.web.chgk.services.rounds import round_add
    from podium.web.models import Entry, EntryMember, Person

    def make(names: list[str], tours: list[dt.datetime]) -> SimpleNamespace:
        event = make_event("deti-kolomny", timezone="Europe/Moscow", starts_at=tours[0])
        users = staff(event, organizer="olga", head="hana", referee="rudolf")
        teams = {}
        for number, name in enumerate(names, start=1):
            entry = Entry.objects.create(
                event=event, category="teams", number=number, name=name,
                status=Entry.Status.CONFIRMED,
            )  # fmt: skip
            captain = Person.objects.create(
                first_name=name, last_name="Kapitanov", birth_date=dt.date(1990, 1, number)
            )
            EntryMember.objects.create(entry=entry, person=captain, captain=True)
            teams[name] = entry
        for starts in tours:
            round_add(event=event, stage="chgk-tour", starts_at=starts, by=users["organizer"])
        return SimpleNamespace(
            event=event, org=users["organizer"], hana=users["head"], rudolf=users["referee"],
            teams=teams,
        )  # fmt: skip

    return make


@pytest.fixture
def sign_in(live_server: Any) -> Any:
    """Signs a user in to a Playwright browser context (the session cookie of a test login)."""
    from django.conf import settings
    from django.test import Client

    def sign(context: Any, user: Any) -> None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )

    return sign


# --- Events at a size, for the query counts ----------------------------------------------------
#
# Each builder makes one event of its preset in bulk (no per-row services) at a given size, so a
# test can read the same page at two sizes and compare the number of SQL queries. Entry numbers
# start at 1; every entry has ``members`` people (a captain first); results are recorded an
# hour after the start, checked by the head referee or a matching second entry, except the
# handful each builder leaves waiting so that the staff pages have something to list.


@pytest.fixture
def queries_of() -> Any:
    """The number of SQL queries of one GET with an empty cache (so the whole page is
    computed), asserting that it answered 200."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count(client: Any, url: str, **headers: str) -> int:
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, **headers)
        assert response.status_code == 200, (url, response.status_code)
        return len(queries)

    return count


@pytest.fixture
def queries_at(queries_of: Any) -> Any:
    """The queries of each page of an event built at two sizes: ``pages(built)`` names the
    pages, each (who reads it: a user, ``None`` or the headers of an API call; its URL); the
    answer names them too, each (queries at the small size, at the large size)."""
    from django.test import Client

    def read(who: Any, url: str) -> int:
        client = Client()
        if isinstance(who, dict):
            return int(queries_of(client, url, **who))
        if who is not None:
            client.force_login(who)
        return int(queries_of(client, url))

    def at(small: Any, large: Any, pages: Any) -> dict[str, tuple[int, int]]:
        both = zip(pages(small).items(), pages(large).values(), strict=True)
        return {name: (read(*one), read(*other)) for (name, one), other in both}

    return at


def _in_bulk(
    event: Event,
    category: str,
    count: int,
    members: int = 1,
    *,
    first: int = 1,
    fields: Any = lambda number: {},
    person: Any = lambda number, k: {},
) -> list[Any]:
    """``count`` confirmed entries numbered from ``first``, each with ``members`` people."""
    from podium.web.models import Entry, EntryMember, Person

    entries = Entry.objects.bulk_create(
        Entry(
            event=event,
            category=category,
            number=n,
            name=f"{category.title()} {n}",
            **{"status": Entry.Status.CONFIRMED, **fields(n)},
        )
        for n in range(first, first + count)
    )
    people = Person.objects.bulk_create(
        Person(first_name=f"Player{k}", last_name=f"{category} {e.number}", **person(e.number, k))
        for e in entries
        for k in range(members)
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=e, person=people[i * members + k], captain=k == 0)
        for i, e in enumerate(entries)
        for k in range(members)
    )
    return entries


def _results(
    event: Event,
    stage: str,
    rows: list[tuple[Any, dict[str, str]]],
    at: dt.datetime,
    by: Any,
    *,
    round: int = 1,
    items: list[str] | None = None,
) -> list[Any]:
    """The rows' results (entry, cells), or the items' (``items``: one per row)."""
    from podium.web.models import Result

    return Result.objects.bulk_create(
        Result(
            event=event,
            stage=stage,
            round=round,
            entry=None if items else entry,
            item=items[i] if items else "",
            cells=cells,
            recorded_by=by,
            recorded_at=at + dt.timedelta(seconds=i),
            idempotency_key=f"{stage}:{round}:{i}",
        )
        for i, (entry, cells) in enumerate(rows)
    )


def _verified(results: list[Any], by: Any, at: dt.datetime) -> None:
    from podium.web.models import Verification

    Verification.objects.bulk_create(
        Verification(result=r, verified_by=by, verified_at=at) for r in results
    )


def _published(event: Event, stage: str, by: Any, at: dt.datetime, round: int = 1) -> None:
    from podium.web.models import Publication

    Publication.objects.create(
        event=event,
        stage=stage,
        round=round,
        state=Publication.State.PRELIMINARY,
        version=1,
        changed_by=by,
        changed_at=at,
    )


def _frozen(event: Event, stage: str, by: Any, at: dt.datetime, round: int = 1) -> None:
    """The round published final, its table frozen as of ``at``, as the service freezes it."""
    from podium.web.models import Publication
    from podium.web.results.selectors.rows import serialize, standings_as_of

    table = {"as_of": at.isoformat(), "round": round}
    table |= serialize(standings_as_of(event, stage, round, at))
    for state in (Publication.State.PRELIMINARY, Publication.State.FINAL):
        Publication.objects.create(
            event=event,
            stage=stage,
            round=round,
            state=state,
            version=1,
            changed_by=by,
            changed_at=at,
            table=table if state == Publication.State.FINAL else None,
        )


def _paid(entries: list[Any], fee: str, price: str, by: Any) -> None:
    """Each entry paid the fee (``price``: "600 CZK") in cash, its number the receipt's."""
    from podium.web.models import Payment

    amount, currency = price.split()
    Payment.objects.bulk_create(
        Payment(
            entry=e,
            fee_key=fee,
            amount=amount,
            currency=currency,
            method="cash",
            receipt_number=e.number,
            received_by=by,
        )
        for e in entries
    )


def _staffed(make_event: Any, staff: Any, preset: str, tag: int, **fields: Any) -> Any:
    """The preset's event ``<preset>-<tag>`` (registration closed, in English) and its
    organizer, head referee and referee."""
    event = make_event(
        preset, slug=f"{preset}-{tag}", status=Event.Status.CLOSED, language="en", **fields
    )
    users = staff(event, organizer=f"olga{tag}", head=f"hana{tag}", referee=f"rudolf{tag}")
    return event, users["organizer"], users["head"], users["referee"]


def _day_before() -> dt.datetime:
    """A start in the past, so that every result, check and signal is in force now."""
    from django.utils import timezone

    return (timezone.now() - dt.timedelta(days=2)).replace(microsecond=0)


@pytest.fixture
def jigsaw_at(make_event: Any, staff: Any) -> Any:
    """A cz-jigsaw championship: ``entrants`` individuals in qualification groups A and B
    (every seventh from Slovakia), half of them advanced into the final (published final),
    and ``entrants`` teams of ``members`` in the team stage; the qualification and the team
    stage are preliminary; the tables drawn. Two individuals have no result yet, every sixth
    result waits for the head referee, half the individuals checked in; two pairs wait for
    approval and two individuals on the waiting list."""
    from types import SimpleNamespace

    from podium.web.draws.services import draw_make
    from podium.web.models import Advancement, Agreement, CheckIn, Signal, TableStep

    made = itertools.count(1)

    def make(entrants: int, members: int = 4) -> SimpleNamespace:
        start = _day_before()
        event, org, head, ref = _staffed(
            make_event, staff, "cz-jigsaw", next(made), starts_at=start
        )
        solo = _in_bulk(
            event,
            "individuals",
            entrants,
            fields=lambda n: {"group": "AB"[n % 2]},
            person=lambda n, k: {"country": "SK" if n % 7 == 0 else "CZ", "gender": "MF"[n % 2]},
        )
        teams = _in_bulk(
            event, "teams", entrants, members, first=10_001, person=lambda n, k: {"country": "CZ"}
        )
        _in_bulk(event, "pairs", 2, 2, first=20_001, fields=lambda n: {"status": "pending"})
        _in_bulk(
            event,
            "individuals",
            2,
            first=30_001,
            fields=lambda n: {"status": "waiting", "waiting_position": n},
        )
        draw_make(event=event, kind="tables", stage="individual-qualification", by=org, seed="q")
        for group in ("A", "B"):
            Signal.objects.create(
                event=event,
                stage="individual-qualification",
                group=group,
                kind="start",
                at=start,
                given_by=org,
            )
        done = start + dt.timedelta(hours=1)

        def time(n: int) -> dict[str, str]:
            if n % 10 == 0:
                return {"time": "", "missing": "", "pieces": str(300 + n % 100)}
            return {"time": f"0:{30 + n % 29}:{(7 * n) % 60:02d}", "missing": "", "pieces": ""}

        quali = _results(
            event, "individual-qualification", [(e, time(e.number)) for e in solo[:-2]], done, ref
        )
        Agreement.objects.bulk_create(Agreement(result=r, agreed_at=done) for r in quali)
        _verified([r for i, r in enumerate(quali) if i % 6], head, done)
        _published(event, "individual-qualification", org, done)
        finalists = solo[: entrants // 2]
        Advancement.objects.bulk_create(
            Advancement(
                event=event,
                from_stage="individual-qualification",
                to_stage="individual-final",
                entry=e,
                reason="Advances",
                made_at=done,
            )
            for e in finalists
        )
        final = _results(
            event, "individual-final", [(e, time(e.number + 1)) for e in finalists], done, ref
        )
        _verified(final, head, done)
        _frozen(event, "individual-final", org, done + dt.timedelta(minutes=30))
        team_cells = {"done": "2", "time": "2:01:00", "pieces": "", "missing": ""}
        _verified(_results(event, "team", [(t, team_cells) for t in teams], done, ref), head, done)
        TableStep.objects.bulk_create(
            TableStep(
                event=event,
                stage="team",
                entry=t,
                kind="start",
                puzzle=0,
                recorded_at=start,
                idempotency_key=f"step-{t.number}",
            )
            for t in teams
        )
        _published(event, "team", org, done)
        CheckIn.objects.bulk_create(CheckIn(entry=e, checked_in_at=start) for e in solo[::2])
        return SimpleNamespace(event=event, org=org, head=head, referee=ref)

    return make


@pytest.fixture
def club_at(make_event: Any, staff: Any, make_user: Any) -> Any:
    """A deti-kolomny season: ``teams`` teams of ``members`` (and one guest team outside the
    competition), ``tours`` weekly ChGK tours, the first half of them published final and the
    rest preliminary. Teams #1 and #2 take the same 14 questions every tour (a tie for the
    season's first place: play-off pending). Every tour: an accepted answer of #7 credited to
    #8 too, and the host's ChGK questions handed in; every open tour also: #3's second entry
    differs, #4's has none, #5's answer to question 15 is disputed, #9 appealed question 1 and
    #10 an answer to question 14 (neither decided), #11 not admitted. #6's tour 1 counts 0 (a
    sanction, its player barred), the last team withdrew after the middle tour. Brainball: the
    schedule drawn and half the first round's bouts recorded; the superfinal between #1 and #2
    with ``tours`` questions asked. Every team paid the first half's fee. At least 12 teams."""
    from types import SimpleNamespace

    from podium.web.battles.services.schedule import schedule_make
    from podium.web.models import (
        Advancement,
        Appeal,
        Ban,
        EventRole,
        Question,
        QuestionSubmission,
        Round,
        Sanction,
        SecondEntry,
        Verdict,
        Verification,
        Withdrawal,
    )
    from podium.web.results.selectors.rows import battle_item, question_item

    def mask(number: int, tour: int) -> str:
        taken = 14 if number <= 2 else 3 + (7 * number + tour) % 10
        return "1" * taken + "0" * (15 - taken)

    made = itertools.count(1)

    def make(teams: int, tours: int, members: int = 1) -> SimpleNamespace:
        start = _day_before() - dt.timedelta(days=7 * tours)
        tag = next(made)
        event, org, head, ref = _staffed(
            make_event, staff, "deti-kolomny", tag, starts_at=start, timezone="Europe/Moscow"
        )
        jury = make_user(f"jury{tag}")
        EventRole.objects.create(event=event, user=jury, role=EventRole.Role.JURY)
        entries = _in_bulk(event, "teams", teams, members, person=lambda n, k: {"country": "RU"})
        guests = _in_bulk(
            event, "teams", 1, members, first=teams + 1, fields=lambda n: {"scored": False}
        )
        by_number = {e.number: e for e in entries}
        week = dt.timedelta(days=7)
        calendar = Round.objects.bulk_create(
            Round(
                event=event,
                stage="chgk-tour",
                number=t,
                title=f"Tour {t}",
                starts_at=start + (t - 1) * week,
                host=entries[t % teams],
            )
            for t in range(1, tours + 1)
        )
        submissions = QuestionSubmission.objects.bulk_create(
            QuestionSubmission(
                event=event,
                round=t,
                entry=t.host,
                discipline="chgk",
                submitted_by=org,
                submitted_at=t.starts_at - week,
            )
            for t in calendar
        )
        Question.objects.bulk_create(
            Question(
                submission=s,
                discipline="chgk",
                number=q,
                text=f"Question {q}",
                answer="An answer",
                normalized=f"question {q}",
            )
            for s in submissions
            for q in range(1, 4)
        )
        offender = by_number[6]
        sanction = Sanction.objects.create(
            event=event,
            key="ineligible-player",
            effect="tour-result-zero",
            entry=offender,
            person=offender.members.first().person,
            stage="chgk-tour",
            round=1,
            reason="A player of another team",
            recorded_by=head,
            recorded_at=start + dt.timedelta(hours=3),
        )
        Ban.objects.create(
            person=sanction.person,
            until=start.date() + dt.timedelta(days=365),
            reason="Barred",
            event=event,
            sanction=sanction,
            created_by=head,
            created_at=sanction.recorded_at,
        )
        numbers = iter(range(1, 10_000))

        def appeal(kind: str, question: int, team: int, **fields: Any) -> Any:
            return Appeal.objects.create(
                event=event,
                rule="chgk-question",
                number=next(numbers),
                kind=kind,
                stage="chgk-tour",
                question=question,
                entry=by_number[team],
                filed_by=head,
                **fields,
            )

        for tour in range(1, tours + 1):
            played = start + (tour - 1) * week + dt.timedelta(hours=2)
            is_open = tour > tours // 2
            masks = {e.number: mask(e.number, tour) for e in entries + guests}
            if is_open:
                masks[5] = masks[5][:14] + "?"
            results = _results(
                event,
                "chgk-tour",
                [(e, {"questions": "", "mask": masks[e.number]}) for e in entries + guests],
                played,
                ref,
                round=tour,
            )
            first = {r.entry.number: r for r in results}
            misread = {"questions": "", "mask": "0" * 15}
            seconds = SecondEntry.objects.bulk_create(
                SecondEntry(
                    result=r,
                    cells=misread if is_open and n == 3 else r.cells,
                    differences=["mask"] if is_open and n == 3 else [],
                    entered_by=head,
                    entered_at=played,
                    idempotency_key=f"second-{tour}-{n}",
                )
                for n, r in first.items()
                if not (is_open and n == 4)
            )
            Verification.objects.bulk_create(
                Verification(
                    result=s.result,
                    method=Verification.Method.SECOND_ENTRY,
                    second_entry=s,
                    verified_by=head,
                    verified_at=played,
                )
                for s in seconds
                if s.matches and not (is_open and s.result.entry.number == 5)
            )
            decided = played + dt.timedelta(days=1)
            filed = {"round": tour, "filed_at": played}
            accepted = appeal("accept-answer", 15, 7, answer="Pastila", result=first[7], **filed)
            verdict = Verdict.objects.create(
                appeal=accepted,
                upheld=True,
                reasons="A better answer",
                decided_by=jury,
                decided_at=decided,
            )
            verdict.credited.add(by_number[8])
            if is_open:
                appeal("withdraw-question", 1, 9, **filed)
                appeal("accept-answer", 14, 10, answer="Kolomna", **filed)
                Sanction.objects.create(
                    event=event,
                    key="unpaid-fee",
                    effect="not-admitted",
                    entry=by_number[11],
                    stage="chgk-tour",
                    round=tour,
                    reason="Fee not paid",
                    recorded_by=org,
                    recorded_at=played - dt.timedelta(hours=3),
                )
                _published(event, "chgk-tour", org, decided, round=tour)
            else:
                _frozen(event, "chgk-tour", org, decided + dt.timedelta(hours=1), round=tour)
        leaving = entries[-1]
        Withdrawal.objects.create(
            entry=leaving,
            received_at=start + tours * week,
            statement="We stop",
            rule="withdrawal-after-middle-tour",
            before_middle=False,
            middle=tours // 2 + 1,
            recorded_by=head,
            recorded_at=start + tours * week,
        )
        draw = schedule_make(event=event, stage="brainball", by=org, seed="season")
        bouts = [b for b in draw.result["outcome"]["bouts"] if b["round"] == 1][: teams // 2]
        battles = _results(
            event,
            "brainball",
            [
                (
                    None,
                    {
                        "round": "1",
                        "team1": str(b["team1"]),
                        "team2": str(b["team2"]),
                        "score1": str(1 + b["team1"] % 5),
                        "score2": str(5 - b["team1"] % 5),
                    },
                )
                for b in bouts
            ],
            start + dt.timedelta(hours=4),
            ref,
            items=[battle_item(1, b["team1"], b["team2"]) for b in bouts],
        )
        _verified(battles[1:], head, start + dt.timedelta(hours=5))
        Advancement.objects.bulk_create(
            Advancement(
                event=event,
                from_stage=stage,
                to_stage="superfinal",
                entry=entry,
                reason="Wins",
                made_at=start,
            )
            for stage, entry in (("chgk-season", entries[0]), ("brainball", entries[1]))
        )
        asked = [
            (
                None,
                {
                    "discipline": "chgk" if q <= 12 else "brainball",
                    "1": str(q % 2),
                    "2": str(1 - q % 2),
                },
            )
            for q in range(1, tours + 1)
        ]
        _results(
            event,
            "superfinal",
            asked,
            start + dt.timedelta(hours=6),
            ref,
            items=[question_item(q) for q in range(1, tours + 1)],
        )
        for stage in ("chgk-season", "brainball", "superfinal"):
            _published(event, stage, org, start + dt.timedelta(hours=7))
        _paid(entries, "entry-first-half", "900 RUB", org)
        return SimpleNamespace(event=event, org=org, head=head, referee=ref, jury=jury, tours=tours)

    return make


@pytest.fixture
def bowling_at(make_event: Any, staff: Any) -> Any:
    """A cba-qualifier: ``players`` players over ``squads`` squads (men and women, averages from
    150 to 199, so every division), their lanes drawn per squad; six games each but the last
    three still bowling (three games), every fifth series waiting for the head referee, the
    qualification preliminary. Two protests (one upheld, one rejected and taken further), a
    warning; half the players checked in, every other paid."""
    from types import SimpleNamespace

    from podium.web.draws.services import draw_make
    from podium.web.models import (
        Appeal,
        CheckIn,
        FurtherAppeal,
        Sanction,
        Squad,
        Verdict,
    )

    def division(number: int) -> str:
        gender, average = "MF"[number % 2], 150 + number % 50
        level = "master" if average >= 190 else "standard" if average >= 165 else "amateur"
        return f"{level}-{'men' if gender == 'M' else 'women'}"

    made = itertools.count(1)

    def make(players: int, squads: int = 3) -> SimpleNamespace:
        start = _day_before()
        event, org, head, ref = _staffed(
            make_event, staff, "cba-qualifier", next(made), starts_at=start
        )
        made_squads = Squad.objects.bulk_create(
            Squad(
                event=event,
                name=f"Squad {i}",
                starts_at=start + dt.timedelta(hours=i),
                capacity=players,
            )
            for i in range(1, squads + 1)
        )
        entries = _in_bulk(
            event,
            "players",
            players,
            fields=lambda n: {"squad": made_squads[n % squads], "division": division(n)},
            person=lambda n, k: {
                "gender": "MF"[n % 2],
                "ladder_average": 150 + n % 50,
                "birth_date": dt.date(1980, 1, 1) + dt.timedelta(days=n),
                "country": "CZ",
            },
        )
        for squad in made_squads:
            pairs = -(-sum(1 for e in entries if e.squad_id == squad.pk) // 6)
            draw_make(
                event=event,
                kind="lanes",
                stage="qualification",
                by=org,
                squad=squad,
                seed=squad.name,
                lane_pairs=[(2 * i + 1, 2 * i + 2) for i in range(pairs)],
                per_pair=6,
            )

        def games(n: int, count: int) -> dict[str, str]:
            return {
                f"g{g}": str(120 + (n * 13 + g * 7) % 150) if g <= count else ""
                for g in range(1, 7)
            }

        done = start + dt.timedelta(hours=4)
        rows = [(e, games(e.number, 3 if i >= players - 3 else 6)) for i, e in enumerate(entries)]
        results = _results(event, "qualification", rows, done, ref)
        _verified([r for i, r in enumerate(results) if i % 5], head, done)
        _published(event, "qualification", org, done)
        for number, (result, upheld) in enumerate(((results[2], True), (results[5], False)), 1):
            protest = Appeal.objects.create(
                event=event,
                rule="protest",
                number=number,
                kind="protest",
                stage="qualification",
                entry=result.entry,
                result=result,
                filed_by=head,
                filed_at=done,
            )
            Verdict.objects.create(
                appeal=protest,
                upheld=upheld,
                reasons="Seen on camera",
                decided_by=head,
                decided_at=done,
            )
        FurtherAppeal.objects.create(appeal=protest, body="STK", filed_at=done, recorded_by=head)
        Sanction.objects.create(
            event=event,
            key="breach-of-duties",
            effect="warning",
            entry=entries[8],
            person=entries[8].members.first().person,
            reason="Smoking",
            recorded_by=head,
            recorded_at=done,
        )
        CheckIn.objects.bulk_create(CheckIn(entry=e, checked_in_at=start) for e in entries[::2])
        _paid(entries[::2], "entry", "600 CZK", org)
        return SimpleNamespace(event=event, org=org, head=head, referee=ref, squads=made_squads)

    return make
