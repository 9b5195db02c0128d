"""PettingZoo's own checks on every game at every player count, and the AEC behaviour they
do not check: hidden simultaneous choices, rewards, truncation, rendering, bad input."""

from __future__ import annotations

import types
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)

import cove
from cove.rl import EnvError, aec_env, parallel_env
from tests.rl.helpers import CONFIG_IDS, CONFIGS


def _quiet(fn: Any, *args: Any, **kwargs: Any) -> None:
    with warnings.catch_warnings():
        # dict observations ({"observation", "action_mask"}) make PettingZoo warn that an
        # observation "is not a NumPy array": that is the documented masked-action form
        warnings.simplefilter("ignore")
        fn(*args, **kwargs)


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_api_seed_and_max_cycles(game_id: str, players: int) -> None:
    _quiet(api_test, aec_env(game_id, players), num_cycles=400)
    _quiet(seed_test, lambda: aec_env(game_id, players), num_cycles=60)
    # max_cycles_test samples actions without the mask: illegal ones are replaced at random
    mod = types.SimpleNamespace(
        env=lambda max_cycles: aec_env(game_id, players, max_cycles=max_cycles,
                                       on_illegal="random"),
        parallel_env=lambda max_cycles: parallel_env(game_id, players, max_cycles=max_cycles,
                                                     on_illegal="random"))
    _quiet(max_cycles_test, mod)


def _live_turns(env: Any, steps: int) -> Iterator[tuple[dict[str, Any], int]]:
    """Up to ``steps`` steps of an AEC env: each live agent's observation and seat, for the
    caller to step it; agents that are done are stepped with None here."""
    for _ in range(steps):
        if not env.agents:
            return
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield obs, int(env.agent_selection.removeprefix("player_"))


@pytest.mark.parametrize("game_id", cove.ids())
def test_each_step_shows_the_contracts_observation_and_mask_and_plays_its_index(
        game_id: str) -> None:
    env = aec_env(game_id, 2 if cove.load(game_id).max_players > 1 else 1)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    state = env.match.state
    for obs, seat in _live_turns(env, 60):
        assert obs["observation"].dtype == np.float32
        assert obs["observation"].tolist() == np.float32(state.observation(seat)).tolist()
        assert obs["action_mask"].tolist() == [int(b) for b in state.legal_mask(seat)]
        index = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        before = state.decisions
        env.step(index)
        played = state.history[before][1]
        assert env.match.space.encode(played) == index


@pytest.mark.parametrize("players", [2, 4])
def test_parallel_api_and_seed(toy_registered: str, players: int) -> None:
    _quiet(parallel_api_test, parallel_env(toy_registered, players), num_cycles=1000)
    _quiet(parallel_seed_test,
           lambda: parallel_env(toy_registered, players, on_illegal="random"))


def _play_out(env: Any, seed: int) -> dict[str, float]:
    """Random legal play to the end; each agent's total reward."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


def _first_simultaneous(env: Any, seed: int) -> tuple[Any, int, int]:
    """Play to the first step where two players are asked at once."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while len(env.match.to_move()) < 2:
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    first, second = env.match.to_move()[:2]
    return env, first, second


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simultaneous_choices_stay_hidden(toy_registered: str, players: int) -> None:
    """In a simultaneous step agents are asked one after another; what the second sees
    does not depend on what the first chose (the toy opens with a secret bid)."""
    game_id = toy_registered
    env, first, second = _first_simultaneous(aec_env(game_id, players), 3)
    assert env.agent_selection == f"player_{first}"
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    assert len(legal) >= 2
    seen = []
    for choice in legal[:2]:
        e, _, _ = _first_simultaneous(aec_env(game_id, players), 3)
        e.step(int(choice))
        assert e.agent_selection == f"player_{second}"
        seen.append(e.observe(f"player_{second}"))
    assert np.array_equal(seen[0]["observation"], seen[1]["observation"])
    assert np.array_equal(seen[0]["action_mask"], seen[1]["action_mask"])


def test_hidden_check_can_fail(toy_registered: str) -> None:
    """The comparison above is not vacuous: the first mover's own observation changes
    with its choice once the choices are revealed (the second bids the same each time)."""
    obs = []
    for choice in (0, 1):
        env, first, second = _first_simultaneous(aec_env(toy_registered, 2), 3)
        legal = np.flatnonzero(env.observe(f"player_{first}")["action_mask"])
        env.step(int(legal[choice]))
        legal = np.flatnonzero(env.observe(f"player_{second}")["action_mask"])
        env.step(int(legal[0]))
        obs.append(env.observe(f"player_{first}")["observation"])
    assert not np.array_equal(obs[0], obs[1])


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_win_rewards_are_win_shares(toy_registered: str, seed: int) -> None:
    env = aec_env(toy_registered, 3)
    total = _play_out(env, seed)
    winners = env.match.state.winners()
    assert sum(total.values()) == pytest.approx(1.0)
    for p, a in enumerate(env.possible_agents):
        assert total[a] == pytest.approx(1 / len(winners) if p in winners else 0.0)


def test_margin_rewards_are_normalised_margins(toy_registered: str) -> None:
    env = aec_env(toy_registered, 3, reward="margin")
    total = _play_out(env, 8)
    scores = env.match.state.scores()
    spread = max(1.0, max(scores) - min(scores))
    for p, a in enumerate(env.possible_agents):
        best_other = max(s for q, s in enumerate(scores) if q != p)
        assert total[a] == pytest.approx((scores[p] - best_other) / spread)
        assert -1.0 <= total[a] <= 1.0


@pytest.mark.parametrize("players", [2, 4])
def test_dense_rewards_add_up_to_the_score(toy_registered: str, players: int) -> None:
    game_id = toy_registered
    env = aec_env(game_id, players, reward="dense")
    start = cove.load(game_id).new(players, seed=0).scores()
    total = _play_out(env, 4)
    scores = env.match.state.scores()
    assert any(v != 0 for v in total.values())
    for p, a in enumerate(env.possible_agents):
        assert total[a] == pytest.approx(scores[p] - start[p])


def _end_flags(env: Any, seed: int) -> tuple[bool, bool]:
    """(terminated, truncated) of the first agent to see the end of a random game."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            return term, trunc
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_a_safety_end_truncates(toy_with_safety_end: str) -> None:
    env = aec_env(toy_with_safety_end, 2, plays=1)  # one card scores under 20: "low"
    total = _play_out(env, 1)
    assert env.match.safety_end()
    assert sum(total.values()) == pytest.approx(1.0)  # the result still counts
    assert _end_flags(env, 1) == (False, True)


def test_a_natural_end_terminates(toy_registered: str) -> None:
    assert _end_flags(aec_env(toy_registered, 2), 2) == (True, False)


def test_render_ansi_is_the_terminal_screen(toy_registered: str) -> None:
    env = aec_env(toy_registered, 3, render_mode="ansi")
    env.reset(seed=1)
    seat = int(env.agent_selection.split("_")[1])
    game = cove.load(toy_registered)
    text = env.render()
    assert isinstance(text, str)
    assert text == game.render(env.match.state.view(seat), False)  # type: ignore[misc]
    assert parallel_env(toy_registered, render_mode="ansi").render.__doc__


def test_bad_input_says_what_is_valid(toy_registered: str) -> None:
    with pytest.raises(cove.UnknownGame, match=cove.ids()[0]):  # the games are listed
        aec_env("chess", 2)
    with pytest.raises(cove.PlayerCountError, match="2 to 4"):
        aec_env(toy_registered, 7)
    with pytest.raises(EnvError, match="win, margin, dense"):
        aec_env(toy_registered, 2, reward="points")
    with pytest.raises(EnvError, match="raise, random, lose"):
        aec_env(toy_registered, 2, on_illegal="ignore")
    with pytest.raises(cove.OptionError):
        aec_env(toy_registered, 2, no_such_option=1)
    with pytest.raises(EnvError, match="'ansi'"):
        aec_env(toy_registered, 2, render_mode="human")
    env = aec_env(toy_registered, 2)
    with pytest.raises(EnvError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    good = ", ".join(str(i) for i in np.flatnonzero(mask)[:3])
    with pytest.raises(EnvError, match=f"action index {bad} is not legal.*legal indices: {good}"):
        env.step(bad)
    with pytest.raises(EnvError, match="outside 0"):
        env.step(10**6)
    with pytest.raises(EnvError, match="index"):
        env.step("play 7")
    with pytest.raises(EnvError, match="not None"):
        env.step(None)
    with pytest.raises(EnvError, match="player_0, player_1"):
        env.observation_space("player_9")


def test_on_illegal_lose_ends_the_episode_with_a_penalty(toy_registered: str) -> None:
    env = aec_env(toy_registered, 2, on_illegal="lose")
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1.0
    assert env.infos[agent]["illegal_action"] >= 0


def test_the_mask_is_the_contracts_with_few_and_with_many_legal_actions() -> None:
    # the mask is set one index at a time for a few legal actions and by numpy indexing
    # for many (over 48): both must give state.legal_mask
    sizes: set[bool] = set()
    for game_id in cove.ids():  # every game for two: some offer many, some few
        if not cove.load(game_id).min_players <= 2 <= cove.load(game_id).max_players:
            continue
        env = aec_env(game_id, 2)
        env.reset(seed=3)
        rng = np.random.default_rng(3)
        state = env.match.state
        for obs, seat in _live_turns(env, 40):
            legal = state.legal_mask(seat)
            sizes.add(sum(legal) > 48)
            assert obs["action_mask"].dtype == np.int8
            assert obs["action_mask"].tolist() == [int(b) for b in legal]
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sizes == {False, True}  # both ways of setting the mask were checked
