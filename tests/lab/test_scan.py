"""``cove scan``: restricted players find the toy's planted dominant option (a bid of 1
costs 1 point and draws a card worth 6.5 on average) and nothing in the toy without
bids; a restriction that never bites changes nothing."""

from __future__ import annotations

import json

import pytest

import cove
from cove.bots import make_bot
from cove.cli import main
from cove.lab.runner import advance
from cove.lab.scan import Restricted, Restriction, ScanError, labeller, run_scan, verdict


def test_the_planted_dominant_bid_is_found(toy_registered: str) -> None:
    result = run_scan(toy_registered, 3, games=300, by="action", top=2)
    found = {(r["rule"], r["option"]): r["verdict"] for r in result["findings"]}
    assert found.get(("always", "bid 1")) == "dominant", result["restrictions"]
    assert found.get(("never", "bid 0")) == "trap"
    assert ("always", "bid 0") not in found


def test_nothing_dominant_without_the_bid(toy_registered: str) -> None:
    result = run_scan(toy_registered, 3, games=200, by="action", top=4,
                      options={"bidding": False})
    assert result["restrictions"], "the plays were scanned"
    assert not [r for r in result["findings"] if r["verdict"] in ("dominant", "trap")]


def test_a_restriction_that_never_bites_plays_the_same_game(toy_registered: str) -> None:
    game = cove.load(toy_registered)
    label = labeller(game, "action", 3, {})
    finals = []
    for held in (False, True):
        state = game.new(3, 5, log=False)
        bots = [make_bot("greedy", seed=p) for p in range(3)]
        if held:
            bots[1] = Restricted(bots[1], Restriction("never", "no such option"), label)
        advance(state, lambda s, p, bots=bots: bots[p].act(s, p))
        finals.append(state.scores())
    assert finals[0] == finals[1]
    assert isinstance(bots[1], Restricted) and bots[1].changed == 0


def test_a_forced_move_stays_forced() -> None:
    assert Restriction("never", "bid 1").allowed(["bid 1"]) == [0]
    assert Restriction("always", "bid 1").allowed(["bid 0", "play 3"]) == [0, 1]
    assert Restriction("always", "bid 1").allowed(["bid 0", "bid 1"]) == [1]


def test_verdicts_follow_the_interval() -> None:
    assert verdict("always", 0.01, 0.2, 0.5) == "dominant"
    assert verdict("never", 0.01, 0.2, 0.5) == "trap"
    assert verdict("never", -0.02, 0.03, 0.5) == "useless?"
    assert verdict("never", -0.02, 0.03, 0.1) == ""  # it rarely changed a decision
    assert verdict("never", -0.2, 0.01, 0.5) == ""  # too wide to tell
    assert verdict("always", -0.2, 0.01, 0.5) == ""


def test_the_command_prints_what_stands_out(toy_registered: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", toy_registered, "-p", "3", "--by", "action", "--top", "2",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "What stands out:" in out and "always bid 1: dominant" in out
    assert main(["scan", toy_registered, "-p", "3", "--top", "1", "--games", "20",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["by"] == "kind"


def test_bad_input_says_what_is_valid(toy_registered: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ScanError, match="scan by one of: kind, action"):
        run_scan(toy_registered, 3, by="card")
    with pytest.raises(ScanError, match="top must be a whole number >= 0"):
        run_scan(toy_registered, 3, top=-1)
    assert main(["scan", toy_registered, "--games", "0"]) != 0
    assert "--games" in capsys.readouterr().err
