"""The environments' observation arrays from a game's sparse form: a whole run of values
taken as it stands, anything else set by index into zeros."""

from __future__ import annotations

from array import array

import numpy as np
import pytest

import cove
from cove.core.state import index_run
from cove.rl._match import Match, fill, whole_run
from tests.games.observations import dense_of


def test_a_whole_run_is_the_shared_run_or_an_equal_copy_of_it() -> None:
    values = array("d", [0.5, 0.0, 2.0, 1.0])
    assert whole_run(((), index_run(0, 4), values), 4)
    assert whole_run((array("q"), array("q", range(4)), values), 4)


@pytest.mark.parametrize(("ones", "at"), [
    (array("q"), array("q", [1, 0, 2, 3])),  # every index, out of order: values not in place
    (array("q", [3]), array("q", [0, 1, 2])),  # a one besides the run
    (array("q"), array("q", [0, 1, 2])),       # too short
    ([], [0, 1, 2, 3]),                        # lists, not arrays: set by index
])
def test_anything_else_is_not_a_whole_run_and_is_set_by_index(
        ones: list[int] | array[int], at: list[int] | array[int]) -> None:
    values = [0.25 * (k + 1) for k in range(len(at))]
    sparse = (ones, at, values)
    assert not whole_run(sparse, 4)
    out = np.zeros(4, np.float32)
    fill(out, sparse)
    assert out.tolist() == dense_of(sparse, 4)


def test_every_games_observation_arrives_unchanged_in_an_array_it_owns(
        toy_registered: str) -> None:
    """Every game and the toy (each declares blocks, so values come by index; a whole run
    is checked above): each observation arrives as the contract's observation in an
    array the caller owns."""
    forms = set()
    for game_id in [toy_registered, *cove.ids()]:
        game = cove.load(game_id)
        match = Match(game_id, max(game.min_players, min(3, game.max_players)), {})
        # the observation comes from the game's sparse form, never through the dense
        # list (which every game with declared blocks once missed: 2x slower)
        assert match._sparse, game_id
        match.reset(4)
        state = match.state
        for _ in range(40):
            if state.is_over:
                break
            p = state.to_move()[0]
            forms.add(whole_run(state.observation_sparse(p), match.obs_size))
            got = match.observation(p)
            assert got.dtype == np.float32 and got.flags.writeable
            assert got.tolist() == np.float32(state.observation(p)).tolist()
            got[:] = 7.0  # the caller's array is its own: the game's next answer is unchanged
            assert match.observation(p).tolist() == np.float32(state.observation(p)).tolist()
            state.apply(p, state.legal_actions(p)[0])
    assert False in forms  # values set by index
