"""Shared fixtures: the tutorial game registered under the id ``toy`` for engine-level
tests (plain, or with a safety end declared), a registered game that takes a data file,
and the Hypothesis profiles (``ci`` by default; ``--hypothesis-profile=explore``)."""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
import types
from collections.abc import Iterator

import pytest
from hypothesis import settings

import cove
from cove.core import registry
from cove.testing.strategies import register_profiles

register_profiles()
settings.load_profile("ci")

# Data files are read only from the built-in folder and COVE_DATA_DIR (cove.core.data);
# tests write edited data files under the temporary directory, so allow that one.
os.environ["COVE_DATA_DIR"] = tempfile.gettempdir()
# cove play keeps the last game under COVE_HOME: never the user's own during tests
os.environ["COVE_HOME"] = tempfile.mkdtemp(prefix="cove-home-")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``pure_build`` patch a game's or the core's code, which compiled callers
    never see (docs/BUILD.md): on the compiled build they are skipped, saying so (they run
    in the pure suite, which CI runs first)."""
    if cove.BUILD != "compiled":
        return
    skip = pytest.mark.skip(reason="patches code that compiled callers do not see: runs on "
                            "the pure build (python3 dev.py test)")
    for item in items:
        if item.get_closest_marker("pure_build") is not None:
            item.add_marker(skip)


@pytest.fixture
def toy_registered() -> Iterator[str]:
    registry.REGISTRY["toy"] = "cove.example_game"
    try:
        yield "toy"
    finally:
        registry.REGISTRY.pop("toy", None)


@pytest.fixture
def toy_with_safety_end(monkeypatch: pytest.MonkeyPatch) -> str:
    """The toy registered as ``toy-safety``, its ordinary end "low" (no one reached 35
    points: most games of three) declared a safety cut-off, so the lab's warnings about
    safety ends show. In this process only (a module made here, not a file)."""
    from cove.example_game import GAME

    module = types.ModuleType("toy_safety")
    module.GAME = dataclasses.replace(  # type: ignore[attr-defined]
        GAME, id="toy-safety", safety_ends=("low",))
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(registry.REGISTRY, "toy-safety", module.__name__)
    return "toy-safety"


@pytest.fixture
def data_game() -> cove.Game:
    """The first registered game that takes another data file through a ``data_file``
    option (its default is the built-in file beside its rules); skipped when none does."""
    for game in cove.all_games():
        if "data_file" in game.options_schema(game.min_players)["properties"]:
            return game
    pytest.skip("no registered game takes a data_file option")
