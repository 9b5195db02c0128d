"""Shared fixtures: the toy game registered under the id ``toy`` for engine-level tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cove import games


@pytest.fixture
def toy_registered() -> Iterator[str]:
    games.REGISTRY["toy"] = "tests.core.toy_game"
    try:
        yield "toy"
    finally:
        games.REGISTRY.pop("toy", None)
