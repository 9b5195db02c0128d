"""No code outside ``src/cove/games/`` and ``tests/games/`` names a game: every surface
reads a game from its declaration, so adding or changing a game touches its folder alone.

A game is named by its id (``my-game``), its package (``my_game``) or its name
(``My Game``). The check covers the code (``src``, ``tests``, ``benchmarks``,
``dev.py``); prose in docs/ and README.md describes the games and may, and so may the
research examples in ``examples/``, which are documentation written as programs, and the
measured results in ``benchmarks/results/`` (reports and tables a run wrote, not code)."""

from __future__ import annotations

import re
from pathlib import Path

import cove

ROOT = Path(__file__).resolve().parents[1]
CODE = ("src", "tests", "benchmarks")
ALLOWED = (ROOT / "src" / "cove" / "games", ROOT / "tests" / "games",
           ROOT / "benchmarks" / "results")


def names() -> dict[str, str]:
    """Every spelling of every game -> its id."""
    out: dict[str, str] = {}
    for game in cove.all_games():
        pkg = game.package.rpartition(".")[2]
        for spelling in (game.id, pkg, game.name):
            out[spelling.lower()] = game.id
    return out


def naming(text: str, spellings: dict[str, str]) -> list[str]:
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(spellings, key=len,
                                                                               reverse=True)))
                         + r")(?![\w-])", re.IGNORECASE)
    return [m.group(1) for m in pattern.finditer(text)]


def found() -> list[str]:
    spellings = names()
    out = []
    files = [ROOT / "dev.py", *[p for part in CODE for p in sorted((ROOT / part).rglob("*"))]]
    for path in files:
        if not path.is_file() or path.suffix not in (".py", ".js", ".css", ".html", ".toml",
                                                      ".json", ".sh"):
            continue
        if any(path.is_relative_to(a) for a in ALLOWED) or "__pycache__" in path.parts:
            continue
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            hits = naming(line, spellings)
            if hits:
                out.append(f"{path.relative_to(ROOT)}:{no}: {', '.join(sorted(set(hits)))}")
    return out


def test_no_code_outside_the_games_names_a_game() -> None:
    hits = found()
    assert not hits, f"{len(hits)} lines name a game outside src/cove/games and tests/games:\n" \
        + "\n".join(hits[:60])


def test_the_check_finds_each_spelling() -> None:
    game = cove.all_games()[0]
    spellings = names()
    line = f"load({game.id!r}) # {game.name}, cove.games.{game.package.rpartition('.')[2]}"
    assert len(naming(line, spellings)) == 3
    assert naming(f"{game.id}-extra and x{game.id}", spellings) == []
