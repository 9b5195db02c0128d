"""The batched environment (``cove.rl.vector_env``): the same games as Gymnasium's own
SyncVectorEnv of ``gym_env`` tables, self-play, next-step autoreset, no array made per
step with ``copy=False``, and bad input."""

from __future__ import annotations

import tracemalloc
from typing import Any

import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv

import cove
from cove.rl import CoveGymEnv, EnvError, gym_env, vector_env
from cove.rl._match import final_rewards

GAMES = [g.id for g in cove.all_games()]


def _choose(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    return np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])


def _same_games_as_sync(game_id: str, players: int, steps: int) -> int:
    """Step a vector env and a SyncVectorEnv of gym_env tables with the same seeds and
    actions, comparing everything each step; return how many games ended."""
    def make() -> CoveGymEnv:
        return gym_env(game_id, players, seat=1, opponents="random")

    ours = vector_env(game_id, players, 3, seat=1, opponents="random")
    theirs = SyncVectorEnv([make, make, make])
    a, _ = ours.reset(seed=21)
    b, _ = theirs.reset(seed=21)
    rng = np.random.default_rng(4)
    ended = 0
    for _ in range(steps):
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(a[key], b[key])
        assert ours.observation_space.contains(a)
        actions = _choose(a["action_mask"], rng)
        a, reward_a, term_a, trunc_a, _ = ours.step(actions)
        b, reward_b, term_b, trunc_b, _ = theirs.step(actions)
        np.testing.assert_array_equal(reward_a, reward_b)
        np.testing.assert_array_equal(term_a, term_b)
        np.testing.assert_array_equal(trunc_a, trunc_b)
        ended += int((term_a | trunc_a).sum())
    theirs.close()
    return ended


def test_plays_the_games_a_sync_vector_env_of_gym_envs_plays(toy_registered: str) -> None:
    """Through several games per table, so the next-step autoreset is compared too."""
    assert _same_games_as_sync(toy_registered, 3, 400) >= 6


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_plays_as_in_a_sync_vector_env(game_id: str) -> None:
    _same_games_as_sync(game_id, 2, 40)


def test_self_play_asks_the_seat_to_move_and_pays_every_seat(toy_registered: str) -> None:
    env = vector_env(toy_registered, 3, 2, reward="win")
    obs, infos = env.reset(seed=3)
    rng = np.random.default_rng(1)
    finished = 0
    restart = [False, False]
    for _ in range(600):
        for i, match in enumerate(env.matches):
            if not match.over:
                assert infos["seat"][i] == match.to_move()[0]
                assert obs["action_mask"][i].any()
        before = [list(m.state.to_move()) for m in env.matches]
        obs, reward, term, _, infos = env.step(_choose(obs["action_mask"], rng))
        for i, match in enumerate(env.matches):
            if restart[i]:  # the ended game was replaced by a new one: reward 0
                assert reward[i] == 0.0 and not term[i] and not infos["rewards"][i].any()
                restart[i] = False
                continue
            if term[i]:
                finished += 1
                shares = final_rewards(match.state, "win")
                np.testing.assert_allclose(infos["rewards"][i], shares)
                assert reward[i] == shares[before[i][0]]  # the seat that acted
                assert not obs["action_mask"][i].any()
                restart[i] = True
            else:
                assert not infos["rewards"][i].any()
    assert finished >= 4


def test_copy_false_hands_out_no_new_array(toy_registered: str) -> None:
    """With ``copy=False`` a step writes into the environment's own arrays: 30 steps'
    results, all kept, hold no numpy memory that was not there before. With copies (the
    default) they hold 30 of each array, which shows the measure can fail."""
    def kept_growth(copy: bool) -> tuple[int, int]:
        # index 0 at every table, replaced by a random legal one where it is illegal
        env = vector_env(toy_registered, 3, 64, copy=copy, on_illegal="random")
        env.reset(seed=0)
        actions = np.zeros(64, np.int64)
        numpy_memory = [tracemalloc.DomainFilter(True, np.lib.tracemalloc_domain)]
        tracemalloc.start()
        before = tracemalloc.take_snapshot().filter_traces(numpy_memory)
        results = [env.step(actions) for _ in range(30)]
        after = tracemalloc.take_snapshot().filter_traces(numpy_memory)
        tracemalloc.stop()
        assert len(results) == 30
        grown = sum(d.size_diff for d in after.compare_to(before, "filename"))
        return grown, env._observations.nbytes

    grown, size = kept_growth(copy=False)
    assert grown < size, (grown, size)
    grown, size = kept_growth(copy=True)
    assert grown >= 30 * size, (grown, size)


def test_bad_input_says_what_is_valid(toy_registered: str) -> None:
    with pytest.raises(EnvError, match="num_envs must be a whole number >= 1"):
        vector_env(toy_registered, 2, 0)
    env = vector_env(toy_registered, 2, 2)
    with pytest.raises(EnvError, match="call reset"):
        env.step(np.array([0, 0]))
    obs, _ = env.reset(seed=1)
    with pytest.raises(EnvError, match="2 whole numbers"):
        env.step(np.array([0, 0, 0]))
    with pytest.raises(EnvError, match="a list of 2"):
        env.reset(seed=[1])
    legal = _choose(obs["action_mask"], np.random.default_rng(0))
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(EnvError, match="not legal"):
        env.step(np.array([legal[0], illegal]))  # table 0's action is legal
    fresh = vector_env(toy_registered, 2, 2)
    fresh.reset(seed=1)
    # the refused step moved no table: both go on as a fresh environment does
    np.testing.assert_array_equal(env.step(legal)[0]["observation"],
                                  fresh.step(legal)[0]["observation"])


def test_the_example_in_the_docs_runs() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "RESEARCH.md").read_text()
    section = text[text.index("## Many tables at once"):]
    code = section[section.index("```python") + len("```python"):section.index("```\n\n")]
    code = code.replace("range(1000)", "range(50)")
    exec(compile(code, "RESEARCH.md", "exec"), {})


def test_workers_play_the_same_games_as_one_process(toy_registered: str) -> None:
    """Two worker processes sharing the arrays: the same games, array for array, as the
    in-process environment with the same seeds; a bad batch moves no table; close()
    stops the workers and gives the shared memory back."""
    from multiprocessing import shared_memory

    ours = vector_env(toy_registered, 3, 5)
    theirs = vector_env(toy_registered, 3, 5, workers=2)
    try:
        a, infos_a = ours.reset(seed=8)
        b, infos_b = theirs.reset(seed=8)
        rng = np.random.default_rng(2)
        for _ in range(120):
            for key in ("observation", "action_mask"):
                np.testing.assert_array_equal(a[key], b[key])
            np.testing.assert_array_equal(infos_a["seat"], infos_b["seat"])
            actions = _choose(a["action_mask"], rng)
            a, *rest_a, infos_a = ours.step(actions)
            b, *rest_b, infos_b = theirs.step(actions)
            for x, y in zip(rest_a, rest_b, strict=True):
                np.testing.assert_array_equal(x, y)
        bad = _choose(a["action_mask"], rng)
        bad[4] = int(np.flatnonzero(a["action_mask"][4] == 0)[0])  # the second worker's
        with pytest.raises(EnvError, match="not legal"):
            theirs.step(bad)
        bad[4] = _choose(a["action_mask"][4:], rng)[0]
        np.testing.assert_array_equal(theirs.step(bad)[0]["observation"],
                                      ours.step(bad)[0]["observation"])
    finally:
        name = theirs._shm.name
        theirs.close()
    assert all(not p.is_alive() for p in theirs._procs)
    with pytest.raises(FileNotFoundError):
        shared_memory.SharedMemory(name=name)
    with pytest.raises(EnvError, match="workers must be a whole number from 1 to num_envs"):
        vector_env(toy_registered, 3, 2, workers=3)


def test_first_ready_tables_play_each_table_as_alone(toy_registered: str) -> None:
    """ready=k: recv() hands back k tables of whole workers, send() moves exactly those;
    each table's sequence of observations, masks, rewards and ends is the one it plays
    alone with its seed, however the workers' batches interleave."""
    env = vector_env(toy_registered, 3, 6, workers=3, ready=2)
    seen: dict[int, list[tuple[Any, ...]]] = {i: [] for i in range(6)}
    moves: dict[int, list[int]] = {i: [] for i in range(6)}
    rng = np.random.default_rng(4)
    try:
        env.async_reset(seed=20)
        served = set()
        for _ in range(90):
            obs, rewards, terms, _, infos = env.recv()
            ids = infos["env_id"].tolist()
            assert len(ids) == 2 and ids[0] // 2 == ids[1] // 2  # one worker's share
            served.update(ids)
            actions = _choose(obs["action_mask"], rng)
            for row, i in enumerate(ids):
                seen[i].append((obs["observation"][row].tolist(),
                                obs["action_mask"][row].tolist(), float(rewards[row]),
                                bool(terms[row]), int(infos["seat"][row])))
                moves[i].append(int(actions[row]))
            env.send(actions, infos["env_id"])
        assert served == set(range(6))
        obs, *_, infos = env.recv()
        with pytest.raises(EnvError, match="env_id must list whole workers' tables"):
            env.send([0], [infos["env_id"][0]])
        with pytest.raises(EnvError, match="still moving"):
            env.send([0, 0], [i for i in range(6) if i not in infos["env_id"]][:2])
        # a synchronous step afterwards waits for the moving workers first
        reference = vector_env(toy_registered, 3, 6)
        first, _ = env.reset(seed=1)
        np.testing.assert_array_equal(first["observation"],
                                      reference.reset(seed=1)[0]["observation"])
        actions = _choose(first["action_mask"], rng)
        np.testing.assert_array_equal(env.step(actions)[0]["observation"],
                                      reference.step(actions)[0]["observation"])
    finally:
        env.close()
    for i in range(6):
        alone = vector_env(toy_registered, 3, 1)
        obs, infos = alone.reset(seed=20 + i)
        reward, term = 0.0, False
        for (o, m, r, t, seat), move in zip(seen[i], moves[i], strict=True):
            assert (obs["observation"][0].tolist(), obs["action_mask"][0].tolist(),
                    reward, term, int(infos["seat"][0])) == (o, m, r, t, seat)
            obs, rewards, terms, _, infos = alone.step([move])
            reward, term = float(rewards[0]), bool(terms[0])


def test_first_ready_refuses_what_it_cannot_do(toy_registered: str) -> None:
    with pytest.raises(EnvError, match=r"ready=k .* needs worker processes"):
        vector_env(toy_registered, 3, 4, ready=2)
    with pytest.raises(EnvError, match=r"a multiple of 2 up to 4\), not 3"):
        vector_env(toy_registered, 3, 4, workers=2, ready=3)
    with pytest.raises(EnvError, match="split evenly over 2 workers"):
        vector_env(toy_registered, 3, 5, workers=2, ready=2)
    env = vector_env(toy_registered, 3, 4, workers=2, ready=2)
    try:
        with pytest.raises(EnvError, match="call async_reset"):
            env.send([0, 0], [0, 1])
        env.async_reset(seed=0)
        env.recv()
        env.recv()
        with pytest.raises(EnvError, match="recv\\(\\) needs 2 tables moving; 0 are"):
            env.recv()
    finally:
        env.close()
