"""Terminal drawing of a Tiny Epic Pirates view."""

from __future__ import annotations

from typing import Any


def render(view: dict[str, Any], color: bool) -> str:
    return str(view.get("round"))
