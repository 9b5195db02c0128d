"""Side-by-side speed of two Cove source trees, in CPU time (a script, not a test).

    git worktree add /tmp/cove-base <commit>
    .venv/bin/python benchmarks/speed_vs.py --base /tmp/cove-base/src [--rounds 8] [--game ID]
    .venv/bin/python benchmarks/speed_vs.py --base /tmp/cove-base/src --game GAME --hearts
    .venv/bin/python benchmarks/speed_vs.py --base src \
        --new .venv-fast/lib/python3.11/site-packages --mcts 300    # compiled vs pure

Two worker processes, one importing each tree, take turns on the same work: random
playouts of the same seeded games (decisions per CPU second) and clones of the same
mid-game states (clones per CPU second). Turns alternate in small chunks and the order
flips every round, so load from elsewhere on a shared machine falls on both alike; CPU
time (``time.process_time``) ignores time spent waiting for a core. Reported: each side's
median over the rounds and the median of the per-round ratios (new / base).

``--mcts N`` adds the search: the ``mcts`` bot (the game's defaults) choosing one move of
``N`` iterations in a position 10 random moves into a seeded game, in iterations per CPU
second, each round on both sides.

``--hearts`` adds the yardstick of ``benchmarks/speed.py``, OpenSpiel's C++ ``hearts``
played randomly from Python (the ``open-spiel`` benchmark extra), as a third worker that
takes its turn in every round of the playouts (the order of the three rotates each
round). Each tree's ratio to hearts is its decisions/s over hearts' player actions/s of
the same round (chance outcomes not counted on either side), median over the rounds; so
both trees are compared with hearts the same way, in the same run. The playout loop is
this script's own, not the lab's one (as in ``speed.py``), so the figures are close to,
but not the same as, ``speed.py``'s.

The worker writes its own playout loop instead of using the lab's one game loop
(``cove.lab.runner.advance``): it must also run on the release before contract v2
(c00f641, ``/work/wt/base``), which has no runner, and both sides must run the same loop.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

WORKER = r"""
import json, sys, time
import cove
from cove.core.rng import Rng

def playouts(gid, players, seeds):
    g = cove.load(gid)
    n = 0
    t0 = time.process_time()
    for seed in seeds:
        s = g.new(players, seed, log=False)
        r = Rng(seed)
        while not s.is_over:
            p = s.to_move()[0]
            s.apply(p, r.choice(s.legal_actions(p)))
            n += 1
    return n / (time.process_time() - t0)

def position(gid, players, seed, moves):
    # a seeded game after ``moves`` random moves (fewer if it ends first)
    s = cove.load(gid).new(players, seed, log=False)
    r = Rng(seed)
    for _ in range(moves):
        if s.is_over:
            break
        p = s.to_move()[0]
        s.apply(p, r.choice(s.legal_actions(p)))
    return s

def clones(gid, players, seed, count):
    s = position(gid, players, seed, 20)
    t0 = time.process_time()
    for _ in range(count):
        s.clone()
    return count / (time.process_time() - t0)

def mcts(gid, players, seed, iterations):
    # iterations per CPU second of the mcts bot as a user gets it (the game's defaults),
    # choosing a move in a position 10 random moves into a seeded game
    from cove.bots.mcts import MctsBot
    s = position(gid, players, seed, 10)
    bot = MctsBot(seed=seed, iterations=iterations)
    p = s.to_move()[0]
    t0 = time.process_time()
    bot.choose(s, p)
    return bot.last_iterations / (time.process_time() - t0)

def hearts(games, seed):
    import random
    import pyspiel
    g = pyspiel.load_game("hearts")
    r = random.Random(seed)
    actions = 0
    t0 = time.process_time()
    for _ in range(games):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(r.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(r.choice(s.legal_actions()))
                actions += 1
    return actions / (time.process_time() - t0)

for line in sys.stdin:
    job = json.loads(line)
    if job["kind"] == "play":
        out = playouts(job["game"], job["players"], job["seeds"])
    elif job["kind"] == "mcts":
        out = mcts(job["game"], job["players"], job["seed"], job["iterations"])
    elif job["kind"] == "hearts":
        out = hearts(job["games"], job["seed"])
    else:
        out = clones(job["game"], job["players"], job["seed"], job["count"])
    print(json.dumps(out), flush=True)
"""


class Side:
    def __init__(self, src: str) -> None:
        env = {**os.environ, "PYTHONPATH": src}
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER], env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, job: dict[str, Any]) -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        return float(json.loads(self.proc.stdout.readline()))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="the src/ folder of the tree to compare")
    ap.add_argument("--new", default=str(Path(__file__).resolve().parents[1] / "src"))
    ap.add_argument("--game", action="append", help="game id (repeatable; default all)")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--games", type=int, default=6, help="playouts per chunk")
    ap.add_argument("--hearts", action="store_true",
                    help="interleave OpenSpiel's hearts too and print each tree's ratio to it")
    ap.add_argument("--hearts-games", type=int, default=40, help="hearts games per chunk")
    ap.add_argument("--mcts", type=int, default=0, metavar="N",
                    help="also time the mcts bot choosing one move of N iterations per "
                         "round (iterations per CPU second)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error(f"--rounds must be at least 1, not {args.rounds}")
    if args.hearts:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            ap.error("--hearts needs OpenSpiel (pip install -e '.[bench]')")
    sys.path.insert(0, args.new)
    import cove

    ids = args.game or cove.ids()
    base, new = Side(args.base), Side(args.new)
    yard = Side(args.new) if args.hearts else None
    rows = []
    try:
        for gid in ids:
            g = cove.load(gid)
            for players in sorted({g.min_players, max(2, g.min_players), g.max_players}):
                got: dict[str, dict[str, list[float]]] = {
                    "base": {"play": [], "clone": [], "mcts": []},
                    "new": {"play": [], "clone": [], "mcts": []},
                    "hearts": {"play": []}}
                for r in range(args.rounds):
                    seeds = list(range(r * args.games, (r + 1) * args.games))
                    jobs = [{"kind": "play", "game": gid, "players": players, "seeds": seeds},
                            {"kind": "clone", "game": gid, "players": players, "seed": r,
                             "count": 3000}]
                    if args.mcts:
                        jobs.append({"kind": "mcts", "game": gid, "players": players,
                                     "seed": r, "iterations": args.mcts})
                    order = [("base", base), ("new", new)]
                    if r % 2:
                        order.reverse()
                    for job in jobs:
                        kind = str(job["kind"])
                        turns = list(order)
                        if yard is not None and kind == "play":
                            # hearts first, between or last, in turn
                            turns.insert(r // 2 % 3, ("hearts", yard))
                        for name, side in turns:
                            ask = job if name != "hearts" else {
                                "kind": "hearts", "games": args.hearts_games, "seed": r}
                            got[name][kind].append(side.ask(ask))
                row: dict[str, Any] = {"game": gid, "players": players}
                for kind in ("play", "clone", "mcts") if args.mcts else ("play", "clone"):
                    b, n = got["base"][kind], got["new"][kind]
                    row[kind] = {"base": statistics.median(b), "new": statistics.median(n),
                                 "ratio": statistics.median(x / y for x, y in zip(n, b,
                                                                                 strict=True))}
                if yard is not None:
                    h = got["hearts"]["play"]
                    row["hearts"] = {
                        "actions_per_s": statistics.median(h),
                        "base": statistics.median(x / y for x, y in zip(
                            got["base"]["play"], h, strict=True)),
                        "new": statistics.median(x / y for x, y in zip(
                            got["new"]["play"], h, strict=True))}
                rows.append(row)
                if not args.json:
                    p, c = row["play"], row["clone"]
                    print(f"{gid:18} {players}p  decisions/s {p['base']:9.0f} -> {p['new']:9.0f}"
                          f" ({p['ratio']:.2f})   clones/s {c['base']:9.0f} -> {c['new']:9.0f}"
                          f" ({c['ratio']:.2f})", flush=True)
                    if args.mcts:
                        m = row["mcts"]
                        print(f"{'':18} {players}p  mcts iterations/s {m['base']:7.0f} -> "
                              f"{m['new']:7.0f} ({m['ratio']:.2f})", flush=True)
                    if yard is not None:
                        hr = row["hearts"]
                        print(f"{'':18} {players}p  ratio to hearts ({hr['actions_per_s']:.0f}"
                              f" actions/s): base {hr['base']:.3f}  new {hr['new']:.3f}",
                              flush=True)
    finally:
        base.close()
        new.close()
        if yard is not None:
            yard.close()
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
