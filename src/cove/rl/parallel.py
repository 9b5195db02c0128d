"""The PettingZoo parallel environment: every player to move acts in the same step."""

from __future__ import annotations

from typing import Any

from pettingzoo import ParallelEnv

from cove.rl._match import EnvError, Obs, agent_name
from cove.rl._multi import MultiAgent


class CoveParallelEnv(MultiAgent, ParallelEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """A Cove game as a PettingZoo parallel environment (see docs/RESEARCH.md).

    Made for games whose every turn is simultaneous: each ``step``
    takes one action from every player the game asks now, and they are applied together.
    It works for any game: in a turn-based game one agent acts per step, and the actions
    of agents not asked (their ``action_mask`` is all zeros) are ignored.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class too
        "name": "cove_parallel_v0", "render_modes": ["ansi"]}

    def __init__(self, game_id: str, players: int, *, reward: str = "win",
                 render_mode: str | None = None, max_cycles: int | None = None,
                 on_illegal: str = "raise", **options: Any) -> None:
        self._setup(game_id, players, reward, render_mode, max_cycles, on_illegal, options,
                    "_parallel")
        self.agents: list[str] = []
        self._steps = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        """Start a new game (``options`` is accepted for the API and not used)."""
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self._steps = 0
        return ({a: self.match.obs(self._seat[a]) for a in self.agents},
                {a: {} for a in self.agents})

    def step(self, actions: dict[str, Any]) -> tuple[
            dict[str, Obs], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        if not self._started:
            raise EnvError("call reset() before step()")
        if not self.agents:
            raise EnvError("the episode is over; call reset()")
        if not isinstance(actions, dict):
            raise EnvError(f"actions is a dict from agent name to action index, "
                           f"not {type(actions).__name__}")
        assert self._rng is not None
        m = self.match
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        movers = m.to_move()
        missing = [agent_name(p) for p in movers if agent_name(p) not in actions]
        if missing:
            raise EnvError(f"no action for {', '.join(missing)}: the game asks "
                           + ", ".join(agent_name(p) for p in movers) + " now")
        for a in actions:
            self._seat_of(a)
        rewards = [0.0] * m.players
        forfeit = None
        for p in movers:
            if p not in m.to_move():  # the step ended early (the game is over)
                continue
            a = agent_name(p)
            if not m.play(p, actions[a], self._rng):
                forfeit = p
                infos[a]["illegal_action"] = int(actions[a])
                break
            if m.reward == "dense":
                rewards = [r + d for r, d in zip(rewards, m.step_rewards(), strict=True)]
        self._steps += 1
        truncated = terminated = False
        if forfeit is not None:
            rewards = m.forfeit_rewards(forfeit)
            terminated = True
        elif m.over:
            if m.reward != "dense":
                rewards = m.final_rewards()
            truncated = m.safety_end()
            terminated = not truncated
        elif self.max_cycles is not None and self._steps >= self.max_cycles:
            truncated = True
        obs = {a: m.obs(self._seat[a]) for a in self.agents}
        rew = {a: rewards[self._seat[a]] for a in self.agents}
        terms = dict.fromkeys(self.agents, terminated)
        truncs = dict.fromkeys(self.agents, truncated)
        if terminated or truncated:
            self.agents = []
        return obs, rew, terms, truncs, infos

    def render(self) -> str | None:
        """The spectator's terminal screen, for ``render_mode="ansi"``."""
        return self._render(None)
