"""``cove tune``: find the value of a DESIGN option that hits a target figure.

    cove tune high-water --param goal=10:30 --target "median rounds=14" --bots greedy

Every value tried plays the same seeded games (common random numbers), so the curve of
the figure against the value is not blurred by the luck of the deal. A coarse pass over
at most ``points`` evenly spaced values finds the closest one; a second pass tries every
value between its neighbours. The target is ``[mean|median|p5|p95] FIGURE=VALUE``, where
FIGURE is ``decisions``, ``margin``, ``safety`` (the share of games a safety cut-off
ended) or any numeric figure of the game's own statistics (``rounds``, ``turns``...).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cove.core.errors import OptionError
from cove.lab.simulate import Progress, SimResult, _margin, simulate
from cove.lab.stats import quantile

STATS = ("mean", "median", "p5", "p95")


@dataclass(frozen=True)
class Target:
    stat: str
    figure: str
    value: float

    def __str__(self) -> str:
        return f"{self.stat} {self.figure}={self.value:g}"


def parse_target(text: str) -> Target:
    m = re.fullmatch(r"\s*(?:(mean|median|p5|p95)\s+)?([A-Za-z_][\w ]*?)\s*=\s*(-?[\d.]+)\s*",
                     text)
    if not m:
        raise OptionError(f"--target {text!r}: write it as '[mean|median|p5|p95] FIGURE=VALUE', "
                          "e.g. 'median rounds=14'")
    try:
        value = float(m.group(3))
    except ValueError as e:
        raise OptionError(f"--target {text!r}: {m.group(3)!r} is not a number") from e
    return Target(m.group(1) or "mean", m.group(2).strip(), value)


def parse_range(text: str) -> tuple[str, int, int]:
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*=\s*(-?\d+)\s*:\s*(-?\d+)\s*", text)
    if not m or int(m.group(2)) > int(m.group(3)):
        raise OptionError(f"--param {text!r}: write it as NAME=LOW:HIGH with whole numbers, "
                          "LOW <= HIGH, e.g. goal=10:30")
    return m.group(1), int(m.group(2)), int(m.group(3))


def figure_values(sim: SimResult, figure: str) -> list[float]:
    """One value of ``figure`` per game of a run."""
    if figure == "decisions":
        return [float(r.decisions) for r in sim.results]
    if figure == "margin":
        return [_margin(r.scores) for r in sim.results if len(r.scores) > 1]
    if figure == "safety":
        return [1.0 if dict(r.stats).get("end") in sim.safety_ends else 0.0
                for r in sim.results]
    out = [float(v) for r in sim.results for k, v in r.stats
           if k == figure and not isinstance(v, str)]
    if not out:
        names = sorted({k for r in sim.results for k, v in r.stats if not isinstance(v, str)})
        raise OptionError(f"unknown figure {figure!r}; this game has decisions, margin, "
                          f"safety, {', '.join(names)}")
    return out


def measure(sim: SimResult, target: Target) -> float:
    vals = sorted(figure_values(sim, target.figure))
    if target.stat == "mean":
        return sum(vals) / len(vals)
    q = {"median": 0.5, "p5": 0.05, "p95": 0.95}[target.stat]
    return quantile(vals, q)


@dataclass
class TuneResult:
    game: str
    param: str
    target: Target
    curve: dict[int, float] = field(default_factory=dict)
    interrupted: bool = False
    """Ctrl-C stopped the search: the curve holds the values measured in full."""
    manifest: dict[str, Any] = field(default_factory=dict)
    """The runs' manifest; ``options`` holds every option but ``param``, the searched one."""

    @property
    def best(self) -> int:
        return min(self.curve, key=lambda v: (abs(self.curve[v] - self.target.value), v))

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "param": self.param, "target": str(self.target),
                "best": self.best, "best_value": self.curve[self.best],
                "curve": {str(k): v for k, v in sorted(self.curve.items())},
                "interrupted": self.interrupted, "manifest": self.manifest}


def tune(game_id: str, players: int, param: str, low: int, high: int, target: Target,
         games: int, seed: int = 0, bots: Sequence[str] | None = None,
         options: Mapping[str, Any] | None = None, points: int = 7,
         run: Callable[..., SimResult] = simulate, progress: Progress | None = None,
         **backend: Any) -> TuneResult:
    """Search ``param`` in [low, high] for the value whose figure is closest to target.
    ``progress(games done, games planned)`` counts games over all values (the second
    pass's share is planned at its largest, so the total can shrink at the end). Ctrl-C
    stops the search with the values measured so far (``interrupted``; none:
    KeyboardInterrupt)."""
    out = TuneResult(game_id, param, target)
    coarse = grid(low, high, points)
    step = coarse[1] - coarse[0] if len(coarse) > 1 else 1
    planned = [len(coarse) + 2 * (step - 1)]

    def at(value: int) -> None:
        if value not in out.curve:
            before = len(out.curve) * games

            def step_done(done: int, _total: int) -> None:
                if progress:
                    progress(before + done, planned[0] * games)

            sim = run(game_id, players, games, seed, bots, {**(options or {}), param: value},
                      progress=step_done, **backend)
            if sim.interrupted:  # part of the seeds: not comparable with the other values
                out.interrupted = True
                raise KeyboardInterrupt
            out.curve[value] = measure(sim, target)
            if not out.manifest:
                fixed = {k: v for k, v in sim.manifest["options"].items() if k != param}
                out.manifest = {**sim.manifest, "options": fixed, "param": param,
                                "range": [low, high], "games": games}

    try:
        for v in coarse:
            at(v)
        best = out.best
        near = range(max(low, best - step + 1), min(high, best + step - 1) + 1)
        planned[0] = len(out.curve) + sum(v not in out.curve for v in near)
        for v in near:
            at(v)
        if progress:
            progress(len(out.curve) * games, len(out.curve) * games)
    except KeyboardInterrupt:
        out.interrupted = True
        if not out.curve:
            raise
    return out


def grid(low: int, high: int, points: int) -> list[int]:
    """At most ``points`` evenly spaced values from ``low`` to ``high``, both included."""
    step = max(1, -(-(high - low) // max(1, points - 1)))
    return sorted({*range(low, high + 1, step), high})


def tune_pair(game_id: str, players: int, first: tuple[str, int, int],
              second: tuple[str, int, int], target: Target, games: int, seed: int = 0,
              bots: Sequence[str] | None = None, options: Mapping[str, Any] | None = None,
              points: int = 7, progress: Progress | None = None,
              **kw: Any) -> tuple[list[TuneResult], bool]:
    """Two parameters: for each of up to ``points`` values of ``second``, the value of
    ``first`` that comes closest to the target (a :func:`tune` each, on the same seeds), so
    the result is the trade-off between them ("with a round cap of 16, a goal of 14").
    Each result's manifest holds its value of ``second`` among the options. Ctrl-C keeps
    the searches finished, and says it was pressed (none finished: KeyboardInterrupt)."""
    name2, low2, high2 = second
    out: list[TuneResult] = []
    values = grid(low2, high2, points)
    for k, v in enumerate(values):

        def step(done: int, total: int, k: int = k) -> None:
            if progress:  # each search's share of the whole, at its planned size
                progress(k * total + done, len(values) * total)

        res = tune(game_id, players, *first, target, games, seed, bots,
                   {**(options or {}), name2: v}, points=points, progress=step, **kw)
        if res.interrupted:
            if not out:
                raise KeyboardInterrupt
            return out, True
        out.append(res)
    return out, False
