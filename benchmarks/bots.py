"""Bot strength and speed benchmark (a script, not a test).

For every registered game (or those named with --game) at its smallest multi-player
count, with seats rotated:

- strength: ``mcts`` (default budget) vs ``random`` (target >= 90% wins), ``mcts`` vs
  ``greedy`` (>= 60%), ``greedy`` vs ``random`` (clearly above 50%). Games are played in
  batches until the 95% Wilson interval of the first bot's win rate is narrower than
  +/- 7 points (--half-width), at least --min-games and at most --max-games;
- speed: median and 95th-percentile seconds per ``mcts`` move (decisions with more than
  one legal action) and MCTS iterations per second, from those same games, plus a short
  measurement with rollouts played to the end (``depth=-1``) for comparison with
- OpenSpiel's Python ``MCTSBot`` (random rollouts to the end, searching the true state)
  on OpenSpiel's C++ ``hearts``, measured in the same run (skipped if ``pyspiel`` is not
  installed: pip install -e '.[bench]').

    .venv/bin/python benchmarks/bots.py --jobs 2 --out /tmp/bots.jsonl
    .venv/bin/python benchmarks/bots.py --game GAME --jobs 1 --out /tmp/bots.jsonl
    .venv/bin/python benchmarks/bots.py --report /tmp/bots.jsonl   # tables of saved rows

Each row is appended to --out as one JSON line as soon as it is measured, so a long run
can be stopped and resumed game by game; --report prints the tables from such a file.
--pair A/B[/TARGET] adds pairings (e.g. hard/mcts/0.55), --players N plays the first bot
against N-1 copies of the second (target: the whole interval above 1/N), and --speed SPEC
times only iterations per CPU second on fixed positions, to compare two checkouts side by
side (PYTHONPATH=old/src, then this one).

``mcts`` is each game's default ``mcts``: a game's ``bot_defaults`` (a near-solitaire
race may declare the paired search) fill what a spec leaves out. For a paired search an
iteration is one sampled world, spent on every kept root move, so its iterations per
second are not comparable with a tree search's.

With --jobs 2 the games run in two processes; per-move times then include contention
for the machine's two cores, so they are upper bounds for a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

import cove
from cove.bots import make_bot
from cove.core.game import Game
from cove.core.rng import Rng
from cove.lab.arena import play_games, summarize

PAIRINGS: list[tuple[str, str, float | None]] = [
    ("mcts", "random", 0.90),
    ("mcts", "greedy", 0.60),
    ("greedy", "random", None),  # "clearly": the whole 95% interval above 50%
]


def quantile(values: list[float], q: float) -> float:
    s = sorted(values)
    x = (len(s) - 1) * q
    lo = int(x)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (x - lo)


def run_pairing(game: Game, players: int, a: str, b: str, target: float | None,
                args: argparse.Namespace) -> dict[str, Any]:
    """``a`` against ``players - 1`` copies of ``b``, seats rotated. ``target``: the win
    rate ``a`` must reach; None: its whole interval above its fair share 1/players."""
    specs = [a] + [b] * (players - 1)
    results: list[dict[str, Any]] = []
    start = time.perf_counter()
    step = max(players, args.step - args.step % players)
    first = max(players, args.min_games - args.min_games % players)
    while True:
        n_new = first if not results else step
        idx = list(range(len(results), len(results) + n_new))
        results += play_games(game, players, specs, args.seed, {}, idx, args.jobs)
        summary = summarize(game.id, players, args.seed, {}, specs, results)
        top = summary["bots"][0]
        half = (top["ci_high"] - top["ci_low"]) / 2
        print(f"  {game.id} {a} vs {b}: {len(results)} games, {100 * top['win_rate']:.1f}% "
              f"+/- {100 * half:.1f}", file=sys.stderr, flush=True)
        if half < args.half_width or len(results) >= args.max_games:
            break
    summary["seconds"] = time.perf_counter() - start
    mcts_times: list[float] = []
    iters = 0
    search = 0.0
    for r in results:
        for seat, e in enumerate(r["entries"]):
            if e == 0 and r["iterations"][seat]:
                mcts_times += r["times"][seat]
                iters += r["iterations"][seat]
                search += r["search_time"][seat]
    top = summary["bots"][0]
    verdict = top["ci_low"] > 1 / players if target is None else top["win_rate"] >= target
    return {
        "kind": "pairing",
        "game": game.id,
        "players": players,
        "a": a,
        "b": b,
        "target": target,
        "games": len(results),
        "win_rate": top["win_rate"],
        "ci_low": top["ci_low"],
        "ci_high": top["ci_high"],
        "mean_score_a": top["mean_score"],
        "mean_score_b": summary["bots"][1]["mean_score"],
        "rating_a": top["rating"],
        "rating_b": summary["bots"][1]["rating"],
        "ties": summary["ties"],
        "met": verdict,
        "seconds": summary["seconds"],
        "mcts_move_times": mcts_times,
        "mcts_iterations": iters,
        "mcts_search_seconds": search,
    }


def full_rollout_speed(game: Game, players: int, moves: int) -> dict[str, Any]:
    """Iterations per CPU second of ``mcts:depth=-1`` (random rollouts to the end)."""
    r = search_speed(game, players, "mcts:iterations=200,steps=0,depth=-1", moves, 0)
    return {"kind": "rollout", "game": game.id, "players": players,
            "iterations_per_second_to_end": r["iterations_per_cpu_second"]}


def search_speed(game: Game, players: int, spec: str, positions: int, seed: int
                 ) -> dict[str, Any]:
    """Iterations per CPU second (``time.process_time``) of ``spec`` on ``positions``
    positions of seeded random games (every fourth decision with a choice). Uses only
    ``make_bot``, ``choose`` and ``last_iterations``, so the same script can time an older
    checkout (``PYTHONPATH=<old>/src``) side by side with this one."""
    bot = make_bot(spec, seed)
    iters = 0
    cpu = 0.0
    measured = 0
    g = seed
    while measured < positions:
        s = game.new(players, seed=g, log=False)
        rng = Rng(g)
        g += 1
        while not s.is_over and measured < positions:
            p = s.to_move()[0]
            acts = s.legal_actions(p)
            if len(acts) > 1 and rng.below(4) == 0:
                # its own rng: same positions in any version (before contract v2, c00f641,
                # there was no for_player: the bot got the redeterminized state)
                view = (s.for_player(p, Rng(measured)) if hasattr(s, "for_player")
                        else s.redeterminize(p, Rng(measured)))
                t = time.process_time()
                bot.choose(view, p)
                cpu += time.process_time() - t
                iters += getattr(bot, "last_iterations", 0)
                measured += 1
            s.apply(p, acts[rng.below(len(acts))])
    return {"kind": "speed", "game": game.id, "players": players, "spec": spec,
            "positions": positions, "iterations": iters, "cpu_seconds": cpu,
            "iterations_per_cpu_second": iters / cpu if cpu else None}


def search_cost(game: Game, players: int, spec: str, games: int, seed: int
                ) -> dict[str, Any]:
    """CPU seconds (``time.process_time``) of ``spec``'s moves against ``greedy`` in
    ``games`` games (seats alternate), with the forward-model calls (``last_steps``) they
    made: iterations per CPU second splits into calls per iteration (what the search and
    the game's length ask for) and CPU microseconds per call (what a step of the game and
    the search's bookkeeping cost). Only ``make_bot``, ``choose`` or ``act``,
    ``last_iterations`` and ``last_steps`` are used, so it runs against older checkouts
    too (before contract v2 a bot was handed the real state through ``choose``)."""
    cpu: list[float] = []
    iters = steps = 0
    for g in range(games):
        s = game.new(players, seed=seed + g, log=False)
        bots = [make_bot(spec if (q + g) % players == 0 else "greedy", seed=g * 10 + q)
                for q in range(players)]
        while not s.is_over:
            for p in s.to_move():
                if p not in s.to_move():
                    continue
                bot = bots[p]
                n = len(s.legal_actions(p))
                t = time.process_time()
                a = bot.act(s, p) if hasattr(bot, "act") else bot.choose(s, p)
                dt = time.process_time() - t
                if n > 1 and (p + g) % players == 0:
                    cpu.append(dt)
                    iters += getattr(bot, "last_iterations", 0)
                    steps += getattr(bot, "last_steps", 0)
                s.apply(p, a)
    total = sum(cpu)
    return {"kind": "cost", "game": game.id, "players": players, "spec": spec,
            "games": games, "moves": len(cpu),
            "median_cpu_seconds": statistics.median(cpu) if cpu else None,
            "iterations_per_cpu_second": iters / total if total else None,
            "steps_per_iteration": steps / iters if iters else None,
            "cpu_us_per_step": 1e6 * total / steps if steps else None}


def root_loss(game: Game, players: int, spec: str, positions: int, wide: int, seed: int
              ) -> dict[str, Any]:
    """How far ``spec``'s move falls below the one-step lookahead's best (what ``greedy``
    plays) on ``positions`` positions offering more than ``wide`` moves, reached by
    ``greedy`` playing every seat: the mean rank of the move played in the lookahead's
    order (0 = greedy's move) and the mean loss in the player's own estimate one step
    ahead. Needs this checkout (``for_player``, ``act``, ``cove.bots.evaluate``)."""
    from cove.bots.evaluate import lookahead, values_fn

    ranks: list[int] = []
    losses: list[float] = []
    g = seed
    while len(ranks) < positions:
        s = game.new(players, seed=g, log=False)
        g += 1
        k = 0
        while not s.is_over and len(ranks) < positions:
            p = s.to_move()[0]
            acts = s.legal_actions(p)
            if len(acts) > wide:
                view = s.for_player(p, Rng(k))
                rated = lookahead(view, p, acts, values_fn(view), Rng(g * 1000 + k))
                order = sorted(range(len(acts)), key=lambda i: rated[i], reverse=True)
                played = acts.index(make_bot(spec, k).choose(view, p))
                ranks.append(order.index(played))
                losses.append(rated[order[0]][1] - rated[played][1])
            s.apply(p, make_bot("greedy", k).act(s, p))
            k += 1
    return {"kind": "root-loss", "game": game.id, "players": players, "spec": spec,
            "wide": wide, "positions": positions, "mean_rank": statistics.mean(ranks),
            "mean_loss": statistics.mean(losses), "max_loss": max(losses)}


def openspiel_hearts(moves: int, simulations: int) -> dict[str, Any] | None:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       solve=False, random_state=np.random.RandomState(1))
    rs = np.random.RandomState(2)
    secs = 0.0
    measured = 0
    while measured < moves:
        s = game.new_initial_state()
        while not s.is_terminal() and measured < moves:
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rs.randint(len(outcomes))][0])
                continue
            legal = s.legal_actions()
            if len(legal) > 1 and s.current_player() == 0:
                t = time.perf_counter()
                action = bot.step(s)
                secs += time.perf_counter() - t
                measured += 1
            else:
                action = legal[rs.randint(len(legal))]
            s.apply_action(action)
    return {"kind": "hearts", "simulations": simulations, "moves": moves,
            "iterations_per_second": simulations * moves / secs,
            "seconds_per_move": secs / moves}


def report(rows: list[dict[str, Any]]) -> str:
    out: list[str] = []
    order = [f"{a}-{b}" for a, b, _ in PAIRINGS]
    pair = [r for r in rows if r["kind"] == "pairing"]
    games_seen = list(dict.fromkeys(r["game"] for r in pair))
    pair.sort(key=lambda r: (games_seen.index(r["game"]), order.index(f"{r['a']}-{r['b']}")
                             if f"{r['a']}-{r['b']}" in order else len(order)))
    if pair:
        out += _strength(pair, rows)
    speed = [r for r in rows if r["kind"] == "speed"]
    if speed:
        out.append("Search speed on fixed positions (iterations per CPU second)")
        for r in speed:
            out.append(f"{r['game']:<18} {r['players']}p  {r['spec']:<34} "
                       f"{r['positions']:>4} positions  {r['iterations_per_cpu_second']:>7.0f}")
    cost = [r for r in rows if r["kind"] == "cost"]
    if cost:
        out.append("In-game CPU cost against greedy (moves with a choice)")
        out.append(f"{'game':<18} {'spec':<34} {'moves':>5}  {'median s':>8}  {'iter/s':>6}  "
                   f"{'steps/iter':>10}  {'us/step':>7}")
        for r in cost:
            if not r["moves"]:
                continue
            out.append(f"{r['game']:<18} {r['spec']:<34} {r['moves']:>5}  "
                       f"{r['median_cpu_seconds']:>8.3f}  {r['iterations_per_cpu_second']:>6.0f}  "
                       f"{r['steps_per_iteration']:>10.1f}  {r['cpu_us_per_step']:>7.0f}")
    loss = [r for r in rows if r["kind"] == "root-loss"]
    if loss:
        out.append("Moves played where the lookahead would play otherwise (positions with "
                   "more than --wide moves)")
        for r in loss:
            out.append(f"{r['game']:<18} {r['spec']:<34} {r['positions']:>3} positions >"
                       f"{r['wide']} moves: mean rank {r['mean_rank']:.2f}, mean one-step "
                       f"loss {r['mean_loss']:.2f} (max {r['max_loss']:.2f})")
    hearts = [r for r in rows if r["kind"] == "hearts"]
    if hearts:
        h = hearts[-1]
        out.append(f"{'OpenSpiel hearts':<18} {h['moves']:>6}  {h['seconds_per_move']:>8.3f}  "
                   f"{'':>6}  {h['iterations_per_second']:>7.0f}  "
                   f"(Python MCTSBot, {h['simulations']} simulations/move, random rollouts "
                   "to the end, true state)")
    skipped = [r for r in rows if r["kind"] == "hearts-skipped"]
    if skipped and not hearts:
        out.append("OpenSpiel hearts: skipped, pyspiel is not installed "
                   "(pip install -e '.[bench]')")
    return "\n".join(out)


def _strength(pair: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[str]:
    """The strength table and the speed table of the default ``mcts`` from its games."""
    out: list[str] = []
    out.append("Strength (seats rotated; win % of the first bot, 95% Wilson interval)")
    out.append(f"{'game':<18} {'players':>7}  {'pairing':<17} {'games':>5}  {'win %':>6}  "
               f"{'95% CI':>13}  {'target':>8}  {'met':>3}  {'mean scores':>13}")
    for r in pair:
        n = r["players"]
        tgt = (f">1/{n} CI" if n > 2 else ">50% CI") if r["target"] is None \
            else f">={100 * r['target']:.0f}%"
        label = r["a"] + " vs " + (f"{n - 1} " if n > 2 else "") + r["b"]
        ci = f"[{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}]"
        sc = f"{r['mean_score_a']:.1f} / {r['mean_score_b']:.1f}"
        out.append(f"{r['game']:<18} {r['players']:>7}  {label:<17} "
                   f"{r['games']:>5}  {100 * r['win_rate']:>6.1f}  {ci:>13}  {tgt:>8}  "
                   f"{'yes' if r['met'] else 'NO':>3}  {sc:>13}")
    out.append("")
    out.append("MCTS speed at the default budget (moves with a choice, from the games above)")
    out.append(f"{'game':<18} {'moves':>6}  {'median s':>8}  {'p95 s':>6}  {'iter/s':>7}  "
               f"{'iter/s depth=-1':>15}")
    games = list(dict.fromkeys(r["game"] for r in pair))
    depth0 = {r["game"]: r for r in rows if r["kind"] == "rollout"}
    for g in games:
        mine = [r for r in pair if r["game"] == g and r["a"] == "mcts"]
        ts = [t for r in mine for t in r["mcts_move_times"]]
        it = sum(r["mcts_iterations"] for r in mine)
        sec = sum(r["mcts_search_seconds"] for r in mine)
        d0r = depth0.get(g, {})
        d0 = d0r.get("iterations_per_second_to_end", d0r.get("iterations_per_second_depth0"))
        if not ts:
            continue
        out.append(f"{g:<18} {len(ts):>6}  {statistics.median(ts):>8.3f}  "
                   f"{quantile(ts, 0.95):>6.3f}  {it / sec if sec else 0:>7.0f}  "
                   f"{'-' if d0 is None else str(round(d0)):>15}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="game id (repeatable; default: all)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-games", type=int, default=60)
    ap.add_argument("--step", type=int, default=40)
    ap.add_argument("--max-games", type=int, default=400)
    ap.add_argument("--half-width", type=float, default=0.07)
    ap.add_argument("--pairing", action="append",
                    help="only these of the standard pairings, e.g. mcts-random (repeatable); "
                    "'none' for none")
    ap.add_argument("--pair", action="append", default=[],
                    help="an extra pairing A/B[/TARGET] (repeatable), e.g. hard/mcts/0.55; "
                    "without TARGET the whole interval must be above the fair share")
    ap.add_argument("--players", type=int, default=0,
                    help="players per game (default: the game's smallest multi-player "
                    "count); at 3+ the first bot plays against players-1 copies of the second")
    ap.add_argument("--speed", metavar="SPEC",
                    help="only time SPEC's iterations per CPU second on --positions fixed "
                    "positions per game (for before/after comparisons)")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--cost", metavar="SPEC",
                    help="only measure SPEC's CPU seconds per move, iterations per CPU second, "
                    "forward-model calls per iteration and CPU microseconds per call in "
                    "--cost-games games against greedy (runs against older checkouts too)")
    ap.add_argument("--cost-games", type=int, default=2)
    ap.add_argument("--root-loss", metavar="SPEC", action="append",
                    help="only measure how far SPEC's moves fall below the one-step "
                    "lookahead's best in --positions positions with more than --wide moves "
                    "(repeatable)")
    ap.add_argument("--wide", type=int, default=50)
    ap.add_argument("--rollout-moves", type=int, default=20,
                    help="positions for the depth=-1 speed figure (0: skip)")
    ap.add_argument("--hearts-moves", type=int, default=20,
                    help="OpenSpiel hearts moves to time (0: skip)")
    ap.add_argument("--hearts-simulations", type=int, default=200)
    ap.add_argument("--out", help="append each row as a JSON line to this file")
    ap.add_argument("--report", help="print the tables of a file written with --out")
    args = ap.parse_args()

    if args.report:
        with open(args.report) as f:
            print(report([json.loads(line) for line in f if line.strip()]))
        return 0

    rows: list[dict[str, Any]] = []

    def keep(row: dict[str, Any]) -> None:
        rows.append(row)
        if args.out:
            with open(args.out, "a") as f:
                f.write(json.dumps(row) + "\n")

    extra: list[tuple[str, str, float | None]] = []
    for text in args.pair:
        parts = text.split("/")
        if len(parts) not in (2, 3):
            ap.error(f"--pair {text!r}: give A/B or A/B/TARGET, e.g. hard/mcts/0.55")
        extra.append((parts[0], parts[1], float(parts[2]) if len(parts) == 3 else None))
    ids = args.game or cove.ids()
    for gid in ids:
        game = cove.load(gid)
        players = args.players or max(2, game.min_players)
        if args.speed:
            keep(search_speed(game, players, args.speed, args.positions, args.seed))
            continue
        if args.root_loss:
            for spec in args.root_loss:
                keep(root_loss(game, players, spec, args.positions, args.wide, 500))
            continue
        if args.cost:
            keep(search_cost(game, players, args.cost, args.cost_games, 100 * args.seed))
            continue
        for a, b, target in [*PAIRINGS, *extra]:
            if (a, b, target) in PAIRINGS and args.pairing and f"{a}-{b}" not in args.pairing:
                continue
            if players > 2 and (a, b, target) in PAIRINGS:
                target = None if b != "random" else target
            keep(run_pairing(game, players, a, b, target, args))
        if args.rollout_moves:
            keep(full_rollout_speed(game, players, args.rollout_moves))
    if args.hearts_moves and not (args.speed or args.cost or args.root_loss):
        h = openspiel_hearts(args.hearts_moves, args.hearts_simulations)
        keep(h if h is not None else {"kind": "hearts-skipped"})
    print(report(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
