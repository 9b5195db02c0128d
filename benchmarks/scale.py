"""How the lab's backends scale (a script, not a timed test).

    .venv/bin/python benchmarks/scale.py [--games 10000] [--game GAME] [--players 4]
                                         [--bots random] [--json]

Plays the same seeded run on every backend, side by side in one process: serial (in
this process), local processes with 1 and 2 workers, and Ray with 1 and 2 workers (when
Ray is installed). For each it reports wall seconds, games per second, the speed-up over
one worker of the same backend, and the per-game overhead against the serial loop
((seconds - serial seconds) / games, per worker). Ray's start-up is timed apart from the
run. All runs must give identical results (checked: the script fails otherwise).
docs/SCALE.md turns these figures into the arithmetic for a cluster.

Each run shows a progress bar on stderr when it is a terminal (``--quiet``: none; it costs
the driver a few microseconds a game). Ctrl-C stops the script and prints the runs that
finished.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from typing import Any

import cove
from cove.lab.progress import progress_bar
from cove.lab.simulate import simulate


def run(args: argparse.Namespace, name: str, jobs: int) -> dict[str, Any]:
    start = time.perf_counter()
    with progress_bar(f"{name} x{jobs}", not args.quiet) as bar:
        sim = simulate(args.game, args.players, args.games, seed=args.seed,
                       bots=[args.bots], jobs=jobs, backend=name, progress=bar)
    seconds = time.perf_counter() - start
    if sim.interrupted:
        raise KeyboardInterrupt
    return {"backend": name, "workers": jobs, "seconds": seconds,
            "games_per_second": args.games / seconds,
            "scores": [r.scores for r in sim.results]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=cove.ids()[-1])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray runs")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    ray_start = None
    try:
        rows.append(run(args, "serial", 1))
        for jobs in (1, 2):
            rows.append(run(args, "processes", jobs))
        if not args.no_ray and importlib.util.find_spec("ray") is not None:
            import ray

            for jobs in (1, 2):
                t0 = time.perf_counter()
                ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False,
                         configure_logging=False)
                ray_start = time.perf_counter() - t0
                # the backend joins the running instance, so start-up is not in the run
                try:
                    rows.append(run(args, "ray", jobs))
                finally:
                    ray.shutdown()
    except KeyboardInterrupt:
        sys.stderr.write(f"interrupted: {len(rows)} run{'s' * (len(rows) != 1)} finished\n")
        if not rows:
            return 130
    base = rows[0]
    for r in rows:
        if r["scores"] != base["scores"]:
            sys.stderr.write(f"{r['backend']} x{r['workers']} gave other results\n")
            return 1
    for r in rows:
        one = next(x for x in rows if x["backend"] == r["backend"] and x["workers"] == 1)
        r["speedup"] = one["seconds"] / r["seconds"]
        r["overhead_ms_per_game"] = 1000 * (r["seconds"] * r["workers"] - base["seconds"]) \
            / args.games
    for r in rows:
        del r["scores"]
    out = {"game": args.game, "players": args.players, "games": args.games,
           "bots": args.bots, "cpus": os.cpu_count(), "ray_start_seconds": ray_start,
           "runs": rows}
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{args.games} {args.game} games, {args.players} players, bots {args.bots}, "
          f"{os.cpu_count()} CPUs" + (f"; Ray starts in {ray_start:.1f} s" if ray_start else
                                      "; Ray not installed"))
    print(f"{'backend':<10}{'workers':>8}{'seconds':>10}{'games/s':>10}{'speed-up':>10}"
          f"{'overhead ms/game':>18}")
    for r in rows:
        print(f"{r['backend']:<10}{r['workers']:>8}{r['seconds']:>10.1f}"
              f"{r['games_per_second']:>10.1f}{r['speedup']:>10.2f}"
              f"{r['overhead_ms_per_game']:>18.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
