"""The benchmark scripts still run (they are not timed here; see benchmarks/)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cove

ROOT = Path(__file__).resolve().parents[1]


def test_speed_script_reports_every_player_count() -> None:
    gid = cove.ids()[0]
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "speed.py"), "--game", gid,
         "--seconds", "0.02", "--json"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    rows = json.loads(out.stdout)["rows"]
    game = cove.load(gid)
    assert [r["players"] for r in rows] == list(range(game.min_players, game.max_players + 1))
    for r in rows:
        assert r["games_per_s"] > 0 and r["decisions_per_s"] > 0 and r["clones_per_s"] > 0


def test_rl_speed_script_reports_the_ratio_the_ceiling_and_the_limit_of_any_aec_env() -> None:
    pytest.importorskip("pettingzoo", reason="cove[rl] is not installed")
    game = cove.load(cove.ids()[0])
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "rl_speed.py"), "--game", game.id,
         "--seconds", "0.05", "--rounds", "1", "--json"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    [row] = json.loads(out.stdout)["rows"]
    # the script's player count: three, within the game's range
    assert row["game"] == game.id
    assert row["players"] == max(game.min_players, min(3, game.max_players))
    # the stand-in game costs next to nothing, so its steps outpace the real game's
    assert row["free_per_s"] > row["aec_per_s"] > 0
    assert row["aec_vs_raw"] < row["ceiling"] < 1
    raw, free = row["raw_per_s"], row["free_per_s"]
    assert row["ceiling"] == pytest.approx(free / (raw + free), abs=1e-3)
    # a bare PettingZoo environment, with no game to run, steps faster than the wrapper
    # round the stand-in game; the limit counts its step and the two fresh arrays
    assert row["bare_per_s"] > row["free_per_s"] and row["arrays_per_s"] > 0
    bare, arrays = row["bare_per_s"], row["arrays_per_s"]
    assert row["limit"] == pytest.approx((1 / raw) / (1 / raw + 1 / bare + 1 / arrays),
                                         abs=1e-3)
    assert row["aec_vs_raw"] < row["limit"] < 1


def test_scale_script_checks_backends_agree() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "scale.py"), "--games", "12", "--no-ray",
         "--json"], capture_output=True, text=True, check=True, cwd=ROOT,
    )
    runs = json.loads(out.stdout)["runs"]
    assert [(r["backend"], r["workers"]) for r in runs] == \
        [("serial", 1), ("processes", 1), ("processes", 2)]
    assert all(r["games_per_second"] > 0 for r in runs)


@pytest.mark.parametrize("script, args, lines", [
    ("rl_overhead.py", ["--rounds", "1", "--seconds", "0.05"], 4),
    ("rl_workers_busy.py", ["--seconds", "0.2"], 3),
])
def test_rl_cost_scripts_report_every_part(script: str, args: list[str], lines: int) -> None:
    pytest.importorskip("gymnasium", reason="cove[rl] is not installed")
    gid = cove.ids()[0]
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), "--game", gid, *args],
        capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout.splitlines()
    assert len(out) == lines and all(line.startswith(gid) for line in out)
    assert all(any(ch.isdigit() for ch in line) for line in out)
