"""``cove arena``: bots against bots with seats rotated, win rates, intervals and ratings.

Seating. The bot specs are entries; with fewer entries than seats the list is repeated
in order to fill the table (``mcts,random`` at 4 players seats mcts, random, mcts, random),
and a bot holding two seats is scored per seat, so its win rate stays comparable with
the 1/players of an even game. Game ``g`` shifts the seating by ``g`` places, so over a
multiple of ``players`` games every entry sits in every seat equally often. With more
entries than seats (``mcts,greedy,random`` at 2 players) each game seats a window of
consecutive entries that slides one place per game and is reversed every second lap, so
over a multiple of 2 * entries games every entry sits in every seat equally often and
every neighbouring pair meets in both orders.

Scoring. A game's winners share one win (a tie among k winners gives each 1/k). The win
rate is an entry's total win share over the seats it held; its 95% interval is Wilson's.
The rating is a Bradley-Terry fit on the Elo scale (400 * log10 of the strength ratio;
the entries' mean is 1500) from every pair of seats held by different entries in every
game, where the better-placed seat wins the pair (winners first, then the higher score;
equal places are a draw, counted half each way). One virtual draw between every pair
of entries keeps the fit finite when a bot never loses. The fit does not depend on the
order of the games.

Seeds. Game ``g`` is seeded from (seed, g) and each seat's bot from (game seed, seat),
exactly as ``cove simulate`` does, so a run gives the same numbers serially or across
worker processes (``jobs``); only the timing figures vary.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from cove.bots import BotSpecError, make_bot, split_specs
from cove.core.game import Game
from cove.games import REGISTRY, load
from cove.lab.runner import (
    Chunk,
    GameResult,
    chunk_size,
    chunks,
    make_backend,
    run_chunks,
    seating,
)
from cove.lab.simulate import manifest
from cove.lab.stats import quantile, wilson

Progress = Callable[[int, int], None]

MAX_DECISIONS = 1_000_000


def _arena_json(index: int, players: int, n_specs: int, r: GameResult) -> dict[str, Any]:
    out = r.to_json()
    out["index"] = index
    out["entries"] = seating(n_specs, players, index)
    return out


def run_arena(
    game_id: str,
    players: int,
    bots: list[str],
    games: int,
    seed: int,
    options: dict[str, str],
    progress: Progress | None = None,
    jobs: int = 1,
    backend: str = "serial",
    address: str | None = None,
) -> dict[str, Any]:
    """Play ``games`` seeded games between the bot specs, seats rotated; see the module doc.

    Returns a JSON-ready dict: ``game``, ``players``, ``games``, ``seed``, ``options``,
    ``bots`` (per entry: ``spec``, ``win_rate``, ``ci_low``, ``ci_high``, ``mean_score``,
    ``rating``, ``wins``, ``seats_played``, ``move_seconds`` median/p95/mean over decisions
    with a choice, ``iterations_per_second`` for searching bots), ``ties``,
    ``mean_decisions``, ``seconds``.
    """
    game = load(game_id)
    opts = dict(options)
    probe = game.new(players, seed, log=False, **opts)  # checks players and options
    specs = split_specs(bots)  # heals "mcts:iterations=9,c=1" split naively on commas
    if not specs:
        raise BotSpecError("--bots needs at least one bot spec, e.g. mcts,greedy,random")
    for spec in specs:
        make_bot(spec)
    if games < 1:
        raise BotSpecError(f"an arena needs at least 1 game, got {games}")
    if jobs < 1:
        raise BotSpecError(f"an arena needs at least 1 job, got {jobs}")
    start = time.perf_counter()
    results = play_games(game, players, specs, seed, opts, range(games), jobs, progress,
                         backend, address)
    seconds = time.perf_counter() - start
    out = summarize(game.id, players, seed, probe.options.to_dict(), specs, results)
    out["seconds"] = seconds
    out["interrupted"] = len(results) < games
    out["jobs"] = jobs
    out["backend"] = backend
    out["manifest"] = manifest(game, players, seed, out["options"], specs)
    return out


def play_games(
    game: Game,
    players: int,
    specs: list[str],
    seed: int,
    options: dict[str, Any],
    indices: Sequence[int],
    jobs: int = 1,
    progress: Progress | None = None,
    backend: str = "serial",
    address: str | None = None,
) -> list[dict[str, Any]]:
    """Per-game results of games ``indices`` of a run (in that order); any split of a
    run's indices into calls, and any backend, gives the same games as one call. Ctrl-C
    stops the run: the games finished so far are returned (none: KeyboardInterrupt)."""
    results: list[dict[str, Any]] = []
    total = len(indices)
    runner = make_backend(backend, jobs, address)
    size = 1 if runner.workers <= 1 else chunk_size(total, runner.workers, cap=10)
    work = (Chunk(REGISTRY[game.id], players, seed, tuple(specs), "rotate",
                  tuple(sorted(options.items())), True, tuple(part), trace=False)
            for part in chunks(indices, size))
    try:
        for g, r in run_chunks(runner, work):
            results.append(_arena_json(g, players, len(specs), r))
            if progress:
                progress(len(results), total)
    except KeyboardInterrupt:
        if not results:
            raise
    finally:
        runner.close()
    return results


def summarize(
    game_id: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    specs: list[str],
    results: list[dict[str, Any]],
) -> dict[str, Any]:
    """Per-entry statistics and ratings from the per-game results (in game order)."""
    k = len(specs)
    labels = _labels(specs)
    wins = [0.0] * k
    seats_played = [0] * k
    score_sum = [0.0] * k
    times: list[list[float]] = [[] for _ in range(k)]
    iters = [0] * k
    search = [0.0] * k
    pair_wins = [[0.0] * k for _ in range(k)]
    ties = 0
    for r in results:
        seats = r["entries"]
        winners = r["winners"]
        if len(winners) > 1:
            ties += 1
        share = win_shares(winners, players)
        for p, e in enumerate(seats):
            wins[e] += share[p]
            seats_played[e] += 1
            score_sum[e] += r["scores"][p]
            times[e].extend(r["times"][p])
            iters[e] += r["iterations"][p]
            search[e] += r["search_time"][p]
        for a, b, x in pair_results(seats, share, r["scores"]):
            pair_wins[a][b] += x
            pair_wins[b][a] += 1.0 - x
    ratings = bradley_terry(pair_wins)
    bots = []
    for e in range(k):
        n = seats_played[e]
        lo, hi = wilson(wins[e], n)
        entry: dict[str, Any] = {
            "spec": specs[e],
            "label": labels[e],
            "win_rate": wins[e] / n if n else 0.0,
            "ci_low": lo,
            "ci_high": hi,
            "mean_score": score_sum[e] / n if n else 0.0,
            "rating": round(ratings[e], 1),
            "wins": wins[e],
            "seats_played": n,
            "move_seconds": _time_stats(times[e]),
        }
        if search[e] > 0:
            entry["iterations_per_second"] = iters[e] / search[e]
        bots.append(entry)
    n_games = len(results)
    return {
        "game": game_id,
        "players": players,
        "games": n_games,
        "seed": seed,
        "options": options,
        "bots": bots,
        "ties": ties,
        "mean_decisions": sum(r["decisions"] for r in results) / n_games if n_games else 0.0,
    }


def win_shares(winners: Sequence[int], players: int) -> list[float]:
    """Each seat's share of a game's one win (a tie among k winners gives each 1/k)."""
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(players)]


def pair_results(seats: Sequence[int], share: Sequence[float],
                 scores: Sequence[float]) -> Iterator[tuple[int, int, float]]:
    """(a, b, a's result) for every pair of seats held by different entries ``a`` and
    ``b`` in one game: 1 when a's seat placed better (more win share, then the higher
    score), 0 when worse, 0.5 for equal places."""
    players = len(seats)
    for p in range(players):
        for q in range(p + 1, players):
            a, b = seats[p], seats[q]
            if a == b:
                continue
            place_p, place_q = (share[p], scores[p]), (share[q], scores[q])
            yield a, b, 1.0 if place_p > place_q else 0.0 if place_q > place_p else 0.5


def _labels(specs: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s} #{seen[s]}")
    return out


def _time_stats(ts: list[float]) -> dict[str, Any]:
    if not ts:
        return {"moves": 0, "median": None, "p95": None, "mean": None}
    s = sorted(ts)
    return {
        "moves": len(s),
        "median": quantile(s, 0.5),
        "p95": quantile(s, 0.95),
        "mean": sum(s) / len(s),
    }


def bradley_terry(pair_wins: list[list[float]], prior: float = 1.0,
                  rounds: int = 500) -> list[float]:
    """Elo-scale ratings (mean 1500) from ``pair_wins[i][j]`` = i's wins over j.

    Minorization-maximization (Hunter 2004) with ``prior`` virtual draws per pair.
    """
    k = len(pair_wins)
    if k == 1:
        return [1500.0]
    w = [[pair_wins[i][j] + (prior / 2 if i != j else 0.0) for j in range(k)] for i in range(k)]
    games = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    total = [sum(row) for row in w]
    gamma = [1.0] * k
    for _ in range(rounds):
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i)
            new.append(total[i] / denom if denom > 0 else gamma[i])
        mean_log = sum(math.log(g) for g in new) / k
        new = [g / math.exp(mean_log) for g in new]
        change = max(abs(a - b) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < 1e-12:
            break
    return [1500.0 + 400.0 * math.log10(g) for g in gamma]


def format_arena(result: dict[str, Any]) -> str:
    """The human table of a :func:`run_arena` result."""
    lines = [
        f"arena {result['game']}: {result['players']} players, {result['games']} games, "
        f"seed {result['seed']}, seats rotated"
    ]
    if result.get("interrupted"):
        lines.insert(0, f"Interrupted: the figures below are from the {result['games']} "
                        "games played")
    rows = sorted(result["bots"], key=lambda b: -b["rating"])
    width = max([len("bot")] + [len(b["label"]) for b in rows])
    lines.append(
        f"{'bot':<{width}}  {'win %':>6}  {'95% CI':>13}  {'mean score':>10}  {'rating':>6}"
        f"  {'s/move median':>13}  {'p95':>6}"
    )
    for b in rows:
        ms = b["move_seconds"]
        med = "-" if ms["median"] is None else f"{ms['median']:.3f}"
        p95 = "-" if ms["p95"] is None else f"{ms['p95']:.3f}"
        ci = f"[{100 * b['ci_low']:.1f}, {100 * b['ci_high']:.1f}]"
        lines.append(
            f"{b['label']:<{width}}  {100 * b['win_rate']:>6.1f}  {ci:>13}  "
            f"{b['mean_score']:>10.2f}  {b['rating']:>6.0f}  {med:>13}  {p95:>6}"
        )
    even = 100.0 / result["players"]
    extra = f"ties: {result['ties']} games; an even seat wins {even:.1f}%"
    if "seconds" in result:
        extra += f"; {result['seconds']:.1f} s"
    lines.append(extra)
    return "\n".join(lines)
