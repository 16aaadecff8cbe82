"""The demo: four events from the four presets, consistent with their rulebooks, loaded once."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.test import Client

from podium.engine.classification import is_domestic
from podium.engine.formats.games import assign_division
from podium.web.chgk.selectors.database import database_index
from podium.web.disputes.selectors.appeals import open_on_round
from podium.web.disputes.selectors.discipline import unpaid_for_tour
from podium.web.disputes.services.appeals import dispute_decide, verdict_record
from podium.web.kernel.refusals import Refused
from podium.web.models import (
    Appeal,
    AuditEntry,
    Draw,
    Entry,
    EntryMember,
    Event,
    EventRole,
    Person,
    Question,
    Result,
    Squad,
    Withdrawal,
)
from podium.web.results.selectors.checks import mismatches
from podium.web.results.selectors.rows import current_results, standings_as_of
from podium.web.results.services.checks import mismatch_resolve
from podium.web.standings.services.publication import publication_set

pytestmark = pytest.mark.django_db


def _load() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def _snapshot() -> dict[str, object]:
    return {
        "events": list(
            Event.objects.values_list("slug", "status", "rulebook_text").order_by("slug")
        ),
        "entries": list(
            Entry.objects.values_list(
                "event__slug", "number", "name", "status", "group", "division", "table_number"
            ).order_by("event__slug", "number")
        ),
        "people": Person.objects.count(),
        "members": EntryMember.objects.count(),
        "roles": EventRole.objects.count(),
        "draws": list(
            Draw.objects.values_list("event__slug", "kind", "stage", "seed").order_by("id")
        ),
        "audit": AuditEntry.objects.count(),
        "squads": Squad.objects.count(),
    }


def test_load_demo_creates_four_events_with_accounts() -> None:
    out = _load()
    events = {e.rulebook_key: e for e in Event.objects.all()}
    assert set(events) == {"cz-jigsaw", "it-puzzle-party", "cba-qualifier", "deti-kolomny"}
    assert events["cz-jigsaw"].status == Event.Status.CLOSED
    assert events["cba-qualifier"].status == Event.Status.CLOSED
    assert events["it-puzzle-party"].status == Event.Status.OPEN
    assert events["deti-kolomny"].status == Event.Status.OPEN
    assert [e.language for e in events.values()].count("cs") == 2
    for username in ("organizer", "referee", "player"):
        assert authenticate(username=username, password="podium-demo") is not None
        assert username in out
    assert "podium-demo" in out
    for event in events.values():
        roles = set(event.roles.values_list("user__username", "role"))
        assert ("organizer", "organizer") in roles
        assert ("referee", "referee") in roles
        # Every public page of every demo event renders.
        for page in ("", "rules/", "entries/"):
            assert Client().get(f"/e/{event.slug}/{page}").status_code == 200


def test_load_demo_is_idempotent() -> None:
    _load()
    first = _snapshot()
    out = _load()
    assert _snapshot() == first
    assert "left as it is" in out


def test_cz_jigsaw_demo_is_consistent_with_its_rulebook() -> None:
    _load()
    event = Event.objects.get(rulebook_key="cz-jigsaw")
    counts = Counter(event.entries.values_list("category", "status"))
    assert counts[("individuals", "confirmed")] == 200  # the cap, full
    assert counts[("individuals", "waiting")] == 6
    assert counts[("pairs", "confirmed")] <= 120
    assert 0 < counts[("teams", "confirmed")] <= 50
    positions = sorted(
        event.entries.filter(status="waiting").values_list("waiting_position", flat=True)
    )
    assert positions == [1, 2, 3, 4, 5, 6]
    # Groups A/B drawn with a recorded seed, for individuals and pairs.
    draws = event.draws.filter(kind="groups")
    assert {d.stage for d in draws} == {"individual-qualification", "pair-qualification"}
    assert all(d.seed.startswith("demo-") for d in draws)
    confirmed = event.entries.filter(status="confirmed", category__in=["individuals", "pairs"])
    assert set(confirmed.values_list("group", flat=True)) == {"A", "B"}
    # Teams sizes 3–4; foreigners in the mix; minors accompanied.
    domestic = event.rulebook.classification.domestic
    foreign = 0
    for entry in event.entries.prefetch_related("members__person"):
        members = [m.person for m in entry.members.all()]
        if entry.category == "teams":
            assert 3 <= len(members) <= 4
        countries = [p.country for p in members]
        if not is_domestic(countries, domestic.country, domestic.team_rule):
            foreign += 1
        for person in members:
            if person.birth_date and (event.local_start.date() - person.birth_date).days < 16 * 365:
                assert entry.accompanying_adult
    assert foreign > 10
    names = set(Person.objects.values_list("last_name", flat=True))
    assert any(ch in "".join(names) for ch in "ěščřžýáíéůú")


def test_cba_demo_divisions_follow_the_averages() -> None:
    _load()
    event = Event.objects.get(rulebook_key="cba-qualifier")
    divisions = event.rulebook.divisions
    seen = Counter()
    for entry in event.entries.prefetch_related("members__person"):
        person = entry.members.get().person
        expected, _reason = assign_division(divisions, person.gender, person.ladder_average)
        assert entry.division == expected.key
        assert entry.division_reason
        assert entry.squad is not None
        assert person.birth_date.isoformat() <= "1999-06-30"
        seen[entry.division] += 1
    assert len(seen) >= 5  # men and women across the divisions
    for squad in event.squads.all():
        assert Entry.objects.filter(squad=squad, status__in=Entry.ACTIVE).count() <= squad.capacity
    assert event.draws.filter(kind="lanes").count() == event.squads.count()


def test_it_demo_is_open_with_tables_for_approved_pairs() -> None:
    _load()
    event = Event.objects.get(rulebook_key="it-puzzle-party")
    rulebook = event.rulebook
    assert rulebook.registration.opens <= event.starts_at.date() <= rulebook.event_date
    confirmed = event.entries.filter(status="confirmed")
    assert confirmed.count() + event.entries.filter(status="pending").count() <= 50
    assert all(e.table_number for e in confirmed)
    assert not event.entries.filter(status="pending", table_number__isnull=False).exists()
    for entry in event.entries.prefetch_related("members__person"):
        assert entry.members.count() == 2
        for m in entry.members.all():
            age_days = (rulebook.event_date - m.person.birth_date).days
            assert age_days >= 16 * 365


def test_chgk_demo_has_rosters_and_unscored_teams() -> None:
    _load()
    event = Event.objects.get(rulebook_key="deti-kolomny")
    scored = event.entries.filter(scored=True)
    assert scored.count() >= 10
    assert event.entries.filter(scored=False).count() == 2
    for entry in scored:
        assert 1 <= entry.members.count() <= 9
    people = EntryMember.objects.filter(entry__event=event).values_list("person", flat=True)
    assert len(people) == len(set(people))  # one team per player


def test_it_demo_says_its_dates_were_moved() -> None:
    _load()
    event = Event.objects.get(rulebook_key="it-puzzle-party")
    assert event.rulebook.notes[0].interpretation.startswith("Demo only:")
    # The event's pages speak Italian unless the visitor chose another language.
    italian = Client().get(f"/e/{event.slug}/rules/").content.decode()
    assert "Solo per la demo: il periodo di iscrizione e il giorno dell'evento sono spostati" in (
        italian.replace("&#x27;", "'")
    )
    russian = Client().get(f"/ru/e/{event.slug}/rules/").content.decode()
    assert "Только для демонстрации: период регистрации и день соревнования сдвинуты" in russian


def test_load_demo_on_a_database_with_other_events_and_users(
    make_event: Any, make_user: Any
) -> None:
    make_event("cz-jigsaw", slug="my-own", title="My own event")
    make_user("someone")
    _load()
    assert Event.objects.count() == 5
    assert Event.objects.get(slug="my-own").entries.count() == 0
    assert not EventRole.objects.filter(event__slug="my-own").exists()


def test_chgk_demo_has_its_rulings_applied_and_tour_3_waits_for_the_jury() -> None:

    _load()
    event = Event.objects.get(slug="deti-kolomny-xv")
    [tour1] = standings_as_of(event, "chgk-tour", 1).tables
    zero = [r for r in tour1.rows if r.entry.score_text.startswith("0 q (sanction;")]
    assert len(zero) == 1
    assert any("п. 8" in (r.clause or "") for r in zero[0].reasons)
    [tour2] = standings_as_of(event, "chgk-tour", 2).tables
    credited = [r for r in tour2.rows if any("accepted by the jury" in n.text for n in r.reasons)]
    assert len(credited) == 2  # the appellant and the team with the same answer
    assert Appeal.objects.filter(event=event, verdict__fee="forfeited").count() == 1
    # Tour 3: an appeal and a disputed answer wait for the jury, so it is not final yet.
    tour = event.rulebook.stage("chgk-tour")
    waiting = open_on_round(event, tour, 3)
    assert [type(w).__name__ for w in waiting] == ["Appeal", "Dispute"]
    withdrawn = Withdrawal.objects.get(entry__event=event)
    assert withdrawn.before_middle
    assert withdrawn.middle == 4
    [league] = standings_as_of(event, "brainball").tables
    assert withdrawn.entry.name not in {r.entry.name for r in league.rows}
    assert EventRole.objects.filter(event=event, user__username="jury", role="jury").exists()


def test_cba_demo_has_a_protest_upheld_with_a_corrected_game() -> None:

    _load()
    event = Event.objects.get(slug="cba-kvalifikace-2012")
    upheld = Appeal.objects.get(event=event, verdict__upheld=True)
    correction = upheld.verdict.correction
    assert correction is not None
    assert correction.corrects_id == upheld.result_id
    before, after = int(upheld.result.cells["g3"]), int(correction.cells["g3"])
    assert after == before + 20
    assert Result.objects.get(pk=correction.pk).kind == "correction"
    assert upheld.verdict.fee == "refunded"
    rejected = Appeal.objects.get(event=event, verdict__upheld=False)
    assert rejected.verdict.fee == "forfeited"
    assert rejected.verdict.forfeit_receipt
    assert rejected.further.body.startswith("STK")
    rows = [r for t in standings_as_of(event, "qualification").tables for r in t.rows]
    mine = next(r for r in rows if r.entry.name == upheld.entry.name)
    total = sum(int(correction.cells[f"g{i}"]) for i in range(1, 7))
    assert mine.entry.score_text.startswith(f"{total} ")
    assert any(n.text.startswith(f"Protest {upheld.number} upheld") for n in mine.reasons)


def test_chgk_demo_has_tour_4_questions_with_a_replacement_and_one_to_check() -> None:
    _load()
    event = Event.objects.get(slug="deti-kolomny-xv")
    tour = event.rounds.get(stage="chgk-tour", number=4)
    handed_in = Question.objects.filter(submission__round=tour).order_by("submission", "number")
    assert handed_in.count() == 16  # 15 and one replacement
    retold = handed_in.get(status=Question.Status.REPLACE)
    assert retold.number == 3
    assert retold.replaced_by is not None
    assert retold.replaced_by.answer == "керамика"
    index = database_index()
    assert len(index) == 5
    close = index.closest(retold.text, retold.answer)[0]
    assert close.published
    assert close.answer == "коломенская"
    nine = handed_in.get(number=9)
    best = index.closest(nine.text, nine.answer)[0]
    assert best.published
    assert best.answer == "Москва"
    two = handed_in.get(number=2)
    assert all(not m.published for m in index.closest(two.text, two.answer))


def test_chgk_demo_teams_paid_their_fees_but_one_the_second_half() -> None:
    _load()
    event = Event.objects.get(slug="deti-kolomny-xv")
    assert unpaid_for_tour(event, "chgk-tour", 1) == []
    [late] = unpaid_for_tour(event, "chgk-tour", 4)
    assert late.fee.key == "entry-second-half"
    assert late.entry == event.entries.filter(scored=True).order_by("number").first()
    left = Withdrawal.objects.get(entry__event=event).entry
    assert left.payments.filter(fee_key="entry-second-half").count() == 0  # it left, owes none


def test_chgk_demo_tour_3_goes_final_once_the_jury_and_the_head_referee_have_ruled() -> None:
    """The README's walk: the jury decides, the head referee resolves the mismatch, the
    organizer publishes tour 3 final, and question 9 is struck for every team."""
    _load()
    event = Event.objects.get(slug="deti-kolomny-xv")
    users = {u.username: u for u in get_user_model().objects.all()}
    appeal, dispute = open_on_round(event, event.rulebook.stage("chgk-tour"), 3)
    assert appeal.question == 9

    def questions() -> dict[str, Decimal]:
        [table] = standings_as_of(event, "chgk-tour", 3).tables
        return {r.entry.name: r.entry.metrics["questions"] for r in table.rows}

    before = questions()
    took_nine = {
        r.entry.name for r in current_results(event, "chgk-tour", 3) if r.cells["mask"][8] == "1"
    }
    assert took_nine
    with pytest.raises(Refused, match="every appeal is decided"):
        publication_set(
            event=event, stage="chgk-tour", round=3, state="final", by=users["organizer"]
        )
    verdict_record(appeal=appeal, upheld=True, by=users["jury"], reasons="Второй ответ подходит.")
    dispute_decide(
        event=event, stage="chgk-tour", round=3, entry=dispute.entry, question=dispute.question,
        upheld=True, reasons="Ответ верный по сути.", by=users["jury"],
    )  # fmt: skip
    [mismatch] = mismatches(event)
    mismatch_resolve(
        second_entry=mismatch.second, choice="first", by=users["head"],
        reason="The card says so.", idempotency_key="readme-walk",
    )  # fmt: skip
    final = publication_set(
        event=event, stage="chgk-tour", round=3, state="final", by=users["organizer"]
    )
    assert final.state == "final"
    after = questions()
    for name, taken in before.items():
        struck = 1 if name in took_nine else 0
        disputed = 1 if name == dispute.entry.name else 0  # its "?" now counts as taken
        assert after[name] == taken - struck + disputed, name
