"""Where the batched environment's time goes beyond the game's own work (a script, not a
test): per CPU second, in one process, interleaved rounds, medians,

- ``vec``: ``vector_env`` (16 tables, self-play), the CPU time inside ``env.step`` only;
- ``vec, no obs write``: the same with the observation's numpy write left out (the game
  still encodes its sparse observation, so the game's work is the same);
- ``raw+obs``: the game's own decision plus its sparse observation and legal mask;

then, on positions of real games, the legal mask's numpy write alone. What is left of
``vec``'s cost beyond ``raw+obs`` and these two writes is the environment's Python per
table (the action check before any table moves, the step record, rewards and end flags).

    python benchmarks/rl_overhead.py [--game GAME ...] [--rounds 5] [--seconds 0.6]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cove
from cove.rl import _match
from rl_speed import raw_loop, vector_loop

Write = Callable[[Any, Any, int], None]


def sparse_only(match: _match.Match, out: Any, seat: int) -> None:
    """The observation encoded by the game, not written into the array."""
    match.state.observation_sparse(seat)


def rates(game: str, players: int, rounds: int, seconds: float) -> dict[str, float]:
    """Decisions per CPU second of each loop, median of ``rounds`` interleaved rounds."""
    real: Write = _match.Match.observation_into
    writes: dict[str, Write] = {"vec": real, "vec, no obs write": sparse_only}
    loops = {}
    for name, write in writes.items():
        _match.Match.observation_into = write  # type: ignore[method-assign,assignment]
        loops[name] = vector_loop(game, players, step_only=True)
    raw = raw_loop(game, players, observe=True)
    got: dict[str, list[float]] = {name: [] for name in [*loops, "raw+obs"]}
    try:
        for _ in range(rounds):
            for name, loop in loops.items():
                _match.Match.observation_into = writes[name]  # type: ignore[method-assign,assignment]
                got[name].append(loop(seconds))
            got["raw+obs"].append(raw(seconds))
    finally:
        _match.Match.observation_into = real  # type: ignore[method-assign,assignment]
    return {name: statistics.median(v) for name, v in got.items()}


def mask_write(game: str, players: int) -> tuple[float, float]:
    """Microseconds per position of the legal indices alone and of the whole mask write
    (indices included), over the positions of 20 random games."""
    match = _match.Match(game, players, {})
    positions = []
    draw = random.Random(1).random
    for seed in range(20):
        match.reset(seed)
        while not match.over:
            p = match.to_move()[0]
            positions.append((match.state.clone(), p))
            legal = match.state.legal_actions(p)
            match.state.apply(p, legal[int(draw() * len(legal))])
    out = np.zeros(match.size, np.int8)

    def timed(step: Callable[[int], object]) -> float:
        start = time.process_time()
        for state, p in positions:
            match.state = state
            match._legal = None  # the indices kept belong to another state
            step(p)
        return (time.process_time() - start) / len(positions) * 1e6

    timed(match.legal_indices)  # warm
    return timed(match.legal_indices), timed(lambda p: match.mask_into(out, p))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="game id (repeatable; default all)")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.6)
    args = ap.parse_args()
    for game in args.game or cove.ids():
        players = min(max(args.players, cove.load(game).min_players),
                      cove.load(game).max_players)
        got = rates(game, players, args.rounds, args.seconds)
        base = got["raw+obs"]
        for name, rate in got.items():
            print(f"{game:18} {name:18} {rate:9.0f}/s {1e6 / rate:6.1f} us/decision "
                  f"{rate / base:5.2f} of raw+obs")
        indices, whole = mask_write(game, players)
        print(f"{game:18} mask: the legal indices {indices:.1f} us, with the numpy write "
              f"{whole:.1f} us")


if __name__ == "__main__":
    main()
