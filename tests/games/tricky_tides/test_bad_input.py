"""Bad input gives a clear error and leaves the game unchanged."""

from __future__ import annotations

import json

import pytest

import cove
from cove.games.tricky_tides import GAME
from tests.games.tricky_tides.helpers import new


def test_illegal_action_text_names_legal_moves_and_keeps_state() -> None:
    s = new(3, 1)
    p = s.to_move()[0]
    before = json.dumps(s.view(None), sort_keys=True), s.record()
    with pytest.raises(cove.IllegalAction) as err:
        s.apply(p, "sail ne")
    assert "legal:" in str(err.value) and "play " in str(err.value)
    with pytest.raises(cove.IllegalAction, match="not P"):
        s.apply((p + 1) % 3, s.legal_actions(p)[0])
    assert (json.dumps(s.view(None), sort_keys=True), s.record()) == before


def test_plain_int_or_bool_is_refused_and_state_unchanged() -> None:
    # a position where the card with code 1 (play 2 octopuses, == True) is legal
    s = next(t for t in (new(3, seed) for seed in range(60))
             if any(int(a) == 1 for a in t.legal_actions(t.to_move()[0])))
    p = s.to_move()[0]
    a = s.legal_actions(p)[0]
    before = json.dumps(s.view(None), sort_keys=True), s.record()
    for bad in (int(a), True):
        with pytest.raises(cove.IllegalAction):
            s.apply(p, bad)
        assert (json.dumps(s.view(None), sort_keys=True), s.record()) == before


@pytest.mark.parametrize("n", [0, 1, 5])
def test_player_count_out_of_range(n: int) -> None:
    with pytest.raises(cove.PlayerCountError, match="2 to 4 players"):
        GAME.new(n, 1)


def test_tampered_record_is_rejected() -> None:
    s = new(2, 1)
    rec = s.record()
    rec["actions"].append([0, "sail nowhere"])
    with pytest.raises(cove.RecordError, match="does not replay"):
        cove.replay(rec)


def test_game_is_registered() -> None:
    assert "tricky-tides" in cove.ids() and cove.load("tricky-tides") is GAME


def test_record_of_version_4_is_refused_with_the_version_error() -> None:
    """Version 5 changed every seeded game (several draws per chance outcome): an old
    record must be refused, not replayed into another game."""
    s = new(2, 1)
    rec = s.record()
    assert rec["version"] == GAME.version == "5"
    rec["version"] = "4"
    with pytest.raises(cove.RecordError, match="version '4'"):
        cove.replay(rec)


def test_stored_state_with_an_unknown_action_or_geometry_code_is_refused() -> None:
    s = new(3, 1)
    data = json.loads(json.dumps(s.to_json()))
    assert GAME.from_json(data).fingerprint() == s.fingerprint()
    data["history"][0][1]["v"] = 999          # a ship placement's action code
    with pytest.raises(cove.RecordError, match="no action with code 999"):
        GAME.from_json(data)
    data = json.loads(json.dumps(s.to_json()))
    data["state"]["geometry"]["v"] = -1
    with pytest.raises(cove.RecordError, match="no map geometry"):
        GAME.from_json(data)
