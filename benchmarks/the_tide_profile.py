"""The Tide throughput (a script, not a test).

Uniformly random play runs for hundreds of turns (random friends often stand where nothing
can be collected, and about 44% of 3-player games end by the stall guard), so this also plays
a collect-biased random policy (70% the largest collection when one is legal) that gives games
of realistic length (most end by an empty column).

    python benchmarks/the_tide_profile.py [--seconds 2] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections import Counter
from typing import Any

from cove.core.actions import Action
from cove.core.rng import Rng
from cove.core.state import State
from cove.games.the_tide import GAME
from cove.games.the_tide.actions import Collect
from cove.games.the_tide.state import TideState
from cove.lab.runner import play_out


def play(players: int, seed: int, bias: float, options: dict[str, Any]) -> TideState:
    s = GAME.new(players, seed, log=False, **options)
    assert isinstance(s, TideState)
    rng = Rng(seed ^ 0x5EED)

    def choose(s: State, p: int) -> Action:
        acts = s.legal_actions(p)
        if bias:
            cs = [a for a in acts if isinstance(a, Collect)]
            if cs and rng.random() < bias:
                best = max(a.count for a in cs)
                return rng.choice([a for a in cs if a.count == best])
        return rng.choice(acts)

    play_out(s, choose)
    return s


def end_kind(reason: str) -> str:
    for key, word in (("stall", "stall"), ("column", "column"), ("reaches", "10 points"),
                      ("limit", "turn limit")):
        if key in reason:
            return word
    return reason


def bench(players: int, bias: float, seconds: float, options: dict[str, Any]) -> dict[str, Any]:
    start = time.perf_counter()
    games = decisions = turns = 0
    ends: Counter[str] = Counter()
    while time.perf_counter() - start < seconds or games < 3:
        s = play(players, games, bias, options)
        games += 1
        decisions += s.decisions
        turns += s.turns
        ends[end_kind(s.end_reason)] += 1
    dt = time.perf_counter() - start
    return {"games_s": games / dt, "decisions_s": decisions / dt,
            "decisions_game": decisions / games, "turns_game": turns / games,
            "ends": dict(ends)}


def bench_clone(players: int, seconds: float) -> float:
    states = []
    for seed in range(5):
        full = play(players, seed, 0.7, {})
        s = GAME.new(players, seed, log=False)
        for p, a in full.history[: full.decisions // 2]:
            s.apply(p, a)
        states.append(s)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for s in states:
            for _ in range(200):
                s.clone()
            n += 200
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    if args.profile:
        cProfile.run("for i in range(300): play(4, i, 0.7, {})", "/tmp/tide.prof")
        pstats.Stats("/tmp/tide.prof").sort_stats("cumulative").print_stats(18)
        return
    print(f"{'policy':<10}{'players':>8}{'games/s':>10}{'decisions/s':>13}{'dec/game':>10}"
          f"{'turns/game':>12}  ends")
    for bias, name in ((0.0, "uniform"), (0.7, "collect70")):
        for n in range(2, 7):
            r = bench(n, bias, args.seconds, {})
            print(f"{name:<10}{n:>8}{r['games_s']:>10.0f}{r['decisions_s']:>13.0f}"
                  f"{r['decisions_game']:>10.1f}{r['turns_game']:>12.1f}  {r['ends']}")
    for n in range(2, 7):
        print(f"clone() / s, {n} players, mid-game: {bench_clone(n, args.seconds / 2):,.0f}")


if __name__ == "__main__":
    main()
