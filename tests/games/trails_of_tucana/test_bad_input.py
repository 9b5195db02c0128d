"""Bad input: illegal moves, player counts and records are refused with clear errors and
change nothing (bad option values: test_data.py)."""

from __future__ import annotations

import pytest

import cove
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.actions import PASS, TucanaAction
from tests.games.trails_of_tucana.helpers import new, reveal


def test_illegal_action_names_legal_moves_and_leaves_state() -> None:
    s = new(3, seed=2)
    reveal(s, "desert", "water")
    before = (s.view(0), s.view(None), s.record(), s.to_move())
    with pytest.raises(cove.IllegalAction, match=r"'draw e1-g1' is not a legal move for P1 "
                       r"now; legal: draw j2-l2, "):
        s.apply(0, "draw e1-g1")  # desert-desert does not match desert+water
    with pytest.raises(cove.IllegalAction, match="not a legal move"):
        s.apply(0, "bonus j2-l2")  # no bonus segment earned
    with pytest.raises(cove.IllegalAction, match="not a legal move"):
        s.apply(0, "pass")  # passing is only allowed when nothing fits
    with pytest.raises(cove.IllegalAction, match="not a legal move"):
        s.apply(0, "draw z1-z3")
    assert (s.view(0), s.view(None), s.record(), s.to_move()) == before
    s.apply(0, "draw j2-l2")
    with pytest.raises(cove.IllegalAction, match="not P1's turn; to move: P2, P3"):
        s.apply(0, "draw j2-l2")


def test_bad_player_count() -> None:
    for n in (0, 9):
        with pytest.raises(cove.PlayerCountError, match=f"1 to 8 players, not {n}"):
            GAME.new(n)


def test_malformed_record() -> None:
    s = new(2, seed=1)
    rec = s.record()
    rec["actions"] = [[0, "draw q1-q3"]]
    with pytest.raises(cove.RecordError, match=r"record action #1 .* does not replay"):
        cove.replay(rec)
    rec["actions"] = [[5, "pass"]]
    with pytest.raises(cove.RecordError, match="does not replay"):
        cove.replay(rec)
    rec = s.record()
    rec["options"] = {"map": "nowhere"}
    with pytest.raises(cove.RecordError, match="cannot start the game"):
        cove.replay(rec)


def test_records_and_states_of_older_versions_are_refused() -> None:
    """Version 5 changed the stored forms (contract v2), version 6 the space names,
    version 7 the action codes a stored state holds, version 8 the views and logs and
    version 9 a solo game's result: older records and states are refused with the
    version error instead of replaying into another game."""
    s = new(2, seed=1)
    s.apply(0, s.legal_actions(0)[0])
    rec = s.record()
    assert rec["version"] == GAME.version == "9"
    cove.replay(rec)
    rec["version"] = "8"
    with pytest.raises(cove.RecordError, match="version '8'; this Cove has version '9'"):
        cove.replay(rec)
    data = s.to_json()
    assert GAME.from_json(data).fingerprint() == s.fingerprint()
    data["version"] = "8"
    with pytest.raises(cove.RecordError, match="version '8'"):
        GAME.from_json(data)


def test_a_stored_action_code_outside_the_table_is_refused() -> None:
    with pytest.raises(cove.RecordError, match="has no action with code 4096"):
        TucanaAction.of(4096)
    assert TucanaAction.of(int(PASS)) is PASS
