"""Each conformance hook of the Toy fails on a state broken on purpose."""

from __future__ import annotations

import pytest

from tests.example_game.helpers import new


def test_check_invariants_catches_a_lost_card() -> None:
    s = new(3, seed=2, bidding=False)
    s.check_invariants()
    s.to_json()  # the state is sound before it is broken
    broken = s.clone()
    broken.deck.pop()  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match="cards not conserved"):
        broken.check_invariants()


def test_private_items_are_the_hand_and_no_view_of_another_seat_holds_it() -> None:
    s = new(3, seed=2, bidding=False)
    for p in range(3):
        hand = s.private_items(p)["hand"]
        assert hand == s.view(p)["hand"]
        assert "hand" not in s.view(None)
        assert all(s.view(q).get("hand") != hand for q in range(3) if q != p)


def test_max_actions_bounds_every_game() -> None:
    from cove.example_game import GAME
    from tests.example_game.helpers import play_out

    for players in (2, 3, 4):
        s = play_out(new(players, seed=players, plays=12))
        assert s.decisions <= GAME.max_actions(players, s.options)  # type: ignore[misc]
