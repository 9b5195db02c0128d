"""A golden playthrough: a seeded 3-player game's full transcript, checked in.

Regenerate only on purpose (a rule changed): COVE_REGEN_GOLDEN=1 pytest tests/games/tricky_tides
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from cove.core.rng import Rng
from cove.games.tricky_tides import GAME

GOLDEN = Path(__file__).with_name("golden") / "seed42_3p.json"


def transcript() -> dict[str, Any]:
    s = GAME.new(3, 42)
    rng = Rng(42)
    while not s.is_over:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    return {
        "record": s.record(),
        "log": [e.text for e in s.events(None)],
        "private_log_p1": [e.text for e in s.events(0) if e.to is not None],
        "scores": s.scores(),
        "winners": list(s.winners()),
    }


def test_golden_playthrough() -> None:
    got = transcript()
    if os.environ.get("COVE_REGEN_GOLDEN") == "1" or not GOLDEN.exists():
        GOLDEN.write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert got == want
