"""The rules page on discipline: protests and appeals, sanctions, and duties
(``podium.rules.schema.discipline``).

Vocabulary:
- rule line, section: see ``podium.web.events.selectors.rules.lines``.
"""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from podium.rules.schema import Rulebook
from podium.rules.schema.discipline import Effect
from podium.web.events.selectors.rules.lines import RuleLine, RuleSection, days_text, rule_line
from podium.web.kernel.texts import money, rt


def appeals_section(rulebook: Rulebook) -> RuleSection | None:
    if not rulebook.appeals:
        return None
    section = RuleSection("appeals", _("Protests and appeals"))
    for a in rulebook.appeals:
        line = rule_line(rt(a.title), a)
        who = {"player": _("a player"), "team": _("a team"), "entrant": _("an entrant")}
        if a.final and not a.fee:
            line.children.append(
                RuleLine(_("The decision of %(whom)s is final.") % {"whom": rt(a.filed_with)})
            )
            section.lines.append(line)
            continue
        form = _("in writing") if a.form == "written" else _("in any form")
        text = _("Filed by %(who)s, %(form)s, with %(whom)s.") % {
            "who": who[a.filed_by],
            "form": form,
            "whom": rt(a.filed_with),
        }
        line.children.append(RuleLine(text))
        if a.kinds:
            kinds = {
                "withdraw-question": _("to withdraw the question"),
                "accept-answer": _("to accept an answer"),
            }
            text = _("Kinds: %(kinds)s.") % {"kinds": "; ".join(kinds.get(k, k) for k in a.kinds)}
            if a.one_kind_per_question:
                text += " " + _("A team may not file both kinds on one question.")
            line.children.append(RuleLine(text))
        if a.fee:
            price = money(a.fee.amount, a.fee.currency)
            if a.fee_is_deposit:
                text = _("A deposit of %(price)s.") % {"price": price}
            else:
                text = _("A fee of %(price)s.") % {"price": price}
            if a.refunded_if_upheld:
                text += " " + _("It is returned if upheld.")
            if a.forfeited_if_rejected:
                text += " " + _("It is forfeited if rejected.")
            line.children.append(RuleLine(text))
        if a.file_within_days is not None:
            line.children.append(
                RuleLine(_("Filed within %(days)s.") % {"days": days_text(a.file_within_days)})
            )
        if a.verdict_within_days is not None:
            text = _("The verdict is published within %(days)s.") % {
                "days": days_text(a.verdict_within_days)
            }
            line.children.append(RuleLine(text))
        if a.jury_size:
            text = _("A jury of %(n)d decides.") % {"n": a.jury_size}
            if a.anonymous:
                text += " " + _("It sees the appeal without the team's name.")
            if not a.jury_may_play:
                text += " " + _("Jury members do not play in the championship.")
            line.children.append(RuleLine(text))
        if a.decided_on_site:
            line.children.append(RuleLine(_("Decided on site.")))
        if a.further_appeal_to:
            text = _("A further appeal goes to %(whom)s.") % {"whom": rt(a.further_appeal_to)}
            line.children.append(RuleLine(text))
        if a.final:
            line.children.append(RuleLine(_("The decision is final.")))
        section.lines.append(line)
    return section


def _effect(e: Effect) -> RuleLine:
    texts = {
        "tour-result-zero": _("the team's result in the tour counts as 0"),
        "battle-loss": _("the battle is recorded as a loss %(score)s"),
        "player-disqualified": _("the player is disqualified until %(until)s"),
        "team-disqualified": _("the team is disqualified until %(until)s"),
        "not-admitted": _("not admitted"),
        "warning": _("a warning"),
        "expulsion": _("expulsion"),
        "fine": _("a fine"),
        "results-kept": _("results kept"),
        "results-annulled": _("results annulled"),
    }
    text = texts[e.kind] % {"score": e.score or "", "until": rt(e.until)}
    disciplines = {"chgk": _("ChGK"), "brainball": _("Brainball")}
    if e.discipline:
        text = f"{disciplines[e.discipline]}: {text}"
    if e.scope:
        text = f"{text} ({rt(e.scope)})"
    return rule_line(text, e)


def sanctions_section(rulebook: Rulebook) -> RuleSection | None:
    if not rulebook.sanctions:
        return None
    section = RuleSection("sanctions", _("Sanctions"))
    for sanction in rulebook.sanctions:
        line = rule_line(f"{capfirst(rt(sanction.when))}:", sanction)
        line.children.extend(_effect(e) for e in sanction.effects)
        section.lines.append(line)
    return section


def duties_section(rulebook: Rulebook) -> RuleSection | None:
    if not rulebook.duties:
        return None
    section = RuleSection("duties", _("Duties"))
    for d in rulebook.duties:
        text = f"{capfirst(rt(d.who))}: {rt(d.what)}"
        extra = []
        if d.minimum is not None:
            extra.append(_("at least %(n)d") % {"n": d.minimum})
        if d.days_before is not None:
            extra.append(_("%(days)s before") % {"days": days_text(d.days_before)})
        if extra:
            text += f" ({', '.join(extra)})"
        section.lines.append(rule_line(text + ".", d))
    return section
