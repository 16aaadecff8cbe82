"""The rules page on a stage: what its format says, how a result becomes official and is
published, then how it ranks (``podium.rules.schema.stages``).

Vocabulary:
- rule line, section: see ``podium.web.events.selectors.rules.lines``.
- format lines: the sentences of the stage's own format (puzzles, games, a ChGK tour or season,
  battles, a superfinal), after the groups it is played in.
"""

from __future__ import annotations

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.rules.schema import Rulebook
from podium.rules.schema.stages import (
    ChgkSeasonStage,
    ChgkTourStage,
    GamesStage,
    HeadToHeadStage,
    Stage,
    SuperfinalStage,
    TeamSolveStage,
    TimedSolveStage,
)
from podium.web.events.selectors.rules.lines import RuleLine, RuleSection, minutes_text, rule_line
from podium.web.events.selectors.rules.ranking import ranking_lines
from podium.web.kernel.roles import confirmers_text
from podium.web.kernel.texts import rt


def _format_lines(stage: Stage, rulebook: Rulebook) -> list[RuleLine]:
    """What the stage's format says: its groups, then the lines of its own format."""
    lines: list[RuleLine] = []
    if stage.groups:
        lines.append(
            RuleLine(
                _("Played in groups %(groups)s, each ranked on its own.")
                % {"groups": ", ".join(stage.groups)}
            )
        )
    if isinstance(stage, TimedSolveStage | TeamSolveStage):
        lines.extend(_solve_lines(stage))
    elif isinstance(stage, GamesStage):
        lines.extend(_games_lines(stage))
    elif isinstance(stage, ChgkTourStage):
        lines.extend(_tour_lines(stage))
    elif isinstance(stage, ChgkSeasonStage):
        lines.extend(_season_lines(stage, rulebook))
    elif isinstance(stage, HeadToHeadStage):
        lines.extend(_battle_lines(stage))
    elif isinstance(stage, SuperfinalStage):
        lines.extend(_superfinal_lines(stage, rulebook))
    return lines


def _solve_lines(stage: TimedSolveStage | TeamSolveStage) -> list[RuleLine]:
    """A puzzle stage: the puzzles and the time limit, penalties, counting an unfinished puzzle,
    compensated time."""
    lines: list[RuleLine] = []
    if isinstance(stage, TimedSolveStage):
        text = _("One puzzle of %(pieces)d pieces; time limit %(time)s.") % {
            "pieces": stage.pieces,
            "time": minutes_text(stage.time_limit_min),
        }
    else:
        text = _(
            "Puzzles of %(pieces)s pieces, in an order the team chooses; time limit "
            "%(time)s in all."
        ) % {
            "pieces": " + ".join(str(p) for p in stage.puzzles),
            "time": minutes_text(stage.time_limit_min),
        }
    lines.append(RuleLine(text))
    if stage.missing_piece_penalty_s:
        text = ngettext(
            "Each piece missing at the finish adds %(n)d second to the time.",
            "Each piece missing at the finish adds %(n)d seconds to the time.",
            stage.missing_piece_penalty_s,
        ) % {"n": stage.missing_piece_penalty_s}
        lines.append(RuleLine(text, stage.penalty_clause))
    pc = stage.piece_counting
    if pc.method == "groups-of-at-least":
        text = _(
            "If the puzzle is not finished, only pieces in joined groups of at least %(n)d "
            "pieces count."
        )
    else:
        text = _(
            "If the puzzle is not finished, only pieces joined to at least %(n)d other pieces "
            "count."
        )
    lines.append(rule_line(text % {"n": pc.size}, pc))
    if isinstance(stage, TimedSolveStage) and stage.compensation is not None:
        text = _(
            "Time lost through no fault of the competitor (a faulty puzzle replaced) is "
            "given back and taken off the time."
        )
        lines.append(rule_line(text, stage.compensation))
    return lines


def _games_lines(stage: GamesStage) -> list[RuleLine]:
    """A bowling stage: its games and blocks, and the lanes."""
    lines: list[RuleLine] = []
    text = ngettext("%(n)d game", "%(n)d games", stage.games) % {"n": stage.games}
    if stage.blocks:
        text = _("%(games)s in blocks of %(blocks)s.") % {
            "games": text,
            "blocks": " + ".join(str(b) for b in stage.blocks),
        }
    else:
        text += "."
    if stage.tables_by == "division":
        text += " " + _("Each division is ranked on its own.")
    if not stage.re_entry:
        text += " " + _("No re-entry.")
    lines.append(RuleLine(text))
    if stage.lanes is not None:
        lines.append(
            rule_line(_("Lane pairs are drawn; players move between blocks."), stage.lanes)
        )
    return lines


def _tour_lines(stage: ChgkTourStage) -> list[RuleLine]:
    """A ChGK tour: its length."""
    lines: list[RuleLine] = []
    text = ngettext("A tour of %(n)d question.", "A tour of %(n)d questions.", stage.questions) % {
        "n": stage.questions
    }
    if stage.max_questions is not None:
        text = _(
            "A tour of %(n)d questions unless its masks give another length, up to %(max)d."
        ) % {"n": stage.questions, "max": stage.max_questions}
    lines.append(RuleLine(text))
    return lines


def _season_lines(stage: ChgkSeasonStage, rulebook: Rulebook) -> list[RuleLine]:
    """A ChGK season: the tours it adds up, and a team absent from one."""
    lines: list[RuleLine] = []
    tour = rulebook.stage(stage.tour)
    lines.append(RuleLine(_("Adds up every %(tour)s.") % {"tour": rt(tour.title)}))
    lines.append(
        RuleLine(
            _("A team absent from a tour is placed after the last team that played."),
            stage.absent_clause,
        )
    )
    return lines


def _battle_lines(stage: HeadToHeadStage) -> list[RuleLine]:
    """A league of battles: their length, the round-robin and the match points."""
    lines: list[RuleLine] = []
    m = stage.match
    text = ngettext(
        "Battles of %(n)d question between two teams",
        "Battles of %(n)d questions between two teams",
        m.questions,
    ) % {"n": m.questions}
    text += "; " + (
        ngettext(
            "a round-robin played %(n)d time.",
            "a round-robin played %(n)d times.",
            stage.rounds,
        )
        % {"n": stage.rounds}
    )
    lines.append(RuleLine(text))
    n = formats.number_format
    text = _("A win gives %(win)s points, a draw %(draw)s, a loss %(loss)s.") % {
        "win": n(m.win, use_l10n=True),
        "draw": n(m.draw, use_l10n=True),
        "loss": n(m.loss, use_l10n=True),
    }
    lines.append(rule_line(text, m))
    return lines


def _superfinal_lines(stage: SuperfinalStage, rulebook: Rulebook) -> list[RuleLine]:
    """A superfinal: its questions, the decider, and who plays it."""
    lines: list[RuleLine] = []
    names = {"chgk": _("ChGK"), "brainball": _("Brainball")}
    parts = [
        ngettext("%(n)d %(kind)s question", "%(n)d %(kind)s questions", count)
        % {"n": count, "kind": names[kind]}
        for kind, count in stage.sequence
    ]
    text = _("%(sequence)s, all counted together.") % {"sequence": ", ".join(parts)}
    lines.append(RuleLine(text))
    text = _("If still tied: pairs of questions (%(pair)s) until one team leads after a pair.")
    lines.append(RuleLine(text % {"pair": " + ".join(names[k] for k in stage.decider)}))
    if stage.winners_of:
        winners = ", ".join(rt(rulebook.stage(k).title) for k in stage.winners_of)
        text = _("Played between the winners of %(stages)s, if they are not one team.")
        lines.append(RuleLine(text % {"stages": winners}, stage.winners_clause))
    return lines


def _recording(stage: Stage) -> list[RuleLine]:
    """How a result becomes official, and when the stage's results are published."""
    rec, pub = stage.recording, stage.publication
    lines = []
    if "recording" in stage.model_fields_set:
        if rec.verification == "second-entry":
            text = _("A second referee enters every result independently; both must match.")
        else:
            text = _("The head referee confirms every result before it is official.")
        lines.append(rule_line(text, rec))
        if rec.verification == "head-referee" and "confirmed_by" in rec.model_fields_set:
            text = _("Who confirms the results: %(roles)s.") % {"roles": confirmers_text(rec)}
            lines.append(RuleLine(text, rec.confirmation_clause))
        if rec.competitor_confirms:
            text = _("The competitor agrees with the recorded result at the table")
            if rec.agreed_is_final:
                text += _("; no later claim is heard.")
            else:
                text += "."
            lines.append(RuleLine(text, rec.agreement_clause))
    if pub.preliminary_after_days is not None:
        text = ngettext(
            "Preliminary results are published %(n)d day after the round.",
            "Preliminary results are published %(n)d days after the round.",
            pub.preliminary_after_days,
        ) % {"n": pub.preliminary_after_days}
        lines.append(rule_line(text, pub))
    if pub.final_after:
        text = _("Final results only once the appeal window has closed and every verdict is in.")
        lines.append(rule_line(text, pub))
    return lines


def stage_section(stage: Stage, rulebook: Rulebook) -> RuleSection:
    section = RuleSection(f"stage-{stage.key}", rt(stage.title), clause=stage.clause)
    section.interpretation = stage.interpretation
    section.lines.extend(_format_lines(stage, rulebook))
    section.lines.extend(_recording(stage))
    section.lines.extend(ranking_lines(stage, rulebook))
    return section
