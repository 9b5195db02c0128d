"""Golden playthrough: a seeded full game's transcript (actions, log, final scores) checked
in under golden/. Regenerate only on purpose: COVE_REGEN_GOLDEN=1 pytest this file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import cove
from cove.core.rng import Rng
from cove.games.the_tide import GAME

from .helpers import biased_step

GOLDEN = Path(__file__).with_name("golden")
CASES = {
    "the_tide_3p_seed2024.json": (3, 2024, {}),
    "the_tide_2p_seed7_variant.json": (2, 7, {"gravity": "one_step", "move_dirs": 8,
                                               "check_timing": "every_turn"}),
}


def transcript(players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    s = GAME.new(players, seed=seed, stall_rounds=4, **options)
    rng = Rng(seed * 31 + 1)
    while not s.is_over:
        biased_step(s, rng, 0.85)  # type: ignore[arg-type]
    return {
        "record": s.record(),
        "log": [e.text for e in s.events(None)],
        "scores": s.scores(),
        "winners": list(s.winners()),
        "final_view": s.view(None),
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    got = transcript(*CASES[name])
    path = GOLDEN / name
    if os.environ.get("COVE_REGEN_GOLDEN") == "1":
        path.write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
    want = json.loads(path.read_text(encoding="utf-8"))
    assert got["record"]["actions"] == want["record"]["actions"]
    assert got["log"] == want["log"]
    assert got == want
    # the record alone reproduces the game
    again = cove.replay(want["record"])
    assert again.scores() == want["scores"] and again.view(None) == want["final_view"]
