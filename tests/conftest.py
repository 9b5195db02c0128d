"""Shared fixtures: the tutorial game registered under the id ``toy`` for engine-level
tests, and the Hypothesis profiles (``ci`` by default; ``--hypothesis-profile=explore``)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import settings

from cove.core import registry
from cove.testing.strategies import register_profiles

register_profiles()
settings.load_profile("ci")

# Data files are read only from the built-in folder and COVE_DATA_DIR (cove.core.data);
# tests write edited data files under the temporary directory, so allow that one.
os.environ["COVE_DATA_DIR"] = tempfile.gettempdir()


@pytest.fixture
def toy_registered() -> Iterator[str]:
    registry.REGISTRY["toy"] = "cove.example_game"
    try:
        yield "toy"
    finally:
        registry.REGISTRY.pop("toy", None)
