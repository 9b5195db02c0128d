"""Checks of a game's terminal screens: they fit the width they are given, and show no
Python values; and the turn screens ``cove play`` fits to a terminal, for what a player
sees at 80x24. Used by each game's screen tests.

    from cove.testing.screens import screen_problems
    assert screen_problems("<game>", width=80, height=40) == []
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from cove.core.game import Game
from cove.core.registry import load
from cove.core.rng import Rng
from cove.core.state import State
from cove.terminal import Table
from cove.tui.layout import Turn, fit
from cove.tui.play import Seat, turn_for

ANSI = re.compile(r"\x1b\[[0-9;]*m")
PYTHON_VALUES = (
    (re.compile(r"\bNone\b"), "a Python None"),
    (re.compile(r"\[\d+\.\d+(, \d+\.\d+)*\]"), "a Python list of floats"),
    (re.compile(r"\b(True|False)\b"), "a Python bool"),
    (re.compile(r"\b1 (players|points|rounds|turns|moves|cards|dice)\b"),
     "a plural after 1"),
    (re.compile(r"[{}]|\(\)|\[\]"), "braces or an empty tuple/list"),
)


def screens(game_id: str | Game, games: int = 3, every: int = 7, seed: int = 1,
            width: int = 100) -> Iterator[tuple[str, str]]:
    """(where, screen) for every seat's and the spectator's view at sampled steps of random
    games at every player count, the final position included."""
    game = load(game_id) if isinstance(game_id, str) else game_id
    if game.render is None:
        return
    for players in range(game.min_players, game.max_players + 1):
        for g in range(games):
            state = game.new(players, seed=seed + g)
            rng = Rng(seed * 1000 + g)
            step = 0
            while True:
                if step % every == 0 or state.is_over:
                    for seat in [*range(players), None]:
                        where = f"{players} players, game {seed + g}, step {step}, seat {seat}"
                        yield where, game.render(state.view(seat), False, width=width)
                if state.is_over:
                    break
                p = state.to_move()[0]
                state.apply(p, rng.choice(state.legal_actions(p)))
                step += 1


def screen_problems(game_id: str | Game, width: int, height: int | None = None, games: int = 2,
                    every: int = 11, limit: int = 10) -> list[str]:
    """What is wrong with a game's screens at ``width`` columns (and at most ``height``
    lines when given): up to ``limit`` problems, each with where it was seen."""
    out: list[str] = []
    for where, text in screens(game_id, games=games, every=every, width=width):
        lines = ANSI.sub("", text).splitlines()
        wide = [ln for ln in lines if len(ln) > width]
        if wide:
            out.append(f"{where}: {len(wide)} lines wider than {width}, e.g. {wide[0]!r}")
        if height is not None and len(lines) > height:
            out.append(f"{where}: {len(lines)} lines, more than {height}")
        for pattern, what in PYTHON_VALUES:
            m = next((ln for ln in lines if pattern.search(ln)), None)
            if m is not None:
                out.append(f"{where}: {what} on screen: {m.strip()!r}")
        if len(out) >= limit:
            break
    return out[:limit]


def turn_screens(state: State, seed: int, every: int = 7, width: int = 80, height: int = 24,
                 others: Sequence[str] = (), log: Sequence[str] = ()
                 ) -> Iterator[tuple[State, int, Turn, list[str]]]:
    """(state, seat, turn, lines): the turn screen ``cove play`` draws on a ``width`` x
    ``height`` terminal for the seat to move, at every ``every``-th decision of ``state``
    played on at random (``seed``) to its end. ``others`` and ``log`` stand in for the
    other players' moves and the log lines since yours, which take their room on a real
    screen."""
    table = Table(state.game, state, ["human"] * state.n)
    rng = Rng(seed)
    while not state.is_over:
        p = state.to_move()[0]
        if state.decisions % every == 0:
            turn = turn_for(state.game, table, p, Seat(), width)
            turn.others, turn.log = [*others], [*log]
            yield state, p, turn, fit(turn, width, height, seat_name=f"P{p + 1}").lines
        state.apply(p, rng.choice(state.legal_actions(p)))
