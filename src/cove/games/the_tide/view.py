"""What each seat of The Tide sees, and the score in parts (SPEC.md, View).

Nothing is private (R1.5): the beach, the friends, every seat's holdings and points, the
removed tiles and the counters are public, and of the piles only the height and the top
(or, with ``pile_visibility=all``, the whole pile) are shown; the never-seen bottoms of the
piles are in no view (R8.3). The core adds ``you``, the decision and, at the end, the scores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cove.games.the_tide.beach import COLS, ROWS
from cove.games.the_tide.data import DATA, SHELL, TILE_TYPES

if TYPE_CHECKING:
    from cove.games.the_tide.state import TideState

NAMES = DATA.names


def build_view(state: TideState, player: int | None) -> dict[str, Any]:
    """What ``player`` sees (``TideState._view``; None: a spectator): everything but the
    never-seen bottoms of the piles, the same for every seat (R1.5, R8.3)."""
    names: list[str | None] = [n or None for n in NAMES]
    grid, fr = state.grid, state.fr
    piles = []
    for pile in state.piles:
        entry: dict[str, Any] = {"height": len(pile), "top": names[pile[-1]] if pile else None}
        if state.rules.show_all:
            entry["tiles"] = [NAMES[t] for t in pile]
        piles.append(entry)
    seats = []
    for p in range(state.n):
        h = state.held[p]
        seats.append({
            "held": {NAMES[t]: h[t] for t in TILE_TYPES},
            "shells": h[SHELL],
            "points": state.points[p],
            "tiles": sum(h),
            "friends_on_beach": state.onboard[p],
            "friends_waiting": state.waiting[p],
        })
    v: dict[str, Any] = {
        "beach": [[names[grid[r * COLS + c]] for c in range(COLS)] for r in range(ROWS)],
        "friends": [[fr[r * COLS + c] if fr[r * COLS + c] >= 0 else None
                     for c in range(COLS)] for r in range(ROWS)],
        "piles": piles,
        "pile_visibility": "all" if state.rules.show_all else "top",
        "seats": seats,
        "removed": {NAMES[t]: state.removed[t] for t in TILE_TYPES},
        "active": state.cur,
        "first_player": state.first,
        "turn": state.turns + 1,
        "idle_turns": state.idle,
        "stall_limit": state.rules.stall_rounds * state.n,
        "stall_counts": "stuck" if state.rules.stuck_only else "idle",
        "column_end": state.col_end,
        "end_reason": state.end_reason or None,
    }
    return v


def score_parts(view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Seat ``p``'s score in named parts, from the view alone. Every point comes from a
    reward of the check (recycling, double recycling, a specific collection; R6), but the
    view keeps only each seat's total (``seats[p]["points"]``), not what each reward brought,
    so the score is one part: the points."""
    return [("points", float(view["seats"][p]["points"]))]
