"""A shared check for the games' observation tests: the game's own encoder (sparse form,
made dense by the core) against a plain list encoder of the same layout written in the
test, value for value, along a random game, in clones, redeterminized copies and states
rebuilt from JSON."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cove.core.game import Game
from cove.core.rng import Rng
from cove.core.state import State


def check_against_plain(game: Game, plain: Callable[[Any, int], list[float]], n: int, *,
                        seed: int, rng_seed: int, every: int,
                        options: Mapping[str, Any] | None = None) -> int:
    """Play one seeded random ``n``-player game of ``game``; every ``every`` moves and at
    the end, assert that each seat's ``observation`` is floats equal to ``plain(state,
    seat)``, and the same for one seat in a clone, a ``for_player`` copy and a JSON round
    trip. Returns how many observations were compared."""
    s = game.new(n, seed=seed, log=False, **dict(options or {}))
    rng = Rng(rng_seed)
    checked = 0
    step = 0
    while True:
        if step % every == 0 or s.is_over:
            for p in range(n):
                got = s.observation(p)
                assert all(type(x) is float for x in got)
                assert got == plain(s, p)
                checked += 1
            q = rng.below(n)
            copies: tuple[State, ...] = (s.clone(), s.for_player(q, Rng(step)),
                                         game.from_json(s.to_json()))
            for copy in copies:
                assert type(copy) is type(s)
                assert copy.observation(q) == plain(copy, q)
        if s.is_over:
            return checked
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
        step += 1
