"""A test per numbered rule of the Toy's RULES.md."""

from __future__ import annotations

from cove.example_game import GAME
from cove.example_game.actions import Bid, Play
from cove.example_game.data import DATA
from tests.example_game.helpers import new, play_out, with_hands


def test_r1_deal() -> None:
    s = new(3, seed=4, bidding=False)
    view = s.view(None)
    assert view["hand_sizes"] == [DATA.hand] * 3
    assert view["deck_size"] == DATA.cards - 3 * DATA.hand
    hands = [s.view(p)["hand"] for p in range(3)]
    assert len({c for h in hands for c in h}) == 3 * DATA.hand  # every card dealt once


def test_r2_bids_are_secret_until_all_have_bid() -> None:
    s = new(3, seed=1)
    assert set(s.to_move()) == {0, 1, 2}
    s.apply(0, Bid(1))
    assert s.view(0)["my_bid"] == 1
    assert "my_bid" not in s.view(None) and s.view(1)["my_bid"] is None
    assert all("bids 1" not in e.text for e in s.events(1))  # P2 is not told P1's bid


def test_r3_a_bid_costs_a_point_and_draws() -> None:
    s = new(2, seed=1)
    s.apply(0, Bid(1))
    s.apply(1, Bid(0))
    view = s.view(None)
    assert view["bid_paid"] == [DATA.bid_cost, 0]
    assert view["hand_sizes"] == [DATA.hand + 1, DATA.hand]
    assert s.scores() == [-DATA.bid_cost, 0.0]


def test_r4_a_card_scores_its_value() -> None:
    s = with_hands(new(2, seed=2, bidding=False), [[3, 9], [4, 5]])
    assert s.to_move() == (0,)
    deck = s.view(None)["deck_size"]
    s.apply(0, Play(9))
    assert s.scores() == [9.0, 0.0] and s.view(None)["deck_size"] == deck - 1
    assert len(s.view(0)["hand"]) == 2 and s.to_move() == (1,)


def test_r4_2_an_empty_hand_holds_a_blank() -> None:
    s = new(4, seed=3, bidding=False, plays=12)
    play_out(s)
    assert any(0 in s.view(p)["hand"] for p in range(4))  # the deck ran dry


def test_r5_the_game_ends_after_the_plays() -> None:
    s = play_out(new(2, seed=5, bidding=False, plays=3))
    assert s.is_over and len(s.view(None)["played"]) == 3


def test_r5_1_score_is_cards_less_the_bid() -> None:
    s = new(2, seed=6)
    s.apply(0, Bid(1))
    s.apply(1, Bid(1))
    play_out(s)
    v = s.view(None)
    assert s.scores() == [float(c - b) for c, b in zip(v["card_points"], v["bid_paid"],
                                                        strict=True)]
    assert v["bid_paid"] == [DATA.bid_cost, DATA.bid_cost]


def test_r5_2_the_highest_card_played_breaks_a_tie() -> None:
    s = with_hands(new(2, seed=0, bidding=False, plays=4), [[2, 9], [5, 6]])
    for player, card in ((0, 2), (1, 5), (0, 9), (1, 6)):  # the cards drawn are not played
        s.apply(player, Play(card))
    assert s.is_over and s.scores() == [11.0, 11.0]
    assert s.tiebreak(0) == (9.0,) and s.tiebreak(1) == (6.0,)
    assert s.winners() == (0,)
    assert GAME.tiebreak == ("the highest card played",)
