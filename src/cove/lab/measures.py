"""The balance measures of a run, each with a 95% interval (docs/METRICS.md defines them).

Every figure here is computed from what the runner keeps per game (:class:`GameResult`,
with the evaluator's pass, :class:`cove.lab.evaluation.Measured`, for the measures that
need one) and carries its interval and how it was made:

- ``wilson``: a proportion of games (or of seats in games), Wilson score interval;
- ``bootstrap``: a mean or a ratio over games, percentile bootstrap over games with a
  seeded ``random.Random`` (the same run gives the same interval).

The groups follow Ludii's evaluation metrics (outcome, duration, complexity, state
evaluation) and TAG's game metrics; kingmaking, the per-component effect and luck against
skill are Cove's. :func:`stands_out` reads the figures and says in a few lines what a
designer should look at first.
"""

from __future__ import annotations

import math
import random
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import resources
from typing import Any

from cove.core.data import is_data_option, load_data
from cove.core.game import Game
from cove.games import REGISTRY, load
from cove.lab.evaluation import Measured
from cove.lab.runner import Chunk, GameResult, chunk_size, chunks, make_backend, run_chunks
from cove.lab.simulate import SimResult
from cove.lab.stats import Z95, wilson

BOOT = 1000
"""Bootstrap resamples (fewer for very large runs: at most about 2 million draws)."""
SAFETY_SHARE = 0.05
"""A safety end over this share of games stands out."""
MIN_TAKERS = 20
"""A component stands out only when at least this many seat-games took it."""

Figure = dict[str, Any]


def figure(key: str, name: str, value: float | None, ci: tuple[float, float] | None,
           method: str, n: int, group: str, unit: str = "") -> Figure:
    """One measure: its value, 95% interval, how the interval was made, the games."""
    return {"key": key, "name": name, "value": value,
            "ci": None if ci is None else [ci[0], ci[1]], "method": method, "games": n,
            "group": group, "unit": unit}


def boot_ci(rows: Sequence[Any], stat: Callable[[Sequence[Any]], float | None],
            seed: int = 0, resamples: int = BOOT) -> tuple[float, float] | None:
    """Percentile bootstrap 95% interval of ``stat`` over games (``rows``, one per
    game), resampled with a seeded generator; None without rows."""
    n = len(rows)
    if n == 0:
        return None
    b = max(100, min(resamples, 2_000_000 // n))
    rng = random.Random(seed)
    stats = sorted(v for _ in range(b) if (v := stat(rng.choices(rows, k=n))) is not None)
    if not stats:
        return None
    lo = stats[int(0.025 * (len(stats) - 1))]
    hi = stats[math.ceil(0.975 * (len(stats) - 1))]
    return lo, hi


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def ratio(pairs: Sequence[tuple[float, float]]) -> float | None:
    """Sum of numerators over sum of denominators (a pooled rate over games)."""
    den = sum(d for _, d in pairs)
    return sum(a for a, _ in pairs) / den if den else None


def boot_figure(key: str, name: str, rows: Sequence[Any],
                stat: Callable[[Sequence[Any]], float | None], group: str, seed: int,
                unit: str = "") -> Figure:
    return figure(key, name, stat(rows) if rows else None, boot_ci(rows, stat, seed),
                  "bootstrap", len(rows), group, unit)


def share_figure(key: str, name: str, hits: float, n: int, group: str) -> Figure:
    return figure(key, name, hits / n if n else None, wilson(hits, n) if n else None,
                  "wilson", n, group, "share")


# -- per game ---------------------------------------------------------------------------------
def win_shares(r: GameResult) -> list[float]:
    """Each seat's share of the win (1/k for each of k tied winners)."""
    out = [0.0] * len(r.scores)
    for w in r.winners:
        out[w] = 1.0 / len(r.winners)
    return out


def normalised(m: Measured) -> list[tuple[int, list[float]]]:
    """The evaluator's values of a game scaled to [0, 1] by the smallest and largest
    value any player had in it (all 0.5 when they never differ)."""
    flat = [v for _, vals in m.points for v in vals]
    lo, hi = min(flat), max(flat)
    span = hi - lo
    return [(d, [(v - lo) / span if span > 0 else 0.5 for v in vals]) for d, vals in m.points]


def sole_leader(vals: Sequence[float]) -> int | None:
    top = max(vals)
    first = [p for p, v in enumerate(vals) if v == top]
    return first[0] if len(first) == 1 else None


def lead_change(m: Measured) -> float | None:
    """Share of consecutive samples at which the sole leader became another player."""
    if len(m.points) < 2:
        return None
    changes, last = 0, None
    for _, vals in m.points:
        lead = sole_leader(vals)
        if lead is not None:
            changes += last is not None and lead != last
            last = lead
    return changes / (len(m.points) - 1)


def stability(m: Measured) -> float:
    """Mean over players of the variance of their normalised value over the game."""
    pts = [vals for _, vals in normalised(m)]
    out = 0.0
    for p in range(len(pts[0])):
        xs = [v[p] for v in pts]
        mu = sum(xs) / len(xs)
        out += sum((x - mu) ** 2 for x in xs) / len(xs)
    return out / len(pts[0])


def decisiveness(m: Measured, winners: Sequence[int], decisions: int) -> float | None:
    """Share of the game's moves played after the winner's normalised value first rose
    above the highest any eventual loser ever reached (0: not before the end)."""
    if not winners or decisions <= 0:
        return None
    pts = normalised(m)
    losers = [p for p in range(len(pts[0][1])) if p not in winners]
    if not losers:
        return None
    bar = max(vals[p] for _, vals in pts for p in losers)
    for d, vals in pts:
        if max(vals[w] for w in winners) > bar:
            return (decisions - d) / decisions
    return 0.0


def uncertainty(m: Measured) -> float | None:
    """Mean over the samples before the end of 1 - (top normalised value - second)."""
    pts = [vals for _, vals in normalised(m)][:-1]
    if not pts or len(pts[0]) < 2:
        return None
    out = 0.0
    for vals in pts:
        top = sorted(vals, reverse=True)
        out += 1.0 - (top[0] - top[1])
    return out / len(pts)


def evaluator_drama(m: Measured, winners: Sequence[int]) -> float | None:
    """Mean over the samples before the end of how far (normalised) the eventual winner
    trailed the leader; 0 where it led."""
    if not winners:
        return None
    pts = [vals for _, vals in normalised(m)][:-1]
    if not pts:
        return None
    return sum(max(vals) - max(vals[w] for w in winners) for vals in pts) / len(pts)


def clarity_variance(m: Measured) -> float | None:
    """Mean variance of the mover's values over its moves, in units of the game's
    evaluation range squared."""
    if not m.clarity:
        return None
    flat = [v for _, vals in m.points for v in vals]
    span = max(flat) - min(flat)
    if span <= 0:
        return 0.0
    return sum(v for _, v in m.clarity) / len(m.clarity) / (span * span)


# -- the run ------------------------------------------------------------------------------------
def measures(results: Sequence[GameResult], players: int, safety_ends: Sequence[str] = (),
             action_space: int | None = None, seed: int = 0) -> list[Figure]:
    """Every measure of a run (see the module's text and docs/METRICS.md)."""
    n = len(results)
    out: list[Figure] = []
    shares = [win_shares(r) for r in results]
    fair = 1.0 / players
    ended = [dict(r.stats).get("end") for r in results]
    safety = [e in safety_ends for e in ended]
    # outcome
    for p in range(players):
        won = sum(s[p] for s in shares)
        f = share_figure(f"win_p{p + 1}", f"P{p + 1} wins", won, n, "outcome")
        f["fair"] = fair
        out.append(f)
    if players > 1:
        def balance(rows: Sequence[list[float]]) -> float:
            w = [sum(s[p] for s in rows) / len(rows) for p in range(players)]
            return 1.0 - (max(w) - min(w))

        def uniformity(rows: Sequence[list[float]]) -> float:
            total = 0.0
            for p in range(players):
                xs = [s[p] for s in rows]
                mu = sum(xs) / len(xs)
                total += sum((x - mu) ** 2 for x in xs) / len(xs)
            return 1.0 - total / players

        out.append(boot_figure("balance", "balance", shares, balance, "outcome", seed))
        out.append(boot_figure("outcome_uniformity", "outcome uniformity", shares,
                               uniformity, "outcome", seed))
    sole = sum(1 for r, s in zip(results, safety, strict=True) if len(r.winners) == 1 and not s)
    out.append(share_figure("completion", "completion", sole, n, "outcome"))
    draws = sum(1 for r, s in zip(results, safety, strict=True) if len(r.winners) != 1 and not s)
    out.append(share_figure("drawishness", "drawishness", draws, n, "outcome"))
    out.append(share_figure("safety_ends", "safety ends (timeouts)", sum(safety), n,
                            "outcome"))
    # duration
    out.append(boot_figure("decisions", "decisions per game", [float(r.decisions) for r in results],
                           mean, "duration", seed, "decisions"))
    measured = [(r, r.measured) for r in results if r.measured is not None]
    if measured:
        out.append(boot_figure("rounds", "rounds per game", [float(m.rounds) for _, m in measured],
                               mean, "duration", seed, "rounds"))
    # complexity
    rows = [(float(r.choices), float(r.decisions), float(r.options_offered)) for r in results]
    out.append(boot_figure("decision_moves", "decision moves", rows,
                           lambda rs: ratio([(c, d) for c, d, _ in rs]), "complexity", seed,
                           "share"))
    out.append(boot_figure("branching", "branching factor", rows,
                           lambda rs: ratio([(o + d - c, d) for c, d, o in rs]),
                           "complexity", seed, "moves"))
    out.append(boot_figure("decision_factor", "decision factor", rows,
                           lambda rs: ratio([(o, c) for c, _, o in rs]), "complexity", seed,
                           "moves"))
    if action_space:
        size = float(action_space)
        out.append(boot_figure("action_space_share", "action space legal per decision", rows,
                               lambda rs: (lambda b: None if b is None else b / size)(
                                   ratio([(o + d - c, d) for c, d, o in rs])),
                               "complexity", seed, "share"))
    if measured:
        hidden = [m.hidden for _, m in measured if m.hidden >= 0]
        if hidden:
            out.append(boot_figure("hidden_share", "hidden share of the state", hidden, mean,
                                   "complexity", seed, "share"))
        timing = [(m.rules_seconds, m.rules_seconds + m.agent_seconds) for _, m in measured]
        out.append(boot_figure("rules_time", "time in the rules", timing, ratio, "complexity",
                               seed, "share"))
    # state evaluation
    if measured and players > 1:
        out.extend(evaluated(measured, players, seed))
    return out


def evaluated(measured: Sequence[tuple[GameResult, Measured]], players: int,
              seed: int) -> list[Figure]:
    """The measures that need the evaluator's view of who is ahead."""
    out: list[Figure] = []
    group = "state evaluation"

    def per_game(key: str, name: str, fn: Callable[[GameResult, Measured], float | None],
                 unit: str = "") -> None:
        vals = [v for r, m in measured if (v := fn(r, m)) is not None]
        out.append(boot_figure(key, name, vals, mean, group, seed, unit))

    per_game("lead_change", "lead change", lambda r, m: lead_change(m), "share")
    per_game("stability", "stability (variance)", lambda r, m: stability(m))
    per_game("decisiveness", "decisiveness", lambda r, m: decisiveness(m, r.winners,
                                                                       r.decisions), "share")
    per_game("uncertainty", "uncertainty", lambda r, m: uncertainty(m))
    per_game("drama", "drama", lambda r, m: evaluator_drama(m, r.winners))
    per_game("clarity", "clarity (narrowness)",
             lambda r, m: (sum(c for c, _ in m.clarity) / len(m.clarity)) if m.clarity
             else None, "share")
    per_game("clarity_variance", "clarity (variance)", lambda r, m: clarity_variance(m))
    if players >= 3:
        games = [(r, m) for r, m in measured if r.winners]
        made = sum(1 for _, m in games if m.kingmakers)
        out.append(share_figure("kingmaking", "kingmaking", made, len(games), group))
    return out


# -- components ---------------------------------------------------------------------------------
def data_items(game: Game, options: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The named items of the data files a run read: every ``name`` of an entry in an
    array of tables, lower case, with the array's name. The files are those its
    data-file options name (a designer's variant, read as the game reads it:
    ``cove.core.data.load_data``), else the TOML files in the game's folder."""
    found: dict[str, str] = {}

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for entry in node:
                if isinstance(entry, dict):
                    name = entry.get("name")
                    if isinstance(name, str) and name.strip():
                        found.setdefault(name.strip().lower(), where)
                    walk(entry, where)
    named = [v for k, v in (options or {}).items()
             if is_data_option(str(k)) and isinstance(v, str) and v]
    if named:
        for path in named:
            walk(load_data(path), "")
        return found
    try:
        folder = resources.files(game.package)
        files = sorted((f for f in folder.iterdir() if f.name.endswith(".toml")),
                       key=lambda f: f.name)
    except (ModuleNotFoundError, OSError):
        return found
    for f in files:
        try:
            walk(tomllib.loads(f.read_text(encoding="utf-8")), "")
        except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
            continue
    return found


def _pattern(name: str) -> re.Pattern[str]:
    """The name as a whole word or words in a move's text, plurals too."""
    return re.compile(r"(?<![\w'])" + re.escape(name) + r"(e?s)?(?![\w'])")


def item_names(texts: Iterable[str], names: Mapping[str, str]) -> Callable[[str], list[str]]:
    """A function naming the items a move's text names: the data file's items when any of
    them appears in ``texts`` (every move chosen in the run), else the move itself (its
    text with any bracketed detail left out: an entry of the action space)."""
    pats = [(name, _pattern(name)) for name in sorted(names, key=len, reverse=True)]
    texts = list(texts)
    used = [(name, pat) for name, pat in pats if any(pat.search(t) for t in texts)]
    if used:
        def named(text: str) -> list[str]:
            return [name for name, pat in used if pat.search(text)]
        return named
    return lambda text: [re.sub(r"\s*\(.*?\)", "", text).strip()]


def components(results: Sequence[GameResult], players: int,
               names: Mapping[str, str] | None = None, top: int = 40) -> dict[str, Any]:
    """Per item (see :func:`item_names`): the share of seat-games in which the seat chose
    a move naming it, and the win share of those seats with its Wilson interval, against
    what those seats won over the whole run (``expected``). An item stands out when at
    least :data:`MIN_TAKERS` seat-games took it and its interval, widened for the number
    of items compared (Bonferroni), excludes the expected share."""
    measured = [r for r in results if r.measured is not None and r.measured.items]
    if not measured:
        return {"source": None, "items": []}
    texts = {t for r in measured for seat in r.measured.items for t, _ in seat}  # type: ignore[union-attr]
    name_of = item_names(sorted(texts), names or {})
    source = "data file" if names and any(
        _pattern(n).search(t) for n in names for t in list(texts)[:5000]) else "moves"
    seat_rate = [0.0] * players
    for r in measured:
        for p, s in enumerate(win_shares(r)):
            seat_rate[p] += s / len(measured)
    took: dict[str, list[tuple[int, float, int]]] = {}
    for r in measured:
        shares = win_shares(r)
        assert r.measured is not None
        for p, seat in enumerate(r.measured.items):
            counts: dict[str, int] = {}
            for text, k in seat:
                for item in name_of(text):
                    counts[item] = counts.get(item, 0) + k
            for item, k in counts.items():
                took.setdefault(item, []).append((p, shares[p], k))
    seat_games = len(measured) * players
    k_items = max(1, len(took))
    z = _z_bonferroni(k_items)
    rows: list[dict[str, Any]] = []
    for item, entries in took.items():
        n = len(entries)
        won = sum(s for _, s, _ in entries)
        expected = sum(seat_rate[p] for p, _, _ in entries) / n
        lo, hi = wilson(won, n)
        wlo, whi = wilson(won, n, z)
        flag = n >= MIN_TAKERS and (wlo > expected or whi < expected)
        tlo, thi = wilson(n, seat_games)
        rows.append({"item": item, "group": (names or {}).get(item, ""),
                     "taken": n, "take_rate": n / seat_games, "take_ci": [tlo, thi],
                     "times": sum(k for _, _, k in entries),
                     "win_share": won / n, "win_ci": [lo, hi], "expected": expected,
                     "stands_out": "high" if flag and wlo > expected else
                     "low" if flag else ""})
    rows.sort(key=lambda d: (not d["stands_out"], -abs(d["win_share"] - d["expected"]),
                             d["item"]))
    return {"source": source, "items": rows[:top] if top else rows, "compared": len(rows)}


def _z_bonferroni(k: int) -> float:
    """The normal quantile for a two-sided 95% family of ``k`` intervals."""
    if k <= 1:
        return Z95
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - 0.05 / (2 * k))


# -- what stands out ----------------------------------------------------------------------------
def pct(x: float) -> str:
    """A share as a person reads it: 41%, 4.5%, 0.3%."""
    v = 100 * x
    return f"{v:.0f}%" if abs(v) >= 10 or v == 0 else f"{v:.1f}%"


def stands_out(figures: Sequence[Figure], comps: Mapping[str, Any] | None = None,
               scan: Mapping[str, Any] | None = None,
               luck: Mapping[str, Any] | None = None) -> list[str]:
    """A few plain lines from the figures: a seat whose win interval excludes a fair
    share, a dominant option the scan found, safety ends over 5% of games, a component
    whose win share stands out, the weaker bot winning as often as the stronger."""
    out = []
    by = {f["key"]: f for f in figures}
    for f in figures:
        if f["key"].startswith("win_p") and f["ci"] is not None:
            lo, hi = f["ci"]
            fair = f["fair"]
            if lo > fair or hi < fair:
                seat = f["name"].split()[0]
                out.append(f"{seat} wins {pct(f['value'])} [{pct(lo)}, {pct(hi)}] of games: "
                           f"{'above' if lo > fair else 'below'} a fair {pct(fair)}")
    if scan:
        for r in scan.get("findings", ()):
            if r.get("verdict") == "dominant":
                out.append(f"suspected dominant option: always {r['option']} "
                           f"(+{100 * r['effect']:.1f} points of win share "
                           f"[{100 * r['ci_low']:+.1f}, {100 * r['ci_high']:+.1f}])")
    safety = by.get("safety_ends")
    if safety and safety["value"] is not None and safety["ci"] is not None \
            and safety["value"] > SAFETY_SHARE:
        out.append(f"safety ends stopped {pct(safety['value'])} [{pct(safety['ci'][0])}, "
                   f"{pct(safety['ci'][1])}] of games (over {pct(SAFETY_SHARE)})")
    for row in (comps or {}).get("items", ()):
        if row["stands_out"]:
            out.append(f"{row['item']}: its takers won {pct(row['win_share'])} "
                       f"[{pct(row['win_ci'][0])}, {pct(row['win_ci'][1])}] of "
                       f"{row['taken']} seat-games, against {pct(row['expected'])} expected")
    if luck and luck.get("share") is not None and luck["ci"][1] >= luck["fair"]:
        out.append(f"the weaker bot ({luck['weak']}) won {pct(luck['share'])} "
                   f"[{pct(luck['ci'][0])}, {pct(luck['ci'][1])}] against {luck['strong']}: "
                   "skill may matter little")
    return out


# -- luck and skill -----------------------------------------------------------------------------
def luck_skill(game_id: str, players: int, games: int, weak: str = "random",
               strong: str = "greedy", seed: int = 0,
               options: Mapping[str, Any] | None = None, backend: str = "serial",
               jobs: int = 1, address: str | None = None) -> dict[str, Any] | None:
    """The share of games the weaker of two bots wins: game ``g`` seats ``weak`` in seat
    ``g mod players`` and ``strong`` in every other seat (ties split). A game of pure skill
    gives it near 0, a game of pure luck near the fair share ``1/players``. None for a
    game of one player."""
    if players < 2:
        return None
    game = load(game_id)
    opts = tuple(sorted(dict(options or {}).items()))
    runner = make_backend(backend, jobs, address)
    size = 1 if runner.workers <= 1 else chunk_size(games, runner.workers)
    work = []
    for s in range(players):
        specs = tuple(weak if q == s else strong for q in range(players))
        mine = [i for i in range(games) if i % players == s]
        work += [Chunk(REGISTRY[game.id], players, seed, specs, "fixed", opts, False,
                       tuple(part), trace=False) for part in chunks(mine, size)]
    won = 0.0
    try:
        for i, r in run_chunks(runner, work):
            won += win_shares(r)[i % players]
    finally:
        runner.close()
    lo, hi = wilson(won, games)
    return {"weak": weak, "strong": strong, "games": games, "share": won / games,
            "ci": [lo, hi], "fair": 1.0 / players, "method": "wilson"}


def balance_report(sim: SimResult, *, luck: Mapping[str, Any] | None = None,
                   scan: Mapping[str, Any] | None = None, top: int = 12,
                   depth: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Everything ``cove report`` shows of one variant's run beyond ``simulate``'s
    figures: the measures, the components, luck against skill, the scan's findings and
    what stands out. The run must have been played with an evaluator (``measure``)."""
    game = load(sim.game)
    space = game.action_space(sim.players, **sim.options).size
    figs = measures(sim.results, sim.players, sim.safety_ends, space, seed=sim.seed)
    comps = components(sim.results, sim.players, data_items(game, sim.options), top)
    judged = {r.measured.evaluator for r in sim.results if r.measured is not None}
    return {"evaluator": ", ".join(sorted(judged)) or None, "measures": figs,
            "components": comps, "luck": luck, "scan": scan, "depth": depth,
            "stands_out": stands_out(figs, comps, scan, luck)}
