"""Text layout shared by the games' terminal renderers."""

from __future__ import annotations

import textwrap


def pack(items: list[str], width: int, sep: str = "  ", indent: str = "") -> list[str]:
    """Items joined by ``sep`` into lines of at most ``width``; an item is split (at spaces)
    only when it alone is wider; continuation lines start with ``indent``."""
    out: list[str] = []
    line = ""
    for item in items:
        if not item:
            continue
        room = max(8, width - len(indent))
        for piece in textwrap.wrap(item, room) if len(item) > room else [item]:
            if not line:
                line = indent + piece if out else piece
            elif len(line) + len(sep) + len(piece) <= width:
                line += sep + piece
            else:
                out.append(line)
                line = indent + piece
    if line:
        out.append(line)
    return out


def seat_name(seat: int) -> str:
    """How every screen names a seat: ``P1`` for seat 0 (seats count from 1 for people)."""
    return f"P{seat + 1}"
