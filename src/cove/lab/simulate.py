"""The simulation runner: many seeded games between bots, and per-seat statistics.

Every game ``i`` of a run is seeded from (seed, i) alone and each seat's bot from
(seed, i, seat), so a run's results do not depend on timing, on the order games finish
in, or on how many worker processes play them.
"""

from __future__ import annotations

import importlib
import itertools
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cove.bots import make_bot
from cove.core.game import Game
from cove.core.rng import Rng
from cove.core.state import State
from cove.games import REGISTRY, load
from cove.lab.stats import mean_ci, wilson

Progress = Callable[[int, int], None]
T = TypeVar("T")
R = TypeVar("R")


def chunks(indices: Iterable[int], size: int) -> Iterator[list[int]]:
    """``indices`` in lists of ``size`` (the last may be shorter), made lazily."""
    it = iter(indices)
    while part := list(itertools.islice(it, size)):
        yield part


def ordered_map(func: Callable[[T], R], tasks: Iterable[T], jobs: int,
                window: int | None = None) -> Iterator[R]:
    """``map(func, tasks)`` over ``jobs`` spawned worker processes, results in task order.

    Tasks are taken from the iterable only as workers need them (at most ``window``, by
    default ``4 * jobs``, are queued or running), so a run of 10**8 games never builds its
    task list up front; ``Pool.imap`` would drain the iterable at once."""
    import multiprocessing as mp

    window = max(1, window or 4 * jobs)
    it = iter(tasks)
    with mp.get_context("spawn").Pool(jobs) as pool:
        pending: deque[Any] = deque()
        for task in itertools.islice(it, window):
            pending.append(pool.apply_async(func, (task,)))
        while pending:
            result = pending.popleft().get()
            for task in itertools.islice(it, 1):
                pending.append(pool.apply_async(func, (task,)))
            yield result


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed``."""
    r = Rng(seed)
    r.state ^= (index * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    return r.next64() & ((1 << 63) - 1)


@dataclass(frozen=True)
class GameResult:
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    decisions: int
    stats: tuple[tuple[str, float | str], ...] = ()


def play_game(
    game: Game,
    players: int,
    seed: int,
    bot_specs: Sequence[str],
    options: Mapping[str, Any],
    max_decisions: int = 1_000_000,
) -> tuple[GameResult, State]:
    """Play one game between bots; returns its result and final state."""
    state = game.new(players, seed, log=False, **options)
    bots = [make_bot(bot_specs[p], seed=game_seed(seed, 1000 + p)) for p in range(players)]
    while True:
        movers = state.to_move()
        if not movers:
            break
        for p in movers:
            if p in state.to_move():
                state.apply(p, bots[p].act(state, p))
        if state.decisions > max_decisions:
            raise RuntimeError(
                f"{game.id}: game seeded {seed} did not end in {max_decisions} moves"
            )
    return (
        GameResult(
            scores=tuple(state.scores()),
            winners=state.winners(),
            decisions=state.decisions,
            stats=tuple(sorted(state.stats().items())),
        ),
        state,
    )


@dataclass
class SimResult:
    game: str
    players: int
    games: int
    seed: int
    options: dict[str, Any]
    bots: list[str]
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    def wins(self) -> list[float]:
        """Wins per seat; a tie among k winners gives each 1/k."""
        w = [0.0] * self.players
        for r in self.results:
            for p in r.winners:
                w[p] += 1.0 / len(r.winners)
        return w

    def to_json(self) -> dict[str, Any]:
        n = len(self.results)
        wins = self.wins()
        per_seat = []
        for p in range(self.players):
            sc = [r.scores[p] for r in self.results]
            lo, hi = wilson(wins[p], n)
            per_seat.append(
                {
                    "seat": p + 1,
                    "bot": self.bots[p],
                    "wins": wins[p],
                    "win_rate": wins[p] / n if n else 0.0,
                    "win_ci": [lo, hi],
                    "mean_score": sum(sc) / n if n else 0.0,
                    "min_score": min(sc) if sc else 0.0,
                    "max_score": max(sc) if sc else 0.0,
                }
            )
        decisions = [float(r.decisions) for r in self.results]
        margins = [_margin(r.scores) for r in self.results if len(r.scores) > 1]
        out: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "games": n,
            "seed": self.seed,
            "options": self.options,
            "bots": self.bots,
            "wins": wins,
            "mean_scores": [s["mean_score"] for s in per_seat],
            "mean_decisions": sum(decisions) / n if n else 0.0,
            "seconds": self.seconds,
            "games_per_second": n / self.seconds if self.seconds > 0 else None,
            "seats": per_seat,
            "ties": sum(1 for r in self.results if len(r.winners) > 1),
            "mean_margin": sum(margins) / len(margins) if margins else None,
            "stats": self.stats_summary(),
        }
        return out

    def stats_summary(self) -> dict[str, dict[str, Any]]:
        """The games' own figures: numbers as mean (95% CI), min, max; texts as counts."""
        numbers: dict[str, list[float]] = {}
        texts: dict[str, dict[str, int]] = {}
        for r in self.results:
            for key, value in r.stats:
                if isinstance(value, str):
                    bucket = texts.setdefault(key, {})
                    bucket[value] = bucket.get(value, 0) + 1
                else:
                    numbers.setdefault(key, []).append(float(value))
        out: dict[str, dict[str, Any]] = {}
        for key, vals in numbers.items():
            m, lo, hi = mean_ci(vals)
            out[key] = {"mean": m, "ci": [lo, hi], "min": min(vals), "max": max(vals)}
        for key, counts in texts.items():
            out[key] = {"counts": dict(sorted(counts.items(), key=lambda kv: -kv[1]))}
        return out


def _margin(scores: Sequence[float]) -> float:
    """Score gap between the first and second place of one game."""
    top = sorted(scores, reverse=True)
    return top[0] - top[1]


# (module holding GAME, players, run seed, bot specs, options, game indices)
_Chunk = tuple[str, int, int, list[str], dict[str, Any], list[int]]


def _play_range(args: _Chunk) -> list[GameResult]:
    module, players, seed, bots, options, indices = args
    game: Game = importlib.import_module(module).GAME
    return [play_game(game, players, game_seed(seed, i), bots, options)[0] for i in indices]


def simulate(
    game_id: str,
    players: int,
    games: int,
    seed: int = 0,
    bots: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
) -> SimResult:
    """Play ``games`` seeded games; identical arguments give identical results."""
    game = load(game_id)
    opts = dict(options or {})
    # validate players, options and bot specs once, up front, with clear errors
    probe = game.new(players, seed, log=False, **opts)
    specs = _bot_list(bots, players)
    for spec in specs:
        make_bot(spec)
    sim = SimResult(game.id, players, games, seed, probe.options.to_dict(), specs)
    start = time.perf_counter()
    if jobs <= 1 or games < 2 * jobs:
        for i in range(games):
            sim.results.append(play_game(game, players, game_seed(seed, i), specs, opts)[0])
            if progress:
                progress(i + 1, games)
    else:
        chunk = max(1, min(50, games // (jobs * 4)))
        module = REGISTRY[game.id]
        tasks = ((module, players, seed, specs, opts, part)
                 for part in chunks(range(games), chunk))
        for results in ordered_map(_play_range, tasks, jobs):
            sim.results.extend(results)
            if progress:
                progress(len(sim.results), games)
    sim.seconds = time.perf_counter() - start
    return sim


def _bot_list(bots: Sequence[str] | None, players: int) -> list[str]:
    from cove.bots import BotSpecError

    specs = list(bots or ["random"])
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise BotSpecError(
            f"--bots needs 1 spec (used for every seat) or {players} specs (one per seat), "
            f"got {len(specs)}: {','.join(specs)}"
        )
    return specs
