"""The three kinds of decision: draw the turn's segment, draw a bonus segment, or pass.

Actions are small named tuples: equality and hashing run in C, which matters because the
engine checks every applied action against the legal list and bots do so millions of
times. The ``kind`` field keeps a draw and a bonus along the same edge unequal.
"""

from __future__ import annotations

from typing import NamedTuple


class Draw(NamedTuple):
    """Draw the turn's segment along edge ``edge`` (its ends named like ``a8-b9``)."""

    edge: int
    ends: str
    kind: str = "draw"

    def __str__(self) -> str:
        return f"draw {self.ends}"


class Bonus(NamedTuple):
    """Draw a bonus segment (earned by a kind's last sight) anywhere on the island."""

    edge: int
    ends: str
    kind: str = "bonus"

    def __str__(self) -> str:
        return f"bonus {self.ends}"


class Pass(NamedTuple):
    """No free segment matches the cards (or no free segment is left): draw nothing."""

    kind: str = "pass"

    def __str__(self) -> str:
        return "pass"


PASS = Pass()

Action = Draw | Bonus | Pass
