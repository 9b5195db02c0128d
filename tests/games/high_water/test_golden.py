"""Golden playthroughs: seeded full games whose transcript (actions, public log, final
scores) is checked in. Regenerate only when a rule changes on purpose:
COVE_REGEN_GOLDEN=1 .venv/bin/pytest tests/games/high_water/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cove.core.rng import Rng
from cove.core.state import State
from tests.games.high_water.helpers import new

GOLDEN = Path(__file__).with_name("golden")


def choose(s: State, p: int, rng: Rng) -> str:
    """A busy random player: it rarely stops or skips while it has something to do."""
    acts = [str(a) for a in s.legal_actions(p)]
    busy = [a for a in acts if a not in ("stop", "next step", "end segment")]
    if busy and rng.random() < 0.85:
        return rng.choice(busy)
    return rng.choice(acts)


def transcript(players: int, seed: int) -> str:
    s = new(players, seed)
    rng = Rng(seed * 7 + 1)
    lines = [f"# high-water, {players} players, seed {seed}"]
    seen = 0
    for e in s.events(None):
        lines.append(f"  | {e.text}")
        seen = e.seq + 1
    while not s.is_over:
        for p in s.to_move():
            if p not in s.to_move():
                continue
            a = choose(s, p, rng)
            s.apply(p, a)
            lines.append(f"P{p + 1}> {a}")
            for e in s.events(None, since=seen):
                lines.append(f"  | {e.text}")
                seen = e.seq + 1
    lines.append(f"scores: {s.scores()}")
    lines.append(f"winners: {[f'P{p + 1}' for p in s.winners()]}")
    lines.append(f"rounds: {s.view(None)['round']}, end: {s.view(None)['game_end']}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("players", "seed"), [(3, 2024), (5, 7)])
def test_golden_playthrough(players: int, seed: int) -> None:
    path = GOLDEN / f"game_{players}p_seed{seed}.txt"
    text = transcript(players, seed)
    if os.environ.get("COVE_REGEN_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
