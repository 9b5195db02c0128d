"""Position evaluation shared by the greedy and MCTS bots.

A game may declare ``GAME.heuristic(state, player) -> float``: an estimate of the player's
final score from what that player can see. Without one the bots use the running score
(``state.scores()``). Once the game is over both use the final scores.
"""

from __future__ import annotations

from collections.abc import Callable

from cove.core.state import State

Values = Callable[[State], list[float]]


def values_fn(state: State) -> Values:
    """A function giving every player's estimated final score in a state of this game."""
    h = state.game.heuristic
    if h is None:
        return _scores
    heuristic = h

    def values(s: State) -> list[float]:
        if s.is_over:
            return [float(v) for v in s.scores()]
        return [float(heuristic(s, p)) for p in range(s.n)]

    return values


def _scores(s: State) -> list[float]:
    return [float(v) for v in s.scores()]


def margin(vals: list[float], player: int) -> float:
    """The player's lead over the best other player (negative when behind)."""
    best_other = max((v for q, v in enumerate(vals) if q != player), default=0.0)
    return vals[player] - best_other
