"""The research examples still run (tiny budgets; their figures are in docs/RESEARCH.md)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import cove

ROOT = Path(__file__).resolve().parents[2]


def test_rl_speed_reports_every_rate() -> None:
    game = cove.load(cove.ids()[0])
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "rl_speed.py"), "--game", game.id,
         "--seconds", "0.05", "--rounds", "1", "--json"],
        capture_output=True, text=True, check=True, cwd=ROOT)
    [row] = json.loads(out.stdout)["rows"]
    assert row["game"] == game.id
    assert row["players"] == max(game.min_players, min(3, game.max_players))
    assert row["raw_per_s"] > 0 and row["raw_obs_per_s"] > 0 and row["aec_per_s"] > 0


def test_train_masked_pg_trains_and_evaluates() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_masked_pg.py"), "--episodes", "3",
         "--eval", "2"],
        capture_output=True, text=True, check=True, cwd=ROOT).stdout
    trained = re.search(r"trained 3 episodes of (\S+) \(2p\)", out)
    assert trained and trained[1] in cove.ids()
    for line in ("trained  vs random", "uniform  vs random", "trained  vs greedy",
                 "uniform  vs greedy"):
        assert line in out
    assert out.count("95% CI") == 4


def test_train_masked_ppo_trains_and_evaluates() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_masked_ppo.py"), "--updates", "2",
         "--episodes", "1", "--opponents", "random", "greedy", "--hidden", "8", "--eval", "2"],
        capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert "update    2:" in out
    trained = re.search(r"trained 2 episodes of (\S+) \(2p\) against random, greedy", out)
    assert trained and trained[1] in cove.ids()
    for line in ("trained   vs random", "untrained vs random", "trained   vs greedy",
                 "untrained vs greedy"):
        assert line in out
    assert out.count("95% CI") == 4


def test_the_peer_table_has_every_row_or_says_why_not() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "peers.py"), "--seconds", "0.02",
         "--rounds", "1", "--json"], capture_output=True, text=True, check=True, cwd=ROOT)
    result = json.loads(out.stdout)
    rows, missing = result["steps_per_s"], " ".join(result["missing"])
    for game_id in cove.ids():
        assert any(game_id in name and name.startswith("cove aec") for name in rows)
        assert any(game_id in name and name.startswith("cove vector") for name in rows)
    for peer in ("connect_four_v3", "leduc_holdem_v4", "tictactoe_v3", "leduc_poker"):
        assert any(peer in name for name in rows) or peer in missing
    assert all(rate > 0 for rate in rows.values())
