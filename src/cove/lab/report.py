"""``cove report``: one self-contained HTML file with a run's figures and plots.

The plots are inline SVG drawn here (no plotting library, no script, no network), so the
file opens anywhere and can be mailed to a designer. One column per variant when several
are compared; every figure of ``simulate --json`` is in it, and the warnings come first.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Sequence
from typing import Any

from cove.core.errors import CoveError
from cove.core.registry import load
from cove.lab.simulate import SimResult
from cove.lab.simulate import _margin as margin

W, H = 360, 170  # plot size in px
PAD_L, PAD_B, PAD_T = 36, 28, 14
INK, ACCENT, MUTED, WARN = "#1d3557", "#2a9d8f", "#8d99ae", "#e76f51"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _svg(body: str, title: str) -> str:
    return (f'<figure><figcaption>{_e(title)}</figcaption>'
            f'<svg viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" '
            f'aria-label="{_e(title)}">{body}</svg></figure>')


def nice_top(value: float) -> float:
    """The smallest 1, 2, 4 or 8 times a power of ten at or above ``value``: an axis that
    ends there has round ticks at its quarters (20, 40, 60 ... not 15.8, 31.5, 47.2)."""
    if value <= 0 or not math.isfinite(value):
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    return next(power * m for m in (1, 2, 4, 8, 10) if power * m >= value * (1 - 1e-9))


def count(value: float) -> str:
    """A count for a reader: whole when it is (``182``), else with one decimal (``182.3``:
    tied wins are split evenly)."""
    return f"{value:.0f}" if abs(value - round(value)) < 1e-9 else f"{value:.1f}"


def _axes(ymax: float, fmt: str = "{:g}") -> str:
    x0, y0, y1 = PAD_L, H - PAD_B, PAD_T
    out = [f'<line x1="{x0}" y1="{y0}" x2="{W - 4}" y2="{y0}" stroke="{MUTED}"/>',
           f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="{MUTED}"/>']
    for k in range(5):
        v = ymax * k / 4
        y = y0 - (y0 - y1) * k / 4
        out.append(f'<text x="{x0 - 4}" y="{y + 4:.1f}" text-anchor="end" font-size="10" '
                   f'fill="{MUTED}">{_e(fmt.format(v))}</text>')
    return "".join(out)


def bars(labels: Sequence[str], values: Sequence[float], title: str, *,
         errors: Sequence[tuple[float, float]] | None = None, line: float | None = None,
         colours: Sequence[str] | None = None, percent: bool = False) -> str:
    """A bar chart; ``errors`` as (low, high) whiskers, ``line`` a reference level."""
    top = max([*values, *(hi for _, hi in errors or []), line or 0.0, 1e-9])
    top = nice_top(top)
    y0, span = H - PAD_B, H - PAD_B - PAD_T
    step = (W - PAD_L - 8) / max(1, len(values))
    out = [_axes(top, "{:.0%}" if percent else "{:g}")]
    for i, v in enumerate(values):
        x = PAD_L + 4 + i * step
        h = span * v / top
        colour = colours[i] if colours else ACCENT
        out.append(f'<rect x="{x:.1f}" y="{y0 - h:.1f}" width="{step * 0.7:.1f}" '
                   f'height="{h:.1f}" fill="{colour}"><title>{_e(labels[i])}: '
                   f'{_e(f"{v:.1%}" if percent else count(v))}</title></rect>')
        cx = x + step * 0.35
        if errors:
            lo, hi = errors[i]
            out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y0 - span * lo / top:.1f}" '
                       f'y2="{y0 - span * hi / top:.1f}" stroke="{INK}" stroke-width="1.5"/>')
        if len(values) <= 12:
            out.append(f'<text x="{cx:.1f}" y="{H - 10}" text-anchor="middle" font-size="9" '
                       f'fill="{INK}">{_e(labels[i][:14])}</text>')
    if line is not None:
        y = y0 - span * line / top
        out.append(f'<line x1="{PAD_L}" x2="{W - 4}" y1="{y:.1f}" y2="{y:.1f}" '
                   f'stroke="{WARN}" stroke-dasharray="4 3"/>')
    return _svg("".join(out), title)


def histogram(values: Sequence[float], title: str, bins: int = 20) -> str:
    """Counts of ``values`` in equal bins, with the axis range written under it."""
    if not values:
        return ""
    lo, hi = min(values), max(values)
    width = (hi - lo) / bins if hi > lo else 1.0
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - lo) / width))] += 1
    labels = [f"{lo + i * width:.3g}-{lo + (i + 1) * width:.3g}" for i in range(bins)]
    chart = bars(labels, [float(c) for c in counts], title)
    return chart.replace("</svg>", f'<text x="{PAD_L}" y="{H - 8}" font-size="10" '
                         f'fill="{INK}">{_e(f"{lo:g}")}</text><text x="{W - 6}" y="{H - 8}" '
                         f'text-anchor="end" font-size="10" fill="{INK}">{_e(f"{hi:g}")}'
                         f'</text></svg>')


def human(value: float | None, unit: str = "") -> str:
    """A figure as a person reads it: shares as percentages (41%, 4.5%, 0.31%), other
    numbers to three significant figures (182, 3.61, 0.0156)."""
    if value is None or not math.isfinite(value):
        return "-"
    if unit == "share":
        v = 100 * value
        if v == 0 or abs(v) >= 10:
            return f"{v:.0f}%" if abs(v - round(v)) < 0.05 or abs(v) >= 99.95 else f"{v:.1f}%"
        return f"{v:.2g}%" if abs(v) < 1 else f"{v:.1f}%"
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"
    return f"{value:.3g}"


def _interval(f: dict[str, Any]) -> str:
    if f["ci"] is None:
        return "-"
    return f"{human(f['ci'][0], f['unit'])} to {human(f['ci'][1], f['unit'])}"


GROUPS = ("outcome", "duration", "complexity", "state evaluation")
METHOD = {"wilson": "W", "bootstrap": "B"}


def slope_text(depth: Any) -> str:
    """A ladder's skill-depth slope in points with its interval: ``+6.1 points [+2.0,
    +9.8]`` (``cove.lab.ladder.depth_curve``)."""
    return (f"{100 * depth['slope']:+.1f} points [{100 * depth['slope_low']:+.1f}, "
            f"{100 * depth['slope_high']:+.1f}]")


def _balance(extra: dict[str, Any]) -> str:
    """The balance measures of one variant (docs/METRICS.md): the measures by group, the
    components, luck against skill and the scan, each figure with its 95% interval."""
    parts = ["<h3>Balance measures (95% interval; W: Wilson, B: bootstrap over games)</h3>"]
    if extra.get("evaluator"):
        parts.append(f"<p>Evaluator: {_e(extra['evaluator'])}</p>")
    for group in GROUPS:
        rows = "".join(
            f"<tr><td>{_e(f['name'])}</td><td>{_e(human(f['value'], f['unit']))}</td>"
            f"<td>{_e(_interval(f))} {METHOD.get(f['method'], '')}</td></tr>"
            for f in extra["measures"] if f["group"] == group)
        if rows:
            parts.append(f"<table><tr><th>{_e(group)}</th><th>value</th><th>95% interval"
                         f"</th></tr>{rows}</table>")
    luck = extra.get("luck")
    if luck:
        parts.append(f"<p>Luck and skill: the weaker bot ({_e(luck['weak'])}) won "
                     f"{_e(human(luck['share'], 'share'))} [{_e(human(luck['ci'][0], 'share'))}"
                     f" to {_e(human(luck['ci'][1], 'share'))}] of {luck['games']} games "
                     f"against {_e(luck['strong'])} in every other seat (a fair share: "
                     f"{_e(human(luck['fair'], 'share'))}; 0 is pure skill).</p>")
    depth = extra.get("depth")
    if depth and "slope" in depth:
        parts.append(f"<p>Skill depth (from <code>cove ladder</code>, {_e(depth['source'])}):"
                     f" each doubling of {_e(depth['default'])}'s budget adds "
                     f"{_e(slope_text(depth))} of win share against the default budget "
                     "(least squares over the ladder's budgets; 95% bootstrap interval).</p>")
    comps = extra.get("components") or {}
    if comps.get("items"):
        rows = "".join(
            f"<tr{' class=flag' if r['stands_out'] else ''}><td>{_e(r['item'])}</td>"
            f"<td>{_e(human(r['take_rate'], 'share'))}</td>"
            f"<td>{_e(human(r['win_share'], 'share'))} [{_e(human(r['win_ci'][0], 'share'))}"
            f", {_e(human(r['win_ci'][1], 'share'))}]</td>"
            f"<td>{_e(human(r['expected'], 'share'))}</td></tr>" for r in comps["items"])
        what = ("items of the data file named in the moves" if comps["source"] == "data file"
                else "moves (no item of the data file is named in them)")
        parts.append(f"<h3>Components: {_e(what)}</h3><table><tr><th>item</th>"
                     "<th>taken in</th><th>takers won [95%]</th><th>expected</th></tr>"
                     f"{rows}</table>")
    scan = extra.get("scan")
    if scan:
        found = scan.get("findings") or []
        items = "".join(f"<li>{_e(r['rule'])} {_e(r['option'])}: {_e(r['verdict'])} "
                        f"({100 * r['effect']:+.1f} points [{100 * r['ci_low']:+.1f}, "
                        f"{100 * r['ci_high']:+.1f}])</li>" for r in found)
        parts.append(f"<h3>Scan ({scan['games']} games per restriction, by {scan['by']})"
                     f"</h3>" + (f"<ul>{items}</ul>" if items else
                                 "<p>No dominant, trap or useless option found.</p>"))
    return "".join(parts)


def stands_out_html(extras: Sequence[dict[str, Any] | None], labels: Sequence[str]) -> str:
    """The "what stands out" list of every variant, first on the page."""
    items = []
    for extra, lab in zip(extras, labels, strict=False):
        for line in (extra or {}).get("stands_out", []):
            items.append(f"<li>{_e(lab + ': ' if len(labels) > 1 else '')}{_e(line)}</li>")
    if not any(extras):
        return ""
    body = f"<ul>{''.join(items)}</ul>" if items else "<p>Nothing stands out.</p>"
    return f'<div class="out"><h2>What stands out</h2>{body}</div>'


def _variant(sim: SimResult, label: str, paired: Sequence[dict[str, Any]],
             extra: dict[str, Any] | None = None) -> str:
    out = sim.to_json()
    parts = [f"<section><h2>{_e(label)}</h2>"]
    for w in out["warnings"]:
        parts.append(f'<p class="warn">Warning: {_e(w)}</p>')
    seats = out["seats"]
    parts.append(bars([f"P{s['seat']}" for s in seats], [s["win_rate"] for s in seats],
                      "Wins per seat (95% interval; dashed: a fair share)",
                      errors=[(s["win_ci"][0], s["win_ci"][1]) for s in seats],
                      line=1.0 / sim.players, percent=True))
    parts.append(histogram([float(r.decisions) for r in sim.results],
                           "Game length (decisions)"))
    parts.append(histogram([margin(r.scores) for r in sim.results if len(r.scores) > 1],
                           "Winning margin (first minus second)"))
    drama = out["drama"]
    if drama and drama["note"]:
        parts.append(f'<p class="warn">Lead changes and drama: {_e(drama["note"])}</p>')
    elif drama:
        parts.append(histogram([float(r.drama.lead_changes) for r in sim.results
                                if r.drama is not None], "Lead changes per game"))
    ends = out["stats"].get("end", {}).get("counts", {})
    if ends:
        names = list(ends)
        parts.append(bars(names, [ends[k] / max(1, out["games"]) for k in names],
                          "How games ended (red: a safety cut-off)", percent=True,
                          colours=[WARN if k in sim.safety_ends else ACCENT for k in names]))
    kinds = out["action_kinds"]
    if kinds:
        names = list(kinds)[:12]
        parts.append(bars(names, [kinds[k] for k in names], "Moves chosen, by kind",
                          percent=True))
    rows = "".join(
        f"<tr><td>P{s['seat']}</td><td>{_e(s['bot'])}</td><td>{count(s['wins'])}</td>"
        f"<td>{100 * s['win_rate']:.1f}% [{100 * s['win_ci'][0]:.1f}, "
        f"{100 * s['win_ci'][1]:.1f}]</td><td>{100 * s['advantage']:+.1f}</td>"
        f"<td>{s['mean_score']:.2f}</td></tr>" for s in seats)
    parts.append("<table><tr><th>seat</th><th>bot</th><th>wins (ties split)</th>"
                 "<th>win % [95% CI]</th><th>advantage (points)</th><th>mean score</th></tr>"
                 f"{rows}</table>")
    facts = [("games", out["games"]), ("ties", out["ties"]),
             ("median length", out["length"]["median"] if out["length"] else "-"),
             ("branching", f"{out['branching']:.1f}" if out["branching"] else "-")]
    if drama and not drama["note"]:
        lc, at, half = drama["lead_changes"], drama["decided_at"], drama["halftime_leader_lost"]
        facts.append(("lead changes", f"mean {lc['mean']:.2f} [{lc['ci'][0]:.2f}, "
                                      f"{lc['ci'][1]:.2f}], median {lc['median']:g}"))
        if at:
            facts.append(("winner ahead for good after",
                          f"{100 * at['median']:.0f}% of the moves (median)"))
        if half["share"] is not None:
            facts.append(("half-way leader lost",
                          f"{100 * half['share']:.0f}% [{100 * half['ci'][0]:.0f}, "
                          f"{100 * half['ci'][1]:.0f}] of {half['games']} games"))
    for key, st in out["stats"].items():
        if "mean" in st:
            facts.append((key, f"mean {st['mean']:.2f} [{st['ci'][0]:.2f}, {st['ci'][1]:.2f}]"))
    parts.append("<table>" + "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>"
                                     for k, v in facts) + "</table>")
    if extra:
        parts.append(_balance(extra))
    if paired:
        prow = "".join(
            f"<tr><td>{_e(d['metric'])}</td><td>{d['difference']:+.3f}</td>"
            f"<td>[{d['ci'][0]:+.3f}, {d['ci'][1]:+.3f}]</td><td>{_e(d['verdict'])}</td></tr>"
            for d in paired)
        parts.append("<h3>Against the first variant, game by game</h3><table><tr><th>metric"
                     "</th><th>difference</th><th>95% CI</th><th>verdict</th></tr>"
                     f"{prow}</table>")
    parts.append("</section>")
    return "".join(parts).replace("<table>", '<div class="scroll"><table>').replace(
        "</table>", "</table></div>")


CSS = """
body{font:14px/1.4 system-ui,sans-serif;color:#1d3557;margin:24px;background:#fbfaf7}
@media (max-width:600px){body{margin:8px} section{padding:10px}}
h1{font-size:20px} h2{font-size:16px;margin-top:0} h3{font-size:14px}
main{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
section{background:#fff;border:1px solid #ddd;border-radius:8px;padding:16px;
  flex:1 1 380px;min-width:0;max-width:100%;box-sizing:border-box}
svg{max-width:100%;height:auto} .scroll{overflow-x:auto;max-width:100%}
figure{margin:8px 0} figcaption{font-weight:600;font-size:12px}
table{border-collapse:collapse;margin:8px 0;font-size:12px}
td,th{border-bottom:1px solid #eee;padding:2px 8px;text-align:left}
.warn{background:#fde8e2;border-left:4px solid #e76f51;padding:6px 10px}
pre{font-size:11px;background:#f3f3f3;padding:8px;overflow:auto}
.out{background:#fff8e6;border-left:4px solid #e9c46a;padding:6px 12px;margin-bottom:16px}
tr.flag td{background:#fde8e2}
"""


def report(sims: Sequence[SimResult], labels: Sequence[str],
           paired: Sequence[Sequence[dict[str, Any]]] = (),
           extras: Sequence[dict[str, Any] | None] = ()) -> str:
    """The HTML page for one run (or one per variant, side by side); ``extras`` holds
    each variant's balance measures (:func:`cove.lab.measures.balance_report`)."""
    first = sims[0]
    try:
        name = load(first.game).name
    except CoveError:   # a game no longer registered: its id
        name = first.game
    title = (f"{name}: {first.players} players, {len(first.results)} games, "
             f"seed {first.seed}, bots {','.join(first.bots)}")
    body = "".join(_variant(s, lab, paired[i] if i < len(paired) else (),
                            extras[i] if i < len(extras) else None)
                   for i, (s, lab) in enumerate(zip(sims, labels, strict=True)))
    manifest = json.dumps(first.manifest, indent=1)
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport "
            f'content="width=device-width, initial-scale=1"><title>{_e(title)}'
            f"</title><style>{CSS}</style></head><body><h1>{_e(title)}</h1>"
            f"{stands_out_html(extras, labels)}<main>{body}"
            f"</main><h3>Manifest</h3><pre>{_e(manifest)}</pre></body></html>\n")
