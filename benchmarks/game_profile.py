"""Where a game spends its time, and how its games end (a script, not a test).

For one game: games and decisions per CPU second at every player count under a policy
(uniformly random, or any bot spec: a ``greedy`` game lasts as long as real play does, where
random play can wander for hundreds of turns), the decisions per game, how the games ended
(``state.stats()["end"]``, the game's own words, safety cut-offs marked), and clones per
second of mid-game states. ``--profile`` runs cProfile over the same games and prints the
functions that took the most time.

    python benchmarks/game_profile.py --game GAME [--players N] [--policy greedy] [--seconds 2]
    python benchmarks/game_profile.py --game GAME --players 3 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections import Counter
from typing import Any

import cove
from cove.bots import make_bot
from cove.core.game import Game
from cove.core.rng import Rng
from cove.core.state import State
from cove.lab.runner import RandomChooser, play_out


def play(game: Game, players: int, seed: int, policy: str) -> State:
    state = game.new(players, seed, log=False)
    if policy == "random":
        return play_out(state, RandomChooser(Rng(seed ^ 0x5EED)))
    bots = [make_bot(policy, seed * 16 + p) for p in range(players)]
    return play_out(state, lambda s, p: bots[p].act(s, p))


def bench(game: Game, players: int, policy: str, seconds: float) -> dict[str, Any]:
    start = time.process_time()
    games = decisions = 0
    ends: Counter[str] = Counter()
    while time.process_time() - start < seconds or games < 3:
        s = play(game, players, games, policy)
        games += 1
        decisions += s.decisions
        end = str(s.stats().get("end", "?"))
        ends[end + (" (safety)" if end in game.safety_ends else "")] += 1
    dt = time.process_time() - start
    return {"games_s": games / dt, "decisions_s": decisions / dt,
            "decisions_game": decisions / games, "ends": dict(ends.most_common())}


def bench_clone(game: Game, players: int, seconds: float) -> float:
    states = []
    for seed in range(5):
        full = play(game, players, seed, "random")
        s = game.new(players, seed, log=False)
        for p, a in full.history[: full.decisions // 2]:
            s.apply(p, a)
        states.append(s)
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for s in states:
            for _ in range(100):
                s.clone()
            n += 100
    return n / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--game", required=True, choices=cove.ids())
    ap.add_argument("--players", type=int, help="one player count (default: every one)")
    ap.add_argument("--policy", default="random", help="random, or a bot spec (greedy, ...)")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    ap.add_argument("--profile", action="store_true", help="cProfile the games instead")
    args = ap.parse_args()
    game = cove.load(args.game)
    counts = [args.players] if args.players else list(range(game.min_players,
                                                            game.max_players + 1))
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for seed in range(100):
            play(game, counts[-1], seed, args.policy)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)
        return
    print(f"{game.name}, policy {args.policy}, CPU time")
    print(f"{'players':>7}{'games/s':>10}{'decisions/s':>13}{'dec/game':>10}"
          f"{'clones/s':>11}  how games ended")
    for n in counts:
        r = bench(game, n, args.policy, args.seconds)
        clones = bench_clone(game, n, args.seconds / 2)
        print(f"{n:>7}{r['games_s']:>10.1f}{r['decisions_s']:>13.0f}{r['decisions_game']:>10.1f}"
              f"{clones:>11.0f}  {r['ends']}")


if __name__ == "__main__":
    main()
