"""The research examples still run (tiny budgets; their figures are in docs/RESEARCH.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_rl_speed_reports_every_rate() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "rl_speed.py"), "--game", "the-tide",
         "--seconds", "0.05", "--rounds", "1", "--json"],
        capture_output=True, text=True, check=True, cwd=ROOT)
    [row] = json.loads(out.stdout)["rows"]
    assert row["game"] == "the-tide" and row["players"] == 3
    assert row["raw_per_s"] > 0 and row["raw_obs_per_s"] > 0 and row["aec_per_s"] > 0


def test_train_masked_pg_trains_and_evaluates() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_masked_pg.py"), "--episodes", "3",
         "--eval", "2"],
        capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert "trained 3 episodes of the-tide (2p)" in out
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
    assert "trained 2 episodes of the-tide (2p) against random, greedy" in out
    for line in ("trained   vs random", "untrained vs random", "trained   vs greedy",
                 "untrained vs greedy"):
        assert line in out
    assert out.count("95% CI") == 4
