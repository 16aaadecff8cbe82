"""The rules page on who competes officially, and the divisions players are sorted into
(``podium.rules.schema.classification``).

Vocabulary:
- rule line, section: see ``podium.web.events.selectors.rules.lines``.
"""

from __future__ import annotations

from django.utils import formats
from django.utils.translation import gettext as _

from podium.rules.schema import Rulebook
from podium.web.events.selectors.rules.lines import RuleLine, RuleSection, date_text, rule_line
from podium.web.kernel.texts import rt


def classification_section(rulebook: Rulebook) -> RuleSection | None:
    c = rulebook.classification
    if not (c.domestic or c.already_qualified or c.unscored or c.ineligible):
        return None
    section = RuleSection("classification", _("Who competes officially"), clause=c.clause)
    section.interpretation = c.interpretation
    if c.domestic:
        text = _(
            "Only entrants with a registered address in %(country)s compete for the title; "
            "the others compete outside the official order."
        )
        section.lines.append(
            rule_line(text % {"country": _country(c.domestic.country)}, c.domestic)
        )
        rules = {
            "all": _("A pair or team counts as domestic only if all its members are."),
            "any": _("A pair or team counts as domestic if any of its members is."),
            "majority": _("A pair or team counts as domestic if most of its members are."),
        }
        section.lines.append(
            RuleLine(rules[c.domestic.team_rule], c.domestic.team_rule_clause or c.domestic.clause)
        )
    if c.already_qualified:
        text = _(
            "Players who have already qualified for the final are shown, but not counted in the "
            "standings."
        )
        section.lines.append(rule_line(text, c.already_qualified))
    if c.unscored:
        text = _(
            "Teams outside the competition are shown with their position, but take no place "
            "and no points."
        )
        section.lines.append(rule_line(text, c.unscored))
    if c.ineligible:
        text = _(
            "Entrants who do not meet the eligibility rules are shown outside the competition."
        )
        section.lines.append(rule_line(text, c.ineligible))
    return section


def _country(code: str) -> str:
    names = {"CZ": _("the Czech Republic"), "IT": _("Italy"), "RU": _("Russia")}
    return names.get(code, code)


def divisions_section(rulebook: Rulebook) -> RuleSection | None:
    d = rulebook.divisions
    if d is None:
        return None
    section = RuleSection("divisions", _("Divisions"), clause=d.clause)
    section.interpretation = d.interpretation
    if d.reference_date:
        text = _(
            "Men and women play separately, each in divisions by their ladder average as of "
            "%(date)s."
        ) % {"date": date_text(d.reference_date)}
        section.lines.append(RuleLine(text))
    for item in d.items:
        low, high = item.average_min, item.average_max
        n = formats.number_format
        if low is not None and high is not None:
            bounds = _("average from %(low)s to %(high)s") % {
                "low": n(low, use_l10n=True),
                "high": n(high, use_l10n=True),
            }
        elif low is not None:
            bounds = _("average %(low)s or more") % {"low": n(low, use_l10n=True)}
        elif high is not None:
            bounds = _("average up to %(high)s") % {"high": n(high, use_l10n=True)}
        else:
            bounds = _("any average")
        section.lines.append(rule_line(f"{rt(item.title)}: {bounds}.", item))
    if any(item.fallback for item in d.items):
        section.lines.append(
            RuleLine(
                _("A player not on the ladder goes to the lowest division."), d.fallback_clause
            )
        )
    return section
