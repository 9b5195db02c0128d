"""One-step lookahead on the game's heuristic: the cheap bot of graded skill.

For each legal action the bot applies it to a sampled world (``redeterminize`` from its
own view, so it never sees hidden cards and chance inside ``apply`` is resampled too)
and scores the result with the game's heuristic. With ``mode=margin`` (default) the
score is the bot's estimated lead over the best other player, ties broken by its own
estimate; ``mode=self`` maximises its own estimate only. Results are averaged over
``samples`` sampled worlds; exact ties are broken at random.
"""

from __future__ import annotations

from cove.bots.base import Bot
from cove.bots.evaluate import margin, values_fn
from cove.bots.spec import Param
from cove.core.state import Action, State

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

    def choose(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        game = state.game
        samples = self.samples or (AUTO_SAMPLES if game.chance or game.hidden_information else 1)
        values = values_fn(state)
        own_only = self.mode == "self"
        totals = [[0.0, 0.0] for _ in legal]
        for _ in range(samples):
            world = state.redeterminize(player, self.rng)
            world.logging = False
            for i, action in enumerate(legal):
                s = world.clone()
                s.apply(player, action)
                vals = values(s)
                t = totals[i]
                if not own_only:
                    t[0] += margin(vals, player)
                t[1] += vals[player]
        best = max(map(tuple, totals))
        ties = [a for a, t in zip(legal, totals, strict=True) if tuple(t) == best]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)
