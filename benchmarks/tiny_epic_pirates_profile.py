"""Throughput of Tiny Epic Pirates: random full games/s and decisions/s per player count,
and clone()/s. With a bot spec, instead: how often bot games end by the win condition (a
third treasure buried) rather than the DESIGN round cap, mean rounds and mean treasures.

Usage: .venv/bin/python benchmarks/tiny_epic_pirates_profile.py [games] [bot] [key=value...]
e.g.   .venv/bin/python benchmarks/tiny_epic_pirates_profile.py 30 greedy ruleset=design
"""

from __future__ import annotations

import sys
import time

from cove.bots import make_bot
from cove.core.rng import Rng
from cove.games.tiny_epic_pirates import GAME
from cove.games.tiny_epic_pirates.state import PiratesState
from cove.lab.runner import RandomChooser, advance, play_out, seated


def bot_games(games: int, spec: str, options: dict[str, str]) -> None:
    """Bot self-play per player count: endings by treasure, rounds, treasures."""
    for n in (2, 3, 4, 1):
        t0 = time.perf_counter()
        ended = rounds = treasures = 0
        for seed in range(games):
            s = GAME.new(n, seed=seed, log=False, **options)
            assert isinstance(s, PiratesState)
            bots = [make_bot(spec, seed=seed * 10 + p) for p in range(n)]
            play_out(s, seated(bots))
            ended += s.end_trigger
            rounds += s.turn // s.np
            treasures += sum(len(t) for t in s.treasures[:n])
        dt = time.perf_counter() - t0
        print(f"{n} players, {spec}: {ended}/{games} ended by a third treasure, "
              f"{rounds / games:.1f} rounds, {treasures / games / n:.2f} treasures per player "
              f"({dt / games:.2f} s/game)")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    if len(sys.argv) > 2:
        options = dict(a.split("=", 1) for a in sys.argv[3:])
        bot_games(games, sys.argv[2], options)
        return
    for n in (1, 2, 3, 4):
        t0 = time.perf_counter()
        decisions = 0
        rounds = 0
        ended = 0
        for seed in range(games):
            s = GAME.new(n, seed=seed, log=False)
            decisions += play_out(s, RandomChooser(Rng(seed))).decisions
            rounds += s.turn // s.np  # type: ignore[attr-defined]
            ended += s.end_trigger  # type: ignore[attr-defined]
        dt = time.perf_counter() - t0
        print(f"{n} players: {games / dt:7.1f} random games/s, {decisions / dt:8.0f} "
              f"decisions/s ({decisions / games:.0f} decisions, {rounds / games:.0f} rounds "
              f"per game; {ended}/{games} ended by a third treasure)")
    s = GAME.new(4, seed=1, log=False)
    advance(s, RandomChooser(Rng(1)), moves=600)
    k = 50_000
    t0 = time.perf_counter()
    for _ in range(k):
        s.clone()
    dt = time.perf_counter() - t0
    print(f"clone(): {k / dt:,.0f}/s (4 players, mid-game)")


if __name__ == "__main__":
    main()
