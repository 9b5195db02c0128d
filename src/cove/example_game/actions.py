"""The Toy's actions: small frozen values, one dataclass per kind. ``str()`` is the text
form players type and records keep; the JSON form (``{"kind": "play", "card": 7}``) is
derived from the class name and the fields."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from cove.core import Options
from cove.example_game.data import DATA


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from your hand: it scores its value."""

    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid 0 or 1 in secret at the start: a bid of 1 costs points and draws a card."""

    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


def universe(players: int, options: Options) -> list[Hashable]:
    """Every action the game can ever offer, in a fixed order: the action space."""
    return [Bid(0), Bid(1), Play(0), *(Play(c) for c in DATA.deck)]  # 0: a blank (R4.2)
