"""Cove's optional compiled build (docs/BUILD.md): with ``COVE_COMPILE=1`` the modules named
in ``COMPILED`` are compiled to C extensions with mypyc (part of mypy); without it this file
adds nothing and the package is the pure-Python one that pyproject.toml declares.

    COVE_COMPILE=1 pip install --no-build-isolation .   # needs mypy[mypyc] and a C compiler

``python3 dev.py fast ...`` does this into its own environment (``.venv-fast``) and rebuilds
it when the sources change; ``COVE_PURE=1`` (or no C compiler) keeps it pure.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"

COMPILED = [
    "cove/core/bits.py",
    "cove/core/components.py",
    "cove/core/decisions.py",
    "cove/core/observer.py",
    "cove/core/options.py",
    "cove/core/rng.py",
    "cove/core/serial.py",
    "cove/core/state.py",
    "cove/core/tuples.py",
    *(f"cove/games/the_tide/{m}.py" for m in (
        "actions", "beach", "heuristic", "observation", "options", "rules", "state", "view")),
    *(f"cove/games/tricky_tides/{m}.py" for m in (
        "actions", "chance", "constants", "decision_stack", "events", "geometry", "heuristic",
        "module_state", "monsters", "observation", "options", "round_rules", "rules",
        "sailing", "state", "view")),
    *(f"cove/games/high_water/{m}.py" for m in (
        "actions", "heuristic", "observation", "options", "patterns", "reasons", "rules",
        "state", "view")),
    *(f"cove/games/trails_of_tucana/{m}.py" for m in (
        "actions", "heuristic", "island", "log_text", "observation", "options", "rules",
        "sheets", "state", "view")),
    *(f"cove/games/tiny_epic_pirates/{m}.py" for m in (
        "actions", "heuristic", "observation", "options", "rules", "sea", "solo", "state",
        "turn", "view")),
    *(f"cove/bots/{m}.py" for m in ("evaluate", "mcts")),
]
"""The modules compiled: the engine's hot path and the search bots. The rest stays Python in
both builds (the surfaces, the CLI, and modules mypyc cannot compile yet: docs/BUILD.md says
which, and why).
"""


def compiled_modules() -> list[str]:
    return [str(SRC / m) for m in COMPILED]


ext_modules = []
if os.environ.get("COVE_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(["--config-file", str(ROOT / "pyproject.toml"),
                            *compiled_modules()],
                           opt_level=os.environ.get("COVE_OPT", "3"), multi_file=True)

setup(ext_modules=ext_modules)
