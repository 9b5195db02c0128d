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
from cove.games.the_tide.rules import KINDS, SCORED

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
    scored = state.scored
    for p in range(state.n):
        h = state.held[p]
        seats.append({
            "held": {NAMES[t]: h[t] for t in TILE_TYPES},
            "shells": h[SHELL],
            "points": state.points[p],
            "points_by_reward": dict(zip(SCORED, scored[p * KINDS:(p + 1) * KINDS],
                                         strict=True)),
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
    """Seat ``p``'s score in named parts, from the view alone: every point comes from a
    reward of the check (R6.4 recycling, R6.5 double recycling, R6.7 a specific collection
    of each rubbish type), and ``seats[p]["points_by_reward"]`` keeps what each kind
    brought. Every kind is a part, also at 0, so a table of parts has the same rows all
    game; they add up to ``seats[p]["points"]``, the score."""
    return [(kind, float(v)) for kind, v in view["seats"][p]["points_by_reward"].items()]
