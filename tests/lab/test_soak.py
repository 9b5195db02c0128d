"""``cove soak``: many games with every conformance check; a failure is reported once per
check with the command that replays it, and that command finds it again."""

from __future__ import annotations

import pytest

from cove.cli import main
from cove.example_game.state import ToyState
from cove.lab.soak import SoakError, run_soak


def test_a_clean_game_soaks_without_failure(toy_registered: str) -> None:
    result = run_soak(toy_registered, 3, games=12)
    assert result["games"] == 12 and not result["failures"] and not result["failed_games"]
    assert result["moves"] > 12 * 10 and result["checks"] > result["moves"]
    assert sum(result["ends"].values()) == 12
    with_bots = run_soak(toy_registered, 2, games=4, bots=["greedy"])
    assert with_bots["bots"] == ["greedy", "greedy"] and not with_bots["failures"]


def test_a_planted_failure_is_found_and_replayed(toy_registered: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """An invariant that breaks when a player holds cards 11 and 12 together: some games
    reach it, and the replay command's game reaches it again."""
    sound = ToyState.check_invariants

    def broken(self: ToyState) -> None:
        sound(self)
        if any({11, 12} <= set(hand) for hand in self.hands):  # not assert: pytest would
            raise AssertionError("11 and 12 together")  # rewrite the message with reprs

    monkeypatch.setattr(ToyState, "check_invariants", broken)
    result = run_soak(toy_registered, 3, games=30)
    assert result["failed_games"] > 0, "the plant is reached"
    [failure] = result["failures"]
    assert failure["check"] == "invariants" and "11 and 12 together" in failure["message"]
    assert failure["replay"] == f"cove soak toy -p 3 --first {failure['game']} --games 1"
    again = run_soak(toy_registered, 3, games=1, first=failure["game"])
    assert again["failures"][0]["message"] == failure["message"]


def test_the_command_says_what_failed_and_how_to_replay_it(
        toy_registered: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["soak", toy_registered, "-p", "2", "--games", "5", "-q"]) == 0
    assert "No check failed." in capsys.readouterr().out
    monkeypatch.setattr(ToyState, "check_invariants", lambda self: _fail())
    assert main(["soak", toy_registered, "-p", "2", "--games", "3", "-q"]) == 1
    out = capsys.readouterr().out
    assert "3 games failed a check:" in out and "again: cove soak toy -p 2 --first 0" in out


def _fail() -> None:
    raise AssertionError("planted")


def test_bad_input_says_what_is_valid(toy_registered: str) -> None:
    with pytest.raises(SoakError, match="games must be a whole number >= 1"):
        run_soak(toy_registered, 2, games=0)
    with pytest.raises(SoakError, match="first must be a whole number >= 0"):
        run_soak(toy_registered, 2, first=-1)
    with pytest.raises(SoakError, match="bots needs 1 spec or 2"):
        run_soak(toy_registered, 2, bots=["random", "random", "random"])
