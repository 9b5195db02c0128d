"""High Water's shared names: phases, segment steps, market rows and the dice pattern
matcher. A leaf module (it imports only the data), so the state, the view, the
explanations and the observation can all use it without importing each other.
"""

from __future__ import annotations

from collections.abc import Sequence

from cove.games.high_water.data import Icon

# phases (SHORT: between rounds, the bag holds fewer dice than Phase 1 draws, R23)
TRICK, PICK, SEG, OVER, SHORT = range(5)
PHASE_NAMES = ("trick", "crates", "segment", "over", "bag short")
STEP_NAMES = {
    1: "passive abilities",
    2: "active abilities",
    3: "dice actions",
    4: "buy cards",
    5: "advance quests",
    6: "remove sabotage",
}
CREW_ROW, QUEST_ROW = 0, 1


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
