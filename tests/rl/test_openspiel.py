"""Every Cove game loads in OpenSpiel and OpenSpiel's own tools run on it: the C++ random
simulation test, a random playout through the Python API at every player count, MCTS,
information-set MCTS and the bot evaluation loop."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cove
from tests.rl.helpers import CONFIG_IDS, CONFIGS

pyspiel = pytest.importorskip(
    "pyspiel", reason="open-spiel is not installed (pip install -e '.[openspiel]'); it "
    "has wheels for Linux and macOS on CPython 3.11+ only")
cove_openspiel = pytest.importorskip("cove.rl.openspiel")

# short configurations keep the C++ test (which checks every state many ways) quick
SHORT = {
    "high-water": "players=2,max_rounds=1",
    "the-tide": "players=2,turn_limit=12",
    "tiny-epic-pirates": "players=1,max_rounds=5",
    "trails-of-tucana": "players=1",
    "tricky-tides": "players=2",
}


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    for game_id in cove.ids():
        assert cove_openspiel.game_name(game_id) in names
    assert set(SHORT) == set(cove.ids())


@pytest.mark.parametrize("game_id", sorted(SHORT))
def test_random_sim_test(game_id: str) -> None:
    game = pyspiel.load_game(f"{cove_openspiel.game_name(game_id)}({SHORT[game_id]})")
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def _random_playout(game: Any, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        assert legal and sorted(legal) == legal
        if steps % 25 == 0:  # observation_tensor costs ~2 ms in OpenSpiel's Python bridge
            mask = state.legal_actions_mask(p)
            assert [i for i, m in enumerate(mask) if m] == legal
            tensor = state.observation_tensor(p)
            assert len(tensor) == game.observation_tensor_size()
            assert tensor == np.float32(state.state.observation(p)).tolist()
        state.apply_action(int(rng.choice(legal)))
        steps += 1
        assert steps <= game.max_game_length()
    return state


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_load_and_play_every_player_count(game_id: str, players: int) -> None:
    name = f"{cove_openspiel.game_name(game_id)}(players={players})"
    game = pyspiel.load_game(name)
    assert game.num_players() == players
    assert game.num_distinct_actions() == cove.load(game_id).action_space(players).size
    state = _random_playout(game, players)
    returns = state.returns()
    assert len(returns) == players
    assert sum(returns) == pytest.approx(1.0)  # win shares


def test_parameters_reach_the_game() -> None:
    game = pyspiel.load_game("cove_tricky_tides(players=3,ship_colours=3/1/2,seed=5)")
    state = game.new_initial_state()
    assert state.state.options.ship_colours == ("3", "1", "2")
    assert str(game).startswith("cove_tricky_tides(")
    again = pyspiel.load_game(str(game))  # the game's own string loads it back
    assert again.num_players() == 3
    with pytest.raises(cove.OptionError):
        pyspiel.load_game("cove_tricky_tides(players=3,ship_colours=5/6)")
    with pytest.raises(cove.PlayerCountError):
        pyspiel.load_game("cove_tricky_tides(players=9)")


def test_new_initial_states_are_new_deals_from_the_seed() -> None:
    a = pyspiel.load_game("cove_tricky_tides(players=2,seed=3)")
    b = pyspiel.load_game("cove_tricky_tides(players=2,seed=3)")
    deals_a = [str(a.new_initial_state()) for _ in range(3)]
    deals_b = [str(b.new_initial_state()) for _ in range(3)]
    assert deals_a == deals_b
    assert len(set(deals_a)) > 1


def test_mcts_bot_in_the_evaluation_loop() -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = pyspiel.load_game("cove_trails_of_tucana(players=2)")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator,
                         random_state=rng),
            pyspiel.make_uniform_random_bot(1, 7)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 2
    assert sum(returns) == pytest.approx(1.0)


def test_ismcts_bot_searches_resampled_worlds() -> None:
    """OpenSpiel's ISMCTS asserts every sampled world has the root's information state."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("cove_tricky_tides(players=2)")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
    state = game.new_initial_state()
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_resampled_worlds_share_the_information_state() -> None:
    game = pyspiel.load_game("cove_tricky_tides(players=3)")
    state = _partial(game, 10)
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(p, sampler) for _ in range(4)]
    key = state.information_state_string(p)
    assert all(w.information_state_string(p) == key for w in worlds)
    assert all(w.legal_actions() == state.legal_actions() for w in worlds)
    other = (p + 1) % 3
    assert any(w.information_state_string(other) != state.information_state_string(other)
               for w in worlds)  # what p cannot see was resampled


def _partial(game: Any, moves: int) -> Any:
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    for _ in range(moves):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state
