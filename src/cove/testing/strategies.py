"""Hypothesis strategies that draw the moves, not a seed.

A property test written with :func:`play_drawn` lets Hypothesis choose every move (which
player of a simultaneous step, which legal action), so a failure shrinks to a short list
of move indices instead of an opaque seed::

    @given(st.data())
    def test_something(data):
        state = play_drawn(data, "<game>", 3, max_moves=60)
        ...

Needs the ``hypothesis`` package (the ``dev`` extra).
"""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

from cove.core.registry import load
from cove.core.state import State


def play_drawn(data: st.DataObject, game_id: str, players: int, *, seed: int | None = None,
               max_moves: int = 80, **options: Any) -> State:
    """A state reached by moves Hypothesis draws (the seed is drawn too unless given).
    It stops early when the game ends or Hypothesis draws "stop"."""
    game = load(game_id)
    if seed is None:
        seed = data.draw(st.integers(0, 2**16), label="seed")
    state = game.new(players, seed, **options)
    for _ in range(max_moves):
        if state.is_over:
            break
        movers = state.to_move()
        p = movers[data.draw(st.integers(0, len(movers) - 1), label="mover")]
        legal = state.legal_actions(p)
        state.apply(p, legal[data.draw(st.integers(0, len(legal) - 1), label="move")])
    return state


def register_profiles() -> None:
    """``ci`` (derandomized, the default in the test suite) and ``explore`` (longer,
    random: ``pytest --hypothesis-profile=explore``)."""
    settings.register_profile("ci", derandomize=True, max_examples=25, deadline=None,
                              print_blob=True)
    settings.register_profile("explore", max_examples=1000, deadline=None, print_blob=True)
