"""The screen check catches too-wide lines and Python values (and so can fail)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cove.example_game import GAME as TOY
from cove.testing import screens


def test_screen_check_catches_wide_long_and_python_screens(
        monkeypatch: pytest.MonkeyPatch) -> None:

    def bad(view: dict[str, Any], color: bool = False, width: int = 100) -> str:
        return "\n".join(["x" * (width + 1)] + ["row"] * 50 + ["at None", "Final [1.0, 2.0]"])

    monkeypatch.setattr(screens, "load", lambda gid: dataclasses.replace(TOY, render=bad))
    found = "\n".join(screens.screen_problems(TOY.id, width=80, height=40, games=1,
                                              every=1000))
    assert "wider than 80" in found and "more than 40" in found
    assert "a Python None" in found and "a Python list of floats" in found
