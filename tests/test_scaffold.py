"""``cove new-game``: a new game written from the tutorial game passes the shared game
checks and its own tests as generated, and plays in the terminal; bad names are refused."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cove
from cove.scaffold import ScaffoldError, new_game

ROOT = Path(__file__).resolve().parents[1]


def _checkout(tmp: Path) -> Path:
    """A copy of this checkout's sources and tests (no caches) to write a game into."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    for part in ("src", "tests"):
        shutil.copytree(ROOT / part, tmp / part, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", tmp / "pyproject.toml")
    shutil.copy(ROOT / "CONTRIBUTING.md", tmp / "CONTRIBUTING.md")
    return tmp


def _run(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(cwd / "src")}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, input=stdin, text=True,
                          capture_output=True, timeout=600, check=False)


def test_a_new_game_passes_the_game_checks_and_plays(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    made = _run(root, "-m", "cove", "new-game", "sea-race")
    assert made.returncode == 0, made.stderr
    assert "src/cove/games/sea_race/ and tests/games/sea_race/" in made.stdout
    listed = _run(root, "-m", "cove", "games")
    assert "sea-race" in listed.stdout
    checks = _run(root, "-m", "pytest", "-o", "addopts=", "-p", "no:cacheprovider",
                  "tests/games/sea_race",
                  "tests/games/test_shape.py", "tests/games/test_docs.py",
                  "tests/games/test_golden.py", "tests/games/test_harness.py", "-k",
                  "sea")
    assert checks.returncode == 0, checks.stdout[-3000:]
    assert " passed" in checks.stdout and "failed" not in checks.stdout
    played = _run(root, "-m", "cove", "play", "sea-race", "--players", "2", "--seat", "1",
                  "--bots", "random", "--seed", "3", "--screen", "plain",
                  stdin="1\n" * 40)
    assert played.returncode == 0, played.stderr
    assert "Sea Race" in played.stdout and ("wins" in played.stdout or "win" in played.stdout)


@pytest.mark.parametrize(("name", "message"), [
    ("Sea Race", "lower-case words"),
    ("-x", "lower-case words"),
    ("class", "cannot be a game id"),
])
def test_a_bad_name_is_refused_saying_what_a_name_is(name: str, message: str) -> None:
    with pytest.raises(ScaffoldError, match=message):
        new_game(name, root=ROOT)


def test_an_existing_game_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ScaffoldError, match="there is already a game"):
        new_game(cove.ids()[0], root=tmp_path)


def test_the_command_reports_a_bad_name_in_one_line() -> None:
    done = _run(ROOT, "-m", "cove", "new-game", "Bad Name")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "lower-case words" in done.stderr
