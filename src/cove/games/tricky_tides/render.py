"""Terminal rendering of a Tricky Tides view."""

from __future__ import annotations

from typing import Any


def render(view: dict[str, Any], color: bool = False) -> str:
    return str(view)
