"""What the AEC and parallel environments share: agents, spaces, seeding, rendering."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.logger import warn

from cove.rl._match import EnvError, Match, agent_name, check_max_cycles


def obs_space(m: Match) -> spaces.Dict:
    """``{"observation": float32 Box of the game's size, "action_mask": int8 Box}``. The
    bounds are unbounded: the contract fixes the length of an observation, not its range."""
    return spaces.Dict({
        "observation": spaces.Box(-np.inf, np.inf, (m.obs_size,), np.float32),
        "action_mask": spaces.Box(0, 1, (m.space.size,), np.int8),
    })


def seed_rng(seed: int | None, rng: np.random.Generator | None) -> np.random.Generator:
    """The generator an environment draws game seeds from: a fresh one from ``seed``, or
    the one it has (an unseeded one the first time)."""
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
            raise EnvError(f"seed must be a whole number or None, not {seed!r}")
        return np.random.default_rng(int(seed))
    return rng if rng is not None else np.random.default_rng()


def check_render_mode(render_mode: object) -> str | None:
    if render_mode not in (None, "ansi"):
        raise EnvError(f"render_mode={render_mode!r} is not valid; use 'ansi' or None")
    return render_mode


class MultiAgent:
    """Agents ``player_0 ..`` with one shared observation and action space each."""

    metadata: dict[str, Any]

    def _setup(self, game_id: str, players: int, reward: str, render_mode: str | None,
               max_cycles: int | None, on_illegal: str, options: dict[str, Any],
               suffix: str) -> None:
        self.render_mode = check_render_mode(render_mode)
        self.match = Match(game_id, players, options, reward, on_illegal)
        self.max_cycles = check_max_cycles(max_cycles)
        self.game_id = self.match.game.id
        self.metadata = {**self.metadata,
                         "name": f"cove_{self.game_id.replace('-', '_')}{suffix}_v0"}
        self.possible_agents = [agent_name(p) for p in range(players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        space = obs_space(self.match)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        act = spaces.Discrete(self.match.space.size)
        self.action_spaces = dict.fromkeys(self.possible_agents, act)
        self._rng: np.random.Generator | None = None
        self._started = False

    def _seat_of(self, agent: str) -> int:
        try:
            return self._seat[agent]
        except (KeyError, TypeError):
            raise EnvError(f"no agent {agent!r}; agents: {', '.join(self.possible_agents)}")\
                from None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self.possible_agents[self._seat_of(agent)]]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self.possible_agents[self._seat_of(agent)]]

    def _new_game(self, seed: int | None) -> None:
        self._rng = seed_rng(seed, self._rng)
        self.match.reset(int(self._rng.integers(2**62)))
        self._started = True

    def _render(self, seat: int | None) -> str | None:
        if self.render_mode is None:
            warn("render() was called without a render_mode; make the env with "
                 "render_mode='ansi'")
            return None
        if not self._started:
            raise EnvError("call reset() before render()")
        return self.match.render(seat)

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""
