"""The compiled build (docs/BUILD.md) plays the same games as the pure one, and says which
build runs. The comparison runs on the compiled build (``python3 dev.py fast test``, which
CI runs after the pure suite): it plays seeded games of every game in this process and in
a pure process reading the sources, and compares their digests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cove
from cove.core import state as state_module
from cove.testing.builds import digests

ROOT = Path(__file__).resolve().parents[1]


def test_the_build_is_named_by_what_runs() -> None:
    expected = "pure" if (state_module.__file__ or "").endswith(".py") else "compiled"
    assert expected == cove.BUILD
    out = subprocess.run([sys.executable, "-m", "cove", "--version"], capture_output=True,
                         text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == f"cove {cove.__version__} ({cove.BUILD} build)"


@pytest.mark.skipif(cove.BUILD != "compiled", reason="compares the compiled build with the "
                    "pure sources: runs under `python3 dev.py fast test`")
def test_the_compiled_build_plays_the_same_games_as_the_pure_one() -> None:
    pure = subprocess.run([sys.executable, "-m", "cove.testing.builds"], capture_output=True,
                          text=True, check=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    theirs = json.loads(pure.stdout)
    assert theirs["build"] == "pure"
    ours = digests()
    assert len(ours) >= 2 * len(cove.all_games()) * 12
    differ = [k for k in ours if ours[k] != theirs["digests"].get(k)]
    assert not differ, f"{len(differ)} games play differently compiled: {differ[:5]}"
