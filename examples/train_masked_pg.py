"""A small masked policy trained on CPU in minutes, measured against random and greedy.

    .venv/bin/python examples/train_masked_pg.py [--game the-tide] [--episodes 1500]
                                                 [--eval 300] [--seed 1]

The learner is a linear softmax policy over the game's action space, with illegal actions
masked out, trained by REINFORCE with a running-mean baseline on the win-share reward, in
``cove.rl.gym_env`` against ``random`` opponents. Numpy only (no deep-learning library).
It then plays ``--eval`` games against random and against greedy, next to an untrained
(uniform random) policy in the same seat and seeds, and prints each win rate with a 95%
Wilson interval.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np
import numpy.typing as npt

import cove
from cove.rl import gym_env

Array = npt.NDArray[np.float64]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


class Policy:
    """pi(a | s) = softmax over legal a of W[a] . s + b[a]."""

    def __init__(self, obs_size: int, actions: int, rng: np.random.Generator) -> None:
        self.W = np.zeros((actions, obs_size))
        self.b = np.zeros(actions)
        self.rng = rng

    def probs(self, obs: dict[str, Any]) -> Array:
        x = obs["observation"].astype(np.float64)
        logits = self.W @ x + self.b
        logits[obs["action_mask"] == 0] = -np.inf
        logits -= logits.max()
        e = np.exp(logits)
        return np.asarray(e / e.sum())

    def act(self, obs: dict[str, Any], greedy: bool = False) -> int:
        p = self.probs(obs)
        return int(p.argmax()) if greedy else int(self.rng.choice(len(p), p=p))


def play(env: Any, choose: Any, seed: int) -> tuple[list[tuple[dict[str, Any], int]], float]:
    obs, _ = env.reset(seed=seed)
    trail, total = [], 0.0
    while True:
        a = choose(obs)
        trail.append((obs, a))
        obs, r, term, trunc, _ = env.step(a)
        total += r
        if term or trunc:
            return trail, total


def train(policy: Policy, env: Any, episodes: int, lr: float, seed: int) -> None:
    baseline = 0.0
    for ep in range(episodes):
        trail, ret = play(env, policy.act, seed + ep)
        adv = ret - baseline
        baseline += 0.02 * (ret - baseline)
        for obs, a in trail:
            p = policy.probs(obs)
            g = -p
            g[a] += 1.0  # d log pi(a) / d logits
            x = obs["observation"].astype(np.float64)
            policy.W += lr * adv * np.outer(g, x)
            policy.b += lr * adv * g


def evaluate(env: Any, choose: Any, games: int, seed: int) -> tuple[float, float, float]:
    wins = sum(play(env, choose, seed + i)[1] for i in range(games))
    lo, hi = wilson(wins, games)
    return wins / games, lo, hi


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="the-tide")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--episodes", type=int, default=1500)
    ap.add_argument("--eval", type=int, default=300)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    env = gym_env(args.game, args.players, seat=0, opponents="random")
    game = cove.load(args.game)
    obs_size = game.observation_size(args.players)
    actions = game.action_space(args.players).size
    policy = Policy(obs_size, actions, rng)
    start = time.perf_counter()
    train(policy, env, args.episodes, args.lr, args.seed * 1_000_000)
    print(f"trained {args.episodes} episodes of {args.game} ({args.players}p) in "
          f"{time.perf_counter() - start:.0f} s")
    uniform = Policy(obs_size, actions, np.random.default_rng(args.seed))
    for opp in ("random", "greedy"):
        e = gym_env(args.game, args.players, seat=0, opponents=opp)
        for name, choose in (("trained", lambda o: policy.act(o, greedy=True)),
                             ("uniform", uniform.act)):
            rate, lo, hi = evaluate(e, choose, args.eval, 10**9)
            print(f"{name:8} vs {opp:7}: win share {rate:.3f} (95% CI {lo:.3f}-{hi:.3f}) "
                  f"over {args.eval} games")


if __name__ == "__main__":
    main()
