"""The rules page's lines and sections, and the words they share (dates, shares, minutes, days).

Vocabulary:
- rule line: one sentence of the rules page, with the clause it comes from and, where the
  rulebook says so, our interpretation; lines may have lines under them.
- section: the lines of one part of the rulebook (registration, fees, a stage…).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import formats
from django.utils.translation import ngettext

from podium.rules.schema.common import Rule


@dataclass
class RuleLine:
    text: str
    clause: str | None = None
    interpretation: str | None = None
    children: list[RuleLine] = field(default_factory=list)


@dataclass
class RuleSection:
    key: str
    title: str
    lines: list[RuleLine] = field(default_factory=list)
    clause: str | None = None
    interpretation: str | None = None


def rule_line(text: str, rule: Rule | None = None, clause: str | None = None) -> RuleLine:
    return RuleLine(
        text,
        clause or (rule.clause if rule is not None else None),
        rule.interpretation if rule is not None else None,
    )


def date_text(value: dt.date) -> str:
    return formats.date_format(value, "DATE_FORMAT", use_l10n=True)


def percent_text(value: Decimal) -> str:
    return formats.number_format(value * 100, decimal_pos=0, use_l10n=True) + "\xa0%"


def minutes_text(n: int) -> str:
    return ngettext("%(n)d minute", "%(n)d minutes", n) % {"n": n}


def days_text(n: int) -> str:
    return ngettext("%(n)d day", "%(n)d days", n) % {"n": n}
