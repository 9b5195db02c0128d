"""A Gymnasium single-agent environment: one seat learns, Cove bots play the others."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cove.bots import Bot, BotSpecError, make_bot, split_specs
from cove.rl._match import EnvError, Match, Obs, check_seat
from cove.rl._multi import check_render_mode, obs_space
from cove.rl._tables import BotsTable


def bot_specs(opponents: str | Sequence[str], players: int) -> list[str]:
    """One bot spec per other seat, from ``cove play --bots`` style text (one spec for
    every seat, or one per seat in order) or a list of specs."""
    if not isinstance(opponents, str) and not (
            isinstance(opponents, Sequence) and all(isinstance(s, str) for s in opponents)):
        raise EnvError(f"opponents is a bot spec or a list of them (e.g. 'mcts', "
                       f"'random,greedy'), not {opponents!r}")
    specs = split_specs(opponents)
    others = players - 1
    if not specs:
        raise EnvError("opponents names no bot; give a bot spec such as 'random', 'greedy' "
                       "or 'mcts:iterations=200'")
    if len(specs) == 1:
        specs = specs * others
    if len(specs) != others:
        raise EnvError(f"opponents needs 1 spec or {others} specs (one per other seat), "
                       f"got {len(specs)}: {', '.join(specs)}")
    for s in specs:
        try:
            make_bot(s)
        except BotSpecError as e:
            raise EnvError(f"opponents: {e}") from None
    return specs


class CoveGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a Cove game as a Gymnasium environment (see docs/RESEARCH.md).

    The observation is ``{"observation": float32 array, "action_mask": int8 array}``; the
    action is an index into the game's action space. After the learner's action the bots
    in the other seats play until the learner is asked again or the game ends. In a
    simultaneous step the learner chooses first, and the bots never see its choice before
    they choose (they are handed ``state.for_player``).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's

    def __init__(self, game_id: str, players: int, seat: int = 0,
                 opponents: str | Sequence[str] = "mcts", *, reward: str = "win",
                 render_mode: str | None = None, on_illegal: str = "raise",
                 **options: Any) -> None:
        self.render_mode = check_render_mode(render_mode)
        self.match = Match(game_id, players, options, reward, on_illegal)
        self.seat = check_seat(seat, players)
        self.table = BotsTable(self.match, self.seat,
                               bot_specs(opponents, players) if players > 1 else [])
        self.observation_space = obs_space(self.match)
        self.action_space = spaces.Discrete(self.match.space.size)
        self._started = self._forfeited = False

    @property
    def specs(self) -> list[str]:
        """The bot spec of each other seat, in seat order."""
        return self.table.specs

    @property
    def bots(self) -> dict[int, Bot]:
        """The bots in the other seats, by seat."""
        return self.table.bots

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (the name sb3-contrib's MaskablePPO reads)."""
        return self.match.mask(self.seat).astype(bool)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Obs, dict[str, Any]]:
        """A new game (``options`` is accepted for the API and not used)."""
        super().reset(seed=seed)
        self.table.start(self.np_random)
        self._started = True
        self._forfeited = False
        return self.match.obs(self.seat), {}

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        if not self._started:
            raise EnvError("call reset() before step()")
        if self.match.over or self._forfeited:
            raise EnvError("the episode is over; call reset()")
        step = self.table.advance(action, self.np_random)
        self._forfeited = "illegal_action" in step.info
        return (self.match.obs(self.seat), float(step.reward), step.terminated,
                step.truncated, step.info)

    def render(self) -> str | None:
        """The learner's terminal screen, for ``render_mode="ansi"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; make the env "
                                  "with render_mode='ansi'")
            return None
        if not self._started:
            raise EnvError("call reset() before render()")
        return self.match.render(self.seat)
