"""OpenSpiel's own information-set MCTS as a Cove bot: an outside opponent for the ladder.

``IsmctsBot`` seats ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` at a Cove table. It
searches the game as OpenSpiel sees it through Cove's registration
(:mod:`cove.rl.openspiel`): the state it is handed (``Bot.act`` gives it
``state.for_player``, so it never reads what its seat may not see) is wrapped as a
:class:`~cove.rl.openspiel.CoveSpielState`, the tree is keyed by OpenSpiel's information
state strings (Cove's ``infoset_key``), each simulation starts from a world resampled with
``resample_from_infostate`` (Cove's ``redeterminize``) and a new leaf is valued by
OpenSpiel's ``RandomRolloutEvaluator`` (uniform moves to the end of the game, the
win-share returns). Nothing of Cove's own search is used.

Two things differ from calling ``ISMCTSBot`` by hand, both for repeatable games:

- the worlds are drawn from the bot's seeded generator (OpenSpiel's default resampler
  draws from an unseeded ``UniformProbabilitySampler``), and
- the bot's numpy generator is a ``RandomState`` seeded from the Cove seed.

Needs ``cove[openspiel]``. The lab builds these bots through
:func:`cove.lab.ladder.make_entry` under the spec name ``ismcts``; they are not in
``cove.bots.BOTS`` (the bots package stays free of numpy and OpenSpiel).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from cove.bots.base import Bot
from cove.bots.spec import Param, parse_params
from cove.core.rng import Rng
from cove.core.state import Action, State
from cove.rl.openspiel import LIST_SEP, CoveSpielGame, CoveSpielState, register

NAME = "ismcts"
DEFAULT_SIMULATIONS = 100
DEFAULT_C = 2.0


@functools.cache
def spiel_game(game_id: str, players: int,
               options: tuple[tuple[str, Any], ...]) -> CoveSpielGame:
    """The OpenSpiel game of one Cove configuration (made once per process)."""
    params: dict[str, Any] = {"players": players}
    for name, value in options:
        params[name] = LIST_SEP.join(map(str, value)) if isinstance(value, list | tuple) \
            else value
    game = pyspiel.load_game(register(game_id), params)
    assert isinstance(game, CoveSpielGame)
    return game


class IsmctsBot(Bot):
    """OpenSpiel's Python ``ISMCTSBot`` (UCT, the most visited move, random rollouts)."""

    name = NAME
    summary = ("OpenSpiel's own information-set MCTS (open_spiel ISMCTSBot, random "
               "rollouts), through Cove's OpenSpiel registration")
    PARAMS = (
        Param("simulations", DEFAULT_SIMULATIONS, "ISMCTS simulations per move, each in a "
              "freshly resampled world", minimum=1),
        Param("c", DEFAULT_C, "UCT exploration constant (returns are win shares in [0, 1])",
              minimum=0),
        Param("rollouts", 1, "random rollouts to the end of the game per new leaf",
              minimum=1),
    )

    def __init__(self, seed: int = 0, simulations: int = DEFAULT_SIMULATIONS,
                 c: float = DEFAULT_C, rollouts: int = 1) -> None:
        super().__init__(seed)
        self.simulations = simulations
        self.c = c
        self.rollouts = rollouts
        self.last_iterations = 0
        self._np = np.random.RandomState(seed & 0xFFFFFFFF)
        self._bot: Any = None
        self._game: CoveSpielGame | None = None

    def _searcher(self, state: State) -> tuple[CoveSpielGame, Any]:
        options = tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                               for k, v in state.options.to_dict().items()))
        game = spiel_game(state.game.id, len(state.scores()), options)
        if self._bot is None or self._game is not game:
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts,
                                                    random_state=self._np)
            bot = ismcts.ISMCTSBot(game, evaluator, uct_c=self.c,
                                   max_simulations=self.simulations,
                                   random_state=self._np)
            rng: Rng = self.rng

            def resample(s: CoveSpielState, player: int) -> CoveSpielState:
                return CoveSpielState(game, s.state.redeterminize(player, rng))

            bot.set_resampler(resample)
            self._bot, self._game = bot, game
        return game, self._bot

    def choose(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        game, bot = self._searcher(state)
        spiel_state = CoveSpielState(game, state)
        index = int(bot.step(spiel_state))
        self.last_iterations = self.simulations
        action: Action = game.match.space.decode(index, state, player)
        return action


def make(spec_params: str, seed: int) -> IsmctsBot:
    """An :class:`IsmctsBot` from the parameter text of an ``ismcts:...`` spec."""
    return IsmctsBot(seed, **parse_params(NAME, IsmctsBot.PARAMS, spec_params))


__all__ = ["NAME", "IsmctsBot", "make", "spiel_game"]
