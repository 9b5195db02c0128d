"""A small masked policy trained by PPO on CPU in minutes, measured against random and greedy.

    .venv/bin/python -u examples/train_masked_ppo.py [--game the-tide] [--players 2]
        [--updates 100] [--episodes 16] [--eval 200] [--seed 1]

Proximal policy optimisation (clipped objective, a learned value baseline, generalised
advantage estimation, an entropy bonus) in ``cove.rl.gym_env(game, players, seat=0,
opponents=...)`` on the win-share reward, against ``random`` (``--opponents random greedy``:
the updates take turns). The policy and the value function are
two small multilayer perceptrons (tanh hidden layers) written in numpy with their
gradients by hand and trained with Adam: no deep-learning library, so the example needs
nothing beyond the ``rl`` extra. Illegal actions are masked out of the softmax (their
probability is exactly 0).

After training it plays ``--eval`` games against random and against greedy, next to an
untrained policy (the same network before its first update, sampling) in the same seat
and on the same seeds (10**9, 10**9 + 1, ..., as examples/train_masked_pg.py and
benchmarks/rl_baselines.py), and prints each win share with a 95% Wilson interval.
"""

from __future__ import annotations

import os

# one BLAS thread: these matrices are small, and on a busy machine OpenBLAS's threads
# cost several times the CPU they save (set before numpy is first imported)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import copy
import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cove.lab.stats import wilson
from cove.rl import gym_env

Array = npt.NDArray[np.float64]
Obs = dict[str, npt.NDArray[Any]]

EVAL_SEED = 10**9
"""The first evaluation seed, shared with train_masked_pg.py and rl_baselines.py."""

ILLEGAL_LOGIT = -1e9
"""What an illegal action's logit is replaced by: its probability underflows to exactly 0
while every log-probability stays finite."""


class MLP:
    """Fully connected layers, tanh between them, a linear output; gradients by hand."""

    def __init__(self, sizes: list[int], rng: np.random.Generator, out_scale: float) -> None:
        self.params: list[Array] = []
        for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
            last = i == len(sizes) - 2
            scale = (out_scale if last else math.sqrt(2.0)) / math.sqrt(n_in)
            self.params.append(rng.standard_normal((n_in, n_out)) * scale)
            self.params.append(np.zeros(n_out))

    def forward(self, x: Array) -> tuple[Array, list[Array]]:
        """The output for a batch ``x`` and the activations ``backward`` needs."""
        acts = [x]
        h = x
        layers = len(self.params) // 2
        for i in range(layers):
            h = h @ self.params[2 * i] + self.params[2 * i + 1]
            if i < layers - 1:
                h = np.tanh(h)
            acts.append(h)
        return h, acts

    def backward(self, acts: list[Array], d_out: Array) -> list[Array]:
        """Gradients of the loss for every parameter, given d loss / d output."""
        grads: list[Array] = [np.empty(0)] * len(self.params)
        d = d_out
        for i in reversed(range(len(self.params) // 2)):
            grads[2 * i] = acts[i].T @ d
            grads[2 * i + 1] = d.sum(axis=0)
            if i:
                d = (d @ self.params[2 * i].T) * (1.0 - acts[i] ** 2)  # tanh'
        return grads


class Adam:
    def __init__(self, params: list[Array], lr: float, max_norm: float = 0.5) -> None:
        self.params, self.lr, self.max_norm = params, lr, max_norm
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[Array]) -> None:
        """One Adam step (in place), the gradient first clipped to ``max_norm``."""
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads))
        scale = min(1.0, self.max_norm / (norm + 1e-8))
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            g = g * scale
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            m_hat = m / (1 - b1 ** self.t)
            v_hat = v / (1 - b2 ** self.t)
            p -= self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def masked_log_softmax(logits: Array, mask: npt.NDArray[np.bool_]) -> Array:
    """log pi over the last axis with illegal actions (``mask`` False) at probability 0."""
    z = np.where(mask, logits, ILLEGAL_LOGIT)
    z = z - z.max(axis=-1, keepdims=True)
    out: Array = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return out


class Agent:
    """A masked softmax policy and a value function, two MLPs on the observation."""

    def __init__(self, obs_size: int, actions: int, hidden: int,
                 rng: np.random.Generator) -> None:
        self.pi = MLP([obs_size, hidden, hidden, actions], rng, out_scale=0.01)
        self.v = MLP([obs_size, hidden, hidden, 1], rng, out_scale=1.0)

    def act(self, obs: Obs, rng: np.random.Generator, greedy: bool = False
            ) -> tuple[int, float, float]:
        """An action index (never an illegal one), its log-probability and the value."""
        x = obs["observation"].astype(np.float64)[None]
        mask = obs["action_mask"].astype(bool)
        logp = masked_log_softmax(self.pi.forward(x)[0][0], mask)
        if greedy:
            a = int(np.flatnonzero(mask)[np.argmax(logp[mask])])
        else:
            cdf = np.cumsum(np.exp(logp))
            a = int(np.searchsorted(cdf, rng.random() * cdf[-1], side="right"))
            if not mask[a]:  # a rounding edge at the end of the cdf: the last legal action
                a = int(np.flatnonzero(mask)[-1])
        return a, float(logp[a]), float(self.v.forward(x)[0][0, 0])


@dataclass
class Batch:
    """Rollouts flattened over steps, with GAE advantages and returns."""
    obs: Array
    mask: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int64]
    logp: Array
    adv: Array
    ret: Array
    episode_returns: list[float]


def gae(rewards: list[float], values: list[float], gamma: float, lam: float
        ) -> tuple[Array, Array]:
    """Advantages and returns of one finished episode (the value after the end is 0: a
    safety end also pays its result, so it is an end here too)."""
    n = len(rewards)
    adv = np.zeros(n)
    last = 0.0
    for t in reversed(range(n)):
        nxt = values[t + 1] if t + 1 < n else 0.0
        delta = rewards[t] + gamma * nxt - values[t]
        last = delta + gamma * lam * last
        adv[t] = last
    return adv, adv + np.asarray(values)


def collect(env: Any, agent: Agent, episodes: int, seed: int, rng: np.random.Generator,
            gamma: float = 1.0, lam: float = 0.95) -> Batch:
    """Play ``episodes`` games (seeds ``seed``, ``seed + 1``, ...) with the sampling policy."""
    xs: list[npt.NDArray[Any]] = []
    masks: list[npt.NDArray[Any]] = []
    actions: list[int] = []
    logps: list[float] = []
    advs: list[Array] = []
    rets: list[Array] = []
    totals: list[float] = []
    for e in range(episodes):
        obs, _ = env.reset(seed=seed + e)
        rewards: list[float] = []
        values: list[float] = []
        while True:
            a, lp, v = agent.act(obs, rng)
            xs.append(obs["observation"])
            masks.append(obs["action_mask"])
            actions.append(a)
            logps.append(lp)
            values.append(v)
            obs, r, terminated, truncated, _ = env.step(a)
            rewards.append(float(r))
            if terminated or truncated:
                break
        adv, ret = gae(rewards, values, gamma, lam)
        advs.append(adv)
        rets.append(ret)
        totals.append(sum(rewards))
    return Batch(np.asarray(xs, dtype=np.float64), np.asarray(masks, dtype=bool),
                 np.asarray(actions, dtype=np.int64), np.asarray(logps),
                 np.concatenate(advs), np.concatenate(rets), totals)


@dataclass
class Config:
    """PPO's settings: the clip range, epochs and minibatch size of an update, the
    entropy bonus and the two Adam steps."""

    clip: float = 0.2
    epochs: int = 4
    minibatch: int = 512
    entropy: float = 0.01
    lr_pi: float = 1e-3
    lr_v: float = 1e-3


class PPO:
    """The clipped-objective update of an agent, with one Adam per network."""

    def __init__(self, agent: Agent, cfg: Config) -> None:
        self.agent, self.cfg = agent, cfg
        self.opt_pi = Adam(agent.pi.params, cfg.lr_pi)
        self.opt_v = Adam(agent.v.params, cfg.lr_v)

    def update(self, b: Batch, rng: np.random.Generator) -> dict[str, float]:
        cfg, pi, vf = self.cfg, self.agent.pi, self.agent.v
        adv = (b.adv - b.adv.mean()) / (b.adv.std() + 1e-8)
        n = len(b.action)
        stats: dict[str, list[float]] = {"kl": [], "clipped": [], "entropy": [], "v_loss": []}
        for _ in range(cfg.epochs):
            order = rng.permutation(n)
            for start in range(0, n, cfg.minibatch):
                i = order[start:start + cfg.minibatch]
                m, k = len(i), b.action[i]
                logits, acts = pi.forward(b.obs[i])
                logp_all = masked_log_softmax(logits, b.mask[i])
                p = np.exp(logp_all)
                logp = logp_all[np.arange(m), k]
                ratio = np.exp(logp - b.logp[i])
                plain = ratio * adv[i]
                clipped = np.clip(ratio, 1 - cfg.clip, 1 + cfg.clip) * adv[i]
                # the gradient flows through the ratio where min() picks the plain term
                coef = np.where(plain <= clipped, plain, 0.0)
                d_logits = p * coef[:, None]
                d_logits[np.arange(m), k] -= coef  # d(-coef * log pi(k)) / d logits
                entropy = -(p * logp_all).sum(axis=1)
                d_logits += cfg.entropy * p * (logp_all + entropy[:, None])  # d(-c H)
                d_logits = np.where(b.mask[i], d_logits, 0.0) / m
                self.opt_pi.step(pi.backward(acts, d_logits))
                value, vacts = vf.forward(b.obs[i])
                err = value[:, 0] - b.ret[i]
                self.opt_v.step(vf.backward(vacts, (err / m)[:, None]))
                stats["kl"].append(float((b.logp[i] - logp).mean()))
                stats["clipped"].append(float((np.abs(ratio - 1) > cfg.clip).mean()))
                stats["entropy"].append(float(entropy.mean()))
                stats["v_loss"].append(float(0.5 * (err ** 2).mean()))
        return {k: float(np.mean(v)) for k, v in stats.items()}


Choose = Callable[[Obs], int]


def evaluate(env: Any, choose: Choose, games: int) -> tuple[float, float, float]:
    """Seat 0's win share over ``games`` games seeded EVAL_SEED.., with a 95% interval."""
    total = 0.0
    for g in range(games):
        obs, _ = env.reset(seed=EVAL_SEED + g)
        while True:
            obs, r, terminated, truncated, _ = env.step(choose(obs))
            total += float(r)
            if terminated or truncated:
                break
    lo, hi = wilson(total, games)
    return total / games, lo, hi


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--game", default="the-tide")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--updates", type=int, default=100)
    ap.add_argument("--episodes", type=int, default=16, help="episodes per update")
    ap.add_argument("--opponents", nargs="+", default=["random"],
                    help="bot specs to train against, one per update in turn")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=Config.lr_pi, help="the policy's Adam step")
    ap.add_argument("--eval", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    envs = [gym_env(args.game, args.players, seat=0, opponents=o) for o in args.opponents]
    agent = Agent(envs[0].match.obs_size, envs[0].match.space.size, args.hidden, rng)
    untrained = copy.deepcopy(agent)
    ppo = PPO(agent, Config(lr_pi=args.lr))
    cpu, wall = time.process_time(), time.perf_counter()
    for u in range(args.updates):
        env = envs[u % len(envs)]  # one opponent per update, in turn
        batch = collect(env, agent, args.episodes, args.seed * 1_000_000 + u * args.episodes,
                        rng)
        s = ppo.update(batch, rng)
        if u % 5 == 4 or u == args.updates - 1:
            print(f"update {u + 1:4}: {len(batch.action):5} steps, training win share "
                  f"{np.mean(batch.episode_returns):.2f}, entropy {s['entropy']:.2f}, "
                  f"kl {s['kl']:.4f}, clipped {s['clipped']:.2f}, "
                  f"value loss {s['v_loss']:.3f}", flush=True)
    print(f"trained {args.updates * args.episodes} episodes of {args.game} "
          f"({args.players}p) against {', '.join(args.opponents)} in "
          f"{time.perf_counter() - wall:.0f} s"
          f" ({time.process_time() - cpu:.0f} CPU s)", flush=True)
    eval_rng = np.random.default_rng(args.seed + 1)
    policies: list[tuple[str, Choose]] = [
        ("trained", lambda o: agent.act(o, eval_rng, greedy=True)[0]),
        ("untrained", lambda o: untrained.act(o, eval_rng)[0])]
    for opp in ("random", "greedy") if args.eval > 0 else ():
        e = gym_env(args.game, args.players, seat=0, opponents=opp)
        for name, choose in policies:
            rate, lo, hi = evaluate(e, choose, args.eval)
            print(f"{name:9} vs {opp:7}: win share {rate:.3f} (95% CI {lo:.3f}-{hi:.3f}) "
                  f"over {args.eval} games", flush=True)


if __name__ == "__main__":
    main()
