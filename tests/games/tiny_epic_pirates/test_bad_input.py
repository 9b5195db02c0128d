"""Bad input is refused with a useful message and changes nothing: a move that is not
legal now, a player count out of range, a record naming a move that never was legal."""

from __future__ import annotations

import pytest

import cove
from cove.games.tiny_epic_pirates import GAME
from tests.games.tiny_epic_pirates.helpers import acts, after_setup, new


def test_an_illegal_text_is_refused_and_changes_nothing() -> None:
    s = new(2, 1)
    before = (s.view(0), s.record())
    try:
        s.apply(0, "sail to tortuga")
    except cove.IllegalAction as e:
        assert "not a legal move for P1 now; legal: navy to" in str(e)
    else:
        raise AssertionError("expected IllegalAction")
    assert (s.view(0), s.record()) == before


def test_a_move_of_another_seat_or_decision_is_refused() -> None:
    """P2 cannot take P1's wheel move, and a move legal at another decision is refused."""
    s = after_setup(2)
    wheel = acts(s, 0)[0]
    before = (s.view(None), s.record())
    with pytest.raises(cove.IllegalAction):
        s.apply(1, wheel)
    with pytest.raises(cove.IllegalAction):
        s.apply(0, "stop sailing")
    assert (s.view(None), s.record()) == before


def test_player_counts_out_of_range_are_refused() -> None:
    for n in (0, 5):
        try:
            GAME.new(n)
        except cove.PlayerCountError as e:
            assert "1 to 4 players" in str(e)
        else:
            raise AssertionError("expected PlayerCountError")


def test_a_record_naming_an_illegal_move_is_refused() -> None:
    s = new(2, 1)
    rec = s.record()
    rec["actions"] = [[0, "navy to z9"]]
    try:
        cove.replay(rec)
    except cove.RecordError as e:
        assert "navy to z9" in str(e)
    else:
        raise AssertionError("expected RecordError")
