"""Bot rows for docs/RESEARCH.md's baseline table, on the trained agent's evaluation games.

    .venv/bin/python benchmarks/rl_baselines.py [--game GAME] [--players 2]
        [--bots mcts:iterations=50,mcts:iterations=200] [--games 200] [--json]

``examples/train_masked_pg.py`` evaluates its trained policy in seat 0 of
``cove.rl.gym_env(game, players, seat=0, opponents=OPP)`` on the games seeded
10**9, 10**9 + 1, ...; this script puts a Cove bot in that seat instead, on the same
environment and seeds, so its rows sit in the same table: the win share of seat 0 against
random and against greedy, with a 95% Wilson interval, and the CPU seconds it took.
The seat-0 bot reads the environment's real state, which is fair: the environment hands
the opponents ``state.for_player``, and Cove's search bots redeterminize what they may not
see themselves.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import cove
from cove.bots import make_bot, split_specs
from cove.lab.stats import wilson
from cove.rl import gym_env

EVAL_SEED = 10**9
"""The first evaluation seed of examples/train_masked_pg.py."""


def win_share(game: str, players: int, spec: str, opponents: str, games: int) -> float:
    """Seat 0's mean reward (win share) over ``games`` evaluation games."""
    env = gym_env(game, players, seat=0, opponents=opponents)
    space = env.match.space
    total = 0.0
    for i in range(games):
        env.reset(seed=EVAL_SEED + i)
        bot = make_bot(spec, seed=EVAL_SEED + i)
        while True:
            action = bot.act(env.match.state, 0)
            _, reward, terminated, truncated, _ = env.step(space.encode(action))
            total += reward
            if terminated or truncated:
                break
    return total / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default=cove.ids()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="mcts:iterations=50,mcts:iterations=200",
                    help="seat-0 bot specs, comma-separated")
    ap.add_argument("--opponents", default="random,greedy")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    for spec in split_specs(args.bots):
        for opp in split_specs(args.opponents):
            cpu = time.process_time()
            share = win_share(args.game, args.players, spec, opp, args.games)
            lo, hi = wilson(share * args.games, args.games)
            rows.append({"bot": spec, "opponents": opp, "games": args.games,
                         "win_share": round(share, 3), "ci95": [round(lo, 3), round(hi, 3)],
                         "cpu_s": round(time.process_time() - cpu, 1)})
            r = rows[-1]
            if not args.json:
                print(f"{spec:24} vs {opp:8}: win share {share:.3f} "
                      f"({lo:.3f}-{hi:.3f}) over {args.games} games, {r['cpu_s']} CPU s",
                      flush=True)
    if args.json:
        print(json.dumps({"game": args.game, "players": args.players,
                          "first_seed": EVAL_SEED, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
