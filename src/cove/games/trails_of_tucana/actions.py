"""The three kinds of decision: draw the turn's segment, draw a bonus segment, or pass."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the turn's segment along edge ``edge`` (its ends named like ``a8-b9``)."""

    edge: int
    ends: str

    def __str__(self) -> str:
        return f"draw {self.ends}"


@dataclass(frozen=True, slots=True)
class Bonus:
    """Draw a bonus segment (earned by a kind's last sight) anywhere on the island."""

    edge: int
    ends: str

    def __str__(self) -> str:
        return f"bonus {self.ends}"


@dataclass(frozen=True, slots=True)
class Pass:
    """No free segment matches the cards (or no free segment is left): draw nothing."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()

Action = Draw | Bonus | Pass
