"""How busy two cores are under ``vector_env(workers=2)`` (a script, not a test): for each
game, learner steps per wall-clock second and the CPU share of each worker process and of
the main (learner) process over a few seconds, at 8 tables with random bots in the other
seats (as ``rl_speed.py --gym-async`` runs it) and at 64 tables of self-play (as
``rl_speed.py --workers``); and the best two cores could do: twice the in-process rate of
the same 8 tables, learner's side included, per CPU second.

A synchronous step leaves a core idle while the learner picks its moves and while the
faster worker waits for the slower one; what the busy cores do beyond the in-process
work is the workers' own cost (shared memory, semaphores, context switches).

    python benchmarks/rl_workers_busy.py [--game GAME ...] [--seconds 3]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

import numpy as np

import cove
from cove.rl import CoveWorkersVectorEnv, vector_env

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of process ``pid`` so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def drive(env: Any, tables: int, seconds: float, clock: Any) -> float:
    """Random legal moves at every table for ``seconds`` of ``clock``: steps per second."""
    obs, _ = env.reset(seed=0)
    draw = random.Random(0).random
    actions = np.zeros(tables, np.int64)
    steps, start = 0, clock()
    while clock() - start < seconds:
        for i, row in enumerate(obs["action_mask"]):
            legal = row.nonzero()[0].tolist()
            actions[i] = legal[int(draw() * len(legal))] if legal else 0
        obs, *_ = env.step(actions)
        steps += tables
    return float(steps / (clock() - start))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="game id (repeatable; default all)")
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    for game in args.game or cove.ids():
        one = vector_env(game, 3, 8, opponents="random", copy=False)
        best = 2 * drive(one, 8, args.seconds / 2, time.process_time)
        print(f"{game:18} two cores at best (8 tables, bots): {best:7.0f}/s")
        for tables, opponents in ((8, "random"), (64, None)):
            extra = {"opponents": opponents} if opponents else {}
            env = vector_env(game, 3, tables, workers=2, copy=False, **extra)
            assert isinstance(env, CoveWorkersVectorEnv)
            pids = [p.pid for p in env._procs if p.pid is not None]
            before = [cpu_seconds(p) for p in pids]
            main_before, wall_before = time.process_time(), time.perf_counter()
            rate = drive(env, tables, args.seconds, time.perf_counter)
            wall = time.perf_counter() - wall_before
            workers = [(cpu_seconds(p) - b) / wall for p, b in zip(pids, before, strict=True)]
            learner = (time.process_time() - main_before) / wall
            env.close()
            kind = "bots" if opponents else "self-play"
            print(f"{game:18} {tables:2} tables, {kind:9}: {rate:7.0f}/s; busy: workers "
                  f"{workers[0]:.2f} and {workers[1]:.2f}, learner {learner:.2f}, "
                  f"in all {sum(workers) + learner:.2f} of 2 cores")


if __name__ == "__main__":
    main()
