"""The rules page on ranking: the criteria in order, play-offs, points per place, advancement
and prizes (``podium.rules.schema.ranking``).

Vocabulary:
- rule line: see ``podium.web.events.selectors.rules.lines``.
"""

from __future__ import annotations

import contextlib

from django.utils import formats
from django.utils.translation import gettext as _

from podium.rules.schema import Rulebook
from podium.rules.schema.ranking import Advancement, Prizes
from podium.rules.schema.stages import Stage
from podium.web.events.selectors.rules.lines import RuleLine, rule_line
from podium.web.kernel.texts import rt


def _criterion(key: str) -> str:
    labels = {
        "finished": _("finishers rank before those who did not finish"),
        "time": _("the shorter time (with penalties)"),
        "pieces": _("more pieces correctly placed"),
        "puzzles-done": _("more puzzles finished"),
        "total": _("the higher total pinfall"),
        "high-game": _("the higher best game"),
        "low-game": _("the higher lowest game"),
        "high-game-2": _("the higher second-best game"),
        "low-game-2": _("the higher second-lowest game"),
        "high-game-3": _("the higher third-best game"),
        "low-game-3": _("the higher third-lowest game"),
        "questions": _("more questions taken"),
        "question-rating": _(
            "the higher question rating (a question taken by k of N teams is worth N − k + 1)"
        ),
        "points": _("more points"),
        "season-questions": _("more questions taken over the season"),
        "season-place-sum": _("the lower sum of places over all tours"),
        "match-points": _("more match points"),
        "head-to-head": _("more match points in the battles among the tied teams"),
        "question-difference": _("the better question difference"),
    }
    return labels.get(key, key)


def ranking_lines(stage: Stage, rulebook: Rulebook) -> list[RuleLine]:
    """How the stage ranks: its criteria in order, a play-off, points per place, who advances
    and who wins a prize."""
    lines: list[RuleLine] = []
    ranking = RuleLine(
        _("Ranking, criterion by criterion:"),
        stage.ranking.clause,
        stage.ranking.interpretation,
    )
    for criterion in stage.ranking.criteria:
        ranking.children.append(rule_line(_criterion(criterion.key), criterion))
    lines.append(ranking)
    if stage.ranking.playoff:
        p = stage.ranking.playoff
        text = _(
            "A tie for places %(first)d to %(last)d that remains after “%(after)s” is settled by "
            "%(how)s."
        ) % {
            "first": p.places[0],
            "last": p.places[1],
            "after": _criterion(p.after),
            "how": rt(p.method),
        }
        lines.append(rule_line(text, p))
    if stage.points:
        pts = stage.points
        n = formats.number_format
        text = _(
            "Points for places 1 to %(n)d: %(points)s. Entrants sharing places share their "
            "points, to %(decimals)d decimals."
        ) % {
            "n": len(pts.per_place),
            "points": ", ".join(n(p, use_l10n=True) for p in pts.per_place),
            "decimals": pts.decimals,
        }
        lines.append(rule_line(text, pts))
    if stage.advancement:
        lines.append(advancement_line(stage.advancement, rulebook))
    if stage.prizes:
        lines.append(prizes_line(stage.prizes))
    return lines


def advancement_line(adv: Advancement, rulebook: Rulebook) -> RuleLine:
    target = adv.to
    if target:
        with contextlib.suppress(KeyError):
            target = rt(rulebook.stage(target).title)
        line = RuleLine(
            _("Advance to %(stage)s:") % {"stage": target}, adv.clause, adv.interpretation
        )
    else:
        line = RuleLine(_("Advance to the next round:"), adv.clause, adv.interpretation)
    for pool in adv.pools:
        text = _("the best %(count)d %(label)s of each group") % {
            "count": pool.count,
            "label": rt(pool.label),
        }
        line.children.append(rule_line(text, pool))
    titles = {d.key: rt(d.title) for d in rulebook.divisions.items} if rulebook.divisions else {}
    for table, pools in adv.pools_by_table.items():
        for pool in pools:
            text = _("%(table)s: places 1 to %(count)d") % {
                "table": titles.get(table, table),
                "count": pool.count,
            }
            line.children.append(rule_line(text, pool))
    if adv.ties_at_cut == "all-advance":
        text = _("On a tie across the cut line, every tied entrant advances.")
    else:
        text = _("On a tie across the cut line, the organizers decide who advances.")
    line.children.append(RuleLine(text, adv.ties_clause))
    return line


def prizes_line(prizes: Prizes) -> RuleLine:
    # Not a plural: "place 1" and "places 1 to n" are two sentences (in Russian the plural
    # form of 1 also serves 21, which would read "a prize for place 21").
    if prizes.places == 1:
        text = _("A prize for place 1.")
    else:
        text = _("Prizes for places 1 to %(n)d.") % {"n": prizes.places}
    if prizes.official_only:
        text += " " + _("Only entrants in the official order receive them.")
    return rule_line(text, prizes)
