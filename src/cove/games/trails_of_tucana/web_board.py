"""Trails of Tucana drawn as SVG: the two flipped terrain cards, the seat's island (Isla
Petit or Isla Grande, as the view names it) with its trails, villages and sights, the
seat's score sheet, the bonus cards, and every other player's island drawn smaller below.

The island's geometry (where each space is, its terrain, village and sight) is the game's
fixed map data, read from `TABLES` as the terminal renderer does; everything that changes
(trails, letters, circled sights, scores) comes from the view. Every hex carries its
terrain letter and every sight its short name, so colour is never the only signal. Click
targets are the free edges of the legal `draw` and `bonus` actions, drawn as highlighted
strokes between two hex centres, and a `pass` button.
"""

from __future__ import annotations

import math
from typing import Any

from cove.core.svg import (
    Legal,
    button,
    circle,
    coded,
    el,
    group,
    line,
    moves_of,
    outcome,
    polygon,
    rect,
    svg,
    target,
    text,
    title,
    wrap,
    you_first,
)
from cove.games.trails_of_tucana.data import ANY, CARD_NAMES, TABLES, TERRAINS
from cove.games.trails_of_tucana.island import Island

WIDTH = 520
MARGIN = 14
GUTTER = 20
"""Room left of the island for its row numbers."""
AXIS_SIZE = 12
AXIS_GAP = 4
TERRAIN = CARD_NAMES[:TERRAINS]
TERRAIN_FILL = ("#f1d58a", "#79b86f", "#b9b2a8", "#86bdf0")  # per terrain, in data order
TERRAIN_INK = ("#7a5a00", "#1f5a1a", "#4a4540", "#124a7d")
WILD = CARD_NAMES[ANY]
CARD_FILL = dict(zip(TERRAIN, TERRAIN_FILL, strict=True)) | {WILD: "#ffffff"}
SIGHT_SHORT = TABLES.sight_codes
TRAIL = "#7a1f00"
MINE_NOW = "#c2185b"
HILITE = "#ff8c00"
MINI_ID = "tucana-mini-island"
LEGEND = (", ".join(f"{code} {name}" for code, name in zip(TABLES.terrain_codes, TERRAIN,
                                                          strict=True))
          + "; circles: villages, their letter",
          ", ".join(f"{short} {name}" for short, name in zip(SIGHT_SHORT, TABLES.sight_names,
                                                             strict=True))
          + " (CAPITALS: linked)",
          "dark lines: trails; pink dashes: your segments this turn",
          "orange bars with a dot: where you may draw now (click one)")


class _Layout:
    """Where each space of an island sits for a hex of circumradius `r` (pointy top; a
    doubled column is half a hex width)."""

    def __init__(self, isl: Island, r: float) -> None:
        self.isl = isl
        self.r = r
        self.w = math.sqrt(3) * r
        self.index = {label: i for i, label in enumerate(isl.labels)}
        self.cols = max(c for _, c in isl.coords)
        self.rows = max(r for r, _ in isl.coords) + 1
        self.width = self.cols * self.w / 2 + self.w
        self.height = (self.rows - 1) * 1.5 * r + 2 * r

    def centre(self, space: int) -> tuple[float, float]:
        row, col = self.isl.coords[space]
        return col * self.w / 2 + self.w / 2, row * 1.5 * self.r + self.r

    def ends(self, segment: str) -> tuple[int, int] | None:
        a, _, b = segment.partition("-")
        if a in self.index and b in self.index:
            return self.index[a], self.index[b]
        return None


_CORNERS = tuple((math.cos(math.radians(60 * k - 30)), math.sin(math.radians(60 * k - 30)))
                 for k in range(6))


def _hexagon(cx: float, cy: float, r: float, **kw: object) -> str:
    return polygon([(cx + r * dx, cy + r * dy) for dx, dy in _CORNERS], **kw)


_TERRAIN: dict[tuple[str, float, bool], str] = {}
"""Drawn terrains by (island, hex radius, big): the same on every board, half its drawing."""


def _terrain(lay: _Layout, big: bool) -> str:
    """The island's hexes with their terrain (letters only when drawn big)."""
    key = (lay.isl.key, lay.r, big)
    if key not in _TERRAIN:
        _TERRAIN[key] = _draw_terrain(lay, big)
    return _TERRAIN[key]


def _draw_terrain(lay: _Layout, big: bool) -> str:
    out = []
    for i, t in enumerate(lay.isl.terrain):
        cx, cy = lay.centre(i)
        hexagon = _hexagon(cx, cy, lay.r * 0.97, fill=TERRAIN_FILL[t], stroke="#ffffff",
                           stroke_width=1.2 if big else 0.6)
        if big:  # the terrain's letter; the small islands are the same map, named on the big one
            code = TABLES.terrain_codes[t]
            out.append(coded(f"terrain:{TERRAIN[t]}", code, hexagon + text(
                cx, cy + lay.r * 0.78, code, lay.r * 0.34, fill=TERRAIN_INK[t])))
        else:
            out.append(hexagon)
    return "".join(out)


def _axes(lay: _Layout) -> str:
    """Column letters above the island and each row's number left of its first space, as
    the terminal and the move texts name spaces (`HexGrid.names`: `c4` is column c, row 4)."""
    out = []
    for c in sorted({c for _, c in lay.isl.coords}):
        out.append(text(c * lay.w / 2 + lay.w / 2, -AXIS_GAP, chr(ord("a") + c), AXIS_SIZE,
                        fill="#333333", class_="axis"))
    first: dict[int, int] = {}
    for row, c in lay.isl.coords:
        first[row] = min(first.get(row, c), c)
    for row, c in sorted(first.items()):
        out.append(text(c * lay.w / 2 - AXIS_GAP, row * 1.5 * lay.r + lay.r + AXIS_SIZE * 0.35,
                        row + 1, AXIS_SIZE, text_anchor="end", fill="#333333", class_="axis"))
    return "".join(out)


def _edge_moves(legal: Legal) -> dict[str, list[str]]:
    """Legal texts by the segment they draw (`a8-b9`)."""
    out: dict[str, list[str]] = {}
    for a in legal:
        j = a["json"] or {}
        if j.get("kind") in ("draw", "bonus") and "ends" in j:
            out.setdefault(str(j["ends"]), []).append(a["text"])
    return out


def _island(lay: _Layout, sheet: dict[str, Any], now: set[str], moves: dict[str, list[str]],
            big: bool) -> str:
    """One island's sheet over its hexes: trails (this turn's own in pink, dashed),
    villages with the sheet's letters, sights (circled ones ringed and in capitals), then
    the click targets."""
    isl, r = lay.isl, lay.r
    out: list[str] = []
    circled = set(sheet["circled_sights"])
    letters = sheet["letters"]
    for seg in sheet["segments"]:
        ends = lay.ends(seg)
        if ends is None:
            continue
        (x1, y1), (x2, y2) = lay.centre(ends[0]), lay.centre(ends[1])
        mine = seg in now
        out.append(line(x1, y1, x2, y2, stroke=MINE_NOW if mine else TRAIL,
                        stroke_width=r * (0.2 if big else 0.3), stroke_linecap="round",
                        stroke_dasharray=f"{r * 0.3:.1f} {r * 0.15:.1f}" if mine else None,
                        class_="trail", data_seg=seg))
    for i in range(len(isl.coords)):
        cx, cy = lay.centre(i)
        v, s = isl.village[i], isl.sight[i]
        piece = ""
        if v >= 0:
            piece = (circle(cx, cy, r * 0.48, fill="#ffffff", stroke="#6b21a8",
                            stroke_width=r * 0.08)
                     + text(cx, cy + r * 0.2, letters[v], r * 0.6, fill="#6b21a8",
                            font_weight="bold"))
            if big:
                piece += text(cx - r * 0.62, cy - r * 0.42, v + 1, r * 0.28, fill="#333333")
            name = f"{isl.labels[i]} village {v + 1}, letter {letters[v]}"
        elif s >= 0:
            on = isl.labels[i] in circled
            short = SIGHT_SHORT[isl.sight_kind[s]]
            piece = rect(cx - r * 0.5, cy - r * 0.32, r, r * 0.64, rx=r * 0.15,
                         fill="#fde047" if on else "#ffffff",
                         stroke="#b91c1c" if on else "#0e7490",
                         stroke_width=r * (0.14 if on else 0.06))
            size = r * (0.42 if big else 0.56)  # larger on the small islands, to stay legible
            piece += text(cx, cy + size * 0.38, short.upper() if on else short, size,
                          fill="#0e3a47", font_weight="bold" if on else None)
            name = (f"{isl.labels[i]} {TABLES.sight_names[isl.sight_kind[s]]}"
                    + (", linked" if on else ""))
        if piece:  # the big island's villages and sights are named for a screen reader
            out.append(target(piece, [], name) if big else piece)
    for seg, texts in sorted(moves.items()):
        ends = lay.ends(seg)
        if ends is None:
            continue
        (x1, y1), (x2, y2) = lay.centre(ends[0]), lay.centre(ends[1])
        ax, ay = x1 + (x2 - x1) * 0.22, y1 + (y2 - y1) * 0.22
        bx, by = x1 + (x2 - x1) * 0.78, y1 + (y2 - y1) * 0.78
        body = (line(ax, ay, bx, by, stroke="#000000", stroke_opacity=0.001,
                     stroke_width=r * 0.5)
                + line(ax, ay, bx, by, stroke=HILITE, stroke_width=r * 0.16,
                       stroke_linecap="round", class_="hl")
                + circle((x1 + x2) / 2, (y1 + y2) / 2, r * 0.12, fill="#ffffff",
                         stroke=HILITE, stroke_width=r * 0.06))
        a, b = (isl.labels[e] for e in ends)
        what = f"{TERRAIN[isl.terrain[ends[0]]]} to {TERRAIN[isl.terrain[ends[1]]]}"
        out.append(target(body, texts, f"trail {a}-{b} ({what})"))
    return "".join(out)


def _card(x: float, y: float, name: str) -> str:
    body = rect(x, y, 62, 84, rx=8, fill=CARD_FILL.get(name, "#ffffff"), stroke="#333333",
                stroke_width=1.5)
    if name == WILD:
        body += "".join(rect(x + 8 + 12 * k, y + 14, 10, 40, fill=TERRAIN_FILL[k],
                             stroke="#555555", stroke_width=0.5) for k in range(TERRAINS))
    else:
        body += text(x + 31, y + 48, name[0].upper(), 30, fill="#222222",
                     font_weight="bold")
    body += text(x + 31, y + 74, name, 12, fill="#222222")
    return group(body) if name == WILD else coded(f"terrain:{name}", name[0].upper(), body)


def _lines(x: float, y: float, lines: list[str], size: float, **kw: object
           ) -> tuple[str, float]:
    """Left-aligned lines of text from `y` down, each wrapped to the board's width; returns
    them and the y below them."""
    step = size * 1.35
    chars = int((WIDTH - MARGIN - x) / (size * 0.5))
    rows = [row for words in lines for row in wrap(words, chars)]
    out = "".join(text(x, y + size + k * step, row, size, text_anchor="start", **kw)
                  for k, row in enumerate(rows))
    return out, y + len(rows) * step + 4


def _header(view: dict[str, Any], legal: Legal, seat: int | None) -> tuple[str, float]:
    out = []
    if view.get("over"):
        status = outcome(view)
    else:
        status = f"round {view['round']} of {view['rounds']}"
        status += f", turn {view['turn']} of {view['turns_per_round']}"
    out.append(text(MARGIN, 24, "Trails of Tucana", 19, text_anchor="start",
                    font_weight="bold"))
    info = [view["map_name"], status, f"{view['deck']} cards in the deck"]
    part, _ = _lines(MARGIN, 30, info, 14, fill="#333333")
    out.append(part)
    cards = view.get("cards") or []
    for k, name in enumerate(cards):
        out.append(_card(WIDTH - MARGIN - 62 - (len(cards) - 1 - k) * 70, 8, name))
    notes = []
    if view.get("bonus_step") and not view.get("over"):
        notes.append("bonus step: whoever owes a bonus segment draws it anywhere")
    if seat is not None and view.get("bonus_segments"):
        notes.append(f"you owe {view['bonus_segments']} bonus segment(s)")
    if seat is not None and view.get("connected_this_turn"):
        notes.append("connected: " + ", ".join(view["connected_this_turn"]))
    part, y = _lines(MARGIN, 98, notes, 14, fill="#9a3412")
    out.append(part)
    passes = moves_of(legal, "pass")
    if passes:
        out.append(button(MARGIN, y, 190, 32, "pass (draw nothing)", passes))
        y += 38
    return "".join(out), y


def _sheet(view: dict[str, Any], isl: Island, sheet: dict[str, Any], top: float
           ) -> tuple[str, float]:
    """The score sheet: sight values (circled ones ringed), boxes, pairs, bonus, score;
    then the bonus cards and the cards seen this round."""
    out = []
    y = top
    for k, name in enumerate(TABLES.sight_names):
        got = len(sheet["sight_values"].get(name, []))
        out.append(rect(MARGIN, y, 34, 22, rx=4, fill="#ffffff", stroke="#0e7490"))
        out.append(text(MARGIN + 17, y + 16, SIGHT_SHORT[k], 14, fill="#0e3a47"))
        out.append(text(MARGIN + 40, y + 16, name, 14, text_anchor="start"))
        for j, val in enumerate(isl.sight_values[k]):
            cx = MARGIN + 150 + j * 28
            out.append(circle(cx, y + 11, 11, fill="#fde047" if j < got else "#ffffff",
                              stroke="#b91c1c" if j < got else "#999999",
                              stroke_width=2 if j < got else 1))
            out.append(text(cx, y + 16, val, 14, font_weight="bold" if j < got else None))
        y += 26
    boxes = sheet["boxes"]
    lines = [
        "boxes " + " ".join(f"{'I' * (n + 1)}={boxes[n] if n < len(boxes) else '-'}"
                            for n in range(view["rounds"])),
        f"sights now {sheet['sight_sum']}",
        f"pairs {' '.join(sheet['pairs']) or '-'} = {sheet['pair_points']}",
        f"blue bonus {' '.join(sheet['blue_bonus']) or '-'} = {sheet['bonus_points']}",
    ]
    if sheet["linked_red"]:
        lines.append("red linked: " + ", ".join(sheet["linked_red"]))
    part, right = _lines(MARGIN + 250, top + 24, lines, 14)
    out.append(part)
    out.append(text(WIDTH - MARGIN, top + 18, f"score {sheet['score']}", 19,
                    text_anchor="end", font_weight="bold"))
    below = [
        "blue bonus cards left: " + "  ".join(
            f"{L}-{L} {'/'.join(map(str, v)) if v else 'gone'}" for L, v in view["blue"].items())
    ]
    if view.get("red") or view.get("red_taken"):
        red = ", ".join(f"{c['sight']} {c['value']}" for c in view["red"]) or "none left"
        below.append(f"red cards: {red}")
        below += [f"red {c['sight']} taken by " + " ".join(f"P{p + 1}" for p in c["by"])
                  for c in view.get("red_taken", [])]
    if "solo" in view:
        solo = view["solo"]
        gone = " ".join(solo["discarded_blue"]) or "none yet"
        below.append(f"solo: reach {solo['target']} points to win; blue discarded: {gone}")
    if "seen_this_round" in view:
        seen = view["seen_this_round"]
        counts = ", ".join(f"{seen.count(c)} {c}" for c in CARD_FILL if seen.count(c))
        below.append(f"cards seen this round: {counts or 'none'}")
    part, y = _lines(MARGIN, max(y, right) + 2, below, 13, fill="#1e3a8a")
    return "".join(out) + part, y


def _others(view: dict[str, Any], isl: Island, me: int, top: float) -> tuple[str, float]:
    """Every other player's island, small, two or three to a row, with name and score; the
    section is one group of class `others` (each island `other-island`, with `data-seat`)
    so the page can fold it away or show it on a tab."""
    others = you_first(len(view["sheets"]), me)[1:]
    if not others:
        return "", top
    per_row = 2 if len(others) <= 2 else 3
    cell_w = (WIDTH - 2 * MARGIN) / per_row
    small = _Layout(isl, 1.0)
    scale = (cell_w - 10) / small.width
    lay = _Layout(isl, scale)
    cell_h = lay.height + 22
    waiting = set(view.get("to_move", []))
    out = [text(MARGIN, top + 16, "other players' islands", 15, text_anchor="start",
                font_weight="bold")]
    top += 22
    for k, q in enumerate(others):
        x = MARGIN + (k % per_row) * cell_w
        y = top + (k // per_row) * cell_h
        sheet = view["sheets"][q]
        state = ""
        if view.get("over"):
            state = ", winner" if q in view.get("winners", []) else ""
        else:
            state = ", choosing" if q in waiting else ", decided"
            if sheet.get("bonus_owed"):
                state += f", owes {sheet['bonus_owed']}"
        name = f"P{q + 1}: {sheet['score']} pts{state}"
        island = el("use", href=f"#{MINI_ID}") + _island(lay, sheet, set(), {}, big=False)
        out.append(group(title(f"{name}; letters {' '.join(sheet['letters'])}"),
                         text(x + 4, y + 13, name, 12, text_anchor="start"),
                         group(island, transform=f"translate({x + 4:.1f},{y + 18:.1f})"),
                         class_="other-island", data_seat=q, role="img"))
    rows = (len(others) + per_row - 1) // per_row
    shared = el("defs", group(_terrain(lay, big=False), id=MINI_ID))  # drawn once, used by each
    return group(shared, *out, class_="others"), top + rows * cell_h


def draw(view: dict[str, Any], legal: Legal, seat: int | None) -> str:
    """Trails of Tucana's table for `seat` (None: a spectator, shown P1's island first) as
    one `<svg>` element."""
    isl = TABLES.islands[view["map"]]
    moves = legal if seat is not None else []
    me = seat if seat is not None and 0 <= seat < len(view["sheets"]) else 0
    sheet = view["sheets"][me]
    head, y = _header(view, moves, seat)
    who = f"Your island (P{me + 1})" if seat is not None else f"P{me + 1}'s island"
    caption, y = _lines(MARGIN, y, [f"{who}; letters {' '.join(sheet['letters'])}"], 15,
                        font_weight="bold")
    unit = _Layout(isl, 1.0)
    lay = _Layout(isl, (WIDTH - 2 * MARGIN - GUTTER) / unit.width)
    y += AXIS_SIZE + AXIS_GAP  # the column letters
    now = set()
    for done in view.get("this_turn", []) if seat is not None else []:
        kind, _, ends = str(done).partition(" ")
        if kind in ("draw", "bonus"):
            now.add(ends)
    island = group(_axes(lay) + _terrain(lay, big=True)
                   + _island(lay, sheet, now, _edge_moves(moves), True),
                   transform=f"translate({MARGIN + GUTTER},{y:.1f})")
    y += lay.height + 8
    # a spectator draws nothing: the lines about "your" segments and clicks are a seat's
    shown = list(LEGEND) if seat is not None else [*LEGEND[:2], "dark lines: trails"]
    legend, y = _lines(MARGIN, y, shown, 12, fill="#444444")
    panel, y = _sheet(view, isl, sheet, y)
    rest, y = _others(view, isl, me, y)
    body = head + caption + island + legend + panel + rest
    return svg(WIDTH, y + 6, body, f"Trails of Tucana: {view['map_name']}")
