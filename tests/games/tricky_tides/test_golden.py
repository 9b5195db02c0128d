"""Golden playthroughs: seeded full games' transcripts, checked in (the base game at 3
players; both modules on at 2, 3 and 4 players).

Regenerate only on purpose (a rule changed): COVE_REGEN_GOLDEN=1 pytest tests/games/tricky_tides
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from cove.core.rng import Rng
from cove.games.tricky_tides import GAME

GOLDEN = Path(__file__).with_name("golden") / "seed42_3p.json"
MODULES = {"events": True, "monsters": True}


def transcript(n: int = 3, seed: int = 42, **options: Any) -> dict[str, Any]:
    s = GAME.new(n, seed, **options)
    rng = Rng(seed)
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


def check(path: Path, got: dict[str, Any]) -> None:
    """Compare with the checked-in transcript; a missing file is a failure (only
    COVE_REGEN_GOLDEN=1 writes one), so a golden test can never compare a run with itself."""
    if os.environ.get("COVE_REGEN_GOLDEN") == "1":
        path.write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
    if not path.exists():
        pytest.fail(f"golden file {path.name} is missing; write it on purpose with "
                    "COVE_REGEN_GOLDEN=1")
    want = json.loads(path.read_text(encoding="utf-8"))
    assert got == want


def test_missing_golden_file_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COVE_REGEN_GOLDEN", raising=False)
    path = tmp_path / "absent.json"
    with pytest.raises(pytest.fail.Exception, match=r"absent\.json is missing"):
        check(path, {"scores": [1.0]})
    assert not path.exists()
    path.write_text('{"scores": [2.0]}', encoding="utf-8")
    with pytest.raises(AssertionError):          # and a different transcript fails
        check(path, {"scores": [1.0]})


def test_golden_playthrough() -> None:
    check(GOLDEN, transcript())


@pytest.mark.parametrize(("n", "seed"), [(2, 7), (3, 8), (4, 9)])
def test_golden_playthrough_with_both_modules(n: int, seed: int) -> None:
    got = transcript(n, seed, **MODULES)
    text = "\n".join(got["log"])
    assert "Event for round 3:" in text and "Monsters activated:" in text
    check(GOLDEN.with_name(f"modules_seed{seed}_{n}p.json"), got)
