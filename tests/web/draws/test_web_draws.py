"""Draws: services (seed recorded, reproducible, applied, refused) and pages (who sees what)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from podium.engine.draws import ALGORITHM
from podium.web.draws.services import draw_make, draw_rerun, parse_lane_pairs
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Draw, Entry, EntryMember, Event, Person, Squad

pytestmark = pytest.mark.django_db


def enter(
    event: Event,
    number: int,
    *,
    category: str,
    country: str = "CZ",
    status: str = Entry.Status.CONFIRMED,
    squad: Squad | None = None,
    scored: bool = True,
) -> Entry:
    person = Person.objects.create(first_name=f"P{number}", last_name="Test", country=country)
    entry = Entry.objects.create(
        event=event,
        category=category,
        name=f"Player {number}",
        number=number,
        status=status,
        squad=squad,
        scored=scored,
    )
    EntryMember.objects.create(entry=entry, person=person)
    return entry


@pytest.fixture
def organizer(make_user: Any) -> Any:
    return make_user("org")


@pytest.fixture
def jigsaw(make_event: Any, organizer: Any) -> Event:
    """cz-jigsaw with registration closed: 10 individuals, numbers 1–10; 3 and 7 foreign."""
    event = make_event("cz-jigsaw", organizer=organizer, status=Event.Status.CLOSED)
    for n in range(1, 11):
        enter(event, n, category="individuals", country="SK" if n in (3, 7) else "CZ")
    enter(event, 11, category="individuals", status=Entry.Status.CANCELLED)
    return event


@pytest.fixture
def bowling(make_event: Any, organizer: Any) -> tuple[Event, Squad]:
    """cba-qualifier, closed, one squad of 7 players."""
    event = make_event("cba-qualifier", organizer=organizer, status=Event.Status.CLOSED)
    squad = Squad.objects.create(
        event=event,
        name="Squad 1",
        starts_at=dt.datetime(2026, 6, 20, 9, tzinfo=dt.UTC),
        capacity=12,
    )
    for n in range(1, 8):
        enter(event, n, category="players", squad=squad)
    return event, squad


# --- Services -------------------------------------------------------------------------------


def test_group_draw_records_seed_and_applies(jigsaw: Event, organizer: Any) -> None:
    draw = draw_make(
        event=jigsaw, kind="groups", stage="individual-qualification", seed="s1", by=organizer
    )
    assert draw.seed == "s1"
    assert draw.result["algorithm"] == ALGORITHM
    groups = draw.result["outcome"]["groups"]
    assert sorted(len(ids) for ids in groups.values()) == [5, 5]
    confirmed = Entry.objects.filter(event=jigsaw, status=Entry.Status.CONFIRMED)
    for entry in confirmed:
        assert entry.id in groups[entry.group]
    # The two foreigners (3 and 7) are in different groups; the cancelled entry takes no part.
    foreign = sorted(confirmed.filter(number__in=(3, 7)).values_list("group", flat=True))
    assert foreign == ["A", "B"]
    assert Entry.objects.get(event=jigsaw, number=11).group == ""
    assert AuditEntry.objects.filter(event=jigsaw, action="draw.make", actor=organizer).exists()


def test_same_seed_same_draw_and_rerun_reproduces(jigsaw: Event, organizer: Any) -> None:
    stage = "individual-qualification"
    first = draw_make(event=jigsaw, kind="groups", stage=stage, seed="same", by=organizer)
    second = draw_make(event=jigsaw, kind="groups", stage=stage, seed="same", by=organizer)
    assert first.result == second.result
    rerun = draw_rerun(draw=Draw.objects.get(pk=first.pk))
    assert rerun.reproduced
    assert rerun.same_algorithm
    # Even after an entry is cancelled: the rerun uses the entrants stored with the draw.
    Entry.objects.filter(event=jigsaw, number=1).update(status=Entry.Status.CANCELLED)
    assert draw_rerun(draw=first).reproduced


def test_tampered_draw_does_not_reproduce(jigsaw: Event, organizer: Any) -> None:
    draw = draw_make(event=jigsaw, kind="tables", stage="individual-final", by=organizer)
    tables = draw.result["outcome"]["tables"]
    tables[0][1], tables[1][1] = tables[1][1], tables[0][1]
    assert not draw_rerun(draw=draw).reproduced


def test_random_seed_when_none_given(jigsaw: Event, organizer: Any) -> None:
    draw = draw_make(event=jigsaw, kind="tables", stage="individual-final", by=organizer)
    assert len(draw.seed) == 16
    int(draw.seed, 16)
    numbers = sorted(
        Entry.objects.exclude(table_number=None).values_list("table_number", flat=True)
    )
    assert numbers == list(range(1, 11))
    # A second table draw moves the numbers around without breaking "one entry per table".
    draw_make(event=jigsaw, kind="tables", stage="individual-final", by=organizer)
    assert Entry.objects.exclude(table_number=None).count() == 10


def test_refused_for_non_organizer(jigsaw: Event, make_user: Any) -> None:
    with pytest.raises(Refused, match="Only an organizer"):
        draw_make(event=jigsaw, kind="groups", stage="individual-qualification", by=make_user("x"))
    with pytest.raises(Refused, match="Only an organizer"):
        draw_make(event=jigsaw, kind="groups", stage="individual-qualification", by=None)
    assert not Draw.objects.exists()


def test_refused_while_registration_open_or_entries_pending(
    make_event: Any, organizer: Any, jigsaw: Event
) -> None:
    open_event = make_event("cz-jigsaw", slug="open", organizer=organizer)
    enter(open_event, 1, category="individuals")
    with pytest.raises(Refused, match="close registration first"):
        draw_make(event=open_event, kind="groups", stage="individual-qualification", by=organizer)
    enter(jigsaw, 12, category="individuals", status=Entry.Status.PENDING)
    with pytest.raises(Refused, match="await approval"):
        draw_make(event=jigsaw, kind="groups", stage="individual-qualification", by=organizer)
    assert not Draw.objects.exists()
    assert not Entry.objects.exclude(group="").exists()


def test_refused_for_wrong_stage_or_kind(jigsaw: Event, organizer: Any) -> None:
    with pytest.raises(Refused, match="no groups"):
        draw_make(event=jigsaw, kind="groups", stage="individual-final", by=organizer)
    with pytest.raises(Refused, match="no such stage"):
        draw_make(event=jigsaw, kind="groups", stage="nope", by=organizer)
    with pytest.raises(Refused, match="bowling"):
        draw_make(event=jigsaw, kind="lanes", stage="individual-final", by=organizer)
    with pytest.raises(Refused, match="at most 64"):
        draw_make(
            event=jigsaw, kind="tables", stage="individual-final", seed="x" * 65, by=organizer
        )


def test_lane_draw_and_schedule(bowling: tuple[Event, Squad], organizer: Any) -> None:
    event, squad = bowling
    draw = draw_make(
        event=event,
        kind="lanes",
        stage="qualification",
        seed="lanes",
        by=organizer,
        squad=squad,
        lane_pairs=[(1, 2), (3, 4)],
        per_pair=4,
    )
    blocks = draw.result["outcome"]["blocks"]
    # 2 + 2 + 2 games; 7 players on 2 pairs: 4 and 3 in the first block.
    assert [b["games"] for b in blocks] == [[1, 2], [3, 4], [5, 6]]
    first = blocks[0]["pairs"]
    assert [len(p["left"]) + len(p["right"]) for p in first] == [4, 3]
    for block in blocks:
        assert all(len(p["left"]) + len(p["right"]) <= 4 for p in block["pairs"])
    assert draw_rerun(draw=draw).reproduced
    with pytest.raises(Refused, match="7 players do not fit on 1 lane pairs of 6"):
        draw_make(
            event=event,
            kind="lanes",
            stage="qualification",
            by=organizer,
            squad=squad,
            lane_pairs=[(1, 2)],
        )
    with pytest.raises(Refused, match="squad"):
        draw_make(
            event=event, kind="lanes", stage="qualification", by=organizer, lane_pairs=[(1, 2)]
        )


def test_tour_hosts(make_event: Any, organizer: Any) -> None:
    event = make_event("deti-kolomny", organizer=organizer, status=Event.Status.CLOSED)
    teams = [enter(event, n, category="teams") for n in range(1, 4)]
    enter(event, 9, category="teams", scored=False)
    draw = draw_make(
        event=event, kind="tour-hosts", stage="chgk-tour", seed="t", by=organizer, tours=7
    )
    hosts = draw.result["outcome"]["hosts"]
    assert [tour for tour, _ in hosts] == ["1", "2", "3", "4", "5", "6", "7"]
    # 3 scored teams take turns: ⌈7/3⌉ = 3 tours at most; the unscored team hosts none.
    counts = sorted([team for _, team in hosts].count(t.id) for t in teams)
    assert counts == [2, 2, 3]
    with pytest.raises(Refused, match="number of tours"):
        draw_make(event=event, kind="tour-hosts", stage="chgk-tour", by=organizer)


def test_parse_lane_pairs() -> None:
    assert parse_lane_pairs("1-2, 3-4 5-6") == [(1, 2), (3, 4), (5, 6)]
    with pytest.raises(Refused, match="not a pair"):
        parse_lane_pairs("1-2, 3")


# --- Pages ----------------------------------------------------------------------------------


def test_organizer_makes_a_draw_in_the_page(client: Any, jigsaw: Event, organizer: Any) -> None:
    client.force_login(organizer)
    url = f"/draws/{jigsaw.slug}/organize/"
    assert client.get(url).status_code == 200
    response = client.post(
        url, {"kind": "groups", "stage": "individual-qualification", "seed": "page-seed"}
    )
    assert response.status_code == 302
    assert Draw.objects.get().seed == "page-seed"
    page = client.get(url).content.decode()
    assert "page-seed" in page


def test_organizer_page_shows_refusal(client: Any, jigsaw: Event, organizer: Any) -> None:
    client.force_login(organizer)
    response = client.post(
        f"/draws/{jigsaw.slug}/organize/", {"kind": "groups", "stage": "individual-final"}
    )
    assert response.status_code == 200
    assert "This stage has no groups to draw." in response.content.decode()
    assert not Draw.objects.exists()


def test_others_get_404(client: Any, jigsaw: Event, make_user: Any, make_event: Any) -> None:
    url = f"/draws/{jigsaw.slug}/organize/"
    assert client.get(url).status_code == 404
    # An organizer of another event is nobody here.
    other = make_user("other")
    make_event("it-puzzle-party", organizer=other)
    client.force_login(other)
    assert client.get(url).status_code == 404
    post = client.post(url, {"kind": "groups", "stage": "individual-qualification"})
    assert post.status_code == 404
    assert not Draw.objects.exists()


def test_public_sees_seed_and_verifies(client: Any, jigsaw: Event, organizer: Any) -> None:
    draw = draw_make(
        event=jigsaw, kind="groups", stage="individual-qualification", seed="pub", by=organizer
    )
    page = client.get(f"/draws/{jigsaw.slug}/").content.decode()
    assert "pub" in page
    assert "Player 3" in page
    verify = client.get(f"/draws/{jigsaw.slug}/verify/{draw.pk}/").content.decode()
    assert "exactly the same result" in verify


def test_draft_event_draws_are_not_public(client: Any, make_event: Any) -> None:
    event = make_event("cz-jigsaw", slug="draft", status=Event.Status.DRAFT)
    assert client.get(f"/draws/{event.slug}/").status_code == 404


def test_printable_lane_schedule(client: Any, bowling: tuple[Event, Squad], organizer: Any) -> None:
    event, squad = bowling
    url = f"/draws/{event.slug}/lanes/{squad.pk}/"
    assert client.get(url).status_code == 404  # no draw yet
    draw_make(
        event=event,
        kind="lanes",
        stage="qualification",
        seed="sheet",
        by=organizer,
        squad=squad,
        lane_pairs=[(1, 2), (3, 4)],
        per_pair=4,
    )
    page = client.get(url).content.decode()
    assert "sheet" in page
    assert "American system" in page
    assert "Block 3 (games 5, 6)" in page
    assert "3–4" in page
    assert all(f"Player {n}" in page for n in range(1, 8))


def test_a_draw_is_named_by_its_stage_title_in_the_readers_language(
    jigsaw: Event, organizer: Any
) -> None:
    from django.test import Client

    draw_make(event=jigsaw, kind="groups", stage="individual-qualification", by=organizer)
    client = Client()
    client.force_login(organizer)
    for url in (f"/cs/draws/{jigsaw.slug}/", f"/cs/draws/{jigsaw.slug}/organize/"):
        page = client.get(url).content.decode()
        assert "<h3>Jednotlivci — kvalifikace · kvalifikační skupiny</h3>" in page
        assert "individual-qualification ·" not in page
    form = client.get(f"/ru/draws/{jigsaw.slug}/organize/").content.decode()
    assert '<option value="individual-qualification">Личный зачёт — отбор</option>' in form
