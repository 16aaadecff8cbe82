"""Who competes officially, and why the others compete outside the official order.

Vocabulary:
- official: takes an official place, points, prizes and the official advancement spots.
- outside the competition: shown with an overall position only. Classes, checked in this order:
  ``ineligible`` (fails an eligibility rule, e.g. born after the cut-off), ``already-qualified``
  (already earned the final elsewhere), ``unscored`` (a team playing outside the scored
  competition) and ``foreign`` (not domestic).
- domestic: a person whose registered address is in the rulebook's country; a pair or team is
  domestic by the rulebook's team rule: ``all`` members, ``any`` member, or a ``majority``.
- classifier: classifies the entrants of one stage; a class follows from a birth date, the
  marks "qualified" and "scored" and the countries, so each combination is classified once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from podium.engine import eligibility
from podium.engine.entries import Reason
from podium.engine.errors import Problems
from podium.engine.inputs import Competitor
from podium.engine.messages import Message, _
from podium.rules.schema import Rulebook

# The wording for one entrant (``None``) and for each rule a team's members go by.
TEAM_RULES = {
    None: _("Outside the competition: registered in %(countries)s, not %(home)s").template,
    "all": _(
        "Outside the competition: registered in %(countries)s, not %(home)s (all members must be)"
    ).template,
    "any": _(
        "Outside the competition: registered in %(countries)s, not %(home)s (any members must be)"
    ).template,
    "majority": _(
        "Outside the competition: registered in %(countries)s, not %(home)s "
        "(majority members must be)"
    ).template,
}


def is_domestic(countries: Sequence[str], home: str, rule: str) -> bool:
    home_count = sum(c == home for c in countries)
    if rule == "all":
        return home_count == len(countries)
    if rule == "any":
        return home_count > 0
    return 2 * home_count > len(countries)


_Fields = tuple[dt.date | None, bool, bool, tuple[str, ...]]


class Classifier:
    """Classifies the entrants of one stage; ``members``: how many members an entry has (a
    range), against which a team's list of countries is checked."""

    def __init__(self, rulebook: Rulebook, *, members: tuple[int, int] = (1, 1)) -> None:
        self.rulebook = rulebook
        self.members = members
        # A class follows from four fields of an entrant, and a large field shares few of their
        # combinations: each is classified once (unless it is a problem, which names its row).
        self._known: dict[_Fields, tuple[str, Reason | None]] = {}

    def __call__(self, competitor: Competitor, problems: Problems) -> tuple[str, Reason | None]:
        """The entrant's class and, when outside the competition, the reason with its clause."""
        fields = (competitor.birth_date, competitor.qualified, competitor.scored,
                  competitor.countries)  # fmt: skip
        known = self._known.get(fields)
        if known is None:
            before = len(problems)
            known = self._classify(competitor, problems)
            if len(problems) == before:
                self._known[fields] = known
        return known

    def _classify(self, competitor: Competitor, problems: Problems) -> tuple[str, Reason | None]:
        rules = self.rulebook.classification
        ineligible = self._ineligibility(competitor)
        if ineligible is not None:
            text = _("Outside the competition: %(why)s", why=ineligible.message)
            return "ineligible", Reason(ineligible.clause, text)
        where = f"row {competitor.line}, column"
        if competitor.qualified:
            if rules.already_qualified is None:
                problems.add(
                    f"{where} qualified", _("this rulebook has no 'already qualified' rule")
                )
            else:
                text = _("Outside the competition: already qualified for the final; takes no place")
                return "already-qualified", Reason(rules.already_qualified.clause, text)
        if not competitor.scored:
            if rules.unscored is None:
                problems.add(
                    f"{where} scored", _("this rulebook has no competition outside the score")
                )
            else:
                text = _("Outside the competition: an unscored team; takes no place and no points")
                return "unscored", Reason(rules.unscored.clause, text)
        if rules.domestic is not None:
            domestic = rules.domestic
            countries = competitor.countries
            if not countries:
                problems.add(
                    f"{where} country",
                    _(
                        "a country is required: only entrants from %(home)s compete officially",
                        home=domestic.country,
                    ),
                )
                return "official", None
            low, high = members = self.members
            if len(countries) > 1 and not low <= len(countries) <= high:
                size = str(low) if low == high else f"{low}–{high}"
                problems.add(
                    f"{where} country",
                    _(
                        "%(n)s countries for an entry of %(size)s: give one per member",
                        n=len(countries),
                        size=size,
                    ),
                )
            if not is_domestic(countries, domestic.country, domestic.team_rule):
                template = TEAM_RULES[None if members == (1, 1) else domestic.team_rule]
                text = Message(
                    template, {"countries": "/".join(countries), "home": domestic.country}
                )
                return "foreign", Reason(domestic.clause, text)
        return "official", None

    def _ineligibility(self, competitor: Competitor) -> Reason | None:
        """A failed eligibility rule, where the row gives a birth date to check it by."""
        if competitor.birth_date is None:
            return None
        verdict = eligibility.check(
            self.rulebook.registration.eligibility,
            birth_date=competitor.birth_date,
            event_date=self.rulebook.event_date,
        )
        return None if verdict.eligible else verdict.failures[0]
