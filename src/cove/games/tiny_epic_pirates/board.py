"""The board and the turn's vocabulary: the 4x4 sea, the Deck Assignments, the task kinds.

A leaf module (it imports nothing of the game), so the rules, the view, the observation,
the solo pirate and the heuristic share these names without importing one another.

Board: cards 0..15, row-major, written a1..d4 (row letter, column digit).
Assignments: 0 Rigging, 1 Cannons, 2 Extort, 3 Repair. Wheel spaces 0..5 (0 = Hide Out).
"""

from __future__ import annotations

RIG, CAN, EXT, REP = range(4)
ASSIGN = ("rigging", "cannons", "extort", "repair")
DIRS = ((-1, 0, "north"), (0, 1, "east"), (1, 0, "south"), (0, -1, "west"))
CORNERS = (0, 3, 12, 15)
OPPOSITE = {0: 15, 15: 0, 3: 12, 12: 3}

# Neighbours: for each card, tuple of (dir index, card).
NEIGH: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (d, (r + dr) * 4 + (c + dc))
        for d, (dr, dc, _) in enumerate(DIRS)
        if 0 <= r + dr < 4 and 0 <= c + dc < 4
    )
    for r in range(4)
    for c in range(4)
)


def cell(i: int) -> str:
    return "abcd"[i // 4] + str(i % 4 + 1)


def dist(a: int, b: int) -> int:
    return abs(a // 4 - b // 4) + abs(a % 4 - b % 4)


# Tasks. Decisions first, then automatic steps (>= T_AUTO).
(
    T_NAVY_SETUP, T_COVE, T_SIDE, T_WHEEL, T_PAY, T_RELEASE, T_SAIL, T_JOSTLE, T_ORDER,
    T_KEEP, T_CREW, T_DIST, T_CAPBURY, T_CAPT2, T_CREWBONUS, T_FIRE, T_PORT, T_NEWHAND,
    T_NAVY_MOVE, T_LOSE, T_REASSIGN,
) = range(21)
T_AUTO = 100
(
    T_START, T_WHEEL_DONE, T_BONUS_SETUP, T_ROLL, T_RESOLVE, T_MCUBE, T_LEGEND, T_END_TURN,
    T_NAVY_FIGHT, T_NEXT,
) = range(T_AUTO, T_AUTO + 10)

# Battle kinds.
B_MERCHANT, B_PIRATE, B_NAVY = range(3)

Task = tuple[int, int, int]

# What each decision task asks, for views and prompts (indexed by task kind).
TASK_NAMES = (
    "place the navy", "choose a starting cove", "choose a captain side", "move the captain",
    "pay a deckhand to skip", "assign a released deckhand", "sail", "jostled",
    "carry out the order", "ship full", "crew up", "place deckhands", "captain's bury",
    "captain's second bonus", "crew bonus actions", "battle: fire", "merchant port",
    "place the new deckhand", "navy course", "lose a cube to the navy", "reassign deckhands",
)
