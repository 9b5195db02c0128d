"""The Toy's research encoding (SPEC.md, "Observation")."""

from __future__ import annotations

from cove.example_game import GAME
from cove.example_game.actions import Play
from tests.example_game.helpers import new, with_hands


def test_the_observation_has_the_declared_size_and_layout() -> None:
    s = with_hands(new(3, seed=1, bidding=False), [[3, 9], [4, 5], [6, 7]])
    obs = s.observation(0)
    assert len(obs) == GAME.observation_size(3) == 30
    assert obs[3] == obs[9] == 1.0 and sum(obs[:13]) == 2.0  # the hand
    s.apply(0, Play(9))
    obs = s.observation(1)
    assert obs[13 + 9] == 1.0 and sum(obs[13:26]) == 1.0  # the played 9
    assert obs[26:30] == [9 / 20, 0.0, 0.0, 0.0]  # the scores, then zero for no 4th seat
