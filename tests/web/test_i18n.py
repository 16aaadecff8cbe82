"""Languages: complete Czech, Italian and Russian catalogues, and pages rendered in each."""

from __future__ import annotations

import ast
import datetime as dt
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from podium.web.disputes.selectors import rulings
from podium.web.management.commands.preset_texts import MODULE, module_text, phrases
from podium.web.models import Event
from podium.web.registration.selectors.public import money

SRC = Path(__file__).resolve().parents[2] / "src" / "podium"
LOCALE = SRC / "web" / "locale"
# Modules whose ``_``/``ngettext`` make engine messages (translated when shown, not when made).
MESSAGE_SOURCES = [
    *sorted((SRC / "engine").rglob("*.py")),
    Path(rulings.__file__),
]
LANGUAGES = ("cs", "it", "ru")
PLURALS = {"cs": 4, "it": 2, "ru": 4}


def compile_messages() -> None:
    """The .mo files are built from the .po files (``make messages``); build stale ones here."""
    for language in LANGUAGES:
        po = LOCALE / language / "LC_MESSAGES" / "django.po"
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True)
    translation.trans_real._translations = {}  # type: ignore[attr-defined]
    translation.trans_real._active = translation.trans_real.Local()  # type: ignore[attr-defined]


@pytest.fixture(autouse=True, scope="module")
def _compiled() -> None:
    compile_messages()


def _entries(language: str) -> list[dict[str, Any]]:
    """The catalogue's entries: msgid, plural, msgstr forms and flags (a small .po reader)."""
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    entries = []
    for block in text.strip().split("\n\n"):
        entry: dict[str, Any] = {"flags": "", "strs": {}, "id": None, "plural": None}
        key = ""
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] += line
            elif line.startswith("#"):
                continue
            else:
                match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (".*")$', line)
                if match:
                    key, line = match.group(1), match.group(2)
                    value = ""
                else:
                    value = entry["strs"].get(key, "") if key.startswith("msgstr") else ""
                part = ast.literal_eval(line)
                if key == "msgid":
                    entry["id"] = (entry["id"] or "") + part
                elif key == "msgid_plural":
                    entry["plural"] = (entry["plural"] or "") + part
                elif key.startswith("msgstr"):
                    entry["strs"][key] = (value if not match else "") + part
        if entry["id"] is not None:
            entries.append(entry)
    return entries


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(language: str) -> None:
    entries = _entries(language)
    header, messages = entries[0], entries[1:]
    assert header["id"] == ""
    assert f"nplurals={PLURALS[language]};" in header["strs"]["msgstr"]
    assert len(messages) > 300
    for entry in messages:
        assert "fuzzy" not in entry["flags"], entry["id"]
        assert entry["strs"], entry["id"]
        if entry["plural"] is not None:
            assert len(entry["strs"]) == PLURALS[language], entry["id"]
        for value in entry["strs"].values():
            assert value.strip(), f"{language}: no translation of {entry['id']!r}"
        placeholders = set(re.findall(r"%\(\w+\)[sd]", entry["id"] + (entry["plural"] or "")))
        for value in entry["strs"].values():
            assert set(re.findall(r"%\(\w+\)[sd]", value)) <= placeholders, entry["id"]


def _literals(node: ast.expr) -> list[str]:
    """The texts an expression can be when it is a literal or a choice between literals."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def _message_templates() -> set[str]:
    """The templates of every ``_(…)`` and ``ngettext(…)`` call; a template that is not written
    out where it is marked would never reach the catalogue, so it is refused."""
    found = set()
    for path in MESSAGE_SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
                continue
            if node.func.id == "Message":  # a template chosen from literals: each must be known
                found.update(_literals(node.args[0]))
                continue
            if node.func.id not in ("_", "ngettext"):
                continue
            count = 2 if node.func.id == "ngettext" else 1
            texts = node.args[:count]
            assert all(isinstance(a, ast.Constant) for a in texts), f"{path.name}:{node.lineno}"
            found.update(a.value for a in texts if isinstance(a, ast.Constant))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_message_is_in_the_catalogue(language: str) -> None:
    """The engine's reasons are translated when a page shows them, so each template the engine
    writes must be a message of the catalogue (``make catalogues`` collects them)."""
    templates = _message_templates()
    assert len(templates) > 100
    assert "Advances: %(places)s of the %(count)s places for %(where)s" in templates
    entries = _entries(language)
    known = {entry["id"] for entry in entries} | {entry["plural"] for entry in entries}
    assert sorted(templates - known) == []


def test_the_presets_phrases_module_is_current() -> None:
    """A preset interpretation changed without `make catalogues` would stay untranslated."""
    written = MODULE.read_text(encoding="utf-8")
    assert written == module_text()
    assert len(phrases()) > 100
    assert "Our decision: whoever finished ranks before whoever did not." in phrases()
    assert "Master men" in phrases()  # a quota's label
    assert "groups-of-at-least" not in phrases()  # a code, not words


@pytest.mark.parametrize(
    ("prefix", "words"),
    [
        ("", ["Competitions", "Log in", "Rules"]),
        ("/cs", ["Soutěže", "Přihlásit se", "Pravidla"]),
        ("/it", ["Competizioni", "Accedi", "Regolamento"]),
        ("/ru", ["Соревнования", "Войти", "Регламент"]),
    ],
)
@pytest.mark.django_db
def test_home_page_in_each_language(make_event: Any, prefix: str, words: list[str]) -> None:
    make_event("cz-jigsaw")
    html = Client().get(f"{prefix}/").content.decode()
    for word in words:
        assert word in html


@pytest.mark.django_db
def test_event_pages_in_each_language_with_local_formats(make_event: Any) -> None:
    make_event(
        "cba-qualifier",
        starts_at=dt.datetime(2012, 3, 24, 8, 0, tzinfo=dt.UTC),
        timezone="Europe/Prague",
        status=Event.Status.CLOSED,
    )
    cs = Client().get("/cs/e/cba-qualifier/").content.decode()
    assert "24. března 2012 9:00" in cs
    assert "registrace uzavřena" in cs
    assert "600\xa0CZK" in cs
    it = Client().get("/it/e/cba-qualifier/rules/").content.decode()
    assert "Sabato 24 Marzo 2012 09:00" in it or "24 Marzo 2012" in it
    assert "Il regolamento dice:" in it
    assert "La nostra interpretazione:" in it
    assert "media da 160 a 174,99" in it
    ru = Client().get("/ru/e/cba-qualifier/rules/").content.decode()
    assert "В регламенте:" in ru
    assert "Регистрация закрывается 16 марта 2012 г." in ru
    assert "Регистрация на месте открывается за 30 минут до начала." in ru


def test_money_in_the_locale_format() -> None:
    from decimal import Decimal

    with translation.override("cs"):
        assert money(Decimal("1234.5"), "CZK") == "1\xa0234,50\xa0CZK"
    with translation.override("it"):
        assert money(Decimal("1234"), "EUR") == "1.234\xa0EUR"
    with translation.override("en"):
        assert money(Decimal("1234.5"), "RUB") == "1,234.50\xa0RUB"


@pytest.mark.django_db
def test_plural_forms_follow_each_language(make_event: Any) -> None:
    from podium.web.models import Entry

    event = make_event("it-puzzle-party")
    for number in range(1, 29):  # 50 - 28 = 22 places left
        Entry.objects.create(
            event=event, category="pairs", name=f"P{number}", number=number, status="confirmed"
        )
    # Czech: 1, 2–4, then 5 and more (22 too); Russian: 1/21, 2–4/22–24, 5–20.
    assert "22 volných míst" in Client().get("/cs/e/it-puzzle-party/").content.decode()
    assert "осталось 22 места" in Client().get("/ru/e/it-puzzle-party/").content.decode()
    for number in range(29, 48):  # 3 left
        Entry.objects.create(
            event=event, category="pairs", name=f"P{number}", number=number, status="confirmed"
        )
    assert "3 volná místa" in Client().get("/cs/e/it-puzzle-party/").content.decode()
    assert "осталось 3 места" in Client().get("/ru/e/it-puzzle-party/").content.decode()
    assert "3 posti liberi" in Client().get("/it/e/it-puzzle-party/").content.decode()
    Entry.objects.create(event=event, category="pairs", name="P48", number=48, status="confirmed")
    Entry.objects.create(event=event, category="pairs", name="P49", number=49, status="pending")
    assert "1 volné místo" in Client().get("/cs/e/it-puzzle-party/").content.decode()
    assert "осталось 1 место" in Client().get("/ru/e/it-puzzle-party/").content.decode()
    assert "1 posto libero" in Client().get("/it/e/it-puzzle-party/").content.decode()


@pytest.mark.django_db
def test_preset_texts_are_translated_on_the_rules_page(make_event: Any) -> None:
    make_event("cz-jigsaw")
    make_event("deti-kolomny")
    cs = Client().get("/cs/e/cz-jigsaw/rules/").content.decode()
    assert "Jednotlivci — kvalifikace" in cs
    assert "nejlepších 50 (čeští účastníci) z každé skupiny" in cs
    assert "Jednotlivci: jednotlivci, nejvýše 200 účastníků." in cs
    assert "Maximální počet: 200 jednotlivců" in cs  # the clause stays in the original
    ru = Client().get("/ru/e/deti-kolomny/rules/").content.decode()
    assert "Суперфинал за звание абсолютного чемпиона" in ru
    assert "Командный взнос, первая половина сезона: 900\xa0RUB с заявки" in ru
    it = Client().get("/it/e/cz-jigsaw/rules/").content.decode()
    assert "Coppie — finale" in it
    assert "Ogni pezzo mancante alla fine aggiunge 10 secondi al tempo." in it
    # What we decided where the rulebook is silent reads in the visitor's language too.
    assert "Naše rozhodnutí: kdo dokončil, je řazen před tím, kdo nedokončil." in cs
    assert "Nostra decisione: chi ha finito precede chi non ha finito." in it
    assert "Наше решение: разделённое место засчитывается как среднее из мест" in ru
    assert "Our decision" not in cs + it + ru


@pytest.mark.django_db
def test_staff_pages_show_the_presets_titles_in_their_language(
    make_event: Any, make_user: Any
) -> None:
    boss = make_user("olga")
    make_event("cz-jigsaw", organizer=boss)
    client = Client()
    client.force_login(boss)
    dashboard = client.get("/cs/organize/cz-jigsaw/").content.decode()
    assert "Jednotlivci — kvalifikace" in dashboard
    assert "Individuals — qualification" not in dashboard
    console = client.get("/cs/desk/cz-jigsaw/results/individual-final/1/").content.decode()
    assert '<span class="clock-label">Jednotlivci — finále</span>' in console
