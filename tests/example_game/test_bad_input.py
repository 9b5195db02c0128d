"""Illegal actions, texts, player counts and records are refused and change nothing."""

from __future__ import annotations

import pytest

from cove.core.errors import IllegalAction, PlayerCountError, RecordError
from cove.example_game import GAME
from cove.example_game.actions import Play
from tests.example_game.helpers import new


def test_a_card_not_in_hand_is_refused_and_changes_nothing() -> None:
    s = new(2, seed=1, bidding=False)
    before = s.fingerprint()
    missing = next(c for c in range(1, 13) if c not in s.view(0)["hand"])
    with pytest.raises(IllegalAction):
        s.apply(0, Play(missing))
    with pytest.raises(IllegalAction):
        s.apply(0, "play 99")
    assert s.fingerprint() == before


def test_playing_during_the_bid_says_why() -> None:
    s = new(2, seed=1)
    with pytest.raises(IllegalAction, match="everyone bids before the first card is played"):
        s.apply(0, "play 5")


@pytest.mark.parametrize("players", [1, 5])
def test_player_counts_outside_2_to_4_are_refused(players: int) -> None:
    with pytest.raises(PlayerCountError, match="is for 2 to 4 players"):
        GAME.new(players)


def test_a_record_of_another_version_is_refused() -> None:
    data = new(2, seed=1).to_json()
    data["version"] = "0"
    with pytest.raises(RecordError):
        GAME.from_json(data)
