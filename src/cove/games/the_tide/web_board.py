"""The Tide drawn as SVG: the six piles on the sea side, the 6x6 beach below them (row 1
next to the piles), then every player's holdings.

A tile is a coloured square with its own outline shape and its name written under it, and a
friend is a disc with its player's number, so nothing is told by colour alone. Click
targets come from the structured legal actions: a beach square (place a friend there,
collect the tile under the friend, or move a friend there), a pile (return a tile to it),
and buttons for `pass` and the double-recycling reward. The tiles' colours, letters and
names, and the beach's size and column names, come from the data (data.py, beach.py).
"""

from __future__ import annotations

from typing import Any

from cove.core.svg import (
    SEAT_COLOURS,
    Legal,
    button,
    circle,
    coded,
    group,
    line,
    moves_of,
    num,
    outcome,
    polygon,
    rect,
    svg,
    target,
    text,
    wrap,
)
from cove.games.the_tide.beach import COLS, COLUMN_NAMES, ROWS, SQUARE_NAMES
from cove.games.the_tide.data import DATA, TILE_TYPES

CELL = 76
LEFT = 34
WIDTH = LEFT + COLS * CELL + 16
PILE_TOP = 36
ROW_H = 34
PILE_H = 132
BEACH_TOP = PILE_TOP + PILE_H + 26

TILE_FILL = {DATA.names[t]: DATA.fills[t] for t in TILE_TYPES}
TILE_INK = {DATA.names[t]: DATA.inks[t] for t in TILE_TYPES}
TILE_LETTER = {DATA.names[t]: DATA.letters[t] for t in TILE_TYPES}
TILE_ORDER = tuple(DATA.names[t] for t in TILE_TYPES)
SAND = "#f4e4bc"
SEA = "#8cc7e8"


def _icon(tile: str, cx: float, cy: float, s: float) -> str:
    """The tile's outline shape, `s` across, centred on (cx, cy)."""
    ink = TILE_INK[tile]
    h = s / 2
    if tile == "shell":  # a scallop: a fan with ribs
        fan = polygon([(cx - h, cy), (cx - h * 0.7, cy - h * 0.7), (cx, cy - h),
                       (cx + h * 0.7, cy - h * 0.7), (cx + h, cy), (cx, cy + h * 0.8)],
                      fill="none", stroke=ink, stroke_width=2)
        ribs = "".join(line(cx, cy + h * 0.8, cx + dx * h, cy - h * 0.6, stroke=ink,
                            stroke_width=1.2) for dx in (-0.6, 0.0, 0.6))
        return fan + ribs
    if tile == "bottle":  # body and neck
        return (rect(cx - h * 0.4, cy - h * 0.2, h * 0.8, h * 1.1, rx=3, fill="none",
                     stroke=ink, stroke_width=2)
                + rect(cx - h * 0.15, cy - h * 0.8, h * 0.3, h * 0.6, fill="none", stroke=ink,
                       stroke_width=2))
    if tile == "bag":  # a carrier bag with handles
        body = polygon([(cx - h * 0.7, cy - h * 0.3), (cx + h * 0.7, cy - h * 0.3),
                        (cx + h * 0.55, cy + h * 0.8), (cx - h * 0.55, cy + h * 0.8)],
                       fill="none", stroke=ink, stroke_width=2)
        handles = "".join(circle(cx + dx * h, cy - h * 0.45, h * 0.22, fill="none", stroke=ink,
                                 stroke_width=1.5) for dx in (-0.35, 0.35))
        return body + handles
    if tile == "cigarette":  # a long thin stick with a filter
        return (rect(cx - h, cy - h * 0.18, h * 2, h * 0.36, fill="none", stroke=ink,
                     stroke_width=2)
                + rect(cx + h * 0.45, cy - h * 0.18, h * 0.55, h * 0.36, fill=ink))
    # melon: a slice (half disc) with seeds
    arc = (f'<path d="M{num(cx - h)},{num(cy - h * 0.3)} A{num(h)},{num(h)} 0 0 0 '
           f'{num(cx + h)},{num(cy - h * 0.3)} Z" fill="none" stroke="{ink}" '
           'stroke-width="2"/>')
    seeds = "".join(circle(cx + dx * h, cy + h * 0.05, 1.8, fill=ink) for dx in (-0.4, 0, 0.4))
    return arc + seeds


def _tile(tile: str, x: float, y: float, s: float, label: bool = True) -> str:
    """A tile face, `s` square, top left at (x, y)."""
    out = rect(x, y, s, s, rx=6, fill=TILE_FILL[tile], stroke=TILE_INK[tile], stroke_width=1.5)
    out += _icon(tile, x + s / 2, y + s * (0.42 if label else 0.5), s * 0.45)
    if label:  # the icon's shape, and its name, say what the colour says
        out += text(x + s / 2, y + s - 5, tile, max(8.0, s * 0.17), fill=TILE_INK[tile])
        return coded(f"tile:{tile}", tile, out)
    return out


def _friend(seat: int, cx: float, cy: float, r: float) -> str:
    """A friend: a disc in its player's colour with the player's number on it."""
    fill = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    red, green, blue = (int(fill[k:k + 2], 16) for k in (1, 3, 5))
    ink = "#111111" if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#ffffff"
    return coded(f"seat:P{seat + 1}", f"P{seat + 1}",
                 circle(cx, cy, r, fill=fill, stroke="#ffffff", stroke_width=2.5)
                 + text(cx, cy + r * 0.38, f"P{seat + 1}", r * 0.95, fill=ink,
                        font_weight="bold"))


def _piles(view: dict[str, Any], legal: Legal) -> str:
    out = [rect(0, PILE_TOP - 8, WIDTH, PILE_H + 8, fill=SEA),
           text(6, PILE_TOP + 8, "sea", 13, fill="#0b3d5c", text_anchor="start")]
    show_all = view.get("pile_visibility") == "all"
    for c, pile in enumerate(view["piles"]):
        x0 = LEFT + c * CELL + 6
        w = CELL - 12
        height = int(pile["height"])
        top = pile["top"]
        base = PILE_TOP + PILE_H - 38
        body = [rect(x0 - 2, PILE_TOP + 4, w + 4, PILE_H - 10, rx=6, fill="#000000",
                     fill_opacity=0.001)]  # the whole pile area takes the click
        tiles: list[str] = list(pile.get("tiles", [])) if show_all else []
        slab_h = min(6.0, 40 / max(height, 1))
        for k in range(height):  # one slab per tile, bottom first
            y = base - slab_h * (k + 1)
            slab = tiles[k] if k < len(tiles) else None
            fill = TILE_FILL[slab] if slab else "#d8c9a3"
            body.append(rect(x0, y, w, slab_h, fill=fill, stroke="#6b5a35", stroke_width=0.8))
        face_y = base - slab_h * height - w * 0.62
        if top:
            body.append(_tile(top, x0 + w * 0.19, face_y, w * 0.62, label=False))
        else:
            body.append(rect(x0 + w * 0.19, base - w * 0.62 - 2, w * 0.62, w * 0.62, rx=6,
                             fill="none", stroke="#0b3d5c", stroke_dasharray="4 3"))
        count = f"{height} tile{'s' if height != 1 else ''}" if height else "empty"
        body.append(text(x0 + w / 2, base + 16, count, 14, fill="#0b2a40"))
        if tiles:  # the whole pile is public: its letters, bottom first
            body.append(text(x0 + w / 2, base + 31, "".join(TILE_LETTER[t] for t in tiles), 12,
                             fill="#0b2a40", font_family="monospace"))
        moves = moves_of(legal, "return", pile=c)
        label = f"pile {COLUMN_NAMES[c]}: {height} tile{'s' if height != 1 else ''}"
        if top:
            label += f", {top} on top"
        if tiles:
            label += " (bottom to top: " + ", ".join(tiles) + ")"
        if moves:
            body.append(rect(x0 - 2, PILE_TOP + 4, w + 4, PILE_H - 10, rx=6, fill="none",
                             stroke="#ff8c00", stroke_width=3, class_="hl"))
        out.append(target("".join(body), moves, label))
    return "".join(out)


def _beach(view: dict[str, Any], legal: Legal) -> str:
    by_square: dict[str, list[str]] = {}
    acting: set[int] = set()  # squares of the friends that can move or collect
    for a in legal:
        j = a["json"] or {}
        kind = j.get("kind")
        if kind in ("move", "collect"):
            acting.add(int(j.get("src", j.get("sq", -1))))
        if kind in ("place", "collect"):
            sq = int(j["sq"])
        elif kind == "move":
            sq = int(j["dst"])
        else:
            continue
        by_square.setdefault(SQUARE_NAMES[sq], []).append(a["text"])
    out = [rect(0, BEACH_TOP - 22, WIDTH, ROWS * CELL + 26, fill=SAND)]
    for c in range(COLS):
        out.append(text(LEFT + c * CELL + CELL / 2, BEACH_TOP - 5, COLUMN_NAMES[c], 16,
                        fill="#5b4a1e", font_weight="bold"))
    for r in range(ROWS):
        out.append(text(LEFT / 2, BEACH_TOP + r * CELL + CELL / 2 + 6, str(r + 1), 16,
                        fill="#5b4a1e", font_weight="bold"))
    for r, row in enumerate(view["beach"]):
        for c, tile in enumerate(row):
            x, y = LEFT + c * CELL, BEACH_TOP + r * CELL
            name = SQUARE_NAMES[r * COLS + c]
            owner = view["friends"][r][c]
            body = [rect(x + 1, y + 1, CELL - 2, CELL - 2, fill=SAND, stroke="#c9b27a")]
            if tile:
                body.append(_tile(tile, x + 5, y + 5, CELL - 10))
            if owner is not None:
                if r * COLS + c in acting:
                    body.append(circle(x + CELL - 20, y + 20, 18, fill="#ff8c00"))
                body.append(_friend(int(owner), x + CELL - 20, y + 20, 14))
            moves = by_square.get(name, [])
            if moves:
                body.append(rect(x + 3, y + 3, CELL - 6, CELL - 6, rx=6, fill="none",
                                 stroke="#ff8c00", stroke_width=3, stroke_dasharray="7 4",
                                 class_="hl"))
            label = f"{name}: {tile or 'empty'}"
            if owner is not None:
                label += f", friend of P{int(owner) + 1}"
            out.append(target("".join(body), moves, label))
    return "".join(out)


def _decision_lines(decision: dict[str, Any]) -> list[str]:
    """What the mover's own decision adds to the prompt: whose friend is placed, which
    tiles may go back."""
    if decision.get("kind") == "place" and "owner" in decision:
        return [f"placing a friend of P{int(decision['owner']) + 1} "
                f"({decision.get('count', 1)} to place)"]
    if decision.get("kind") == "return" and "pool" in decision:
        pool = ", ".join(f"{n} {t}" for t, n in decision["pool"].items() if n)
        return [f"{decision.get('reason', 'return')}: {decision.get('to_return', 0)} "
                f"to return, from {pool or 'nothing'}"]
    return []


def _players(view: dict[str, Any], legal: Legal, top: float) -> tuple[str, float]:
    out = []
    you = view.get("you")
    over = view.get("over")
    y = top
    out.append(text(6, y + 16, "player", 14, fill="#444444", text_anchor="start"))
    cols_x = {t: 150 + i * 48 for i, t in enumerate(TILE_ORDER)}
    for t, x in cols_x.items():
        out.append(_tile(t, x - 12, y, 24, label=False))
    out.append(text(407, y + 16, "points", 14, fill="#444444"))
    out.append(text(466, y + 16, "friends", 14, fill="#444444"))
    y += 30
    for p, seat in enumerate(view["seats"]):
        row_y = y + p * ROW_H
        mover = p == view.get("active") and not over
        if mover:
            out.append(rect(2, row_y - 3, WIDTH - 4, ROW_H - 2, rx=6, fill="#fff3c4",
                            stroke="#b45309"))
        name = f"P{p + 1}" + (" (you)" if p == you else "") + (" - turn" if mover else "")
        out.append(_friend(p, 18, row_y + 13, 12))
        out.append(text(36, row_y + 19, name, 15, text_anchor="start",
                        font_weight="bold" if mover else None))
        for t, x in cols_x.items():
            n = seat["held"].get(t, 0)
            out.append(text(x, row_y + 19, n if n else "-", 16, fill=TILE_INK[t]))
        out.append(text(407, row_y + 19, seat["points"], 16, font_weight="bold"))
        wait = f" +{seat['friends_waiting']}" if seat["friends_waiting"] else ""
        out.append(text(466, row_y + 19, f"{seat['friends_on_beach']}{wait}", 16))
    y += len(view["seats"]) * ROW_H + 6
    removed = view.get("removed", {})
    gone = ", ".join(f"{removed[t]} {t}" for t in TILE_ORDER if removed.get(t))
    info = _decision_lines(view.get("decision") or {})
    if over:
        info.append(outcome(view))
        if view.get("end_reason"):
            info.append(f"why it ended: {view['end_reason']}")
    if view.get("pile_visibility") == "all":
        info.append("piles bottom first: " + ", ".join(f"{TILE_LETTER[t]} {t}"
                                                      for t in TILE_ORDER))
    info.append(f"out of the game: {gone or 'nothing'}")
    if view.get("idle_turns"):
        info.append(f"stall guard: {view['idle_turns']} of {view['stall_limit']} turns")
    if view.get("column_end") and not over:
        info.append("a column and its pile are empty: the game ends after this check")
    rows = [row for words in info for row in wrap(words, 62)]
    for k, row in enumerate(rows):
        out.append(text(6, y + 14 + k * 20, row, 14, fill="#333333", text_anchor="start"))
    y += len(rows) * 20 + 6
    buttons = moves_of(legal, ("pass", "reward"))
    bx = 6.0
    for label in buttons:
        w = 22 + 8.6 * len(label)
        if bx + w > WIDTH - 6:
            bx, y = 6.0, y + 38
        out.append(button(bx, y, w, 32, label, [label]))
        bx += w + 10
    if buttons:
        y += 38
    return "".join(out), y


def draw(view: dict[str, Any], legal: Legal, seat: int | None) -> str:
    """The Tide's table for `seat` (None: a spectator) as one `<svg>` element."""
    moves = legal if seat is not None else []
    status = f"The Tide - turn {view.get('turn', 1)}"
    if view.get("over"):
        status += " - game over"
    else:
        status += f", P{int(view['active']) + 1} to play"
    head = text(6, 21, status, 17, text_anchor="start", font_weight="bold")
    note = text(WIDTH - 6, 20, "row 1 faces the sea", 12, fill="#555555",
                text_anchor="end")
    panel, bottom = _players(view, moves, BEACH_TOP + ROWS * CELL + 12)
    body = head + note + _piles(view, moves) + _beach(view, moves) + panel
    return svg(WIDTH, bottom + 4, group(body), "The Tide: the piles, the beach and the players")
