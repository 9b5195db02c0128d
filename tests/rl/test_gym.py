"""Gymnasium's env checker on every game at every player count, and the single-agent
behaviour: bots in the other seats, rewards, the default MCTS opponents, bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cove
from cove.rl import CoveGymEnv, EnvError, gym_env
from tests.rl.helpers import CONFIG_IDS, CONFIGS


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_check_env(game_id: str, players: int) -> None:
    # check_env steps with actions sampled without the mask, so the env must be told
    # what an illegal index does; the default ("raise") is tested below
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box, no render_fps, no registered spec
        check_env(gym_env(game_id, players, seat=players - 1, opponents="random",
                          on_illegal="random", render_mode="ansi"))
        check_env(gym_env(game_id, players, opponents="random", on_illegal="lose",
                          reward="dense"), skip_render_check=True)


def _episode(env: CoveGymEnv, seed: int) -> tuple[float, bool, bool]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) and np.array_equal(legal, np.flatnonzero(env.action_masks()))
        obs, reward, term, trunc, _ = env.step(int(rng.choice(legal)))
        total += reward
        if term or trunc:
            return total, term, trunc


def test_episode_reward_is_the_seats_win_share(toy_registered: str) -> None:
    env = gym_env(toy_registered, 3, seat=1, opponents="greedy,random")
    total, term, trunc = _episode(env, 3)
    winners = env.match.state.winners()
    assert term and not trunc
    assert total == pytest.approx(1 / len(winners) if 1 in winners else 0.0)


def test_same_seed_same_episode(toy_registered: str) -> None:
    a = gym_env(toy_registered, 3, opponents="random")
    b = gym_env(toy_registered, 3, opponents="random")
    assert _episode(a, 11) == _episode(b, 11)
    assert a.match.state.history == b.match.state.history


def test_runs_batched_in_a_gymnasium_vector_env(toy_registered: str) -> None:
    """Two tables stepped together by gymnasium's SyncVectorEnv: stacked observations and
    masks, and each table starts a new game on the step after its game ended (the vector
    env's next-step reset: the ended game's mask is all zeros, the action given then is
    ignored)."""
    from gymnasium.vector import SyncVectorEnv

    def make() -> CoveGymEnv:
        return gym_env(toy_registered, 2, opponents="random")

    vec = SyncVectorEnv([make, make])
    obs, _ = vec.reset(seed=5)
    size = cove.load(toy_registered).observation_size(2)
    assert obs["observation"].shape == (2, size) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape[0] == 2
    rng = np.random.default_rng(0)
    ended: list[list[float]] = [[], []]
    restarted = [False, False]
    was_over = [False, False]
    for _ in range(2000):
        masks = obs["action_mask"]
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0
                            for m in masks])
        obs, reward, term, trunc, _ = vec.step(actions)
        for i in range(2):
            if was_over[i]:  # this step reset table i: a new game with legal actions
                assert obs["action_mask"][i].any() and reward[i] == 0.0
                restarted[i] = True
            was_over[i] = bool(term[i] or trunc[i])
            if was_over[i]:
                assert not obs["action_mask"][i].any()
                ended[i].append(float(reward[i]))
        if all(restarted):
            break
    assert all(restarted)
    assert all(r in (0.0, 0.5, 1.0) for rs in ended for r in rs)
    vec.close()


def test_default_opponents_are_mcts_and_work(toy_registered: str) -> None:
    env = gym_env(toy_registered, 2)
    assert env.specs == ["mcts"]
    obs, _ = env.reset(seed=1)
    assert cove.load(toy_registered).action_space(2).size == obs["action_mask"].shape[0]
    obs, _, term, trunc, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert term or 0 in env.match.state.to_move()  # the bot has moved: seat 0 again
    assert obs["action_mask"].any() or term or trunc


def test_render_is_the_learners_screen(toy_registered: str) -> None:
    env = gym_env(toy_registered, 2, seat=1, opponents="random", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text == cove.load(toy_registered).render(  # type: ignore[misc]
        env.match.state.view(1), False)


def test_bad_input_says_what_is_valid(toy_registered: str) -> None:
    with pytest.raises(EnvError, match=r"seats are 0\.\.2"):
        gym_env(toy_registered, 3, seat=3, opponents="random")
    with pytest.raises(EnvError, match="1 spec or 2 specs"):
        gym_env(toy_registered, 3, opponents="random,random,random")
    with pytest.raises(EnvError, match=r"(?s)unknown bot 'alphazero'.*random"):
        gym_env(toy_registered, 2, opponents="alphazero")
    with pytest.raises(EnvError, match="iterations"):
        gym_env(toy_registered, 2, opponents="mcts:iterations=-3")
    env = gym_env(toy_registered, 2, opponents="random")
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(EnvError, match=f"index {bad} is not legal for player_0.*legal indices"):
        env.step(bad)


def test_on_illegal_lose_ends_the_episode(toy_registered: str) -> None:
    env = gym_env(toy_registered, 2, opponents="random", on_illegal="lose")
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, trunc, info = env.step(bad)
    assert (reward, term, trunc, info["illegal_action"]) == (-1.0, True, False, bad)
    with pytest.raises(EnvError, match="episode is over"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
