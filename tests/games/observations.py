"""Shared checks for the games' observation tests: the game's own encoder (sparse form,
made dense by the core) against a plain list encoder of the same layout written in the
test, value for value, along a random game, in clones, redeterminized copies and states
rebuilt from JSON; and a kept observation along a game, with observers left out for a
while, and in every kind of copy played on."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Mapping
from typing import Any

from cove.core.game import Game
from cove.core.rng import Rng
from cove.core.state import State


def dense_of(sparse: tuple[Any, Any, Any], size: int) -> list[float]:
    """The observation a sparse form ``(ones, at, values)`` stands for, by its definition."""
    ones, at, values = sparse
    out = [0.0] * size
    for i in ones:
        out[i] = 1.0
    for i, v in zip(at, values, strict=True):
        out[i] = v
    return out


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


def check_copies_played_on(state: State, check: Callable[[Any], None], rng: Rng, *,
                           seed: int, moves: int, kept: tuple[str, ...]) -> None:
    """Every kind of copy of ``state`` (a clone, ``for_player`` and ``redeterminize``
    copies for the seat to move, the latter from ``Rng(seed)``, a JSON and a pickle copy)
    starts with none of the kept observation's slots ``kept``, passes ``check`` and passes
    it again after each of up to ``moves`` random moves drawn from ``rng``; then ``state``
    still passes ``check`` (no copy's moves reached what it keeps)."""
    seat = state.to_move()[0]
    copies = (state.clone(), state.for_player(seat), state.redeterminize(seat, Rng(seed)),
              state.game.from_json(state.to_json()), pickle.loads(pickle.dumps(state)))
    for c in copies:
        assert type(c) is type(state)
        assert all(getattr(c, name) is None for name in kept)
        check(c)
        for _ in range(rng.below(moves + 1)):
            if c.is_over:
                break
            p = c.to_move()[0]
            c.apply(p, rng.choice(c.legal_actions(p)))
            check(c)
    check(state)


def check_kept_along_a_game(state: State, check: Callable[[Any, list[int]], None],
                            rng: Rng, *, every_seat: bool) -> None:
    """Play ``state`` to the end with random moves from ``rng``; before each move ``check``
    every seat, or (``every_seat`` false) a random few in a random order, so that the
    others are left out for a while and their kept observations then differ from the
    state in several fields at once; and at the end every seat. What a call handed out
    must never change afterwards (later moves and calls)."""
    seats = list(range(state.n))
    while not state.is_over:
        asked = seats[:]
        if not every_seat:
            rng.shuffle(asked)
            asked = asked[: rng.below(state.n + 1)]
        check(state, asked)
        handed = [state.observation_sparse(p)[2] for p in asked]
        before = [list(v) for v in handed]
        p = state.to_move()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
        assert [list(v) for v in handed] == before
    check(state, seats)
