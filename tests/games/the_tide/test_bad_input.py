"""Bad input to The Tide is refused and changes nothing: a player count outside 2-6
(R1.3), an illegal action text or value (R8.1), a malformed record (R8.1), an action
outside the action space, and an illegal choice inside a check."""

from __future__ import annotations

import pytest

import cove
from cove.core import IllegalAction
from cove.games.the_tide import GAME
from cove.games.the_tide.actions import MOVES, MaskIndex, Move, Place
from cove.games.the_tide.state import TideState

from .helpers import beach, fill, position, sq, texts


def test_r1_3_player_counts() -> None:
    for n in (0, 1, 7):
        with pytest.raises(cove.PlayerCountError, match="2 to 6"):
            GAME.new(n)
    for n in range(2, 7):
        assert GAME.new(n).n == n


def test_r8_1_illegal_text_leaves_state_unchanged() -> None:
    s = position(fill({"c3": "B1", "f6": "B2"}))
    before = (s.view(None), s.record(), beach(s))
    for bad in ("move c3 to f6", "collect shell at c3", "return bottle to pile a", "fly"):
        with pytest.raises(cove.IllegalAction, match="not a legal move for P1 now; legal: "):
            s.apply(0, bad)
    with pytest.raises(cove.IllegalAction, match="collect 3 bottles at c3"):
        s.apply(0, Move(sq("c3"), sq("f6")))
    with pytest.raises(cove.IllegalAction, match="not P2's turn"):
        s.apply(1, "pass")
    assert (s.view(None), s.record(), beach(s)) == before


def test_r8_1_malformed_record_is_refused() -> None:
    s = GAME.new(2, seed=5)
    s.apply(s.to_move()[0], "place friend at a1")
    rec = s.record()
    rec["actions"].append([1, "place friend at a1"])  # a1 is taken now
    with pytest.raises(cove.RecordError, match="action #2"):
        cove.replay(rec)
    rec["actions"] = [[0, 5]]
    with pytest.raises(cove.RecordError, match="must be \\[player, text\\]"):
        cove.replay(rec)


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


def test_an_illegal_choice_inside_a_check_is_refused_and_changes_nothing() -> None:
    # a recycling's return (R6.4): only tiles of the pool, only piles with room (after the
    # tide a and b hold 2, c 5, d to f 6), and only by the player who owes them
    s = position(fill({"c4": "B1", "f6": "S2"}), held={0: "PCW"},
                 piles=["SB", "SB", "SSBBPC", "SSBBPW", "SSBBPC", "SSBPPW"])
    s.apply(0, "collect bottle at c4")
    assert "return melon to pile a" in texts(s)
    before = (s.view(None), s.record(), beach(s))
    for text in ("return melon to pile d", "return shell to pile a", "pass",
                 "take 3 points", "return melon to pile g"):
        with pytest.raises(cove.IllegalAction, match="not a legal move for P1 now"):
            s.apply(0, text)
    with pytest.raises(cove.IllegalAction, match="not P2's turn"):
        s.apply(1, "return melon to pile a")
    assert (s.view(None), s.record(), beach(s)) == before
