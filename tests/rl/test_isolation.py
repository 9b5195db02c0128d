"""The core stays dependency-free: ``import cove`` (and playing a game, the bots, the lab
and the CLI) never imports numpy, PettingZoo, Gymnasium, OpenSpiel or cove.rl."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("numpy", "pettingzoo", "gymnasium", "pyspiel", "open_spiel", "cove.rl")


def test_import_cove_imports_no_research_library() -> None:
    code = (
        "import sys, cove, cove.bots, cove.lab, cove.cli\n"
        "for g in cove.all_games():\n"
        "    s = g.new(g.min_players, seed=1)\n"
        "    s.observation(0); s.legal_mask(0)\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "", f"import cove pulled in {out}"


def test_cove_rl_does_import_them() -> None:
    """The check above can fail: cove.rl itself brings numpy and PettingZoo in."""
    code = "import sys, cove.rl; print('numpy' in sys.modules, 'pettingzoo' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "True True"
