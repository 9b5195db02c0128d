"""``cove tune`` toward several targets at once, over several parameters: NTBEA.

    cove tune GAME -p 3 --param goal=10:30 --param max_rounds=12:24 \\
        --target "median rounds=14" --target "balance<=3" --target "safety<=0"

The N-Tuple Bandit Evolutionary Algorithm (Lucas, Liu and Perez-Liebana, 2018), as TAG
uses it to tune games: a noisy search over a grid of parameter values that spends few
evaluations, each a short batch of simulated games.

- **The grid.** Each ``--param NAME=LOW:HIGH`` takes at most ``points`` evenly spaced
  values (every whole number when the range is that short).
- **The loss** of a batch of games is the sum over the targets of how far each measured
  figure misses its target, in the target's own scale: ``|m - v| / s`` for ``FIGURE=V``,
  ``max(0, m - v) / s`` for ``FIGURE<=V`` and ``max(0, v - m) / s`` for ``FIGURE>=V``,
  where ``s`` is the tolerance written after ``~`` (``median rounds=14~2``: two rounds off
  cost 1) or else ``max(|v|, 1)``. A loss of 0 meets every target.
- **The model** keeps, for every 1-tuple (one parameter's value), every 2-tuple (when
  there are three parameters or more) and the whole point, the number of evaluations
  and their mean loss. A point's estimate is the mean of its tuples' means (a tuple
  never evaluated counts at the mean of all evaluations), its exploration bonus the
  mean over its tuples of ``sqrt(ln(N + 1) / (n + 0.5))``.
- **A run** starts at a random point; each step evaluates the current point once, then
  moves to the best of ``neighbours`` random neighbours (each changes one parameter, a
  second with probability one half) by estimate minus ``explore`` times the bonus times
  the spread of the losses seen so far (their standard deviation: the bonus is in the
  losses' own scale, whatever the targets).
  After its evaluations a run proposes the evaluated point with the lowest estimate,
  and the one whose own evaluations averaged lowest when that is another point.
- **Runs and confirmation**, as TAG advises: the budget is split into ``runs`` short
  runs from different random starts (one long run can settle on a false optimum that
  noise made look good); then every distinct proposal plays ``confirm`` games on the
  same seeds, and the lowest confirmed loss wins.

Every evaluation plays fresh seeds (the bandit averages the noise out); the confirmation
plays common seeds, so its comparison is not blurred by the luck of the deal.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cove.core.errors import OptionError
from cove.lab.simulate import Progress, SimResult, simulate
from cove.lab.tune import (
    DATA_OPTION,
    DataVariants,
    Goal,
    grid,
    is_data_field,
    measure,
    parse_goal,
)

Point = tuple[int, ...]

def measure_goal(sim: SimResult, goal: Goal) -> float:
    """The figure a goal reads from a batch of games. Beside ``cove tune``'s figures,
    ``balance``: the gap in points between the seat that won most and the one that won
    least (win shares in percent; always the batch's value, whatever the STAT)."""
    if goal.target.figure == "balance":
        wins = sim.wins()
        games = max(1, len(sim.results))
        return 100.0 * (max(wins) - min(wins)) / games
    return measure(sim, goal.target)


def loss(sim: SimResult, goals: Sequence[Goal]) -> float:
    return sum(goal.miss(measure_goal(sim, goal)) for goal in goals)


# -- the search -------------------------------------------------------------------------------
@dataclass
class Model:
    """The n-tuple statistics of the evaluations so far (see the module's text)."""

    dims: int
    tuples: list[tuple[int, ...]] = field(default_factory=list)
    counts: dict[tuple[int, Point], int] = field(default_factory=dict)
    sums: dict[tuple[int, Point], float] = field(default_factory=dict)
    total: int = 0
    grand: float = 0.0

    def __post_init__(self) -> None:
        d = self.dims
        self.tuples = [(i,) for i in range(d)]
        if d >= 3:
            self.tuples += list(itertools.combinations(range(d), 2))
        if d >= 2:
            self.tuples.append(tuple(range(d)))

    def keys(self, point: Point) -> list[tuple[int, Point]]:
        return [(k, tuple(point[i] for i in t)) for k, t in enumerate(self.tuples)]

    def add(self, point: Point, value: float) -> None:
        for key in self.keys(point):
            self.counts[key] = self.counts.get(key, 0) + 1
            self.sums[key] = self.sums.get(key, 0.0) + value
        self.total += 1
        self.grand += value

    def estimate(self, point: Point) -> float:
        """The point's estimated loss: its tuples' mean losses, averaged."""
        mean_all = self.grand / self.total if self.total else 0.0
        keys = self.keys(point)
        return sum(self.sums[k] / self.counts[k] if k in self.counts else mean_all
                   for k in keys) / len(keys)

    def bonus(self, point: Point) -> float:
        log_n = math.log(self.total + 1)
        keys = self.keys(point)
        return sum(math.sqrt(log_n / (self.counts.get(k, 0) + 0.5)) for k in keys) / len(keys)


def neighbour(point: Point, sizes: Sequence[int], rng: random.Random) -> Point:
    """``point`` with one parameter moved to another value, and a second one with
    probability one half (when there is a second)."""
    out = list(point)
    movable = [i for i, n in enumerate(sizes) if n > 1]
    if not movable:
        return point
    changes = 2 if len(movable) > 1 and rng.random() < 0.5 else 1
    for i in rng.sample(movable, changes):
        out[i] = rng.choice([v for v in range(sizes[i]) if v != point[i]])
    return tuple(out)


def search(evaluate: Callable[[Point], float], sizes: Sequence[int], evaluations: int,
           rng: random.Random, explore: float = 1.0,
           neighbours: int = 50) -> tuple[Point, Model, list[tuple[Point, float]]]:
    """One NTBEA run over the grid of ``sizes`` values per parameter (points as value
    indices): its recommended point, its model and every evaluation in order."""
    model = Model(len(sizes))
    point: Point = tuple(rng.randrange(n) for n in sizes)
    history: list[tuple[Point, float]] = []
    for _ in range(evaluations):
        value = evaluate(point)
        model.add(point, value)
        history.append((point, value))
        weight = explore * (statistics.pstdev(v for _, v in history) or 1.0)
        options = {neighbour(point, sizes, rng) for _ in range(neighbours)}
        point = min(sorted(options), key=lambda p: model.estimate(p) - weight * model.bonus(p))
    seen = sorted({p for p, _ in history})
    return min(seen, key=model.estimate), model, history


def proposals(model: Model, history: Sequence[tuple[Point, float]]) -> list[Point]:
    """A run's picks for confirmation: the evaluated point the model rates best, and
    the one whose own evaluations averaged lowest (the model's average over tuples can
    hide a point a few evaluations found exact; one lucky evaluation can flatter a
    point's own mean: the confirmation settles it)."""
    seen = sorted({p for p, _ in history})
    whole = len(model.tuples) - 1
    by_model = min(seen, key=model.estimate)
    by_own = min(seen, key=lambda p: model.sums[whole, p] / model.counts[whole, p])
    return [by_model] if by_own == by_model else [by_model, by_own]


# -- tuning the game ---------------------------------------------------------------------------
@dataclass
class Candidate:
    """A proposed setting and what its confirmation run measured."""

    setting: dict[str, int]
    loss: float
    figures: dict[str, float]
    runs: int = 1
    """How many runs proposed it."""

    def to_json(self) -> dict[str, Any]:
        return {"setting": self.setting, "loss": self.loss, "figures": self.figures,
                "runs": self.runs}


@dataclass
class NtbeaResult:
    game: str
    params: list[tuple[str, list[int]]]
    goals: list[Goal]
    candidates: list[Candidate] = field(default_factory=list)
    """The runs' proposals, lowest confirmed loss first."""
    evaluations: list[dict[str, Any]] = field(default_factory=list)
    manifest: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "method": "ntbea",
                "params": {name: values for name, values in self.params},
                "targets": [str(g) for g in self.goals],
                "best": self.best.to_json() if self.candidates else None,
                "candidates": [c.to_json() for c in self.candidates],
                "evaluations": self.evaluations, "manifest": self.manifest,
                "interrupted": self.interrupted}


def tune_goals(game_id: str, players: int, ranges: Sequence[tuple[str, int, int]],
               goals: Sequence[Goal], games: int, seed: int = 0,
               bots: Sequence[str] | None = None, options: Mapping[str, Any] | None = None,
               points: int = 7, evaluations: int = 60, runs: int = 3, confirm: int = 0,
               explore: float = 1.0, run: Callable[..., SimResult] = simulate,
               progress: Progress | None = None, **backend: Any) -> NtbeaResult:
    """NTBEA over ``ranges`` toward ``goals``: ``evaluations`` batches of ``games`` games
    in all, split over ``runs`` runs, then each run's proposals confirmed on
    ``confirm`` games (0: ten batches' worth) on common seeds. Ctrl-C stops the search;
    the proposals of the runs finished are still confirmed (none finished:
    KeyboardInterrupt)."""
    if not goals:
        raise OptionError("give at least one --target")
    names = [name for name, _, _ in ranges]
    if len(set(names)) < len(names):
        raise OptionError(f"--param: each parameter once, not {', '.join(names)}")
    values = [grid(low, high, points) for _, low, high in ranges]
    fields = [n for n in names if is_data_field(n)]
    variants = DataVariants(game_id, fields, options or {}) if fields else None
    confirm = confirm or 10 * games
    out = NtbeaResult(game_id, [(n, v) for n, v in zip(names, values, strict=True)],
                      list(goals))
    per_run = [evaluations // runs + (r < evaluations % runs) for r in range(runs)]
    planned = evaluations * games + 2 * runs * confirm  # at most two proposals a run
    done = [0]

    def setting(point: Point) -> dict[str, int]:
        return {n: values[i][v] for i, (n, v) in enumerate(zip(names, point, strict=True))}

    def play(chosen: dict[str, int], batch_seed: int, n: int) -> SimResult:
        opts = {k: v for k, v in chosen.items() if not is_data_field(k)}
        if variants is not None:
            opts |= variants.option({k: v for k, v in chosen.items() if is_data_field(k)})
        before = done[0]

        def step(d: int, _total: int) -> None:
            if progress:
                progress(before + d, planned)

        sim = run(game_id, players, n, batch_seed, bots, {**(options or {}), **opts},
                  progress=step, **backend)
        if sim.interrupted:
            raise KeyboardInterrupt
        done[0] = before + n
        if not out.manifest:
            fixed = {k: v for k, v in sim.manifest["options"].items()
                     if k not in chosen and not (variants and k == DATA_OPTION)}
            out.manifest = {**sim.manifest, "options": fixed, "games": games}
        return sim

    batch = itertools.count()

    def evaluate(point: Point) -> float:
        chosen = setting(point)
        b = next(batch)
        sim = play(chosen, seed + 1_000_003 * (b + 1), games)
        value = loss(sim, goals)
        out.evaluations.append({"setting": chosen, "loss": value})
        return value

    rng = random.Random(seed)
    picks: dict[Point, int] = {}
    try:
        try:
            for evals in per_run:
                if evals:
                    _, model, history = search(evaluate, [len(v) for v in values], evals,
                                               random.Random(rng.getrandbits(64)), explore)
                    for pick in proposals(model, history):
                        picks[pick] = picks.get(pick, 0) + 1
        except KeyboardInterrupt:
            out.interrupted = True
            if not picks:
                raise
        for point, count in picks.items():
            chosen = setting(point)
            sim = play(chosen, seed, confirm)
            figures = {str(g): measure_goal(sim, g) for g in goals}
            out.candidates.append(Candidate(chosen, loss(sim, goals), figures, count))
    except KeyboardInterrupt:
        out.interrupted = True
        if not out.candidates:
            raise
    finally:
        if variants is not None:
            variants.close()
    out.candidates.sort(key=lambda c: (c.loss, -c.runs, sorted(c.setting.items())))
    if progress:
        progress(planned, planned)
    return out


__all__ = ["Goal", "Model", "NtbeaResult", "neighbour", "parse_goal", "proposals", "search",
           "tune_goals"]
