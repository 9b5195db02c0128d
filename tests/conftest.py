"""Shared fixtures: the tutorial game registered under the id ``toy`` for engine-level
tests, and the Hypothesis profiles (``ci`` by default; ``--hypothesis-profile=explore``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import settings

from cove.core import registry
from cove.testing.strategies import register_profiles

register_profiles()
settings.load_profile("ci")


@pytest.fixture
def toy_registered() -> Iterator[str]:
    registry.REGISTRY["toy"] = "cove.example_game"
    try:
        yield "toy"
    finally:
        registry.REGISTRY.pop("toy", None)
