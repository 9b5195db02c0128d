"""Helpers for the Toy's tests: a game in a chosen position, built through the public
contract (the stored form), not by writing private fields."""

from __future__ import annotations

from typing import Any

from cove.core.state import State
from cove.example_game import GAME


def new(players: int = 2, seed: int = 0, **options: Any) -> State:
    return GAME.new(players, seed=seed, **options)


def with_hands(state: State, hands: list[list[int]]) -> State:
    """``state`` with these hands (the cards come from the deck, so every card stays
    accounted for), rebuilt from its stored form."""
    data = state.to_json()
    fields = data["state"]
    pool = sorted(fields["deck"] + [c for h in fields["hands"] for c in h if c])
    for hand in hands:
        for c in hand:
            pool.remove(c)
    fields["hands"] = [list(h) for h in hands]
    fields["deck"] = pool
    return GAME.from_json(data)


def play_out(state: State) -> State:
    """Play ``state`` to the end, each seat taking its first legal action."""
    while not state.is_over:
        p = state.to_move()[0]
        state.apply(p, state.legal_actions(p)[0])
    return state
