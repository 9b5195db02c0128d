"""Environment steps per second beside the engine's raw decisions per second, same run.

    .venv/bin/python examples/env_speed.py [--seconds 2] [--game ID] [--json]

"raw" plays uniformly random legal actions through the contract (``legal_actions``,
``apply``), the way ``benchmarks/speed.py`` counts decisions; "aec" steps the PettingZoo
AEC environment with uniformly random legal indices taken from the action mask, reading
each observation (``env.last()``) as a learner would; "raw+obs" is the raw loop that
also encodes the mover's observation and mask, the part of a step the game itself
costs. All use ``log=False`` games. The
issue's target: the AEC environment at >= 50% of the raw rate.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import cove
from cove.rl import aec_env


def raw_rate(game_id: str, players: int, seconds: float, observe: bool = False) -> float:
    """Decisions per second through the contract; ``observe``: also encode the mover's
    observation and legal mask each decision (what any learner needs)."""
    game = cove.load(game_id)
    rng = np.random.default_rng(0)
    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new(players, seed=seed, log=False)
        seed += 1
        while not state.is_over:
            p = state.to_move()[0]
            legal = state.legal_actions(p)
            if observe:
                state.observation(p)
                state.legal_mask(p)
            state.apply(p, legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps / (time.perf_counter() - start)


def aec_rate(game_id: str, players: int, seconds: float) -> float:
    env = aec_env(game_id, players)
    rng = np.random.default_rng(0)
    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--game", help="one game id (default: every game)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    for game in cove.all_games():
        if args.game and game.id != args.game:
            continue
        players = max(game.min_players, min(3, game.max_players))
        raw = raw_rate(game.id, players, args.seconds)
        obs = raw_rate(game.id, players, args.seconds, observe=True)
        aec = aec_rate(game.id, players, args.seconds)
        rows.append({"game": game.id, "players": players, "raw_per_s": round(raw),
                     "raw_obs_per_s": round(obs), "aec_per_s": round(aec),
                     "aec_vs_raw": round(aec / raw, 2), "aec_vs_raw_obs": round(aec / obs, 2)})
    if args.json:
        print(json.dumps({"rows": rows}, indent=1))
        return
    print(f"{'game':20} {'players':>7} {'raw/s':>8} {'raw+obs/s':>10} {'aec/s':>8} "
          f"{'aec/raw':>8} {'aec/raw+obs':>12}")
    for r in rows:
        print(f"{r['game']:20} {r['players']:>7} {r['raw_per_s']:>8} {r['raw_obs_per_s']:>10} "
              f"{r['aec_per_s']:>8} {r['aec_vs_raw']:>8.2f} {r['aec_vs_raw_obs']:>12.2f}")


if __name__ == "__main__":
    main()
