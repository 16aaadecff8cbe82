"""The Podium fields a column of an entrants sheet maps to, guessed from its header, and the
readers of their values.

Vocabulary:
- field key: ``m<i>_<field>`` for member ``i`` (0 = the first member, the captain; 1 = a pair's
  partner…), the names the registration service gives its member fields, or an entry field
  (``name``, ``category``, ``group``, ``squad``, ``accompanying_adult``, ``scored``).
- mapping: column index → field key (``""``: the column is not imported).
- guess: the field a header names, in English, Czech, Italian or Russian ("Příjmení",
  "Cognome", "Фамилия"); a number in the header ("Jméno 2") or a partner word ("partner",
  "compagno", "партнёр") makes it a later member's field.
- value reader: turns a cell into the field's value or says what is wrong with it.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

MEMBER_FIELDS = (
    "first_name",
    "last_name",
    "email",
    "birth_date",
    "country",
    "gender",
    "ladder_average",
)
ENTRY_FIELDS = ("name", "category", "group", "squad", "accompanying_adult", "scored")
MAX_MEMBERS = 9

MEMBER_LABELS = {
    "first_name": gettext_lazy("first name"),
    "last_name": gettext_lazy("last name"),
    "email": gettext_lazy("e-mail"),
    "birth_date": gettext_lazy("birth date"),
    "country": gettext_lazy("country"),
    "gender": gettext_lazy("gender"),
    "ladder_average": gettext_lazy("ladder average"),
}
ENTRY_LABELS = {
    "name": gettext_lazy("Club, team or pair name"),
    "category": gettext_lazy("Category"),
    "group": gettext_lazy("Group"),
    "squad": gettext_lazy("Squad"),
    "accompanying_adult": gettext_lazy("Accompanying adult"),
    "scored": gettext_lazy("In the competition (yes/no)"),
}


def key(member: int, name: str) -> str:
    return f"m{member}_{name}"


def split_key(field_key: str) -> tuple[int | None, str]:
    """``m1_last_name`` → (1, "last_name"); an entry field → (None, its name)."""
    match = re.fullmatch(r"m(\d+)_(\w+)", field_key)
    return (int(match.group(1)), match.group(2)) if match else (None, field_key)


def label(field_key: str) -> str:
    member, name = split_key(field_key)
    if member is None:
        return str(ENTRY_LABELS.get(name, name))
    if member == 0:
        return str(MEMBER_LABELS[name]).capitalize()
    return _("Member %(n)d: %(field)s") % {"n": member + 1, "field": MEMBER_LABELS[name]}


def choices(members: int) -> list[tuple[str, str]]:
    """Every field a column may map to, for entries of up to ``members`` members."""
    out = [("", _("— not imported —"))]
    for i in range(members):
        out += [(key(i, f), label(key(i, f))) for f in MEMBER_FIELDS]
    out += [(f, label(f)) for f in ENTRY_FIELDS]
    return out


# --- guessing from the header -----------------------------------------------------------------


def normal(text: str) -> str:
    """Lower case, Latin letters without accents, only letters and digits (ё → е too)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("ё", "е"))
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"[\W_]+", "", kept)


def _words(*words: str) -> set[str]:
    return {normal(w) for w in words}


SYNONYMS: dict[str, set[str]] = {
    "first_name": _words(
        "first name",
        "firstname",
        "given name",
        "forename",
        "first",
        "jméno",
        "křestní jméno",
        "nome",
        "nome di battesimo",
        "имя",
    ),
    "last_name": _words(
        "last name",
        "lastname",
        "surname",
        "family name",
        "příjmení",
        "cognome",
        "фамилия",
    ),
    "email": _words(
        "email",
        "e-mail",
        "mail",
        "e-mailová adresa",
        "emailová adresa",
        "indirizzo email",
        "posta elettronica",
        "электронная почта",
        "почта",
        "эл почта",
        "емейл",
    ),
    "birth_date": _words(
        "birth date",
        "date of birth",
        "birthdate",
        "born",
        "dob",
        "birthday",
        "datum narození",
        "narozen",
        "narozena",
        "narození",
        "rok narození",
        "data di nascita",
        "nato il",
        "nascita",
        "дата рождения",
        "день рождения",
        "рождение",
        "родился",
    ),
    "country": _words(
        "country",
        "nation",
        "nationality",
        "stát",
        "země",
        "paese",
        "nazione",
        "stato",
        "nazionalità",
        "страна",
        "гражданство",
    ),
    "gender": _words("gender", "sex", "pohlaví", "sesso", "genere", "пол"),
    "ladder_average": _words(
        "average",
        "ladder average",
        "avg",
        "průměr",
        "průměr žebříčku",
        "žebříček",
        "media",
        "средний",
        "среднее",
        "средний результат",
    ),
    "name": _words(
        "team",
        "team name",
        "club",
        "club name",
        "pair name",
        "tým",
        "název týmu",
        "klub",
        "oddíl",
        "družstvo",
        "název",
        "squadra",
        "nome squadra",
        "nome della squadra",
        "coppia",
        "nome coppia",
        "команда",
        "название команды",
        "клуб",
        "название",
    ),
    "category": _words("category", "kategorie", "categoria", "категория", "зачёт"),
    "group": _words("group", "skupina", "gruppo", "группа"),
    "squad": _words("squad", "runda", "hrací runda", "turno", "смена", "поток"),
    "accompanying_adult": _words(
        "accompanying adult",
        "adult",
        "guardian",
        "doprovod",
        "doprovázející osoba",
        "accompagnatore",
        "сопровождающий",
    ),
    "scored": _words(
        "scored",
        "in the competition",
        "v soutěži",
        "in classifica",
        "в зачёте",
        "зачет",
    ),
}
PARTNER = _words(
    "partner",
    "partnera",
    "partnerka",
    "partnerky",
    "spoluhráč",
    "druhý",
    "compagno",
    "compagna",
    "partner2",
    "партнёр",
    "партнер",
    "партнера",
    "напарник",
    "второй",
)
MEMBER_WORDS = _words("member", "player", "člen", "hráč", "giocatore", "membro", "игрок", "член")


def guess(header: str) -> tuple[int, str] | None:
    """(member index, field) or (-1, entry field) for a header; ``None`` when unclear."""
    text = header.casefold()
    number = re.search(r"\d+", text)
    member = int(number.group()) - 1 if number else 0
    tokens = [normal(t) for t in re.split(r"[\s_\-./()]+", re.sub(r"\d+", " ", text))]
    tokens = [t for t in tokens if t]
    if any(t in PARTNER for t in tokens):
        member = max(member, 1)
        tokens = [t for t in tokens if t not in PARTNER]
    tokens = [t for t in tokens if t not in MEMBER_WORDS]
    rest = "".join(tokens)
    for name, words in SYNONYMS.items():
        if rest in words:
            if name in ENTRY_FIELDS:
                return (-1, name)
            return (member, name) if 0 <= member < MAX_MEMBERS else None
    return None


def guess_mapping(header: Sequence[str], members: int) -> dict[int, str]:
    """Column index → field key for the columns whose header is clear; each field once."""
    mapping: dict[int, str] = {}
    taken: set[str] = set()
    for index, text in enumerate(header):
        found = guess(text)
        if found is None:
            continue
        member, name = found
        if member >= members:
            continue
        field_key = name if member < 0 else key(member, name)
        if field_key not in taken:
            mapping[index] = field_key
            taken.add(field_key)
    return mapping


# --- values ----------------------------------------------------------------------------------

# ISO 3166-1 alpha-2, and the names organizers write for the countries Podium's events see.
COUNTRIES = frozenset(
    re.findall(
        r"[A-Z]{2}",
        """AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ
    BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO
    DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU
    GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW
    KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU
    MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW
    PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF
    TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA
    ZM ZW""",
    )
)
COUNTRY_NAMES = {
    normal(name): code
    for code, names in {
        "CZ": (
            "Czechia",
            "Czech Republic",
            "Česko",
            "Česká republika",
            "ČR",
            "Repubblica Ceca",
            "Cechia",
            "Чехия",
        ),
        "SK": ("Slovakia", "Slovensko", "Slovenská republika", "Slovacchia", "Словакия"),
        "IT": ("Italy", "Itálie", "Italia", "Италия"),
        "RU": ("Russia", "Rusko", "Russia", "Россия", "РФ"),
        "DE": ("Germany", "Německo", "Germania", "Германия"),
        "AT": ("Austria", "Rakousko", "Австрия"),
        "PL": ("Poland", "Polsko", "Polonia", "Польша"),
        "HU": ("Hungary", "Maďarsko", "Ungheria", "Венгрия"),
        "UA": ("Ukraine", "Ukrajina", "Ucraina", "Украина"),
        "BY": ("Belarus", "Bělorusko", "Bielorussia", "Беларусь", "Белоруссия"),
        "GB": (
            "United Kingdom",
            "Great Britain",
            "UK",
            "Velká Británie",
            "Regno Unito",
            "Великобритания",
        ),
        "US": ("United States", "USA", "Spojené státy", "Stati Uniti", "США"),
    }.items()
    for name in names
}
GENDERS = {
    normal(word): code
    for code, words in {
        "M": (
            "M",
            "male",
            "man",
            "men",
            "muž",
            "muži",
            "mužské",
            "uomo",
            "maschio",
            "maschile",
            "м",
            "муж",
            "мужской",
            "мужчина",
        ),
        "F": (
            "F",
            "W",
            "female",
            "woman",
            "women",
            "žena",
            "ženy",
            "ženské",
            "Ž",
            "donna",
            "femmina",
            "femminile",
            "ж",
            "жен",
            "женский",
            "женщина",
        ),
    }.items()
    for word in words
}
YES_NO = {
    normal(word): value
    for value, words in {
        True: ("yes", "y", "true", "1", "ano", "a", "sì", "si", "да", "д"),
        False: ("no", "n", "false", "0", "ne", "нет", "н"),
    }.items()
    for word in words
}
_ISO_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_DAY_FIRST = re.compile(r"^(\d{1,2})\s*[./]\s*(\d{1,2})\s*[./]\s*(\d{4})$")


def read_date(text: str) -> dt.date:
    """A birth date as people write it: ``1990-12-31``, ``31.12.1990``, ``31/12/1990``."""
    iso = _ISO_DATE.match(text)
    day_first = _DAY_FIRST.match(text)
    try:
        if iso:
            return dt.date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
        if day_first:
            return dt.date(
                int(day_first.group(3)), int(day_first.group(2)), int(day_first.group(1))
            )
    except ValueError:
        raise ValueError(_("“%(text)s” is not a date of the calendar") % {"text": text}) from None
    raise ValueError(
        _("“%(text)s” is not a date (write 31.12.1990 or 1990-12-31)") % {"text": text}
    )


def read_country(text: str) -> str:
    code = text.strip().upper()
    if code in COUNTRIES:
        return code
    if normal(text) in COUNTRY_NAMES:
        return COUNTRY_NAMES[normal(text)]
    raise ValueError(
        _("“%(text)s” is not a country: write its two-letter ISO code (CZ, SK, IT…)")
        % {"text": text}
    )


def read_gender(text: str) -> str:
    found = GENDERS.get(normal(text))
    if found is None:
        raise ValueError(_("“%(text)s” is not a gender (M or F)") % {"text": text})
    return found


def read_average(text: str) -> Decimal:
    try:
        value = Decimal(text.replace(",", ".").replace(" ", ""))
    except InvalidOperation:
        raise ValueError(_("“%(text)s” is not a number") % {"text": text}) from None
    if not value.is_finite() or value < 0 or value > 300:
        raise ValueError(_("%(text)s is not a bowling average (0–300)") % {"text": text})
    return value.quantize(Decimal("0.01"))


def read_email(text: str) -> str:
    try:
        validate_email(text)
    except ValidationError:
        raise ValueError(_("“%(text)s” is not an e-mail address") % {"text": text}) from None
    return text


def read_yes_no(text: str) -> bool:
    found = YES_NO.get(normal(text))
    if found is None:
        raise ValueError(_("“%(text)s” is not yes or no") % {"text": text})
    return found


READERS = {
    "birth_date": read_date,
    "country": read_country,
    "gender": read_gender,
    "ladder_average": read_average,
    "email": read_email,
    "scored": read_yes_no,
}


def members_needed(kinds: Iterable[int]) -> int:
    """Member slots to offer: the largest entry of the rulebook, at most ``MAX_MEMBERS``."""
    return max(1, min(MAX_MEMBERS, max(kinds, default=1)))
