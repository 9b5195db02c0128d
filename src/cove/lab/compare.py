"""Comparing rule variants: the same seeded games under each variant, side by side.

Every variant plays games seeded identically (common random numbers), so differences
between variants come from the rules, not from luck of the draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cove.core.text import seat_name
from cove.lab.runner import GameResult
from cove.lab.simulate import Progress, SimResult, simulate
from cove.lab.stats import mean_ci


def game_metrics(r: GameResult) -> dict[str, float]:
    """Per-game figures that two variants can be compared on, game by game."""
    top = sorted(r.scores, reverse=True)
    out = {"decisions": float(r.decisions),
           "winning margin": top[0] - top[1] if len(top) > 1 else 0.0}
    if r.drama is not None:
        out["lead changes"] = float(r.drama.lead_changes)
    for p in range(len(r.scores)):
        out[f"{seat_name(p)} win share"] = 1.0 / len(r.winners) if p in r.winners else 0.0
    for key, value in r.stats:
        if not isinstance(value, str):
            out[key] = float(value)
    return out


def paired(base: SimResult, other: SimResult) -> list[dict[str, Any]]:
    """Per metric: the mean of ``other - base`` over the same seeded games, its 95%
    interval and a plain verdict (games are paired, so the interval is narrow)."""
    rows = []
    a = [game_metrics(r) for r in base.results]
    b = [game_metrics(r) for r in other.results]
    n = min(len(a), len(b))
    for key in a[0] if a else []:
        if not all(key in m for m in b[:n]):
            continue
        diffs = [b[i][key] - a[i][key] for i in range(n)]
        m, lo, hi = mean_ci(diffs)
        if lo > 0:
            verdict = "higher"
        elif hi < 0:
            verdict = "lower"
        else:
            verdict = "no clear difference"
        rows.append({"metric": key, "difference": m, "ci": [lo, hi], "verdict": verdict})
    return rows


def compare(
    game_id: str,
    players: int,
    games: int,
    variants: Sequence[Mapping[str, Any]],
    seed: int = 0,
    bots: Sequence[str] | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
    backend: str = "serial",
    address: str | None = None,
    sims: list[SimResult] | None = None,
    measure: str = "",
) -> dict[str, Any]:
    """Each variant on the same seeded games; ``sims`` (when given) receives the runs."""
    runs = []
    sims = [] if sims is None else sims
    total = games * len(variants)
    for k, options in enumerate(variants):

        def step(done: int, _total: int, k: int = k) -> None:
            if progress:
                progress(k * games + done, total)

        sim = simulate(game_id, players, games, seed, bots, options, progress=step, jobs=jobs,
                       backend=backend, address=address, measure=measure)
        out = sim.to_json()
        out["variant"] = label(options)
        if sims:
            out["paired"] = paired(sims[0], sim)
        sims.append(sim)
        runs.append(out)
        if sim.interrupted:
            break
    warnings = [f"{r['variant']}: {w}" for r in runs for w in r["warnings"]]
    stopped = len(runs) < len(variants) or runs[-1]["games"] < games
    return {"game": game_id, "players": players, "games": games, "seed": seed,
            "variants": runs, "warnings": warnings, "interrupted": stopped,
            "variants_asked": len(variants),
            "manifest": {k: v for k, v in runs[0]["manifest"].items() if k != "options"}}


def label(options: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in options.items()) or "(defaults)"


def format_compare(result: dict[str, Any]) -> str:
    runs = result["variants"]
    width = max(14, *(len(r["variant"]) + 2 for r in runs))
    lines = [f"{result['game']}: {result['players']} players, {result['games']} games per "
             f"variant, seed {result['seed']} (the same deals under every variant)"]
    if result.get("interrupted"):
        lines.insert(0, "Interrupted: " + ", ".join(f"{r['variant']} {r['games']} games"
                                                    for r in runs)
                     + (" (the variants not shown were not played)"
                        if len(runs) < result.get("variants_asked", len(runs)) else ""))

    def row(name: str, cells: list[str]) -> None:
        lines.append(f"{name:<24}" + "".join(f"{c:>{width}}" for c in cells))

    row("", [r["variant"] for r in runs])
    for p in range(result["players"]):
        row(f"{seat_name(p)} win %", [f"{100 * r['seats'][p]['win_rate']:.1f} "
                               f"({100 * r['seats'][p]['win_ci'][0]:.0f}-"
                               f"{100 * r['seats'][p]['win_ci'][1]:.0f})" for r in runs])
    for p in range(result["players"]):
        row(f"{seat_name(p)} mean score", [f"{r['seats'][p]['mean_score']:.2f}" for r in runs])
    row("mean decisions", [f"{r['mean_decisions']:.1f}" for r in runs])
    row("mean winning margin", [f"{r['mean_margin']:.2f}" if r["mean_margin"] is not None
                                else "-" for r in runs])
    row("ties", [str(r["ties"]) for r in runs])
    if any(r.get("drama") and r["drama"]["lead_changes"] for r in runs):
        row("lead changes (mean)", [f"{r['drama']['lead_changes']['mean']:.2f}"
                                    if r.get("drama") and r["drama"]["lead_changes"] else "-"
                                    for r in runs])
    keys: list[str] = []
    for r in runs:
        keys += [k for k in r["stats"] if k not in keys]
    for key in keys:
        numeric = any("mean" in r["stats"].get(key, {}) for r in runs)
        if numeric:
            row(f"{key} (mean)", [f"{r['stats'][key]['mean']:.2f}" if key in r["stats"]
                                  else "-" for r in runs])
            continue
        values: list[str] = []
        for r in runs:
            values += [v for v in r["stats"].get(key, {}).get("counts", {}) if v not in values]
        for v in values:
            row(f"{key}: {v} %"[:23], [
                f"{100 * r['stats'].get(key, {}).get('counts', {}).get(v, 0) / r['games']:.1f}"
                for r in runs])
    base = runs[0]["variant"]
    for r in runs[1:]:
        lines.append(f"{r['variant']} against {base}, game by game (same seeds; 95% CI):")
        for d in r.get("paired", []):
            lo, hi = d["ci"]
            lines.append(f"  {d['metric'][:22]:<22} {d['difference']:+9.3f}  "
                         f"[{lo:+.3f}, {hi:+.3f}]  {d['verdict']}")
    lines += [f"warning: {w}" for w in result.get("warnings", [])]
    return "\n".join(lines)
