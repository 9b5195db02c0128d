"""One-step lookahead on the game's heuristic: the cheap bot of graded skill.

For each legal action the bot applies it to a sampled world (``redeterminize`` from its
own view, so it never sees hidden cards and chance inside ``apply`` is resampled too)
and scores the result with the game's heuristic: the one-step lookahead of
:func:`cove.bots.evaluate.lookahead`, which ``mcts`` uses to rank its root moves. With
``mode=margin`` (default) the score is the bot's estimated lead over the best other player,
ties broken by its own estimate; ``mode=self`` maximises its own estimate only. Results
are averaged over ``samples`` sampled worlds; exact ties are broken at random.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cove.bots.base import Bot
from cove.bots.evaluate import lookahead, values_fn
from cove.bots.spec import Param
from cove.core.state import Action, State

if TYPE_CHECKING:
    from cove.bots.budget import Budget

AUTO_SAMPLES = 4
"""Worlds averaged when ``samples=0`` and the game has chance or hidden information."""


class GreedyBot(Bot):
    name = "greedy"
    summary = "one-step lookahead maximising the game's heuristic"
    PARAMS = (
        Param("samples", 0, "sampled worlds averaged per move (0: 1 for games without chance "
              f"or hidden information, else {AUTO_SAMPLES})", minimum=0, maximum=256),
        Param("mode", "margin", "margin = lead over the best other player, self = own "
              "estimate only", choices=("margin", "self")),
    )

    def __init__(self, seed: int = 0, samples: int = 0, mode: str = "margin") -> None:
        super().__init__(seed)
        self.samples = samples
        self.mode = mode

    def over_budget(self, budget: Budget, game: object | None = None) -> str | None:
        if self.samples > budget.samples:
            return f"samples={self.samples} (at most {budget.samples})"
        return None

    def choose(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        game = state.game
        samples = self.samples or (AUTO_SAMPLES if game.chance or game.hidden_information else 1)
        if self.budget is not None:
            samples = min(samples, self.budget.samples)
        rated = lookahead(state, player, legal, values_fn(state), self.rng, samples)
        keys = [(own,) if self.mode == "self" else (lead, own) for lead, own in rated]
        best = max(keys)
        ties = [a for a, k in zip(legal, keys, strict=True) if k == best]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)
