"""Play-offs: ties for a prize place settled by an extra match (ChGK п. 12).

Vocabulary:
- held group: a tie the ranking keeps together for a play-off (``Placed.playoff``): still equal
  after the criterion the rulebook names, on a prize place.
- play-off result: what one team did in the play-off, in the order asked — the questions it
  took in the extra match, then each single extra question (1 or 0): ``(4, 1, 0)``.
- settled: a held group ordered by its teams' results, compared as sequences: the match first,
  then the first extra question that separates them. Teams still equal stay tied and held (the
  play-off goes on); a group with a team that has no result yet stays as it was (pending).
- uneven: two teams of a group equal on every question both played, one having played more —
  each extra question is asked of every team still tied, so such results are a mistake.
- needless: in a group where every team has its result, a team with extra questions after the
  match or question that had already separated it from every other team — nobody asks a team
  that is no longer tied, so such a result is a mistake too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from podium.engine.messages import Message, Span, _
from podium.engine.ranking import Placed


def describe(result: Sequence[int]) -> Message:
    """``(4, 1, 0)`` → ``4 in the match, then 1, 0``."""
    if len(result) == 1:
        return _("%(match)s in the match", match=result[0])
    then = ", ".join(str(q) for q in result[1:])
    return _("%(match)s in the match, then %(then)s", match=result[0], then=then)


def _groups(placed: Sequence[Placed]) -> list[list[Placed]]:
    groups: list[list[Placed]] = []
    for p in placed:
        if groups and groups[-1][0].place == p.place:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def uneven(placed: Sequence[Placed], results: Mapping[str, Sequence[int]]) -> list[tuple[str, str]]:
    """Pairs of teams of one held group whose results are uneven (see the vocabulary)."""
    pairs: list[tuple[str, str]] = []
    for group in _groups(placed):
        if not group[0].playoff:
            continue
        ids = [p.entry.id for p in group if p.entry.id in results]
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                ra, rb = tuple(results[a]), tuple(results[b])
                shorter = min(len(ra), len(rb))
                if len(ra) != len(rb) and ra[:shorter] == rb[:shorter]:
                    pairs.append((a, b))
    return pairs


def needless(placed: Sequence[Placed], results: Mapping[str, Sequence[int]]) -> list[str]:
    """Teams of held groups whose results go on after they were separated (see the
    vocabulary)."""
    found: list[str] = []
    for group in _groups(placed):
        if not group[0].playoff or any(p.entry.id not in results for p in group):
            continue
        for p in group:
            mine = tuple(results[p.entry.id])
            others = [tuple(results[q.entry.id]) for q in group if q is not p]
            # The questions after the one that separated it from everybody were never asked.
            asked = next(
                (k for k in range(1, len(mine) + 1) if all(o[:k] != mine[:k] for o in others)),
                len(mine),
            )
            if len(mine) > asked:
                found.append(p.entry.id)
    return found


def settle(placed: Sequence[Placed], results: Mapping[str, Sequence[int]]) -> list[Placed]:
    """The ranking with every held group that has all its play-off results ordered by them."""
    settled: list[Placed] = []
    for group in _groups(placed):
        held = group[0].playoff and len(group) > 1
        if not held or any(p.entry.id not in results for p in group):
            settled.extend(group)
            continue
        ordered = sorted(group, key=lambda p: tuple(-q for q in results[p.entry.id]))
        place = group[0].place
        i = 0
        while i < len(ordered):
            same = [p for p in ordered[i:] if results[p.entry.id] == results[ordered[i].entry.id]]
            last = place + len(same) - 1
            for p in same:
                mine = describe(results[p.entry.id])
                text = (
                    _("Play-off: %(result)s; still tied for places %(places)s", result=mine,
                      places=Span(place, last))
                    if len(same) > 1
                    else _("Play-off: %(result)s — place %(place)s", result=mine, place=place)
                )  # fmt: skip
                settled.append(p._replace(place=place, place_to=last, playoff=len(same) > 1,
                                       split=None, settled=text))  # fmt: skip
            place = last + 1
            i += len(same)
    return settled
