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

@pytest.fixture
def toy(toy_registered: str) -> str:
    """The toy registered with OpenSpiel too (for this process); its short name."""
    return str(cove_openspiel.register(toy_registered))


def smallest(game: cove.Game) -> str:
    """The parameters of the smallest configuration ``game`` allows: the fewest players
    and every whole-number option at its lowest (caps on rounds and turns are these, so
    the C++ test, which checks every state many ways, stays quick)."""
    n = game.min_players
    props = game.options_schema(n)["properties"]
    return ",".join([f"players={n}"] + [
        f"{name}={p['minimum']}" for name, p in props.items()
        if p.get("type") == "integer" and "enum" not in p and "minimum" in p])


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    for game_id in cove.ids():
        assert cove_openspiel.game_name(game_id) in names


@pytest.mark.parametrize("game_id", cove.ids())
def test_random_sim_test(game_id: str) -> None:
    name = cove_openspiel.game_name(game_id)
    game = pyspiel.load_game(f"{name}({smallest(cove.load(game_id))})")
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_random_sim_test_of_the_toy(toy: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(f"{toy}(players=3)"), num_sims=2,
                            serialize=False, verbose=False)


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
    # win shares: they sum to 1, or to 0 when nobody wins (a solo game lost)
    assert sum(returns) == pytest.approx(1.0 if state.state.winners() else 0.0)


def _list_option() -> tuple[cove.Game, str, list[str]]:
    """The first game for three with a list option of named values: the game, the
    option's name and three of its values in reverse order."""
    for game in cove.all_games():
        if not game.min_players <= 3 <= game.max_players:
            continue
        for name, p in game.options_schema(3)["properties"].items():
            values = p.get("items", {}).get("enum", [])
            if p.get("type") == "array" and len(values) >= 3:
                return game, name, [str(v) for v in reversed(values[:3])]
    pytest.skip("no registered game for three has a list option of named values")


def test_parameters_reach_the_game() -> None:
    cove_game, option, values = _list_option()
    name = cove_openspiel.game_name(cove_game.id)
    game = pyspiel.load_game(f"{name}(players=3,{option}={'/'.join(values)},seed=5)")
    state = game.new_initial_state()
    assert getattr(state.state.options, option) == tuple(values)
    assert str(game).startswith(f"{name}(")
    again = pyspiel.load_game(str(game))  # the game's own string loads it back
    assert again.num_players() == 3
    with pytest.raises(cove.OptionError):
        pyspiel.load_game(f"{name}(players=3,{option}=no-such-value/nor-this)")
    with pytest.raises(cove.PlayerCountError):
        pyspiel.load_game(f"{name}(players={cove_game.max_players + 1})")


def test_new_initial_states_are_new_deals_from_the_seed(toy: str) -> None:
    a = pyspiel.load_game(f"{toy}(players=2,seed=3)")
    b = pyspiel.load_game(f"{toy}(players=2,seed=3)")
    # what the first seat sees: its own hand is dealt
    deals_a = [a.new_initial_state().observation_string(0) for _ in range(3)]
    deals_b = [b.new_initial_state().observation_string(0) for _ in range(3)]
    assert deals_a == deals_b
    assert len(set(deals_a)) > 1


def test_mcts_bot_in_the_evaluation_loop(toy: str) -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = pyspiel.load_game(f"{toy}(players=2)")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator,
                         random_state=rng),
            pyspiel.make_uniform_random_bot(1, 7)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 2
    assert sum(returns) == pytest.approx(1.0)


def test_ismcts_bot_searches_resampled_worlds(toy: str) -> None:
    """OpenSpiel's ISMCTS asserts every sampled world has the root's information state."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(f"{toy}(players=2)")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
    state = game.new_initial_state()
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_resampled_worlds_share_the_information_state(toy: str) -> None:
    game = pyspiel.load_game(f"{toy}(players=3,plays=12)")
    state = _partial(game, 10)
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    # 12 worlds: the sampler is not seeded, and a hand with few possibilities left can
    # come out as the real one a few times in a row
    worlds = [state.resample_from_infostate(p, sampler) for _ in range(12)]
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
