"""The one shape of a game folder and of its tests, as CONTRIBUTING.md describes it.

``problems(game)`` lists how a registered game departs from it: a file of the skeleton
missing, a module under one of the retired names that meant a different thing in every
game, a test file outside the fixed names, a surface neither declared nor declined, or
a tie-break name that RULES.md does not state.
"""

from __future__ import annotations

import re
from pathlib import Path

from cove.core.game import SURFACES, Game

SKELETON: dict[str, str] = {
    "__init__.py": "GAME = Game(...): the declaration, everything a surface reads",
    "actions.py": "the action values, their text and JSON forms, the action universe",
    "options.py": "the options: one option(...) field per choice a table can make",
    "data.py": "the data file's schema and loading",
    "rules.py": "the decision steps, one StepRule per kind, in RULES.md order",
    "state.py": "the State: its fields, setup, scores, tie-break, clone, invariants",
    "view.py": "what each seat sees (the view) and the score in parts",
    "observation.py": "the research encoding of a seat's view",
    "render.py": "the terminal screen",
    "web_board.py": "the browser board (SVG) and its click targets",
    "help.py": "what each move does, in words, for players",
    "heuristic.py": "the bots' estimate of a seat's final score",
    "RULES.md": "every rule numbered, tagged and traced to its test",
    "HOW_TO_PLAY.md": "the player's guide: goal, setup, a turn, scoring, the end, the screen",
    "SPEC.md": "the view keys, the action space and the observation layout",
}
"""File -> what it holds: present in every game folder."""

RETIRED = ("common.py", "tables.py", "table.py", "explain.py", "observe.py", "steps.py",
           "space.py", "board.py")
"""Module names that meant a different thing in every game; a module is named for what
it holds."""

TESTS: dict[str, str] = {
    "helpers.py": "positions and playing helpers shared by the tests",
    "test_rules.py": "a test per numbered rule (more in test_rules_<topic>.py)",
    "test_data.py": "the data file and the options: counts, malformed files, bad values",
    "test_bad_input.py": "illegal actions, texts, player counts, records: refused, unchanged",
    "test_hooks.py": "each conformance hook fails on a state broken on purpose",
    "test_observation.py": "the research encoding",
    "test_properties.py": "properties over random games beyond the shared harness",
    "test_render.py": "the terminal screen",
    "test_web_board.py": "the browser board: legal targets only, most moves on the board",
    "test_heuristic.py": "the heuristic and the bots' defaults in this game",
    "test_surfaces.py": "what this game shows through the shared surfaces (bots' levels, "
                        "the lab, the research environments, the server) beyond the harness",
}
"""Test file -> what it checks: the same names in every ``tests/games/<pkg>/``; more rule
tests go in ``test_rules_<topic>.py``."""

EXTRA_TESTS = re.compile(r"test_rules_[a-z0-9_]+\.py")


def folder(game: Game) -> Path:
    """The game's folder (its package directory)."""
    import importlib

    module = importlib.import_module(game.package)
    return Path(str(module.__file__)).parent


def declared_surfaces(game: Game) -> dict[str, bool]:
    """Each surface of ``SURFACES``: whether ``game`` declares it."""
    return {
        "render": game.render is not None,
        "board": game.board is not None,
        "heuristic": game.heuristic is not None,
        "actions": game.actions is not None,
        "observation": game.observation_encoding is not None or game.observer is not None,
        "score_parts": game.score_parts is not None,
        "tiebreak": bool(game.tiebreak),
        "move_help": game.move_help is not None,
        "bot_defaults": bool(game.bot_defaults),
    }


def problems(game: Game, tests_dir: Path | None = None) -> list[str]:
    """How ``game``'s folder (and, given, its tests folder) departs from the one shape."""
    out: list[str] = []
    here = folder(game)
    for name in SKELETON:
        if not (here / name).is_file():
            out.append(f"{game.id}: {name} is missing ({SKELETON[name]})")
    for name in RETIRED:
        if (here / name).exists():
            out.append(f"{game.id}: {name} is a retired name; name the module for what it "
                       "holds (see CONTRIBUTING.md)")
    declared = declared_surfaces(game)
    assert set(declared) == set(SURFACES), "declared_surfaces must cover SURFACES"
    for surface, has in declared.items():
        if has and surface in game.declines:
            out.append(f"{game.id}: declares {surface} and also declines it")
        elif not has and surface not in game.declines:
            out.append(f"{game.id}: neither declares {surface} nor declines it "
                       "(Game.declines names a surface with the reason)")
    for surface, why in game.declines.items():
        if surface not in SURFACES:
            out.append(f"{game.id}: declines unknown surface {surface!r}; surfaces: "
                       + ", ".join(SURFACES))
        elif not why.strip():
            out.append(f"{game.id}: declines {surface} without a reason")
    rules = here / "RULES.md"
    if rules.is_file():
        text = " ".join(rules.read_text(encoding="utf-8").split()).lower()
        for name in game.tiebreak:
            if " ".join(name.split()).lower() not in text:
                out.append(f"{game.id}: the tie-break {name!r} is not stated in RULES.md")
    if tests_dir is not None:
        if not tests_dir.is_dir():
            out.append(f"{game.id}: no tests folder {tests_dir}")
        else:
            for name in TESTS:
                if not (tests_dir / name).is_file():
                    out.append(f"{game.id}: tests lack {name} ({TESTS[name]})")
            for path in sorted(tests_dir.glob("*.py")):
                if path.name == "__init__.py" or path.name in TESTS:
                    continue
                if not EXTRA_TESTS.fullmatch(path.name):
                    out.append(f"{game.id}: test file {path.name} is not one of the fixed "
                               "names (more rule tests: test_rules_<topic>.py)")
            if not (tests_dir / "golden").is_dir():
                out.append(f"{game.id}: tests lack golden/ (the golden playthroughs)")
    return out
