"""Comparing rule variants: the same seeded games under each variant, side by side.

Every variant plays games seeded identically (common random numbers), so differences
between variants come from the rules, not from luck of the draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cove.lab.simulate import Progress, simulate


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
) -> dict[str, Any]:
    runs = []
    total = games * len(variants)
    for k, options in enumerate(variants):

        def step(done: int, _total: int, k: int = k) -> None:
            if progress:
                progress(k * games + done, total)

        sim = simulate(game_id, players, games, seed, bots, options, progress=step, jobs=jobs,
                       backend=backend, address=address)
        out = sim.to_json()
        out["variant"] = label(options)
        runs.append(out)
        if sim.interrupted:
            break
    warnings = [f"{r['variant']}: {w}" for r in runs for w in r["warnings"]]
    return {"game": game_id, "players": players, "games": games, "seed": seed,
            "variants": runs, "warnings": warnings,
            "manifest": {k: v for k, v in runs[0]["manifest"].items() if k != "options"}}


def label(options: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in options.items()) or "(defaults)"


def format_compare(result: dict[str, Any]) -> str:
    runs = result["variants"]
    width = max(14, *(len(r["variant"]) + 2 for r in runs))
    lines = [f"{result['game']}: {result['players']} players, {result['games']} games per "
             f"variant, seed {result['seed']} (the same deals under every variant)"]

    def row(name: str, cells: list[str]) -> None:
        lines.append(f"{name:<24}" + "".join(f"{c:>{width}}" for c in cells))

    row("", [r["variant"] for r in runs])
    for p in range(result["players"]):
        row(f"P{p + 1} win %", [f"{100 * r['seats'][p]['win_rate']:.1f} "
                               f"({100 * r['seats'][p]['win_ci'][0]:.0f}-"
                               f"{100 * r['seats'][p]['win_ci'][1]:.0f})" for r in runs])
    for p in range(result["players"]):
        row(f"P{p + 1} mean score", [f"{r['seats'][p]['mean_score']:.2f}" for r in runs])
    row("mean decisions", [f"{r['mean_decisions']:.1f}" for r in runs])
    row("mean winning margin", [f"{r['mean_margin']:.2f}" if r["mean_margin"] is not None
                                else "-" for r in runs])
    row("ties", [str(r["ties"]) for r in runs])
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
    lines += [f"warning: {w}" for w in result.get("warnings", [])]
    return "\n".join(lines)
