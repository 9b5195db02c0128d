"""Environment steps per second beside the engine's raw decisions per second, same run.

    .venv/bin/python benchmarks/rl_speed.py [--seconds 1] [--rounds 3] [--game ID] [--json]

Three loops play uniformly random legal moves on ``log=False`` games, each for
``--seconds`` of CPU time (``time.process_time``), interleaved round by round so that a
change in the machine's load hits all three alike; the median of the rounds is reported:

- ``raw``: the contract alone (``to_move``, ``legal_actions``, ``apply``), the way
  ``benchmarks/speed.py`` counts decisions;
- ``raw+obs``: the same, also encoding the mover's observation (``observation_sparse``,
  the form the environments read) and ``legal_mask`` (what any learner needs from the
  game each step);
- ``aec``: the PettingZoo AEC environment (``cove.rl.aec_env``), reading every
  observation through ``env.last()`` and picking a random index from its action mask.

Every loop picks its move with the same cheap draw, ``random.Random(0).random()`` scaled to
the number of choices (about 0.1 us; numpy's ``Generator.integers`` costs 1.5-2.5 us a
call, which flattered the ratio by adding the same large constant to both sides). The
aec loop also finds the legal indices in the mask (``mask.nonzero()[0].tolist()``, about
0.7 us on a quiet machine, half of ``np.flatnonzero``): an agent given a mask has to.

``aec/raw`` is the issue's ratio (target: at least 0.5). ``bound`` is ``raw+obs/raw``,
the best ``aec/raw`` any wrapper could reach while the game's own encoding costs what it
does; ``aec/raw+obs`` is what the wrapper keeps of that. Players: 3 (1 for a solo game).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from collections.abc import Callable

import cove
from cove.rl import aec_env

Loop = Callable[[float], float]


def _timed(play_one: Callable[[int], int]) -> Loop:
    """A loop that plays games seeded 0, 1, 2, ... with ``play_one(seed)`` (which returns
    the game's steps) for ``seconds`` of CPU time and returns steps per second."""
    seeds = itertools.count()

    def run(seconds: float) -> float:
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            steps += play_one(next(seeds))
        return steps / (time.process_time() - start)
    return run


def raw_loop(game_id: str, players: int, observe: bool = False) -> Loop:
    """Decisions per second through the contract; ``observe``: also encode the mover's
    observation and legal mask each decision."""
    return _timed(raw_games(game_id, players, observe))


def aec_loop(game_id: str, players: int) -> Loop:
    """AEC environment steps per second, a random legal index from each action mask."""
    return _timed(aec_games(game_id, players))


def raw_games(game_id: str, players: int, observe: bool = False) -> Callable[[int], int]:
    """``play_one(seed)``: one game through the contract, returning its decisions. A plain
    loop on purpose, not the lab's ``advance``: its callback per move would be counted as
    the engine's time."""
    game = cove.load(game_id)
    draw = random.Random(0).random

    def play_one(seed: int) -> int:
        state = game.new(players, seed=seed, log=False)
        # an engine from before the sparse form (to compare with) encodes the dense one
        encode = getattr(state, "observation_sparse", state.observation)
        steps = 0
        while not state.is_over:
            p = state.to_move()[0]
            legal = state.legal_actions(p)
            if observe:
                encode(p)
                state.legal_mask(p)
            state.apply(p, legal[int(draw() * len(legal))])
            steps += 1
        return steps
    return play_one


def aec_games(game_id: str, players: int) -> Callable[[int], int]:
    """``play_one(seed)``: one episode of the AEC environment, returning its steps."""
    env = aec_env(game_id, players)
    draw = random.Random(0).random

    def play_one(seed: int) -> int:
        env.reset(seed=seed)
        steps = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0].tolist()
            env.step(legal[int(draw() * len(legal))])
            steps += 1
        return steps
    return play_one


def measure(game_id: str, players: int, seconds: float, rounds: int) -> dict[str, object]:
    loops = {"raw": raw_loop(game_id, players), "raw_obs": raw_loop(game_id, players, True),
             "aec": aec_loop(game_id, players)}
    rates: dict[str, list[float]] = {k: [] for k in loops}
    for _ in range(rounds):
        for name, run in loops.items():
            rates[name].append(run(seconds))
    raw, obs, aec = (statistics.median(rates[k]) for k in ("raw", "raw_obs", "aec"))
    return {"game": game_id, "players": players, "raw_per_s": round(raw),
            "raw_obs_per_s": round(obs), "aec_per_s": round(aec),
            "aec_vs_raw": round(aec / raw, 3), "bound": round(obs / raw, 3),
            "aec_vs_raw_obs": round(aec / obs, 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per loop and round")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median)")
    ap.add_argument("--game", help="one game id (default: every game)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    head = (f"{'game':18} {'p':>2} {'raw/s':>7} {'raw+obs/s':>9} {'aec/s':>7} "
            f"{'aec/raw':>7} {'bound':>6} {'aec/raw+obs':>11}")
    if not args.json:
        print(head)
    for game in cove.all_games():
        if args.game and game.id != args.game:
            continue
        players = max(game.min_players, min(3, game.max_players))
        r = measure(game.id, players, args.seconds, args.rounds)
        rows.append(r)
        if not args.json:
            print(f"{r['game']:18} {r['players']:>2} {r['raw_per_s']:>7} "
                  f"{r['raw_obs_per_s']:>9} {r['aec_per_s']:>7} {r['aec_vs_raw']:>7.2f} "
                  f"{r['bound']:>6.2f} {r['aec_vs_raw_obs']:>11.2f}", flush=True)
    if args.json:
        print(json.dumps({"rows": rows}, indent=1))


if __name__ == "__main__":
    main()
