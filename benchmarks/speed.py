"""Throughput of every registered game under uniformly random play (a script, not a test).

For each game and player count: full random games per second and decisions per second
(log=False, as the simulator plays, through the lab's one game loop in
``cove.lab.runner``), and clone() calls per second on mid-game states. As a yardstick it
also plays OpenSpiel's C++ ``hearts`` randomly from Python (if the ``open-spiel``
benchmark extra is installed) and prints the ratio of Cove's decisions/s to hearts' player
actions/s (chance outcomes not counted on either side). The ratio is measured side by side:
``--rounds`` times, a slice of hearts and a slice of the game take turns, each in CPU time
(``time.process_time``), and the median of the rounds' ratios is printed, so a shared,
noisy machine slows both alike. Rates are per CPU second.

    python benchmarks/speed.py                      # every game, every player count
    python benchmarks/speed.py --game GAME --seconds 5 --json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

import cove
from cove.core.game import Game
from cove.core.rng import Rng
from cove.core.state import State
from cove.lab.runner import RandomChooser, play_out


def random_game(game: Game, players: int, seed: int, options: dict[str, Any]) -> State:
    state = game.new(players, seed, log=False, **options)
    return play_out(state, RandomChooser(Rng(seed ^ 0x5EED)))


def bench_games(game: Game, players: int, seconds: float, options: dict[str, Any]
                ) -> dict[str, float]:
    start = time.process_time()
    games = decisions = 0
    seed = 0
    while time.process_time() - start < seconds or games < 3:
        state = random_game(game, players, seed, options)
        decisions += state.decisions
        games += 1
        seed += 1
    dt = time.process_time() - start
    return {"games_per_s": games / dt, "decisions_per_s": decisions / dt,
            "decisions_per_game": decisions / games, "games": games}


def bench_clone(game: Game, players: int, seconds: float, options: dict[str, Any]) -> float:
    # sample states from the middle of a few games
    states: list[State] = []
    for seed in range(5):
        full = random_game(game, players, seed, options)
        s = game.new(players, seed, log=False, **options)
        for p, a in full.history[: full.decisions // 2]:
            s.apply(p, a)
        states.append(s)
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for s in states:
            s.clone()
        n += len(states)
    return n / (time.process_time() - start)


def bench_hearts(seconds: float, seed: int = 1) -> dict[str, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    g = pyspiel.load_game("hearts")
    r = random.Random(seed)  # the yardstick's own generator, local to this function
    start = time.process_time()
    actions = games = 0
    while time.process_time() - start < seconds:
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(r.choice(outcomes)[0])
            else:
                s.apply_action(r.choice(s.legal_actions()))
                actions += 1
        games += 1
    dt = time.process_time() - start
    return {"games_per_s": games / dt, "actions_per_s": actions / dt}


def ratio_vs_hearts(game: Game, players: int, seconds: float, rounds: int,
                    options: dict[str, Any]) -> tuple[float, list[float]] | None:
    """The median over ``rounds`` of (game decisions/s) / (hearts actions/s), each round
    a slice of hearts then a slice of the game, both in CPU time; and every round's ratio."""
    ratios = []
    for k in range(rounds):
        hearts = bench_hearts(seconds / rounds, seed=k + 1)
        if hearts is None:
            return None
        ours = bench_games(game, players, seconds / rounds, options)
        ratios.append(ours["decisions_per_s"] / hearts["actions_per_s"])
    return statistics.median(ratios), ratios


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--game", action="append", help="game id (repeatable; default: all)")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--rounds", type=int, default=3,
                    help="interleaved rounds of hearts and the game for the ratio (median)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error(f"--rounds must be at least 1, not {args.rounds}")
    options = dict(kv.split("=", 1) for kv in args.option)
    ids = args.game or cove.ids()
    rows: list[dict[str, Any]] = []
    hearts = bench_hearts(args.seconds)
    for gid in ids:
        game = cove.load(gid)
        for n in range(game.min_players, game.max_players + 1):
            try:
                game.new(n, 0, log=False, **options)
            except cove.CoveError as e:
                print(f"skip {gid} {n}p: {e}", file=sys.stderr)
                continue
            row: dict[str, Any] = {"game": gid, "players": n, "options": options}
            row.update(bench_games(game, n, args.seconds, options))
            row["clones_per_s"] = bench_clone(game, n, min(1.0, args.seconds), options)
            if hearts:
                side = ratio_vs_hearts(game, n, args.seconds, args.rounds, options)
                if side is not None:
                    row["ratio_vs_hearts"], row["ratio_rounds"] = side
            rows.append(row)
            if not args.json:
                ratio = f"{row['ratio_vs_hearts']:.3f}" if hearts else "n/a"
                print(f"{gid:<20}{n:>2}p {row['games_per_s']:>10.1f} games/s "
                      f"{row['decisions_per_s']:>10.0f} decisions/s "
                      f"({row['decisions_per_game']:.0f}/game) "
                      f"{row['clones_per_s']:>10.0f} clones/s  ratio vs hearts {ratio}",
                      flush=True)
    if args.json:
        print(json.dumps({"hearts": hearts, "rows": rows}, indent=1))
    elif hearts:
        print(f"OpenSpiel hearts (C++ via pyspiel, random play): {hearts['games_per_s']:.1f} "
              f"games/s, {hearts['actions_per_s']:.0f} player actions/s")
    else:
        print("OpenSpiel not installed (pip install -e '.[bench]'): no hearts yardstick")
    return 0


if __name__ == "__main__":
    sys.exit(main())
