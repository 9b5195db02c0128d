"""The dice-pattern matcher: whether distinct dice of a hold can pay every icon of a card's
cost (a small bipartite matching), with a quick check for the usual costs of one or two
particular icons (``Pattern``, ``affords``), which the legal-move lists run for every card.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from cove.core import pickle_records
from cove.games.high_water.data import Icon


def can_pay(icons: Sequence[Icon], dice: Sequence[int]) -> bool:
    """Whether distinct dice can be assigned to every icon (a small bipartite matching)."""
    if len(icons) > len(dice):
        return False
    order = sorted(icons, key=lambda ic: len(ic.accepts))
    return match_icons(order, 0, dice_counts(dice))


def dice_counts(dice: Sequence[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for d in dice:
        counts[d] = counts.get(d, 0) + 1
    return counts


def match_icons(icons: Sequence[Icon], k: int, counts: dict[int, int]) -> bool:
    if k == len(icons):
        return True
    acc = icons[k].accepts
    for code, c in counts.items():
        if c and code in acc:
            counts[code] = c - 1
            ok = match_icons(icons, k + 1, counts)
            counts[code] = c
            if ok:
                return True
    return False


@dataclass(frozen=True, slots=True)
class Pattern:
    """A cost made ready for :func:`affords`: an icon that takes any die only needs a die
    left over, so only the other icons are matched."""

    size: int  # icons in the cost
    icons: tuple[frozenset[int], ...]  # what each other icon accepts, most restrictive first
    disjoint: bool  # no die satisfies two of ``icons``
    order: tuple[Icon, ...]  # the whole cost, most restrictive first (the general case)


def pattern(order: Sequence[Icon], codes: Collection[int]) -> Pattern:
    """``order``: a cost, most restrictive icon first; ``codes``: every die code."""
    every = frozenset(codes)
    icons = tuple(ic.accepts for ic in order if not every <= ic.accepts)
    disjoint = all(a.isdisjoint(b) for i, a in enumerate(icons) for b in icons[i + 1:])
    return Pattern(len(order), icons, disjoint, tuple(order))


def affords(pat: Pattern, dice: Sequence[int]) -> bool:
    """Whether distinct dice of ``dice`` can pay every icon of the pattern (``can_pay``,
    with the usual costs of one or two particular icons checked without a search)."""
    if len(dice) < pat.size:
        return False
    icons = pat.icons
    k = len(icons)
    if k == 0:
        return True
    if k == 1:
        return not icons[0].isdisjoint(dice)
    if k == 2:
        a, b = icons
        if pat.disjoint:
            return not a.isdisjoint(dice) and not b.isdisjoint(dice)
        in_b = sum(1 for d in dice if d in b)
        # a die for a, then another one for b (the die for a may itself be one of b's)
        return any(d in a and (d not in b or in_b > 1) for d in dice) if in_b else False
    return match_icons(pat.order, 0, dice_counts(dice))


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
