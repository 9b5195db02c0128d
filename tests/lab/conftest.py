"""Pick (tests/lab/pick), the balance measures' toy game, registered as ``pick``."""

from __future__ import annotations

import pytest

from cove.core import registry


@pytest.fixture
def pick(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(registry.REGISTRY, "pick", "tests.lab.pick.game")
    return "pick"
