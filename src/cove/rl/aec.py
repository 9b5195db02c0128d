"""The PettingZoo AEC environment of any Cove game."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from cove.rl._match import EnvError, Obs
from cove.rl._multi import MultiAgent


class CoveAECEnv(MultiAgent, AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """A Cove game as a PettingZoo AEC environment (see docs/RESEARCH.md).

    Agents are ``player_0 .. player_{n-1}`` (seat order). The agent selected is the player
    the game asks now; in a simultaneous step the movers are asked one after another in
    seat order, and a later mover's observation never shows an earlier mover's choice
    (the engine keeps it secret until the choices are revealed).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class too
        "name": "cove_aec_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, game_id: str, players: int, *, reward: str = "win",
                 render_mode: str | None = None, max_cycles: int | None = None,
                 on_illegal: str = "raise", **options: Any) -> None:
        super().__init__()
        self._setup(game_id, players, reward, render_mode, max_cycles, on_illegal, options,
                    "")
        self._moves = [0] * players
        self._rewarded = False  # self.rewards holds a reward not yet cleared

    # -- the episode -------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` makes the deal (and any random fill-in) repeatable;
        ``options`` is accepted for the API and not used (game options are fixed when
        the environment is made)."""
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._moves = [0] * self.match.players
        self._rewarded = False
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.match.to_move()[0]]

    def observe(self, agent: str) -> Obs:
        seat = self._seat.get(agent) if type(agent) is str else None
        return self.match.obs(self._seat_of(agent) if seat is None else seat)

    def _live(self, agent: str) -> bool:
        return (agent in self.terminations
                and not (self.terminations[agent] or self.truncations[agent]))

    def step(self, action: Any) -> None:
        if not self._started:
            raise EnvError("call reset() before step()")
        agent = self.agent_selection
        done = self.terminations.get(agent)  # None: an agent already removed
        if done is None or done or self.truncations[agent]:
            if action is not None:
                raise EnvError(f"{agent} is done; the only valid action is None")
            self._was_dead_step(None)
            return
        if action is None:
            raise EnvError(f"{agent} is to move; give an action index "
                           f"0..{self.match.space.size - 1} (see the action_mask), not None")
        assert self._rng is not None
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # PettingZoo's _clear_rewards, only when there is one to clear
            self._clear_rewards()
            self._rewarded = False
        if not self.match.play(seat, action, self._rng):
            self._add(self.match.forfeit_rewards(seat))
            self.infos[agent]["illegal_action"] = int(action)
            self._end_all(truncated=False)
        else:
            self._moves[seat] += 1
            m = self.match
            if m.reward == "dense" or m.state.is_over:  # else: no reward to hand out
                self._add(m.step_rewards())
            self._settle()
        if self._rewarded:  # most steps hand out nothing to accumulate
            self._accumulate_rewards()

    def _add(self, rewards: list[float]) -> None:
        if not any(rewards):  # most steps: no reward to hand out
            return
        self._rewarded = True
        for a in self.agents:
            if self._live(a):
                self.rewards[a] += rewards[self._seat[a]]

    def _settle(self) -> None:
        """Select the next live mover. With ``max_cycles``, an agent asked for decision
        ``max_cycles + 1`` is truncated, and the seats of truncated agents are played on
        uniformly at random until a live agent is to move, the game ends or no agent is
        left live."""
        m = self.match
        if self.max_cycles is None:  # no agent is done before the game ends: one look
            state = m.state
            if state.is_over:
                self._end_all(truncated=m.safety_end())
            else:
                self.agent_selection = self.possible_agents[state.to_move()[0]]
            return
        assert self._rng is not None
        while True:
            if m.over:
                self._end_all(truncated=m.safety_end())
                return
            p = m.to_move()[0]
            a = self.possible_agents[p]
            if self._live(a):  # agents already done stay done: their seat is played on
                if self.max_cycles is None or self._moves[p] < self.max_cycles:
                    self.agent_selection = a
                    if any(not self._live(b) for b in self.agents):
                        self._deads_step_first()
                    return
                self.truncations[a] = True
                if not any(self._live(b) for b in self.agents):
                    self._end_all(truncated=True)
                    return
            legal = m.state.legal_actions(p)
            m.state.apply(p, legal[int(self._rng.integers(len(legal)))])
            self._add(m.step_rewards())

    def _end_all(self, *, truncated: bool) -> None:
        for a in self.agents:
            if self._live(a):
                self.truncations[a] = truncated
                self.terminations[a] = not truncated
        self._skip_agent_selection = None
        self.agent_selection = self.agents[0]

    # -- rendering ---------------------------------------------------------------------------
    def render(self) -> str | None:
        """The terminal screen of the agent selected now (a spectator's once all are
        done), as text, for ``render_mode="ansi"``."""
        return self._render(self._seat.get(self.agent_selection) if self.agents else None)
