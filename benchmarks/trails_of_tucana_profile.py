"""Trails of Tucana throughput (a script, not a test).

Random full games/s and decisions/s per player count on both islands, clone()/s and
heuristic()/s on a mid-game state, and optionally a cProfile of random play.

    python benchmarks/trails_of_tucana_profile.py [--seconds 1] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from cove.core.rng import Rng
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.heuristic import heuristic
from cove.games.trails_of_tucana.state import TucanaState
from cove.lab.runner import RandomChooser, advance, play_out


def play(players: int, seed: int, mp: str) -> int:
    s = GAME.new(players, seed, log=False, map=mp)
    return play_out(s, RandomChooser(Rng(seed ^ 0x5EED))).decisions


def games_rate(players: int, mp: str, seconds: float) -> tuple[float, float]:
    t0 = time.perf_counter()
    games = decisions = 0
    while time.perf_counter() - t0 < seconds:
        decisions += play(players, games, mp)
        games += 1
    dt = time.perf_counter() - t0
    return games / dt, decisions / dt


def mid_game(players: int, mp: str) -> TucanaState:
    s = GAME.new(players, 1, log=False, map=mp)
    assert isinstance(s, TucanaState)
    advance(s, RandomChooser(Rng(1)), after=lambda _p, _a: s.rnd > 0 or s.turn >= 8)
    return s


def per_second(fn: object, seconds: float) -> float:
    assert callable(fn)
    t0 = time.perf_counter()
    k = 0
    while time.perf_counter() - t0 < seconds:
        for _ in range(200):
            fn()
        k += 200
    return k / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for seed in range(100):
            play(4, seed, "grande")
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(15)
        return
    print(f"{'map':7} {'players':>7} {'games/s':>9} {'decisions/s':>12} {'clone/s':>9} "
          f"{'heuristic/s':>11}")
    for mp in ("petit", "grande"):
        for n in range(1, 9):
            g, d = games_rate(n, mp, args.seconds)
            s = mid_game(n, mp)
            c = per_second(s.clone, args.seconds / 2)
            h = per_second(lambda s=s: heuristic(s, 0), args.seconds / 2)
            print(f"{mp:7} {n:7} {g:9.1f} {d:12.0f} {c:9.0f} {h:11.0f}")


if __name__ == "__main__":
    main()
