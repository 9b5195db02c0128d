"""Tricky Tides throughput (a script, not a test).

Random full games/s and decisions/s for 2, 3 and 4 players (construct with
``game.new(n, seed, log=False, **options)``, pick uniformly from ``legal_actions``), and
clone()/s on mid-game states. ``--profile`` prints a cProfile of 4-player games.
``--modules`` turns on both modules (events and monsters); ``-o KEY=VALUE`` sets any option.

    python benchmarks/tricky_tides_profile.py [--seconds 3] [--profile] [--modules] [-o K=V]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from cove.core.rng import Rng
from cove.core.state import State
from cove.games.tricky_tides import GAME
from cove.lab.runner import RandomChooser, play_out

OPTIONS: dict[str, str] = {}


def play(players: int, seed: int) -> State:
    s = GAME.new(players, seed, log=False, **OPTIONS)
    return play_out(s, RandomChooser(Rng(seed ^ 0x5EED)))


def games(players: int, seconds: float) -> tuple[float, float, float, float]:
    """(games/s wall, decisions/s wall, decisions/game, games/s of this process's CPU time).

    The CPU-time figure is the one-core rate even on a busy machine."""
    start = time.perf_counter()
    cpu = time.process_time()
    n = d = 0
    while time.perf_counter() - start < seconds:
        d += play(players, n).decisions
        n += 1
    dt = time.perf_counter() - start
    dcpu = time.process_time() - cpu
    return n / dt, d / dt, d / n, n / dcpu


def clones(seconds: float) -> float:
    states = []
    for seed in range(5):
        full = play(4, seed)
        s = GAME.new(4, seed, log=False, **OPTIONS)
        for p, a in full.history[: full.decisions // 2]:
            s.apply(p, a)
        states.append(s)
    start = time.perf_counter()
    k = 0
    while time.perf_counter() - start < seconds:
        for s in states:
            for _ in range(200):
                s.clone()
            k += 200
    return k / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--modules", action="store_true", help="events=true monsters=true")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    if args.modules:
        OPTIONS.update(events="true", monsters="true")
    for kv in args.option:
        key, _, value = kv.partition("=")
        OPTIONS[key] = value
    if OPTIONS:
        print("options: " + ", ".join(f"{k}={v}" for k, v in OPTIONS.items()))
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for seed in range(300):
            play(4, seed)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)
        return
    for n in (2, 3, 4):
        g, d, per, gcpu = games(n, args.seconds)
        print(f"{n} players: {g:8.0f} games/s  {d:9.0f} decisions/s  ({per:.0f} decisions/game)"
              f"  [per CPU second: {gcpu:.0f} games, {gcpu * per:.0f} decisions]")
    print(f"clone(): {clones(args.seconds):,.0f}/s")


if __name__ == "__main__":
    main()
