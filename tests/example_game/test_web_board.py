"""The Toy's browser board: targets name legal moves only, every move can be clicked, and a
spectator gets no targets and no hand."""

from __future__ import annotations

import random

import pytest

from cove.core.actions import legal_forms
from cove.core.svg import reachable, targets, titles
from cove.example_game.web_board import draw
from tests.example_game.helpers import new


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_move_is_on_the_board_and_every_target_is_legal(players: int) -> None:
    rng = random.Random(players)
    s = new(players, seed=players)
    while not s.is_over:
        for p in s.to_move():
            legal = legal_forms(s, p)
            assert reachable(draw(s.view(p), legal, p), legal) == {a["text"] for a in legal}
        assert targets(draw(s.view(None), [], None)) == []
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    assert "Game over" in draw(s.view(None), [], None)


def test_a_spectator_sees_no_hand() -> None:
    s = new(2, seed=3, bidding=False)
    hand = s.view(0)["hand"]
    assert f"card {hand[0]} in your hand" in titles(draw(s.view(0), [], 0))
    assert not any("in your hand" in t for t in titles(draw(s.view(None), [], None)))
