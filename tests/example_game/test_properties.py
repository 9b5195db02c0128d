"""Properties of random Toy games beyond the shared harness."""

from __future__ import annotations

import random

import pytest

from tests.example_game.helpers import new


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_points_taken_are_the_cards_played(players: int) -> None:
    rng = random.Random(players)
    s = new(players, seed=players)
    while not s.is_over:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    v = s.view(None)
    assert sum(v["card_points"]) == sum(v["played"])
