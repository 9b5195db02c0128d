"""A table as a single-agent environment sees it, without the arrays: who the learner is,
how the others move, and what one learner action brings. ``CoveGymEnv`` holds one table
and ``CoveVectorEnv`` many; each turns the table's results into its own arrays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cove.bots import Bot, make_bot
from cove.rl._match import EnvError, Match


class Step:
    """What one learner action brought: the learner's reward, every seat's reward (the
    seat that acted is ``seat``), whether the game ended by its rules (terminated) or at a
    safety end or a forfeit (truncated), and the info to hand back."""

    __slots__ = ("info", "rewards", "seat", "terminated", "truncated")

    def __init__(self, seat: int, rewards: list[float], terminated: bool, truncated: bool,
                 info: dict[str, Any]) -> None:
        self.seat = seat
        self.rewards = rewards
        self.terminated = terminated
        self.truncated = truncated
        self.info = info

    @property
    def reward(self) -> float:
        return self.rewards[self.seat]


class BotsTable:
    """One seat learns, Cove bots play the others: after the learner's action the bots
    play until the learner is asked again or the game ends. In a simultaneous step the
    learner chooses first and the bots never see its choice (``Bot.act`` is handed the
    state as their seat sees it)."""

    def __init__(self, match: Match, seat: int, specs: Sequence[str]) -> None:
        self.match = match
        self.seat = seat
        self.specs = list(specs)
        self.bots: dict[int, Bot] = {}

    def observed(self) -> int:
        """The seat whose observation the learner gets."""
        return self.seat

    def start(self, rng: np.random.Generator) -> None:
        """A new game, seeded from ``rng`` (then each bot, in seat order), with the bots'
        moves made until the learner is asked."""
        m = self.match
        m.reset(int(rng.integers(2**62)))
        others = [p for p in range(m.players) if p != self.seat]
        self.bots = {p: make_bot(spec, int(rng.integers(2**62)))
                     for p, spec in zip(others, self.specs, strict=True)}
        self._opponents_move()
        if m.over:  # the bots ended the game before the learner was asked
            raise EnvError(f"{m.game.id}: the game ended before seat {self.seat} was "
                           "asked anything")

    def _opponents_move(self) -> float:
        """The bots' moves until the learner is asked or the game ends; the learner's
        reward from them ("dense": the score changes they made)."""
        m = self.match
        reward = 0.0
        while not m.over and self.seat not in m.to_move():
            for p in m.to_move():
                if p in m.to_move():
                    m.state.apply(p, self.bots[p].act(m.state, p))
                    if m.reward == "dense":
                        reward += m.step_rewards()[self.seat]
        return reward

    def advance(self, action: object, rng: np.random.Generator) -> Step:
        """The learner's action (an index), then the bots' moves."""
        m = self.match
        n = m.players
        if not m.play(self.seat, action, rng):
            return Step(self.seat, m.forfeit_rewards(self.seat), True, False,
                        {"illegal_action": int(action)})  # type: ignore[call-overload]
        reward = m.step_rewards()[self.seat] if m.reward == "dense" else 0.0
        reward += self._opponents_move()
        terminated = truncated = False
        if not m.to_move():  # the game is over
            if m.reward != "dense":
                reward = m.final_rewards()[self.seat]
            truncated = m.safety_end()
            terminated = not truncated
        rewards = [0.0] * n
        rewards[self.seat] = reward
        return Step(self.seat, rewards, terminated, truncated, {})


class SelfPlayTable:
    """Every seat is the learner's: each step is one decision of the seat asked now (the
    first of them in a simultaneous step, as the AEC environment asks them), and every
    seat's reward for it is reported."""

    def __init__(self, match: Match) -> None:
        self.match = match

    def observed(self) -> int:
        """The seat asked now (the seat that acted last once the game is over)."""
        movers = self.match.to_move()
        return movers[0] if movers else self._last

    def start(self, rng: np.random.Generator) -> None:
        self.match.reset(int(rng.integers(2**62)))
        self._last = 0

    def advance(self, action: object, rng: np.random.Generator) -> Step:
        m = self.match
        seat = self._last = m.to_move()[0]
        if not m.play(seat, action, rng):
            return Step(seat, m.forfeit_rewards(seat), True, False,
                        {"illegal_action": int(action)})  # type: ignore[call-overload]
        rewards = m.step_rewards()
        truncated = m.safety_end()
        return Step(seat, rewards, m.over and not truncated, truncated, {})
