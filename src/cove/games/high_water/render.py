"""Terminal drawing of a High Water view (placeholder, filled in below)."""

from __future__ import annotations

from typing import Any


def render(view: dict[str, Any], color: bool = False) -> str:
    return str(view.get("round"))
