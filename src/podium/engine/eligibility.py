"""Eligibility: may this person enter, under which conditions, and why (with the clause).

Vocabulary:
- rule: one eligibility setting of the rulebook — a minimum age on a day, a latest birth date,
  or an age under which an accompanying adult is required.
- verdict: eligible or not, every reason that decided it, and what is still unknown (a rule that
  needs a birth date cannot be checked without one).
- age on a day: completed years on that day (a birthday on the day counts).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from podium.engine.entries import Reason
from podium.engine.messages import _
from podium.rules.schema.registration import AccompaniedUnder, BornOnOrBefore, Eligibility, MinAge


@dataclass(frozen=True, slots=True)
class Verdict:
    reasons: tuple[Reason, ...]
    failures: tuple[Reason, ...] = ()
    needs_adult: bool = False
    unknown: tuple[str, ...] = ()

    @property
    def eligible(self) -> bool:
        return not self.failures


def age_on(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def check(
    rules: Sequence[Eligibility],
    *,
    birth_date: dt.date | None,
    event_date: dt.date | None,
    accompanied: bool | None = None,
) -> Verdict:
    """Checks every rule; ``accompanied=None`` leaves the accompanying-adult rule unchecked."""
    reasons: list[Reason] = []
    failures: list[Reason] = []
    unknown: list[str] = []
    needs_adult = False
    for rule in rules:
        if isinstance(rule, BornOnOrBefore):
            if birth_date is None:
                unknown.append("birth_date")
                continue
            dates = {"born": birth_date.isoformat(), "latest": rule.date.isoformat()}
            if birth_date > rule.date:
                text = _("Born %(born)s, after %(latest)s: not eligible", **dates)
                failures.append(Reason(rule.clause, text))
            else:
                text = _("Born %(born)s, on or before %(latest)s", **dates)
                reasons.append(Reason(rule.clause, text))
            continue
        day = event_date if rule.on == "event-day" else rule.on
        if birth_date is None or day is None:
            unknown.append("birth_date" if birth_date is None else "event_date")
            continue
        age = age_on(birth_date, day)
        if isinstance(rule, MinAge):
            if age >= rule.age:
                text = _("%(age)s years old on %(day)s", age=age, day=day.isoformat())
                reasons.append(Reason(rule.clause, text))
            else:
                text = _("%(age)s years old on %(day)s; at least %(least)s required", age=age,
                         day=day.isoformat(), least=rule.age)  # fmt: skip
                failures.append(Reason(rule.clause, text))
        elif isinstance(rule, AccompaniedUnder) and age < rule.age:
            needs_adult = True
            if accompanied is False:
                text = _("%(age)s years old: under %(under)s only with an accompanying adult",
                         age=age, under=rule.age)  # fmt: skip
                failures.append(Reason(rule.clause, text))
            elif accompanied:
                text = _("%(age)s years old: takes part with an accompanying adult", age=age)
                reasons.append(Reason(rule.clause, text))
    return Verdict(
        tuple(reasons + failures), tuple(failures), needs_adult, tuple(dict.fromkeys(unknown))
    )
