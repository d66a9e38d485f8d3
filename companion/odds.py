"""The exact chance that a throw forms its target, for the risk meter.

Durchmarsch targets 10-7 need two dice that add up to the target, targets
6-1 one die showing it (rulebook; ruling R4 in ``../shared/rules``). The
chance is computed exactly, as a :class:`fractions.Fraction`, by going over
every multiset of faces the dice can show (at most 1,287 for 8 dice) with its
multinomial probability; nothing is sampled.

Example::

    >>> round(float(chance(10, 8)), 4)
    0.7802
    >>> chance(6, 1)
    Fraction(1, 6)
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import factorial

from .durchmarsch import uses_pair

__all__ = ["chance", "odds_table", "TARGETS", "DICE_COUNTS"]

#: The targets of a row, from the first to the last mark (rulebook).
TARGETS = tuple(range(10, 0, -1))
#: The dice counts a throw can have: 8, then one fewer after each continue (rulebook).
DICE_COUNTS = (8, 7, 6, 5)


def _compositions(n: int, parts: int):
    """Every tuple of ``parts`` counts ≥ 0 that add up to ``n``."""
    if parts == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, parts - 1):
            yield (first,) + rest


def _forms(counts: tuple[int, ...], target: int) -> bool:
    """True when dice with ``counts[k]`` dice showing ``k + 1`` form ``target``."""
    if not uses_pair(target):
        return counts[target - 1] > 0
    for a in range(1, 7):
        b = target - a
        if not 1 <= b <= 6 or b < a:
            continue
        if a == b and counts[a - 1] >= 2:
            return True
        if a != b and counts[a - 1] > 0 and counts[b - 1] > 0:
            return True
    return False


@lru_cache(maxsize=None)
def chance(target: int, dice: int) -> Fraction:
    """The exact chance that ``dice`` fair dice form ``target`` in one throw.

    ``target``: 1-10; ``dice``: 1 or more (the game uses 8, 7, 6, 5). Returns
    a :class:`~fractions.Fraction` in [0, 1]. Raises ``ValueError`` for a
    target outside 1-10 or fewer than one die.
    """
    if not 1 <= target <= 10:
        raise ValueError(f"target {target!r} is not 1-10")
    if dice < 1:
        raise ValueError(f"a throw has at least one die, not {dice!r}")
    total = 0
    for counts in _compositions(dice, 6):
        if _forms(counts, target):
            ways = factorial(dice)
            for c in counts:
                ways //= factorial(c)
            total += ways
    return Fraction(total, 6 ** dice)


def odds_table() -> list[dict]:
    """Every case of the game: ``{"target", "dice", "chance"}`` (chance rounded
    to 4 places) for targets 10-1 and dice counts 8, 7, 6, 5."""
    return [
        {"target": t, "dice": n, "chance": round(float(chance(t, n)), 4)}
        for t in TARGETS
        for n in DICE_COUNTS
    ]
