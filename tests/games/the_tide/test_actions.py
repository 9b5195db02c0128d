"""The legal actions' indices (``legal_indices``, from MaskIndex: each action's numbers, no
hashing) are the action space's own, in the legal list's order, and the mask is made from
them; an action the index does not know goes to the space, which names it."""

from __future__ import annotations

import pytest

from cove.core.errors import IllegalAction
from cove.core.rng import Rng
from cove.games.the_tide import GAME
from cove.games.the_tide.actions import MOVES, MaskIndex, Move, Place
from cove.games.the_tide.state import TideState


@pytest.mark.parametrize("move_dirs", [4, 8])
def test_legal_indices_are_the_spaces_in_order(move_dirs: int) -> None:
    for n in (2, 3, 6):
        s = GAME.new(n, seed=n, log=False, move_dirs=move_dirs)
        space = s.action_space
        rng = Rng(n)
        steps = 0
        while not s.is_over:
            p = s.to_move()[0]
            legal = s.legal_actions(p)
            got = s.legal_indices(p)
            assert got == [space.encode(a) for a in legal]
            assert all(type(i) is int for i in got)
            assert [i for i, on in enumerate(s.legal_mask(p)) if on] == sorted(got)
            s.apply(p, rng.choice(legal))
            steps += 1
        assert steps > 50


def test_an_action_the_index_does_not_know_is_named_by_the_space() -> None:
    s = GAME.new(3, seed=1, log=False)
    assert isinstance(s, TideState)
    index = MaskIndex(s.action_space)
    diagonal = MOVES[0][7]  # a1 to b2: not a move of move_dirs=4
    assert index.indices([Place(3), diagonal]) is None
    assert index.indices([Place(3), Move(0, 1)]) == [s.action_space.encode(Place(3)),
                                                      s.action_space.encode(Move(0, 1))]
    with pytest.raises(IllegalAction, match="not in this game's action space"):
        s._legal_indices(s.to_move()[0], (Place(3), diagonal))
