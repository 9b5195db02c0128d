"""Small SVG builders shared by the board drawings (escaping, elements, click targets).

Every function returns text; a board module joins pieces and hands the result to `svg`.
Numbers are written with at most two decimals so the output stays short and stable.

Clickable elements go through `target`: a `<g class="target">` with `data-moves`, the JSON
list of legal move texts the click could mean, and a `<title>` naming it (a screen reader,
a hover, and the page's own tests read it). A click on an element whose list holds one move
plays it; with several the page asks which.
"""

from __future__ import annotations

import functools
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from cove.core.text import seat_name

__all__ = [
    "SEAT_COLOURS",
    "Legal",
    "attrs",
    "button",
    "button_row",
    "circle",
    "coded",
    "el",
    "esc",
    "group",
    "line",
    "lines",
    "moves_of",
    "moves_where",
    "num",
    "outcome",
    "polygon",
    "reachable",
    "rect",
    "svg",
    "target",
    "targets",
    "text",
    "title",
    "titles",
    "wrap",
    "you_first",
]

Legal = list[dict[str, Any]]
"""The seat's legal actions as the page gets them: `[{"text": str, "json": {...}}]`."""

SEAT_COLOURS = ("#c8322b", "#2f6fd0", "#e0a800", "#2e9a4a", "#8a47b0", "#4d4d4d")
"""Fill colours by seat (or by a game's ship colour index); always drawn with a label too."""


def esc(value: object) -> str:
    """`value` as text safe inside an XML element or a double-quoted attribute."""
    s = value if type(value) is str else str(value)
    if not ("&" in s or "<" in s or ">" in s or '"' in s or "'" in s):
        return s  # most labels: nothing to replace
    return (
        s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def num(x: float) -> str:
    """A coordinate written short: `3`, `2.5`, `0.33`."""
    if type(x) is int:
        return str(x)
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
        key = _key(name)
        kind = type(value)
        if kind is float:
            text = num(value)  # type: ignore[arg-type]
        elif kind is int:
            text = str(value)
        else:
            text = esc(value)
        out.append(f' {key}="{text}"')
    return "".join(out)


@functools.cache
def _key(name: str) -> str:
    return name.rstrip("_").replace("_", "-")


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


def wrap(words: str, width: int) -> list[str]:
    """`words` broken into lines of at most `width` characters (a longer word stays whole)."""
    out: list[str] = []
    for word in str(words).split():
        if out and len(out[-1]) + 1 + len(word) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def lines(
    x: float, y: float, words: str, size: float, width: int, /, limit: int = 0, **kw: object
) -> str:
    """Left-aligned text wrapped to `width` characters, one `<text>` per line (at most
    `limit` lines when given, the last ending in "…")."""
    rows = wrap(words, width)
    if limit and len(rows) > limit:
        rows = rows[:limit]
        rows[-1] = rows[-1][: max(1, width - 1)] + "…"
    kw.setdefault("text_anchor", "start")
    return "".join(text(x, y + k * size * 1.2, row, size, **kw) for k, row in enumerate(rows))


def title(label: object) -> str:
    return f"<title>{esc(label)}</title>"


def group(*children: str, **kw: object) -> str:
    return el("g", "".join(children), **kw)


def target(body: str, moves: Iterable[str], label: str, /, **kw: object) -> str:
    """`body` as a click target: `class="target"`, `data-moves` (the JSON list of the legal
    move texts the click could mean), a `<title>`, and focusable as a button (`tabindex`,
    `role`). With no moves the body is returned as a plain labelled group, not a target, so
    callers may pass every element through here (as `role="img"`: its title names it to a
    screen reader, which reads it as one thing rather than its loose labels)."""
    texts = list(dict.fromkeys(moves))
    if not texts:  # a piece: one image to a screen reader, named by its title
        return group(title(label), body, role="img")
    cls = "target" if "class_" not in kw else f"target {kw.pop('class_')}"
    data = json.dumps(texts, separators=(",", ":"), ensure_ascii=False)
    return group(title(label), body, class_=cls, data_moves=data, tabindex=0, role="button",
                 **kw)


def coded(code: str, letter: str, body: str, /) -> str:
    """`body`, a colour-coded thing (a seat's ship, a good, a die, a terrain), marked so a
    test can find it: `data-code` says what its colour means (`seat:P2`, `goods:sugar`),
    `data-letter` the text drawn in it that says the same without the colour (`P2`, `Su`).
    Colour is never the only signal: the letter is drawn in `body` too."""
    return group(body, data_code=code, data_letter=letter)


def button(x: float, y: float, w: float, h: float, label: str, moves: Iterable[str], /) -> str:
    """A labelled rounded button for a move that has no piece to point at ("pass")."""
    body = rect(x, y, w, h, rx=6, fill="#fff8e0", stroke="#5a4a2a", stroke_width=1.5)
    body += text(x + w / 2, y + h / 2 + 5, label, 14, font_weight="bold", fill="#3a2a10")
    return target(body, moves, label)


def button_row(x: float, y: float, legal: Legal, choices: Iterable[tuple[str, str]], /) -> str:
    """A row of buttons from (x, y), one per (action kind, label) in `choices` that has
    legal moves now (all the moves of that kind on the one button)."""
    out = []
    for kind, label in choices:
        moves = moves_of(legal, kind)
        if moves:
            out.append(button(x, y, 130, 34, label, moves))
            x += 140
    return "".join(out)


def you_first(players: int, seat: int | None, /) -> list[int]:
    """Seats in table order starting with `seat` (from seat 0 for a spectator)."""
    ring = list(range(players))
    if seat is None or not 0 <= seat < players:
        return ring
    return ring[seat:] + ring[:seat]


def outcome(view: Mapping[str, Any], /) -> str:
    """The decision's prompt, or once the game is over the winners and the scores
    ("Game over · winner P2 · scores P1 11, P2 13")."""
    if not view.get("over"):
        return str((view.get("decision") or {}).get("prompt", ""))
    winners = [seat_name(int(w)) for w in view.get("winners") or []]
    scores = ", ".join(f"{seat_name(k)} {num(float(v))}"
                       for k, v in enumerate(view.get("scores") or []))
    if not winners:
        head = "Game over · no winner"
    else:
        head = "Game over · " + ("winner " if len(winners) == 1 else "winners ")
        head += " and ".join(winners)
    return head + (f" · scores {scores}" if scores else "")


def moves_of(legal: Legal, kinds: str | tuple[str, ...], /, **fields: object) -> list[str]:
    """The texts of the legal actions of kind `kinds` (one or a tuple) whose `json` has
    every field in `fields` equal to the value given (`moves_of(legal, "play", card=3)`)."""
    wanted = (kinds,) if isinstance(kinds, str) else kinds
    out = []
    for a in legal:
        j = a.get("json") or {}
        if j.get("kind") in wanted and all(j.get(k) == v for k, v in fields.items()):
            out.append(str(a["text"]))
    return out


def moves_where(legal: Legal, pred: Callable[[dict[str, Any]], bool]) -> list[str]:
    """The texts of the legal actions whose `json` satisfies `pred`."""
    return [a["text"] for a in legal if pred(a.get("json") or {})]


def svg(width: float, height: float, body: str, label: str, /, **kw: object) -> str:
    """The root element: a `viewBox` of width x height that scales to the page width
    (`width="100%"`, height following the aspect ratio), with an accessible label. Its
    size in units is also the CSS variables `--w` and `--h`, so the style sheet can keep
    it at a readable scale (and a phone let it pan) instead of shrinking its labels."""
    kw.setdefault("font_family", "sans-serif")
    kw.setdefault("style", f"--w:{num(width)};--h:{num(height)}")
    head = attrs(
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {num(width)} {num(height)}",
            "width": "100%",
            "preserveAspectRatio": "xMidYMin meet",
            "role": "group",
            "aria-label": label,
            **kw,
        }
    )
    style = ("<style>.target{cursor:pointer;"
             "filter:drop-shadow(0 0 2px #d35400) drop-shadow(0 0 3px #ff9a1f)}</style>")
    return f"<svg{head}>{title(label)}{style}{body}</svg>"


_NS = "{http://www.w3.org/2000/svg}"


def targets(svg_text: str) -> list[tuple[str, list[str]]]:
    """Every click target of a drawing as (title, move texts), in document order; parses
    the SVG as XML, so it also checks that the drawing is well formed, and refuses a target
    nested in another (`ValueError`)."""
    root = ET.fromstring(svg_text)
    out = []
    for node in root.iter():
        if not _is_target(node):
            continue
        label = node.find(f"{_NS}title")
        if any(_is_target(inner) for inner in node.iter() if inner is not node):
            raise ValueError(f"target {label.text if label is not None else ''!r} holds another "
                             "target: a click on it would be ambiguous")
        moves = json.loads(node.get("data-moves") or "[]")
        out.append(("" if label is None else label.text or "", [str(m) for m in moves]))
    return out


def _is_target(node: ET.Element) -> bool:
    return "target" in (node.get("class") or "").split()


def titles(svg_text: str) -> list[str]:
    """The text of every `<title>` in a drawing (targets and labelled pieces alike)."""
    return [t.text or "" for t in ET.fromstring(svg_text).iter(f"{_NS}title")]


def reachable(svg_text: str, legal: Legal) -> set[str]:
    """The legal move texts some target of the drawing offers; a `ValueError` names a
    target that offers no move or a move not in `legal`."""
    texts = {str(a["text"]) for a in legal}
    out: set[str] = set()
    for label, moves in targets(svg_text):
        if not moves:
            raise ValueError(f"target {label!r} offers no move")
        bad = set(moves) - texts
        if bad:
            raise ValueError(f"target {label!r} offers moves that are not legal: {sorted(bad)}")
        out.update(moves)
    return out
