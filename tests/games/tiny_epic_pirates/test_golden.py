"""Golden playthrough: a seeded full game (a fixed pseudo-random policy) with its log and
final scores, checked in; regenerate only on purpose with COVE_REGEN_GOLDEN=1."""

from __future__ import annotations

import json
import os
from pathlib import Path

from cove.core.rng import Rng
from cove.games.tiny_epic_pirates import GAME

GOLDEN = Path(__file__).parent / "golden"


def transcript(players: int, seed: int) -> str:
    s = GAME.new(players, seed=seed, max_rounds=25)
    rng = Rng(seed * 7 + 1)
    lines: list[str] = []
    while not s.is_over:
        p = s.to_move()[0]
        acts = s.legal_actions(p)
        # prefer doing things over skipping, so the transcript shows the rules at work
        doing = [a for a in acts if not str(a).startswith(("skip", "end bonus", "stop",
                                                           "done"))]
        a = rng.choice(doing) if doing and rng.random() < 0.8 else rng.choice(acts)
        lines.append(f"> P{p + 1}: {a}")
        s.apply(p, a)
    lines += [f"  {e.text}" for e in s.events(None)]
    lines.append("scores " + json.dumps(s.scores()) + " winners "
                 + json.dumps([f"P{w + 1}" for w in s.winners()]))
    return "\n".join(lines) + "\n"


def _check(players: int, seed: int) -> None:
    path = GOLDEN / f"{players}p_seed{seed}.txt"
    text = transcript(players, seed)
    if os.environ.get("COVE_REGEN_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} missing: run with COVE_REGEN_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8")


def test_golden_two_players() -> None:
    _check(2, 2021)


def test_golden_solo() -> None:
    _check(1, 7)
