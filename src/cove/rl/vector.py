"""A Gymnasium vector environment that steps many tables of one game per call, in this
process, writing into arrays it made once (see docs/RESEARCH.md, "Many tables at once").

Two ways to seat the learner, as ``gym_env`` offers them:

- ``opponents`` given (bot specs): each table is ``gym_env``'s: the learner plays
  ``seat``, bots the others. Seeded alike, the tables play exactly the games a
  ``gymnasium.vector.SyncVectorEnv`` of ``gym_env`` tables plays (tests/rl/test_vector.py).
- ``opponents=None`` (self-play): every seat is the learner's. Each step is one decision
  of the seat asked now, whose observation the step returns; ``infos["seat"]`` says which
  seat that is, and ``infos["rewards"]`` holds every seat's reward for the step (the
  ``rewards`` array is the acting seat's).

Tables that end start a new game on their next step (Gymnasium's next-step autoreset):
that step ignores its action and returns the new game's first observation, reward 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cove.rl._match import EnvError, Match, check_seat
from cove.rl._multi import obs_space, seed_rng
from cove.rl._tables import BotsTable, SelfPlayTable, Step
from cove.rl.gym import bot_specs

Obs = dict[str, npt.NDArray[Any]]


def check_num_envs(num_envs: object) -> int:
    if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) \
            or num_envs < 1:
        raise EnvError(f"num_envs must be a whole number >= 1, not {num_envs!r}")
    return int(num_envs)


def table_seeds(seed: object, options: object, tables: int) -> list[int | None]:
    """Each table's seed from ``reset``'s ``seed``: one int (table i gets ``seed + i``, as
    Gymnasium's vector environments seed theirs), one per table, or None."""
    if options is not None:
        raise EnvError("reset takes no options; the game's options are given when the "
                       "environment is made")
    if seed is None or (isinstance(seed, int | np.integer) and not isinstance(seed, bool)):
        return [None if seed is None else int(seed) + i for i in range(tables)]
    if isinstance(seed, Sequence) and len(seed) == tables:
        return list(seed)
    raise EnvError(f"seed must be a whole number, None, or a list of {tables} of them "
                   f"(one per table), not {seed!r}")


def table_actions(actions: object, tables: int) -> npt.NDArray[Any]:
    """``step``'s actions checked: one whole number per table."""
    chosen = np.asarray(actions)
    if chosen.shape != (tables,) or chosen.dtype.kind not in "iu":
        raise EnvError(f"actions must be {tables} whole numbers (one action index per "
                       f"table), not {actions!r}")
    return chosen


def array_layout(tables: int, match: Match, players: int
                 ) -> dict[str, tuple[tuple[int, ...], type[np.generic]]]:
    """The shape and type of each array a step writes, for ``tables`` tables."""
    return {"observation": ((tables, match.obs_size), np.float32),
            "action_mask": ((tables, match.size), np.int8),
            "rewards": ((tables,), np.float64),
            "terminations": ((tables,), np.bool_),
            "truncations": ((tables,), np.bool_),
            "seat": ((tables,), np.int64),
            "all_rewards": ((tables, players), np.float64)}


class CoveVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` tables of one game, stepped together (see the module's text).

    ``copy=True`` (the default, as Gymnasium's own vector environments) hands back copies
    of the arrays; ``copy=False`` hands back the environment's own arrays, which the next
    step overwrites: no array is made per step.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's
        "render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, game_id: str, players: int, num_envs: int, *, seat: int = 0,
                 opponents: str | Sequence[str] | None = None, reward: str = "win",
                 on_illegal: str = "raise", copy: bool = True,
                 arrays: Mapping[str, npt.NDArray[Any]] | None = None,
                 **options: Any) -> None:
        self.num_envs = check_num_envs(num_envs)
        self.matches = [Match(game_id, players, options, reward, on_illegal)
                        for _ in range(self.num_envs)]
        first = self.matches[0]
        self.players = players
        self.self_play = opponents is None
        self.tables: list[BotsTable | SelfPlayTable]
        if opponents is None:
            self.tables = [SelfPlayTable(m) for m in self.matches]
        else:
            seat = check_seat(seat, players)
            specs = bot_specs(opponents, players) if players > 1 else []
            self.tables = [BotsTable(m, seat, specs) for m in self.matches]
        self.copy = bool(copy)
        self.single_observation_space = obs_space(first)
        self.single_action_space = spaces.Discrete(first.size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        # the arrays every step writes: made here, or handed in (views of the memory the
        # workers backend shares, cove.rl.workers)
        made = arrays if arrays is not None else {
            name: np.zeros(shape, dtype)
            for name, (shape, dtype) in array_layout(n, first, players).items()}
        self._observations = made["observation"]
        self._masks = made["action_mask"]
        self._obs: Obs = {"observation": self._observations, "action_mask": self._masks}
        self._rewards = made["rewards"]
        self._terminations = made["terminations"]
        self._truncations = made["truncations"]
        self._seats = made["seat"]
        self._all_rewards = made["all_rewards"]
        self._infos: dict[str, Any] = {"seat": self._seats, "rewards": self._all_rewards}
        self._ended = [False] * n  # per table: its game ended on the last step
        self._paid = [False] * n  # per table: its row of every seat's rewards is not 0
        self._seat_list = [0] * n  # per table: the seat observed (written to _seats)
        self._rngs: list[np.random.Generator] = []

    # -- the Gymnasium API ------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """New games at every table. ``seed``: one int (table i gets ``seed + i``, as
        Gymnasium's vector environments seed theirs), one per table, or None."""
        n = self.num_envs
        seeds = table_seeds(seed, options, n)
        self._rngs = [seed_rng(s, self._rngs[i] if i < len(self._rngs) else None)
                      for i, s in enumerate(seeds)]
        for i in range(n):
            self._start(i)
        self._seats[:] = self._seat_list
        self._ended = [False] * n
        self._paid = [False] * n
        self._rewards[:] = 0.0
        self._all_rewards[:] = 0.0
        self._terminations[:] = False
        self._truncations[:] = False
        return self._out_obs(), self._out_infos()

    def step(self, actions: Any) -> tuple[Obs, npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        """One action per table (an index into the game's action space each)."""
        if not self._rngs:
            raise EnvError("call reset() before step()")
        actions_now = self.check_actions(table_actions(actions, self.num_envs))
        ended = self._ended
        # the tables' results gathered in lists and written with one numpy call each
        rewards = [0.0] * self.num_envs
        terminations = [False] * self.num_envs
        truncations = [False] * self.num_envs
        seats = self._seat_list
        all_rewards = self._all_rewards
        for i, action in enumerate(actions_now):
            if ended[i]:  # next-step autoreset: the action is ignored
                ended[i] = False
                self._start(i)
                if self._paid[i]:
                    all_rewards[i] = 0.0
                    self._paid[i] = False
            else:
                step: Step = self.tables[i].advance(action, self._rngs[i])
                rewards[i] = step.reward
                if any(step.rewards):
                    all_rewards[i] = step.rewards
                    self._paid[i] = True
                elif self._paid[i]:
                    all_rewards[i] = 0.0
                    self._paid[i] = False
                terminations[i] = step.terminated
                truncations[i] = step.truncated
                ended[i] = step.terminated or step.truncated
                self._write(i)
        self._rewards[:] = rewards
        self._terminations[:] = terminations
        self._truncations[:] = truncations
        self._seats[:] = seats
        return (self._out_obs(), self._out(self._rewards), self._out(self._terminations),
                self._out(self._truncations), self._out_infos())

    def check_actions(self, actions: npt.NDArray[Any]) -> list[int]:
        """The actions as ints, each checked as :meth:`step` takes it: an illegal index
        under on_illegal="raise" is refused here, before any table moves."""
        chosen: list[int] = actions.tolist()
        for i, action in enumerate(chosen):
            if not self._ended[i]:
                self.matches[i].check_legal(self.tables[i].observed(), action)
        return chosen

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in memory."""

    # -- inside -----------------------------------------------------------------------------
    def _start(self, i: int) -> None:
        self.tables[i].start(self._rngs[i])
        self._write(i)

    def _write(self, i: int) -> None:
        """Table ``i``'s observation, mask and observed seat into the arrays."""
        seat = self.tables[i].observed()
        match = self.matches[i]
        match.observation_into(self._observations[i], seat)
        match.mask_into(self._masks[i], seat)
        self._seat_list[i] = seat

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _out_obs(self) -> Obs:
        if not self.copy:
            return self._obs
        return {"observation": self._observations.copy(), "action_mask": self._masks.copy()}

    def _out_infos(self) -> dict[str, Any]:
        if not self.self_play:
            return {}
        if not self.copy:
            return self._infos
        return {"seat": self._seats.copy(), "rewards": self._all_rewards.copy()}
