"""The action space's keys (``action_key``): texts looked up by identity for the actions the
rules hand out, the square for a collection; the same index for an equal copy of an
action, the same numbering as the space lists, and the game's own mask agrees."""

from __future__ import annotations

import pytest

from cove.core.actions import ActionSpace
from cove.core.errors import IllegalAction
from cove.core.rng import Rng
from cove.core.serial import Decoder, encode
from cove.games.the_tide import GAME
from cove.games.the_tide.actions import (
    MOVES,
    PASS,
    PLACES,
    RETURNS,
    REWARDS,
    ActionKey,
    Collect,
    Move,
    Pass,
    Place,
    Return,
    Reward,
    action_key,
)


@pytest.mark.parametrize("move_dirs", [4, 8])
def test_every_legal_action_has_its_index_and_equal_copies_share_it(move_dirs: int) -> None:
    dec = Decoder(GAME.package_prefixes())
    for n in (2, 3, 5):
        s = GAME.new(n, seed=n, log=False, move_dirs=move_dirs)
        space = s.action_space
        assert isinstance(space, ActionSpace)
        assert len(set(space.universe)) == space.size
        # the keys name the actions: their texts, or a collection's square
        assert all(isinstance(k, str) or (isinstance(k, tuple) and k[0] == "collect")
                   for k in space.universe)
        rng = Rng(n)
        while not s.is_over:
            p = s.to_move()[0]
            legal = s.legal_actions(p)
            indices = [space.encode(a) for a in legal]
            assert len(set(indices)) == len(legal)
            mask = s.legal_mask(p)
            assert [i for i, on in enumerate(mask) if on] == sorted(indices)
            for a, i in zip(legal, indices, strict=True):
                copy = dec.decode(encode(a))
                assert copy == a and (copy is not a or isinstance(a, Pass | Reward))
                assert space.encode(copy) == i
                key = space.universe[i]
                assert key == (("collect", a.sq) if isinstance(a, Collect)
                               else ActionKey(str(a)))
                assert str(key) == (str(("collect", a.sq)) if isinstance(a, Collect)
                                    else str(a))  # as OpenSpiel shows an index
            s.apply(p, rng.choice(legal))


def test_keys_of_the_made_actions_are_their_texts() -> None:
    made = [*PLACES, *(m for row in MOVES for m in row), PASS,
            *(r for row in RETURNS for r in row), *REWARDS]
    assert all(type(action_key(a)) is ActionKey and str(action_key(a)) == str(a)
               for a in made)
    copies = [Place(3), Move(3, 9), Pass(), Return(2, 4), Reward(True)]
    assert [action_key(a) for a in copies] == [action_key(a) for a in made
                                               if a in copies]
    assert action_key(Move(3, 9)) == action_key(MOVES[3][9]) != "move d1 to d2"
    assert hash(action_key(MOVES[3][9])) == hash("move d1 to d2")
    assert action_key(Collect(7, 2, 3)) == ("collect", 7)


def test_what_is_no_action_of_the_game_has_no_index() -> None:
    space = GAME.action_space(3)
    for other in ["pass", "move a1 to a2", 3, Move(0, 35), Return(0, 1)]:
        with pytest.raises(IllegalAction, match="not in this game's action space"):
            space.encode(other)
