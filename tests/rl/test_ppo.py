"""examples/train_masked_ppo.py: its hand-written gradients, its mask and its update."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from cove.rl import gym_env

ROOT = Path(__file__).resolve().parents[2]


def _load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "train_masked_ppo", ROOT / "examples" / "train_masked_ppo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


ppo = _load_example()


def test_mlp_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(0)
    net = ppo.MLP([5, 4, 3, 6], rng, 1.0)
    x = rng.standard_normal((7, 5))
    mask = rng.random((7, 6)) > 0.3
    mask[:, 0] = True
    weight = rng.standard_normal((7, 6)) * mask

    def loss() -> float:
        out, _ = net.forward(x)
        return float((ppo.masked_log_softmax(out, mask) * weight).sum())

    out, acts = net.forward(x)
    p = np.exp(ppo.masked_log_softmax(out, mask))
    d_out = weight - p * weight.sum(axis=1, keepdims=True)  # d loss / d logits
    grads = net.backward(acts, d_out)
    for param, grad in zip(net.params, grads, strict=True):
        for _ in range(3):
            at = tuple(int(rng.integers(n)) for n in param.shape)
            old = param[at]
            param[at] = old + 1e-6
            up = loss()
            param[at] = old - 1e-6
            down = loss()
            param[at] = old
            assert abs((up - down) / 2e-6 - grad[at]) < 1e-5 * max(1.0, abs(grad[at]))


def test_masked_policy_never_picks_an_illegal_action() -> None:
    rng = np.random.default_rng(1)
    agent = ppo.Agent(8, 20, 6, rng)
    for layer in agent.pi.params:  # large weights: illegal logits far above the legal ones
        layer *= 50.0
    for _ in range(300):
        mask = (rng.random(20) < 0.15).astype(np.int8)
        mask[int(rng.integers(20))] = 1
        obs = {"observation": rng.standard_normal(8).astype(np.float32), "action_mask": mask}
        for greedy in (False, True):
            a, logp, _ = agent.act(obs, rng, greedy=greedy)
            assert mask[a] == 1
            assert np.isfinite(logp)
        probs = np.exp(ppo.masked_log_softmax(
            agent.pi.forward(obs["observation"][None].astype(np.float64))[0][0],
            mask.astype(bool)))
        assert probs[mask == 0].sum() == 0.0
        assert abs(probs.sum() - 1.0) < 1e-9


def test_a_few_ppo_updates_change_the_policy(toy_registered: str) -> None:
    rng = np.random.default_rng(2)
    env = gym_env(toy_registered, 2, seat=0, opponents="random")
    agent = ppo.Agent(env.match.obs_size, env.match.space.size, 16, rng)
    batch = ppo.collect(env, agent, 2, seed=5, rng=rng)
    assert len(batch.action) == len(batch.obs) == len(batch.adv) > 0
    assert batch.mask[np.arange(len(batch.action)), batch.action].all()  # all legal
    assert len(batch.episode_returns) == 2
    before = [p.copy() for p in agent.pi.params]
    x, m = batch.obs[:50], batch.mask[:50]
    probs_before = np.exp(ppo.masked_log_softmax(agent.pi.forward(x)[0], m))
    updater = ppo.PPO(agent, ppo.Config(minibatch=64, epochs=2))
    for _ in range(3):
        stats = updater.update(batch, rng)
    assert set(stats) == {"kl", "clipped", "entropy", "v_loss"}
    assert all(np.isfinite(v) for v in stats.values())
    assert any(not np.array_equal(a, b) for a, b in zip(before, agent.pi.params, strict=True))
    probs_after = np.exp(ppo.masked_log_softmax(agent.pi.forward(x)[0], m))
    assert np.abs(probs_after - probs_before).max() > 1e-4
    assert probs_after[~m].sum() == 0.0


def test_gae_of_a_terminal_reward() -> None:
    adv, ret = ppo.gae([0.0, 0.0, 1.0], [0.5, 0.5, 0.5], gamma=1.0, lam=1.0)
    assert np.allclose(ret, [1.0, 1.0, 1.0])  # lam=1, gamma=1: the return of the episode
    assert np.allclose(adv, [0.5, 0.5, 0.5])
    adv, _ = ppo.gae([0.0, 1.0], [0.2, 0.6], gamma=1.0, lam=0.0)  # one-step TD errors
    assert np.allclose(adv, [0.6 - 0.2, 1.0 - 0.6])
