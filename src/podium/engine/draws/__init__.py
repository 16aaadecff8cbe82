"""Draws: qualification groups, numbered tables, bowling lane pairs, ChGK host teams and the
Brainball battle schedule, each reproducible from its seed.

Vocabulary:
- seed: a string that fixes every random choice of a draw. It is recorded with the draw, so
  anyone can run the same function on the same entrants and seed and get the same answer.
- algorithm: the name and version of the procedure (``ALGORITHM``) plus the Python version that
  ran it. A draw is reproducible as long as both are equal; a change in either is visible in the
  stored result instead of silently giving a different answer.
- entrant: one entry taking part in a draw, known by its integer id.
- the draws: groups and tables (``podium.engine.draws.groups``), bowling lanes
  (``podium.engine.draws.lanes``), ChGK hosts and Brainball battles
  (``podium.engine.draws.leagues``).

Randomness comes only from ``random.Random(seed)`` with a ``str`` seed. CPython hashes a str seed
with SHA-512 into the Mersenne Twister state (seeding version 2, the default since Python 3.2),
so the stream does not depend on the platform, on ``PYTHONHASHSEED`` or on the process; the
methods used here (``shuffle``, which draws through ``_randbelow``) have given the same results
for the same seed from Python 3.2 on, but Python does not promise it forever — hence the
recorded algorithm string. Inputs are sorted by id before anything random happens, so the
order in which a caller lists the entrants never changes the result.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable
from itertools import pairwise

from podium.engine.messages import MessageError, _

DRAW_VERSION = "podium-draws/1"
ALGORITHM = (
    f"{DRAW_VERSION}; python-{sys.version_info.major}.{sys.version_info.minor} "
    "random.Random(str seed) Mersenne Twister"
)


class DrawError(MessageError):
    """The draw cannot be made as asked (duplicate ids, too many players for the lanes…)."""


def rng(seed: str) -> random.Random:
    """The only source of randomness: a Mersenne Twister seeded from the seed string."""
    if not isinstance(seed, str) or not seed:
        raise DrawError(_("a draw needs a non-empty seed string"))
    return random.Random(seed)


def sorted_unique(ids: Iterable[int]) -> list[int]:
    """The ids in order, each once: an id listed twice refuses the draw."""
    ordered = sorted(ids)
    for before, after in pairwise(ordered):
        if before == after:
            raise DrawError(_("entrant %(entrant)s is listed twice", entrant=before))
    return ordered
