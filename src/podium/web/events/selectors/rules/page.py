"""The rules page: the rulebook as readable sections, in the order a reader meets them.

Vocabulary:
- rule line, section: see ``podium.web.events.selectors.rules.lines``.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from podium.rules.schema import Rulebook
from podium.web.events.selectors.rules.classification import (
    classification_section,
    divisions_section,
)
from podium.web.events.selectors.rules.discipline import (
    appeals_section,
    duties_section,
    sanctions_section,
)
from podium.web.events.selectors.rules.lines import RuleLine, RuleSection, rule_line
from podium.web.events.selectors.rules.ranking import prizes_line
from podium.web.events.selectors.rules.registration import (
    desk_section,
    entrants_line,
    fees_section,
    registration_section,
)
from podium.web.events.selectors.rules.stages import stage_section
from podium.web.kernel.texts import rt


def rules_sections(rulebook: Rulebook) -> list[RuleSection]:
    """The rulebook as readable sections, every sentence with its clause."""
    sections: list[RuleSection] = []
    entrants = RuleSection("entrants", _("Categories and entrants"))
    for category in rulebook.categories:
        entrants.lines.append(entrants_line(category, category.cap))
        if category.prizes:
            entrants.lines.append(prizes_line(category.prizes))
    sections.append(entrants)
    if rulebook.season:
        season = rulebook.season
        text = _("The season runs from %(starts)s to %(ends)s.") % {
            "starts": season.starts,
            "ends": season.ends,
        }
        if season.middle_tour:
            text += " " + _("The middle tour is %(tour)s.") % {"tour": rt(season.middle_tour)}
        entrants.lines.insert(0, rule_line(text, season))
    sections.append(registration_section(rulebook))
    for optional in (
        classification_section(rulebook),
        divisions_section(rulebook),
        fees_section(rulebook),
        desk_section(rulebook),
    ):
        if optional is not None:
            sections.append(optional)
    sections.extend(stage_section(stage, rulebook) for stage in rulebook.stages)
    for optional in (
        appeals_section(rulebook),
        sanctions_section(rulebook),
        duties_section(rulebook),
    ):
        if optional is not None:
            sections.append(optional)
    if rulebook.notes:
        notes = RuleSection("notes", _("Notes"))
        for note in rulebook.notes:
            notes.lines.append(RuleLine(rt(note.interpretation), note.clause))
        sections.append(notes)
    return sections
