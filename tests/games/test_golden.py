"""Golden playthroughs: one format for every game (cove.testing.playthrough).

Each game must have golden files in tests/games/<pkg>/golden/*.json. The test replays each
one and fails on any difference; it never writes a file. A game that plays differently must
bump its version and regenerate on purpose:
``python -m cove.testing.playthrough --regen`` (which refuses while the version is unchanged).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cove
from cove.core.registry import REGISTRY
from cove.testing.playthrough import FORMAT, first_difference, regenerate

HERE = Path(__file__).parent
FILES = sorted([*HERE.glob("*/golden/*.json"), *HERE.parent.glob("example_game/golden/*.json")])
"""Every game's golden files, and the tutorial game's (registered as ``toy`` for them)."""


@pytest.mark.parametrize("gid", cove.ids())
def test_every_game_has_golden_files(gid: str) -> None:
    pkg = REGISTRY[gid].rpartition(".")[2]
    files = list((HERE / pkg / "golden").glob("*.json"))
    assert files, f"{gid} has no golden playthrough in tests/games/{pkg}/golden/"
    assert all(json.loads(f.read_text())["game"] == gid for f in files)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.parent.name}/{p.name}" for p in FILES])
def test_golden_playthrough(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(REGISTRY, "toy", "cove.example_game")
    old = json.loads(path.read_text(encoding="utf-8"))
    assert old.get("format") == FORMAT, f"{path.name} is not a {FORMAT} file"
    game = cove.load(old["game"])
    new = regenerate(old)
    diff = first_difference(old, new)
    if old["version"] != game.version:
        pytest.fail(f"{path.name} is for {game.id} version {old['version']!r}, the game is "
                    f"{game.version!r}: regenerate with python -m cove.testing.playthrough --regen")
    assert not diff, (f"{game.id} plays differently from {path.name} ({diff}) while its version "
                      f"is still {game.version!r}: if the change is meant, bump Game.version, "
                      "then regenerate")
