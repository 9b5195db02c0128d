"""Throughput of Tiny Epic Pirates: random full games/s and decisions/s per player count,
and clone()/s. Usage: .venv/bin/python benchmarks/tiny_epic_pirates_profile.py [games]"""

from __future__ import annotations

import sys
import time

from cove.core.rng import Rng
from cove.games.tiny_epic_pirates import GAME


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    for n in (1, 2, 3, 4):
        t0 = time.perf_counter()
        decisions = 0
        rounds = 0
        ended = 0
        for seed in range(games):
            s = GAME.new(n, seed=seed, log=False)
            rng = Rng(seed)
            while not s.is_over:
                p = s.to_move()[0]
                s.apply(p, rng.choice(s.legal_actions(p)))
                decisions += 1
            rounds += s.turn // s.np  # type: ignore[attr-defined]
            ended += s.end_trigger  # type: ignore[attr-defined]
        dt = time.perf_counter() - t0
        print(f"{n} players: {games / dt:7.1f} random games/s, {decisions / dt:8.0f} "
              f"decisions/s ({decisions / games:.0f} decisions, {rounds / games:.0f} rounds "
              f"per game; {ended}/{games} ended by a third treasure)")
    s = GAME.new(4, seed=1, log=False)
    rng = Rng(1)
    for _ in range(600):
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    k = 50_000
    t0 = time.perf_counter()
    for _ in range(k):
        s.clone()
    dt = time.perf_counter() - t0
    print(f"clone(): {k / dt:,.0f}/s (4 players, mid-game)")


if __name__ == "__main__":
    main()
