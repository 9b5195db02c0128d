"""Cove's research environments beside their peers: steps per CPU second, one run.

    .venv/bin/python benchmarks/peers.py [--seconds 1] [--rounds 3] [--json]

Every row plays uniformly random legal moves and reads what a learner needs each step (the
observation and the legal-action mask), for ``--seconds`` of CPU time per round, rounds
interleaved so a change in the machine's load hits every row alike; the median is
reported:

- ``cove aec``: each Cove game's PettingZoo AEC environment (3 players, 1 for a solo game),
  the loop of ``benchmarks/rl_speed.py``'s ``aec`` column;
- ``cove vector``: the same game through ``cove.rl.vector_env`` (16 tables, self-play,
  ``copy=False``), decisions per second;
- ``pettingzoo``: PettingZoo's own classic environments (``connect_four_v3``,
  ``leduc_holdem_v4``, ``tictactoe_v3``), the same AEC loop; they need ``pygame`` and
  ``rlcard`` (``pip install -e '.[bench]'``), and are left out, saying so, without them;
- ``openspiel``: OpenSpiel's C++ games through its Python API (``connect_four``,
  ``leduc_poker``, ``hearts``): ``observation_tensor`` (``information_state_tensor``
  for a game without one, as hearts) and ``legal_actions_mask`` of the player to move,
  then a random legal action (chance outcomes drawn as they come).

The figures are for one machine and one run; ``benchmarks/results/`` keeps them dated.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cove
import rl_speed

Loop = Callable[[float], float]
PETTINGZOO = ("connect_four_v3", "leduc_holdem_v4", "tictactoe_v3")
OPENSPIEL = ("connect_four", "leduc_poker", "hearts")


def pettingzoo_loop(name: str) -> Loop:
    """AEC steps per second of a PettingZoo classic environment, random masked moves."""
    env = importlib.import_module(f"pettingzoo.classic.{name}").env()
    draw = random.Random(0).random
    return rl_speed._timed(lambda seed: rl_speed.aec_episode(env, seed, draw))


def openspiel_loop(name: str) -> Loop:
    """Steps per second of an OpenSpiel game through its Python API: the mover's
    observation tensor and legal mask, then a random legal action."""
    import pyspiel

    game = pyspiel.load_game(name)
    draw = random.Random(0).random
    kind = game.get_type()
    observe = ("observation_tensor" if kind.provides_observation_tensor
               else "information_state_tensor")

    def run(seconds: float) -> float:
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(draw() * len(outcomes))][0])
                    continue
                p = state.current_player()
                getattr(state, observe)(p)
                state.legal_actions_mask(p)
                legal = state.legal_actions()
                state.apply_action(legal[int(draw() * len(legal))])
                steps += 1
        return steps / (time.process_time() - start)
    return run


def loops() -> tuple[dict[str, Loop], list[str]]:
    """Every row that can run here, and what was left out and why."""
    rows: dict[str, Loop] = {}
    missing: list[str] = []
    for game in cove.all_games():
        players = max(game.min_players, min(3, game.max_players))
        rows[f"cove aec      {game.id} ({players}p)"] = rl_speed.aec_loop(game.id, players)
        rows[f"cove vector   {game.id} ({players}p)"] = rl_speed.vector_loop(game.id, players)
    for name in PETTINGZOO:
        try:
            rows[f"pettingzoo    {name}"] = pettingzoo_loop(name)
        except ImportError as e:
            missing.append(f"pettingzoo {name}: {e} (pip install -e '.[bench]')")
    for name in OPENSPIEL:
        try:
            rows[f"openspiel     {name}"] = openspiel_loop(name)
        except ImportError as e:
            missing.append(f"openspiel {name}: {e} (pip install -e '.[openspiel]')")
    return rows, missing


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per row and round")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows, missing = loops()
    rates: dict[str, list[float]] = {k: [] for k in rows}
    for _ in range(args.rounds):
        for name, run in rows.items():
            rates[name].append(run(args.seconds))
    result = {name: round(statistics.median(r)) for name, r in rates.items()}
    if args.json:
        print(json.dumps({"steps_per_s": result, "missing": missing}, indent=1))
        return
    print(f"{'environment':48} {'steps/s':>9}")
    for name, rate in result.items():
        print(f"{name:48} {rate:>9}")
    for line in missing:
        print(f"left out: {line}")


if __name__ == "__main__":
    main()
