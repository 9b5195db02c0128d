"""``cove new-game NAME``: a new game folder and its tests, copied from the tutorial game.

The Toy (``src/cove/example_game/`` and ``tests/example_game/``) has the shape every game
has (CONTRIBUTING.md). A new game starts as a copy of it under its own id, package and
class names, with its golden playthroughs made afresh, so it passes the conformance
harness, the documents' checks, the shape check and the web tests as written; the author
then replaces the Toy's rules with the game's own. The registry finds the new folder by
itself: nothing else in the project changes.
"""

from __future__ import annotations

import importlib
import json
import keyword
import re
from dataclasses import dataclass
from pathlib import Path

from cove.core import registry
from cove.core.errors import CoveError

NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
PACKAGE = Path(__file__).resolve().parent
EXAMPLE = PACKAGE / "example_game"


class ScaffoldError(CoveError):
    """A name that cannot be a game, or a place a game cannot be written."""


@dataclass(frozen=True)
class NewGame:
    id: str
    package: str
    source: Path
    tests: Path


def _names(game_id: str) -> dict[str, str]:
    pkg = game_id.replace("-", "_")
    return {"id": game_id, "pkg": pkg, "title": game_id.replace("-", " ").title(),
            "camel": "".join(w.title() for w in game_id.split("-"))}


def _rewrite(text: str, n: dict[str, str]) -> str:
    text = text.replace("cove.example_game", f"cove.games.{n['pkg']}")
    text = text.replace("tests.example_game", f"tests.games.{n['pkg']}")
    text = text.replace("tests/example_game", f"tests/games/{n['pkg']}")
    text = text.replace("example_game.toml", f"{n['pkg']}.toml")
    text = re.sub(r"\bToy(?=[A-Z])", n["camel"], text)
    text = re.sub(r"\bToy\b", n["title"], text)
    return re.sub(r"\btoy\b", n["id"], text)


def _declaration_doc(text: str, n: dict[str, str]) -> str:
    """The declaration's docstring, which explains the tutorial, replaced by a stub."""
    doc = (f'"""{n["title"]}: made by ``cove new-game`` from the tutorial game. Write the '
           "game's\nrules in RULES.md, then replace the tutorial's rules module by module "
           '(CONTRIBUTING.md)."""\n')
    return re.sub(r'\A""".*?"""\n', doc, text, count=1, flags=re.S)


def root_of_checkout() -> Path:
    """The checkout this installation runs from (its ``src/cove`` and ``tests``)."""
    root = PACKAGE.parent.parent
    if not (root / "tests" / "example_game").is_dir() or not (root / "src" / "cove").is_dir():
        raise ScaffoldError(
            f"cove new-game writes into a Cove checkout (an editable install: pip install "
            f"-e .), and this cove runs from {PACKAGE}, which is not in one (no "
            f"tests/example_game beside src/cove)")
    return root


def new_game(game_id: str, root: Path | None = None) -> NewGame:
    """Write ``src/cove/games/<pkg>/`` and ``tests/games/<pkg>/`` for a game ``game_id``
    (lower case words joined by ``-``), and its golden playthroughs."""
    if not isinstance(game_id, str) or not NAME.fullmatch(game_id) or len(game_id) > 40:
        raise ScaffoldError(f"a game id is lower-case words of letters and digits joined by "
                            f"'-' (like 'sea-race'), at most 40 characters; not {game_id!r}")
    n = _names(game_id)
    if keyword.iskeyword(n["pkg"]) or n["pkg"] in ("toy", "example_game"):
        raise ScaffoldError(f"{game_id!r} cannot be a game id: choose another name")
    if game_id in registry.REGISTRY:
        raise ScaffoldError(f"there is already a game {game_id!r}; games: "
                            f"{', '.join(registry.ids())}")
    root = root or root_of_checkout()
    source = root / "src" / "cove" / "games" / n["pkg"]
    tests = root / "tests" / "games" / n["pkg"]
    for place in (source, tests):
        if place.exists():
            raise ScaffoldError(f"{place} exists already; remove it or choose another name")
    _copy(EXAMPLE, source, n)
    _copy(root / "tests" / "example_game", tests, n)
    init = source / "__init__.py"
    init.write_text(_declaration_doc(init.read_text(encoding="utf-8"), n), encoding="utf-8")
    module = f"cove.games.{n['pkg']}"
    importlib.invalidate_caches()
    registry.REGISTRY[game_id] = module
    _golden(root / "tests" / "example_game" / "golden", tests / "golden", game_id)
    return NewGame(game_id, module, source, tests)


def _copy(src: Path, dst: Path, n: dict[str, str]) -> None:
    for path in sorted(src.rglob("*")):
        if "__pycache__" in path.parts or path.suffix == ".pyc" or path.is_dir():
            continue
        rel = path.relative_to(src)
        name = _rewrite(rel.name, n).replace("example_game", n["pkg"])
        target = dst / rel.parent / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel.parts[0] == "golden":
            continue  # made afresh for the new id below
        target.write_text(_rewrite(path.read_text(encoding="utf-8"), n), encoding="utf-8")


def _golden(example: Path, folder: Path, game_id: str) -> None:
    """The golden playthroughs of the new game: the example's configurations, played
    afresh under the new id."""
    from cove.testing.playthrough import playthrough, write

    folder.mkdir(parents=True, exist_ok=True)
    for old in sorted(example.glob("*.json")):
        doc = json.loads(old.read_text(encoding="utf-8"))
        name = re.sub(r"^toy", game_id.replace("-", "_"), old.name)
        write(folder / name, playthrough(game_id, int(doc["players"]), int(doc["seed"]),
                                         doc.get("options") or {}))
