"""What each seat of The Tide sees, and the score in parts (SPEC.md, View).

Nothing is private (R1.5): the beach, the friends, every seat's holdings and points, the
removed tiles and the counters are public, and of the piles only the height and the top
(or, with ``pile_visibility=all``, the whole pile) are shown; the never-seen bottoms of the
piles are in no view (R8.3). The core adds ``you``, the decision and, at the end, the scores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from cove.games.the_tide.beach import COLS, ROWS
from cove.games.the_tide.data import DATA, SHELL, TILE_TYPES
from cove.games.the_tide.rules import SCORING_REWARDS, seat_points_by_reward

if TYPE_CHECKING:
    from cove.games.the_tide.state import TideState

NAMES: Final = DATA.names


def build_view(state: TideState, player: int | None) -> dict[str, Any]:
    """What ``player`` sees (``TideState._view``; None: a spectator): everything but the
    never-seen bottoms of the piles, the same for every seat (R1.5, R8.3)."""
    names: list[str | None] = [name or None for name in NAMES]
    grid, friends = state.grid, state.friends
    piles = []
    for pile in state.piles:
        entry: dict[str, Any] = {"height": len(pile), "top": names[pile[-1]] if pile else None}
        if state.rules.show_whole_piles:
            entry["tiles"] = [NAMES[tile] for tile in pile]
        piles.append(entry)
    seats = []
    for seat in range(state.n):
        held = state.held[seat]
        by_reward = seat_points_by_reward(state.points_by_reward, seat)
        seats.append({
            "held": {NAMES[tile]: held[tile] for tile in TILE_TYPES},
            "shells": held[SHELL],
            "points": state.points[seat],
            "points_by_reward": dict(zip(SCORING_REWARDS, by_reward, strict=True)),
            "tiles": sum(held),
            "friends_on_beach": state.friends_on_beach[seat],
            "friends_waiting": state.friends_waiting[seat],
        })
    view: dict[str, Any] = {
        "beach": [[names[grid[row * COLS + column]] for column in range(COLS)]
                  for row in range(ROWS)],
        "friends": [[friends[row * COLS + column] if friends[row * COLS + column] >= 0 else None
                     for column in range(COLS)] for row in range(ROWS)],
        "piles": piles,
        "pile_visibility": "all" if state.rules.show_whole_piles else "top",
        "seats": seats,
        "removed": {NAMES[tile]: state.removed[tile] for tile in TILE_TYPES},
        "active": state.active,
        "first_player": state.first_player,
        "turn": state.turns + 1,
        "idle_turns": state.idle_turns,
        "stall_limit": state.rules.stall_rounds * state.n,
        "stall_counts": "stuck" if state.rules.stuck_turns_only else "idle",
        "column_end": state.column_end,
        "end_reason": state.end_reason or None,
    }
    return view


def score_parts(view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Seat ``p``'s score in named parts, from the view alone: every point comes from a
    reward of the check (R6.4 recycling, R6.5 double recycling, R6.7 a specific collection
    of each rubbish type), and ``seats[p]["points_by_reward"]`` keeps what each kind
    brought. Every kind is a part, also at 0, so a table of parts has the same rows all
    game; they add up to ``seats[p]["points"]``, the score."""
    return [(reward, float(points))
            for reward, points in view["seats"][p]["points_by_reward"].items()]


def end_reason(view: dict[str, Any]) -> str:
    """Why the game ended, in plain words (the view's ``end_reason``, which says it so)."""
    return str(view.get("end_reason") or "")
