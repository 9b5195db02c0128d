"""Small SVG builders shared by the board drawings (escaping, elements, click targets).

Every function returns text; a board module joins pieces and hands the result to `svg`.
Numbers are written with at most two decimals so the output stays short and stable.

Clickable elements go through `target`: a `<g class="target">` with `data-moves`, the JSON
list of legal move texts the click could mean, and a `<title>` naming it (a screen reader,
a hover, and the page's own tests read it). A click on an element whose list holds one move
plays it; with several the page asks which.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = [
    "Legal",
    "attrs",
    "circle",
    "el",
    "esc",
    "group",
    "line",
    "moves_where",
    "num",
    "polygon",
    "rect",
    "svg",
    "target",
    "text",
    "title",
]

Legal = list[dict[str, Any]]
"""The seat's legal actions as the page gets them: `[{"text": str, "json": {...}}]`."""


def esc(value: object) -> str:
    """`value` as text safe inside an XML element or a double-quoted attribute."""
    return (
        str(value)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def num(x: float) -> str:
    """A coordinate written short: `3`, `2.5`, `0.33`."""
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.2f}".rstrip("0").rstrip(".")


def attrs(values: Mapping[str, object]) -> str:
    """` name="value"` pairs; `None` and `False` are left out, `_` in a name becomes `-`
    (so `stroke_width=2` gives `stroke-width="2"`, and `class_` gives `class`)."""
    out = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        key = name.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = num(value)
        out.append(f' {key}="{esc(value)}"')
    return "".join(out)


def el(tag: str, content: str = "", /, **kw: object) -> str:
    """`<tag ...>content</tag>`, or `<tag .../>` when there is no content."""
    if content:
        return f"<{tag}{attrs(kw)}>{content}</{tag}>"
    return f"<{tag}{attrs(kw)}/>"


def rect(x: float, y: float, w: float, h: float, /, **kw: object) -> str:
    return el("rect", x=float(x), y=float(y), width=float(w), height=float(h), **kw)


def circle(cx: float, cy: float, r: float, /, **kw: object) -> str:
    return el("circle", cx=float(cx), cy=float(cy), r=float(r), **kw)


def line(x1: float, y1: float, x2: float, y2: float, /, **kw: object) -> str:
    return el("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **kw)


def polygon(points: Iterable[tuple[float, float]], /, **kw: object) -> str:
    pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    return el("polygon", points=pts, **kw)


def text(x: float, y: float, content: object, size: float = 12, /, **kw: object) -> str:
    """A text label (escaped); centred on x unless `text_anchor` says otherwise."""
    kw.setdefault("text_anchor", "middle")
    kw.setdefault("font_size", float(size))
    return f"<text{attrs({'x': float(x), 'y': float(y), **kw})}>{esc(content)}</text>"


def title(label: object) -> str:
    return f"<title>{esc(label)}</title>"


def group(*children: str, **kw: object) -> str:
    return el("g", "".join(children), **kw)


def target(body: str, moves: Iterable[str], label: str, /, **kw: object) -> str:
    """`body` as a click target: `class="target"`, `data-moves` (the JSON list of the legal
    move texts the click could mean) and a `<title>`. With no moves the body is returned as
    a plain labelled group, not a target, so callers may pass every element through here."""
    texts = list(dict.fromkeys(moves))
    if not texts:
        return group(title(label), body)
    cls = "target" if "class_" not in kw else f"target {kw.pop('class_')}"
    data = json.dumps(texts, separators=(",", ":"), ensure_ascii=False)
    return group(title(label), body, class_=cls, data_moves=data, **kw)


def moves_where(legal: Legal, pred: Callable[[dict[str, Any]], bool]) -> list[str]:
    """The texts of the legal actions whose `json` satisfies `pred`."""
    return [a["text"] for a in legal if pred(a["json"])]


def svg(width: float, height: float, body: str, label: str, /, **kw: object) -> str:
    """The root element: a `viewBox` of width x height that scales to the page width
    (`width="100%"`, height following the aspect ratio), with an accessible label."""
    kw.setdefault("font_family", "sans-serif")
    head = attrs(
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {num(width)} {num(height)}",
            "width": "100%",
            "preserveAspectRatio": "xMidYMin meet",
            "role": "img",
            "aria-label": label,
            **kw,
        }
    )
    return f"<svg{head}>{title(label)}{body}</svg>"
