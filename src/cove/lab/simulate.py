"""``cove simulate``: many seeded games between bots, and what designers read from them.

Games are played by the lab's one loop (:mod:`cove.lab.runner`) on any backend (serial,
local processes, Ray); game ``i`` of a run is seeded from (seed, i) alone and each seat's
bot from (game seed, seat), so a run's results do not depend on the backend, on the
number of workers or on the order games finish in. ``out`` streams one JSON line per game
after a manifest line, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

from cove.bots import make_bot
from cove.core.errors import RecordError
from cove.core.game import Game
from cove.core.state import State
from cove.games import REGISTRY, load
from cove.lab.runner import (
    Chunk,
    GameResult,
    Processes,
    chunk_size,
    chunks,
    game_seed,
    make_backend,
    run_chunks,
)
from cove.lab.runner import play_game as _play_game
from cove.lab.stats import mean_ci, quantile, wilson

Progress = Callable[[int, int], None]
T = TypeVar("T")
R = TypeVar("R")

__all__ = ["GameResult", "SimResult", "chunks", "game_seed", "manifest", "ordered_map",
           "play_game", "simulate"]

SAFETY_WARN_SHARE = 0.20
"""Warn when safety cut-offs end more than this share of a run's games."""


def ordered_map(func: Callable[[T], R], tasks: Iterable[T], jobs: int,
                window: int | None = None) -> Iterator[R]:
    """``map(func, tasks)`` over ``jobs`` spawned worker processes, results in task order,
    tasks taken only as workers need them (see :class:`cove.lab.runner.Processes`)."""
    return Processes(jobs, window).map(func, tasks)


def play_game(game: Game, players: int, seed: int, bot_specs: Sequence[str],
              options: Mapping[str, Any], max_decisions: int = 1_000_000,
              ) -> tuple[GameResult, State]:
    """Play one game between bots; returns its result and final state."""
    return _play_game(game, players, seed, bot_specs, options, max_decisions=max_decisions)


def manifest(game: Game, players: int, seed: int, options: Mapping[str, Any],
             bots: Sequence[str]) -> dict[str, Any]:
    """What a result depends on: Cove and game versions, git commit when known, the
    configuration, bots and seed. Every JSON output of the lab carries one."""
    import cove

    return {"cove": cove.__version__, "commit": git_commit(), "game": game.id,
            "game_version": game.version, "players": players, "seed": seed,
            "options": dict(options), "bots": list(bots)}


def git_commit() -> str | None:
    """The commit of the Cove checkout this runs from, or None (not a git checkout)."""
    import subprocess

    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                             text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = out.stdout.strip()
    return commit if out.returncode == 0 and len(commit) == 40 else None


_SAME_RUN = ("game", "game_version", "players", "seed", "options", "bots")


def read_results(path: Path, want: Mapping[str, Any]) -> dict[int, GameResult]:
    """The games already in a results file written for the same run (resume).
    RecordError when the file is for another run or is not a results file."""
    done: dict[int, GameResult] = {}
    with path.open(encoding="utf-8") as f:
        first = f.readline()
        try:
            head = json.loads(first)["manifest"]
        except (ValueError, KeyError, TypeError) as e:
            raise RecordError(f"{path}: not a cove results file (its first line must hold "
                              "the run's manifest)") from e
        diff = [k for k in _SAME_RUN if head.get(k) != want.get(k)]
        if diff:
            raise RecordError(
                f"{path} holds another run (it differs in {', '.join(diff)}): give a new "
                "--out file, or the same settings to resume it")
        for n, line in enumerate(f, start=2):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
                done[int(d["index"])] = GameResult.from_json(d)
            except (ValueError, KeyError, TypeError) as e:
                if not line.endswith("\n"):
                    break  # a line cut short by an interruption: play that game again
                raise RecordError(f"{path}:{n}: not a game result line") from e
    return done


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
    safety_ends: tuple[str, ...] = ()
    manifest: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False
    backend: str = "serial"
    workers: int = 1
    played_now: int = 0
    """Games played by this call (a resumed run read the others from its file)."""

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
        fair = 1.0 / self.players
        per_seat = []
        for p in range(self.players):
            sc = [r.scores[p] for r in self.results]
            lo, hi = wilson(wins[p], n)
            rate = wins[p] / n if n else 0.0
            per_seat.append(
                {
                    "seat": p + 1,
                    "bot": self.bots[p],
                    "wins": wins[p],
                    "win_rate": rate,
                    "win_ci": [lo, hi],
                    "advantage": rate - fair,
                    "advantage_ci": [lo - fair, hi - fair],
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
            "games_asked": self.games,
            "interrupted": self.interrupted,
            "seed": self.seed,
            "options": self.options,
            "bots": self.bots,
            "wins": wins,
            "mean_scores": [s["mean_score"] for s in per_seat],
            "mean_decisions": sum(decisions) / n if n else 0.0,
            "seconds": self.seconds,
            "games_per_second": self.played_now / self.seconds if self.seconds > 0 else None,
            "backend": self.backend,
            "workers": self.workers,
            "seats": per_seat,
            "ties": sum(1 for r in self.results if len(r.winners) > 1),
            "mean_margin": sum(margins) / len(margins) if margins else None,
            "length": _spread(decisions),
            "margin": _spread(margins),
            "branching": _branching(self.results),
            "action_kinds": _kinds(self.results),
            "drama": drama_summary(self.results, self.players),
            "stats": self.stats_summary(),
            "warnings": self.warnings(),
            "manifest": self.manifest,
        }
        return out

    def safety_share(self) -> tuple[float, list[str]]:
        """The share of games a safety cut-off ended, and which cut-offs did."""
        if not self.results or not self.safety_ends:
            return 0.0, []
        ended = [dict(r.stats).get("end") for r in self.results]
        hit = sorted({e for e in ended if e in self.safety_ends}, key=str)
        share = sum(1 for e in ended if e in self.safety_ends) / len(self.results)
        return share, [str(h) for h in hit]

    def warnings(self) -> list[str]:
        """Plain-words warnings about what the figures measure."""
        out = []
        share, which = self.safety_share()
        if share > SAFETY_WARN_SHARE:
            weak = all(b.split(":")[0] == "random" for b in self.bots)
            out.append(
                f"{100 * share:.0f}% of games ended by a safety cut-off ({', '.join(which)}): "
                "this measures the safety cut-off, not the game: "
                + ("try --bots greedy or mcts" if weak else "try stronger bots (mcts) or a "
                   "variant whose own ends come first"))
        if self.interrupted:
            out.append(f"interrupted: {len(self.results)} of {self.games} games were played")
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


def _spread(values: Sequence[float]) -> dict[str, Any] | None:
    """Mean with its 95% interval, and the 5th, 50th and 95th percentiles."""
    if not values:
        return None
    s = sorted(values)
    m, lo, hi = mean_ci(s)
    return {"mean": m, "ci": [lo, hi], "p5": quantile(s, 0.05), "median": quantile(s, 0.5),
            "p95": quantile(s, 0.95)}


NO_TRACE = ("the scores did not change before the last move in any game: this game shows "
            "no running score (state.scores() during play), so lead changes and drama "
            "cannot be measured")


def drama_summary(results: Sequence[GameResult], players: int) -> dict[str, Any] | None:
    """Lead changes and how late games were decided (see :class:`cove.lab.runner.Drama`),
    with 95% intervals; None for a solo game. When no game showed a running score the
    figures are None and ``note`` says why."""
    traced = [r.drama for r in results if r.drama is not None]
    if players < 2 or not traced:
        return None
    running = sum(1 for d in traced if d.score_moves > 0)
    out: dict[str, Any] = {"games": len(traced), "running_score_share": running / len(traced),
                           "note": None if running else NO_TRACE}
    if not running:
        return {**out, "lead_changes": None, "decided_at": None, "halftime_leader_lost": None}
    out["lead_changes"] = _spread([float(d.lead_changes) for d in traced])
    out["decided_at"] = _spread([d.decided_at for d in traced if d.decided_at >= 0])
    led = [d.halftime_leader_lost for d in traced if d.halftime_leader_lost >= 0]
    lo, hi = wilson(sum(led), len(led))
    out["halftime_leader_lost"] = {"share": sum(led) / len(led) if led else None,
                                   "ci": [lo, hi], "games": len(led)}
    return out


def drama_lines(out: Mapping[str, Any]) -> list[str]:
    """``simulate``'s text lines for the drama figures of its JSON output ``out``."""
    d = out.get("drama")
    if not d:
        return []
    if d["note"]:
        return [f"drama: {d['note']}"]
    lc, at, half = d["lead_changes"], d["decided_at"], d["halftime_leader_lost"]
    line = (f"drama: lead changes mean {lc['mean']:.2f} (95% CI {lc['ci'][0]:.2f}-"
            f"{lc['ci'][1]:.2f}), median {lc['median']:g}, 95th percentile {lc['p95']:g}")
    if at:
        line += (f"; the winner took the lead for good after {100 * at['median']:.0f}% of the "
                 f"moves (median)")
    if half["share"] is not None:
        line += (f"; the half-way leader lost {100 * half['share']:.0f}% "
                 f"({100 * half['ci'][0]:.0f}-{100 * half['ci'][1]:.0f}%) of "
                 f"{half['games']} games")
    lines = [line]
    if d["running_score_share"] < 1:
        lines.append(f"drama: only {100 * d['running_score_share']:.0f}% of games showed a "
                     "score change before the last move; the others count as no lead change")
    return lines


def _branching(results: Sequence[GameResult]) -> float | None:
    """Mean legal actions at decisions that had a choice."""
    choices = sum(r.choices for r in results)
    return sum(r.options_offered for r in results) / choices if choices else None


def _kinds(results: Sequence[GameResult]) -> dict[str, float]:
    """How often each kind of action was chosen, as a share of all decisions."""
    counts: dict[str, int] = {}
    for r in results:
        for k, c in r.kinds:
            counts[k] = counts.get(k, 0) + c
    total = sum(counts.values())
    return {k: c / total for k, c in sorted(counts.items(), key=lambda kv: -kv[1])} if total \
        else {}


def simulate(
    game_id: str,
    players: int,
    games: int,
    seed: int = 0,
    bots: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
    backend: str = "serial",
    address: str | None = None,
    out: str | Path | None = None,
    measure: str = "",
) -> SimResult:
    """Play ``games`` seeded games; identical arguments give identical results on every
    backend. ``out`` streams each game to a JSON-lines file and resumes a run already
    in it. ``measure`` names an evaluator that judges every game for the balance measures
    (:mod:`cove.lab.measures`). Ctrl-C stops cleanly: the result holds the games played
    (``interrupted``)."""
    game = load(game_id)
    opts = dict(options or {})
    # validate players, options, bot specs and the backend once, up front
    probe = game.new(players, seed, log=False, **opts)
    specs = _bot_list(bots, players)
    for spec in specs:
        make_bot(spec)
    if measure:
        from cove.lab.evaluation import make_judge

        make_judge(measure)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, got {games!r}")
    runner = make_backend(backend, jobs, address)
    sim = SimResult(game.id, players, games, seed, probe.options.to_dict(), specs,
                    safety_ends=game.safety_ends, backend=runner.name, workers=runner.workers)
    sim.manifest = manifest(game, players, seed, sim.options, specs)
    done: dict[int, GameResult] = {}
    sink: IO[str] | None = None
    try:
        if out is not None:
            path = Path(out)
            if path.exists() and path.stat().st_size > 0:
                done = read_results(path, sim.manifest)
                sink = path.open("a", encoding="utf-8")
            else:
                sink = path.open("w", encoding="utf-8")
                sink.write(json.dumps({"manifest": sim.manifest}) + "\n")
        todo = (i for i in range(games) if i not in done)
        size = 1 if runner.workers <= 1 else chunk_size(games - len(done), runner.workers)
        work = (Chunk(REGISTRY[game.id], players, seed, tuple(specs), "fixed",
                      tuple(sorted(opts.items())), False, tuple(part), measure=measure)
                for part in chunks(todo, size))
        start = time.perf_counter()
        if progress and done:
            progress(min(len(done), games), games)
        try:
            for i, r in run_chunks(runner, work):
                done[i] = r
                sim.played_now += 1
                if sink is not None:
                    sink.write(json.dumps({"index": i, "seed": game_seed(seed, i),
                                           **r.to_json()}) + "\n")
                    sink.flush()
                if progress:
                    progress(len(done), games)
        except KeyboardInterrupt:
            sim.interrupted = True
        sim.seconds = time.perf_counter() - start
    finally:
        runner.close()
        if sink is not None:
            sink.close()
    sim.results = [done[i] for i in sorted(done) if i < games]
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
