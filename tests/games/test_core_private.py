"""No game touches the core's private state: the decision stack, the legal-move cache, the
history and log chains, the secrets' marks and the kept observation are the core's
(``cove.core.state``), and a game reads and changes them only through ``State``'s public
methods (``steps``, ``top_step``, ``push``, ``then``, ``pop``, ``clear_steps``, ``say``,
``keep_secret``, ``reveal`` ...). Checked over the source of every game folder and the
tutorial game, so a rule can never depend on how the core keeps them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cove
from cove.core.state import State

PRIVATE = frozenset(name for name in State.CORE_SLOTS if name.startswith("_"))
ROOT = Path(cove.__file__).parent
SOURCES = sorted([*(ROOT / "games").rglob("*.py"), *(ROOT / "example_game").rglob("*.py")])


def private_uses(path: Path) -> list[str]:
    """``"line .name"`` for each use of a private core attribute in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [f"{node.lineno} .{node.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in PRIVATE]


def test_the_private_names_are_the_cores_own() -> None:
    assert {"_steps", "_legal", "_hist", "_log", "_observed"} <= PRIVATE
    assert len(SOURCES) > 50


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_no_game_reads_or_writes_the_cores_private_state(path: Path) -> None:
    assert private_uses(path) == []


def test_the_check_finds_a_private_write(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f(state):\n    state._steps += (1,)\n    return state._legal\n")
    assert sorted(private_uses(bad)) == ["2 ._steps", "3 ._legal"]
