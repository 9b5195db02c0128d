"""``cove tune``: find the value of a DESIGN option that hits a target figure.

    cove tune <game> --param <option>=10:30 --target "median rounds=14" --bots greedy

Every value tried plays the same seeded games (common random numbers), so the curve of
the figure against the value is not blurred by the luck of the deal. A coarse pass over
at most ``points`` evenly spaced values finds the closest one; a second pass tries every
value between its neighbours. The target is ``[mean|median|p5|p95] FIGURE=VALUE``, where
FIGURE is ``decisions``, ``margin``, ``safety`` (the share of games a safety cut-off
ended) or any numeric figure of the game's own statistics (``rounds``, ``turns``...).
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cove.core.data import ENV_DIR, load_data
from cove.core.errors import OptionError
from cove.games import load
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


@dataclass(frozen=True)
class Goal:
    """One target of several: ``[STAT] FIGURE (=|<=|>=) VALUE[~SCALE]``."""

    target: Target
    relation: str = "="
    scale: float = 0.0
    """What a miss of 1 loss unit is; 0: ``max(|value|, 1)``."""

    @property
    def unit(self) -> float:
        return self.scale or max(abs(self.target.value), 1.0)

    def miss(self, measured: float) -> float:
        """How far ``measured`` misses the goal, in loss units (0: met)."""
        value = self.target.value
        gap = {"=": abs(measured - value), "<=": max(0.0, measured - value),
               ">=": max(0.0, value - measured)}[self.relation]
        return gap / self.unit

    def __str__(self) -> str:
        t = self.target
        scale = f"~{self.scale:g}" if self.scale else ""
        return f"{t.stat} {t.figure}{self.relation}{t.value:g}{scale}"


def parse_goal(text: str) -> Goal:
    """``median rounds=14``, ``balance<=3``, ``mean safety<=0.05``, ``rounds=14~2``."""
    m = re.fullmatch(r"\s*(?:(mean|median|p5|p95)\s+)?([A-Za-z_][\w ]*?)\s*(<=|>=|=)\s*"
                     r"(-?\d+(?:\.\d+)?)\s*(?:~\s*(\d+(?:\.\d+)?))?\s*", text)
    if not m:
        raise OptionError(f"--target {text!r}: write it as '[STAT] FIGURE=VALUE' (or <=, >=; "
                          f"STAT one of {', '.join(STATS)}; optionally ~SCALE, the miss "
                          "that counts as 1), e.g. 'median rounds=14', 'balance<=3'")
    scale = float(m.group(5)) if m.group(5) else 0.0
    if m.group(5) and scale == 0:
        raise OptionError(f"--target {text!r}: the scale after ~ must be above 0")
    target = Target(m.group(1) or "mean", m.group(2).strip(), float(m.group(4)))
    return Goal(target, m.group(3), scale)


def parse_target(text: str) -> Target:
    """One target for the grid search: ``[STAT] FIGURE=VALUE`` (:func:`parse_goal`'s
    grammar without ``<=``, ``>=`` or a scale, which only NTBEA's loss reads)."""
    goal = parse_goal(text)
    if goal.relation != "=" or goal.scale:
        raise OptionError(f"--target {text!r}: the grid search takes '[STAT] FIGURE=VALUE'; "
                          "<=, >= and ~SCALE need --method ntbea")
    return goal.target


def parse_range(text: str) -> tuple[str, int, int]:
    m = re.fullmatch(r"\s*([A-Za-z_]\w*(?:\.\w+)*)\s*=\s*(-?\d+)\s*:\s*(-?\d+)\s*", text)
    if not m or int(m.group(2)) > int(m.group(3)):
        raise OptionError(f"--param {text!r}: write it as NAME=LOW:HIGH with whole numbers, "
                          "LOW <= HIGH, e.g. goal=10:30 (an option) or setup.gold=0:6 (a "
                          "field of the game's data file)")
    return m.group(1), int(m.group(2)), int(m.group(3))


# -- data-file fields ------------------------------------------------------------------------
DATA_OPTION = "data_file"
"""The option through which a game takes another data file, if it has one; a game with it
can have any whole-number field of its data file tuned."""


def is_data_field(param: str) -> bool:
    """``setup.gold``, ``colours.0.count``: a field of the data file, not an option."""
    return "." in param


def set_field(data: Any, path: str, value: int) -> None:
    """Set the whole-number field at ``path`` (keys and list indexes joined by dots) in
    parsed data; OptionError naming the part that does not exist or is not a number."""
    parts = path.split(".")
    node = data
    for depth, part in enumerate(parts):
        where = ".".join(parts[:depth + 1])
        last = depth == len(parts) - 1
        if isinstance(node, dict):
            if part not in node:
                raise OptionError(f"--param {path}: the data file has no {where!r} (there: "
                                  f"{', '.join(sorted(node)) or 'nothing'})")
            if last:
                if type(node[part]) is not int:
                    raise OptionError(f"--param {path}: {where!r} is not a whole number")
                node[part] = value
            else:
                node = node[part]
        elif isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise OptionError(f"--param {path}: {where!r} needs a list index from 0 to "
                                  f"{len(node) - 1}")
            if last:
                if type(node[int(part)]) is not int:
                    raise OptionError(f"--param {path}: {where!r} is not a whole number")
                node[int(part)] = value
            else:
                node = node[int(part)]
        else:
            raise OptionError(f"--param {path}: {'.'.join(parts[:depth])!r} holds no fields")


class DataVariants:
    """Copies of a game's data file with some fields changed, written as JSON into a fresh
    directory that is allowed for data files (``COVE_DATA_DIR``, which worker processes
    inherit) while the search runs. On a Ray cluster every node needs that directory: give
    a shared one with ``--data-dir`` instead (not done here)."""

    def __init__(self, game_id: str, fields: Sequence[str], options: Mapping[str, Any]
                 ) -> None:
        game = load(game_id)
        known = {o["name"] for o in game.describe()["options"]}
        if DATA_OPTION not in known:
            raise OptionError(f"--param {fields[0]}: {game_id} takes no other data file (no "
                              f"{DATA_OPTION} option), so only its options can be tuned: "
                              f"{', '.join(sorted(known)) or 'none'}")
        base = options.get(DATA_OPTION) or str(default_data_file(game_id))
        self.base = load_data(base)
        self.fields = list(fields)
        self.dir = Path(tempfile.mkdtemp(prefix="cove-tune-"))
        self._saved = os.environ.get(ENV_DIR)
        os.environ[ENV_DIR] = os.pathsep.join(p for p in (self._saved, str(self.dir)) if p)
        self.stem = Path(base).stem

    def option(self, values: Mapping[str, int]) -> dict[str, Any]:
        """The option naming the data file with each field of ``values`` at its value."""
        data = json.loads(json.dumps(self.base))  # a fresh copy of the parsed file
        for path in self.fields:
            set_field(data, path, values[path])
        named = "-".join(f"{path}-{values[path]}" for path in self.fields)
        out = self.dir / f"{self.stem}-{named}.json"
        out.write_text(json.dumps(data), encoding="utf-8")
        return {DATA_OPTION: str(out)}

    def close(self) -> None:
        if self._saved is None:
            os.environ.pop(ENV_DIR, None)
        else:
            os.environ[ENV_DIR] = self._saved
        shutil.rmtree(self.dir, ignore_errors=True)


def default_data_file(game_id: str) -> Path:
    """The built-in data file: ``<package>.toml`` beside the game's rules."""
    package = importlib.import_module(load(game_id).state_cls.__module__.rpartition(".")[0])
    name = package.__name__.rpartition(".")[2]
    return Path(package.__file__ or ".").with_name(f"{name}.toml")


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
    variants = DataVariants(game_id, [param], options or {}) if is_data_field(param) else None

    def setting(value: int) -> dict[str, Any]:
        return variants.option({param: value}) if variants is not None else {param: value}

    coarse = grid(low, high, points)
    step = coarse[1] - coarse[0] if len(coarse) > 1 else 1
    planned = [len(coarse) + 2 * (step - 1)]

    def at(value: int) -> None:
        if value not in out.curve:
            before = len(out.curve) * games

            def step_done(done: int, _total: int) -> None:
                if progress:
                    progress(before + done, planned[0] * games)

            sim = run(game_id, players, games, seed, bots, {**(options or {}), **setting(value)},
                      progress=step_done, **backend)
            if sim.interrupted:  # part of the seeds: not comparable with the other values
                out.interrupted = True
                raise KeyboardInterrupt
            out.curve[value] = measure(sim, target)
            if not out.manifest:
                fixed = {k: v for k, v in sim.manifest["options"].items()
                         if k != param and not (variants and k == DATA_OPTION)}
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
    finally:
        if variants is not None:
            variants.close()
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
