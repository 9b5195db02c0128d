"""Tricky Tides drawn from a seat's view: the 3x4 sea, the trick, the seats, your hand.

Clicks: a hand card plays it; an arrow around your ship sails that way (around the whale
it spouts); a cell takes a move naming it (placing your ship, moving a monster, moving the
octopus's goods); goods on an island pick them up; the order card delivers (or is swapped by
the sea dragon); cubes in a hold go overboard or to the shark or octopus; a monster badge
chooses its order; a seat's name makes it first leader; the anchor drops it.
"""

from __future__ import annotations

from typing import Any

from cove.core.svg import (
    SEAT_COLOURS,
    Legal,
    button_row,
    circle,
    coded,
    group,
    line,
    moves_of,
    outcome,
    polygon,
    rect,
    svg,
    target,
    text,
)
from cove.games.tricky_tides.data import DATA
from cove.games.tricky_tides.geometry import CELL_NAMES, DIRECTIONS, HEADINGS, WIDTH

W = 600
CELL_W, CELL_H = 190, 132
MAP_X, MAP_Y = 15, 52
DELTAS = tuple((dx, dy) for dy, dx in DIRECTIONS)
"""Per heading, one step as (x, y) on the board (the geometry's steps, north up)."""
GOODS_FILL = dict(zip(DATA.goods, DATA.fills, strict=True))
GOODS_SHORT = {g: g[:2].title() for g in DATA.goods}
"""A goods type's name in two letters on its cubes ("Su" sugar), as on the terminal."""
SUIT_FILL = dict(zip(DATA.suits, DATA.suit_fills, strict=True))
SUIT_SHORT = {s: s.split()[-1] for s in DATA.suits}
"""A suit's name on its monster's badge: the last word ("dragon" for the sea dragon)."""
SUIT_MARK = {s: short[0].upper() for s, short in SUIT_SHORT.items()}
"""A suit's letter on its cards and order badges ("D" for the sea dragon)."""


def _ink(fill: str) -> str:
    """The text colour that reads on ``fill`` (#rrggbb): white on a dark shade."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#fff" if 0.299 * r + 0.587 * g + 0.114 * b < 160 else "#222"


def _cell_xy(cell: str) -> tuple[float, float]:
    row, col = divmod(CELL_NAMES.index(cell), WIDTH)
    return MAP_X + col * CELL_W, MAP_Y + row * CELL_H


def _ship_colour(view: dict[str, Any], seat: int) -> str:
    colour = int(view["seats"][seat].get("colour") or seat + 1)
    return SEAT_COLOURS[(colour - 1) % len(SEAT_COLOURS)]


def _ship(x: float, y: float, fill: str, label: str) -> str:
    """A small ship: hull, mast and sail, with the seat's label on the hull."""
    hull = polygon([(x - 17, y), (x + 17, y), (x + 11, y + 10), (x - 11, y + 10)], fill=fill,
                   stroke="#222", stroke_width=1.2)
    mast = line(x, y, x, y - 20, stroke="#222", stroke_width=1.5)
    sail = polygon([(x + 1, y - 19), (x + 1, y - 3), (x + 13, y - 5)], fill="#fff", stroke="#222",
                   stroke_width=0.8)
    return coded(f"seat:{label}", label,
                 hull + mast + sail + text(x, y + 8.5, label, 9, fill="#fff", font_weight="bold"))


def _cube(x: float, y: float, goods: str, count: int | None = None, size: float = 18) -> str:
    """A goods cube with its short name (and a count beside it)."""
    fill = GOODS_FILL.get(goods, "#cccccc")
    short = GOODS_SHORT.get(goods, goods[:2])
    out = coded(f"goods:{goods}", short,
                rect(x, y, size, size, rx=3, fill=fill, stroke="#333", stroke_width=1)
                + text(x + size / 2, y + size / 2 + 4, short, 10, fill=_ink(fill),
                       font_weight="bold"))
    if count is not None:
        out += text(x + size + 3, y + size / 2 + 4, f"×{count}", 11, text_anchor="start")
    return out


def _monster_badge(x: float, y: float, monster: str) -> str:
    fill = SUIT_FILL.get(monster, "#555")
    mark = SUIT_MARK.get(monster, "?")
    return coded(f"monster:{monster}", mark,
                 circle(x, y, 12, fill=fill, stroke="#fff", stroke_width=2)
                 + text(x, y + 4.5, mark, 13, fill="#fff", font_weight="bold"))


def _arrow(cx: float, cy: float, heading: str, fill: str) -> str:
    """An arrow near the edge of the cell centred at (cx, cy), pointing out along `heading`,
    with the heading written on it."""
    dx, dy = DELTAS[HEADINGS.index(heading)]
    norm = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / norm, dy / norm
    px, py = -uy, ux
    bx, by = cx + dx * (CELL_W / 2 - 30), cy + dy * (CELL_H / 2 - 24)
    tip = (bx + ux * 24, by + uy * 24)
    pts = [tip, (bx + px * 15, by + py * 15), (bx - px * 15, by - py * 15)]
    out = polygon(pts, fill=fill, stroke="#111", stroke_width=1.5)
    out += circle(bx, by, 12, fill="#fff", stroke="#111", stroke_width=1.2)
    return out + text(bx, by + 4, heading.upper(), 11, font_weight="bold")


def _compass(cx: float, cy: float, r: float, headings: list[str], colour: str) -> str:
    """The card's compass: a ray for each heading it allows."""
    out = circle(cx, cy, r, fill="#fff", stroke="#888", stroke_width=0.8)
    for h in headings:
        if h not in HEADINGS:
            continue
        dx, dy = DELTAS[HEADINGS.index(h)]
        n = (dx * dx + dy * dy) ** 0.5
        out += line(cx, cy, cx + dx / n * r, cy + dy / n * r, stroke=colour, stroke_width=2.2,
                    stroke_linecap="round")
    return out + circle(cx, cy, 2, fill=colour)


def _card(x: float, y: float, card: dict[str, Any], w: float = 66, h: float = 96) -> str:
    suit = str(card.get("suit", ""))
    fill = SUIT_FILL.get(suit, "#666")
    out = rect(x, y, w, h, rx=6, fill="#fffdf6", stroke="#333", stroke_width=1.2)
    out += rect(x, y, w, 24, rx=6, fill=fill)
    out += text(x + 12, y + 18, card.get("value", "?"), 16, fill="#fff", font_weight="bold")
    out += text(x + w - 12, y + 17, SUIT_MARK.get(suit, "?"), 12, fill="#fff")
    out += _compass(x + w / 2, y + 52, 18, list(card.get("headings") or []), fill)
    out += text(x + w / 2, y + h - 7, suit, 10, fill="#222")
    return out


def _goods_items(goods: dict[str, int]) -> list[tuple[str, int]]:
    return [(g, int(c)) for g, c in goods.items() if int(c) > 0]


def _cell(view: dict[str, Any], cell: dict[str, Any], legal: Legal, me: int | None) -> str:
    name = str(cell["cell"])
    x, y = _cell_xy(name)
    island = cell.get("island")
    out = []
    if cell.get("sea") or island is None:
        out.append(rect(x, y, CELL_W, CELL_H, fill="#9cc9e6", stroke="#2a5d84", stroke_width=1.5))
        for k in range(3):
            wy = y + 40 + k * 30
            out.append(
                f'<path d="M{x + 30} {wy} q15 -8 30 0 t30 0 t30 0 t30 0" fill="none" '
                f'stroke="#ffffff" stroke-width="1.5" opacity="0.8"/>'
            )
        out.append(text(x + CELL_W / 2, y + CELL_H - 8, f"{name} · open sea", 11, fill="#1d4a6e"))
    else:
        out.append(rect(x, y, CELL_W, CELL_H, fill="#9cc9e6", stroke="#2a5d84", stroke_width=1.5))
        out.append(
            f'<ellipse cx="{x + CELL_W / 2}" cy="{y + CELL_H / 2 + 4}" rx="{CELL_W / 2 - 8}" '
            f'ry="{CELL_H / 2 - 10}" fill="#e9d7a4" stroke="#b59a5a" stroke-width="1.5"/>'
        )
        colour = island.get("ship_colour")
        label = f"{name} {island.get('name', '')}"
        out.append(text(x + 6, y + 14, label, 11, text_anchor="start", font_weight="bold"))
        out.append(text(x + CELL_W - 6, y + 14, f"#{island.get('number', '')}", 11,
                        text_anchor="end"))
        if colour:
            fill = SEAT_COLOURS[(int(colour) - 1) % len(SEAT_COLOURS)]
            owner = [f"P{int(q['seat']) + 1}" for q in view["seats"]
                     if int(q.get("colour") or 0) == int(colour)]
            out.append(rect(x + CELL_W - 62, y + 19, 56, 13, rx=3, fill=fill, stroke="#222",
                            stroke_width=0.6))
            out.append(text(x + CELL_W - 34, y + 29, f"{'/'.join(owner) or 'ship'} port", 9,
                            fill="#fff", font_weight="bold"))
        if island.get("monster"):
            out.append(text(x + 6, y + 28, f"{island['monster']} lair", 9, text_anchor="start",
                            fill="#444"))
    body = group(*out)
    # A click on the cell: placing a ship, moving a monster there, moving goods there.
    cell_moves = [
        a["text"] for a in legal
        if (a.get("json") or {}).get("cell") == name and a["json"]["kind"] != "dragon_swaps"
    ]
    # Your own ship's cell also stays docked / stops at sea.
    ship_cell = view["seats"][me]["ship"] if me is not None else None
    if ship_cell == name:
        cell_moves += moves_of(legal, ("stay_docked", "stop_at_sea"))
    parts = [target(body, cell_moves, f"{name}: {island['name'] if island else 'open sea'}")]

    # Goods on the island (click: pick up; the octopus and the shark name them too).
    gx, gy = x + 10, y + 36
    for goods, count in _goods_items(dict(cell.get("goods") or {})):
        moves = [t for t, j in _jsons(legal, "pick_up") if goods in j["goods"]]
        if ship_cell != name:
            moves = []
        moves += _monster_goods_moves(view, legal, name, goods)
        parts.append(target(_cube(gx, gy, goods, count), moves, f"{count} {goods} on {name}"))
        gx += 44
        if gx > x + 100:
            gx, gy = x + 10, gy + 22
    # The order card.
    order = cell.get("order")
    if order:
        ox, oy = x + 8, y + 82
        ow, oh = 104, 34
        wanted = " + ".join(f"{c} {g}" for g, c in _goods_items(dict(order.get("goods") or {})))
        card = rect(ox, oy, ow, oh, rx=4, fill="#fff6dc", stroke="#7a5a20", stroke_width=1.2)
        card += text(ox + 4, oy + 13, f"order {order.get('gold', 0)} gold", 10,
                     text_anchor="start", font_weight="bold")
        card += _monster_badge(ox + ow - 12, oy + 11, str(order.get("monster", "")))
        wx = ox + 4
        for goods, count in _goods_items(dict(order.get("goods") or {})):
            for _ in range(count):  # a cube with its short name, as on the islands
                card += _cube(wx, oy + 18, goods, size=15)
                wx += 17
        moves = moves_of(legal, "dragon_swaps", cell=name)
        if ship_cell == name:
            moves += moves_of(legal, "deliver")
        parts.append(target(card, moves, f"order on {name}: {order.get('gold', 0)} gold for "
                            f"{wanted} ({order.get('monster', '')})"))
    return "".join(parts)


def _jsons(legal: Legal, kind: str) -> list[tuple[str, dict[str, Any]]]:
    return [(str(a["text"]), a["json"]) for a in legal
            if (a.get("json") or {}).get("kind") == kind]


def _monster_goods_moves(view: dict[str, Any], legal: Legal, cell: str, goods: str) -> list[str]:
    """Monster moves that name goods lying on `cell` (the octopus's island, the shark's meal)."""
    lairs = {m["monster"]: m["cell"] for m in view.get("monsters") or []}
    out = []
    if lairs.get("octopus") == cell:
        out += moves_of(legal, "octopus_moves", goods=goods)
    if lairs.get("shark") == cell:
        out += moves_of(legal, "shark_eats", goods=goods)
    return out


def _ships_and_monsters(view: dict[str, Any], legal: Legal) -> str:
    out = []
    for cell in view["map"]:
        x, y = _cell_xy(str(cell["cell"]))
        for i, s in enumerate(cell.get("ships") or []):
            sx, sy = x + CELL_W - 24 - i * 40, y + CELL_H - 26
            out.append(group(
                _ship(sx, sy, _ship_colour(view, int(s)), f"P{int(s) + 1}"),
            ))
    for m in view.get("monsters") or []:
        name = str(m["monster"])
        x, y = _cell_xy(str(m["cell"]))
        others = [n for n in view.get("monsters") or [] if n["cell"] == m["cell"]]
        mx, my = x + CELL_W - 29, y + 46 + 25 * others.index(m)
        moves = moves_of(legal, "monster_order", monster=name)
        tag = rect(mx - 25, my - 11, 50, 22, rx=11, fill=SUIT_FILL.get(name, "#555"),
                   stroke="#111", stroke_width=2)
        tag += text(mx, my + 4, SUIT_SHORT.get(name, name), 10, fill="#fff", font_weight="bold")
        out.append(target(tag, moves,
                          f"the {name} on {m['cell']}: {m.get('ability', '')}"))
    return "".join(out)


def _arrows(view: dict[str, Any], legal: Legal, me: int | None) -> str:
    out = []
    groups: list[tuple[str | None, str]] = []
    if me is not None:
        groups.append((view["seats"][me].get("ship"), "sail"))
    for m in view.get("monsters") or []:
        if m["monster"] == "whale":
            groups.append((m["cell"], "whale_spouts"))
    heading = view.get("heading")
    for cell, kind in groups:
        if not cell:
            continue
        x, y = _cell_xy(str(cell))
        cx, cy = x + CELL_W / 2, y + CELL_H / 2
        for h in HEADINGS:
            moves = moves_of(legal, kind, heading=h)
            if kind == "sail" and h == heading:
                moves += moves_of(legal, "sail_on")
            if not moves:
                continue
            fill = "#ffd24a" if kind == "sail" else "#7fc6ff"
            who = "sail" if kind == "sail" else "the whale spouts"
            out.append(target(_arrow(cx, cy, h, fill), moves, f"{who} {h}"))
    return "".join(out)


def _seats(view: dict[str, Any], legal: Legal, me: int | None, y0: float) -> tuple[str, float]:
    out = [text(15, y0 + 14, "Crews", 14, text_anchor="start", font_weight="bold")]
    y = y0 + 22
    order = list(view.get("sail_order") or [])
    for s in view["seats"]:
        i = int(s["seat"])
        h = 46
        you = i == me
        bg = rect(15, y, W - 30, h, rx=6, fill="#fffaf0" if not you else "#fff1c4",
                  stroke="#a08a5a" if not you else "#c88a00", stroke_width=1 if not you else 2.5)
        name = f"P{i + 1} {s.get('name', '')}" if s.get("name") != f"P{i + 1}" else f"P{i + 1}"
        if you:
            name += " (you)"
        label = bg + _ship(38, y + 24, _ship_colour(view, i), f"P{i + 1}")
        label += text(62, y + 18, name, 13, text_anchor="start", font_weight="bold")
        info = [f"at {s.get('ship') or '—'}", f"score {s.get('public_score', 0)}",
                f"cards {s.get('cards_in_hand', 0)}"]
        if you and "my_score" in view:
            info[1] = f"score {view['my_score']}"
        if view.get("leader") == i:
            info.append("rum barrel")
        label += text(62, y + 36, " · ".join(info), 11, text_anchor="start", fill="#333")
        moves = moves_of(legal, "first_leader", player=i)
        more = " (with your sightings bonus)" if you and "my_score" in view else ""
        if i in order:
            more += f", sails #{order.index(i) + 1}"
        out.append(target(label, moves, f"P{i + 1}: {', '.join(info)}{more}"))
        # Anchor.
        ax, ay = 300, y + 23
        anchor = _anchor(ax, ay, bool(s.get("anchor")))
        amoves = moves_of(legal, "drop_anchor") if you else []
        out.append(target(anchor, amoves,
                          "drop anchor" if amoves else
                          f"P{i + 1} {'has' if s.get('anchor') else 'has used'} the anchor"))
        # Hold.
        hx = 330
        for goods, count in _goods_items(dict(s.get("hold") or {})):
            moves = moves_of(legal, ("shark_takes", "octopus_grabs"), goods=goods, player=i)
            if you:
                moves += moves_of(legal, "overboard", goods=goods)
            out.append(target(_cube(hx, y + 14, goods, count), moves,
                              f"P{i + 1} hold: {count} {goods}"))
            hx += 44
        delivered = len(s.get("orders") or [])
        out.append(text(W - 22, y + 18, f"orders {delivered}", 11, text_anchor="end"))
        out.append(text(W - 22, y + 34, f"{s.get('order_gold', 0)} gold", 11, text_anchor="end"))
        y += h + 6
    return "".join(out), y


def _anchor(x: float, y: float, has: bool) -> str:
    colour = "#333" if has else "#bbb"
    out = circle(x, y - 11, 3.5, fill="none", stroke=colour, stroke_width=2)
    out += line(x, y - 7, x, y + 11, stroke=colour, stroke_width=2.5)
    out += line(x - 7, y - 3, x + 7, y - 3, stroke=colour, stroke_width=2)
    out += f'<path d="M{x - 11} {y + 3} q11 14 22 0" fill="none" stroke="{colour}" ' \
           f'stroke-width="2.5"/>'
    if not has:
        out += line(x - 12, y - 14, x + 12, y + 14, stroke="#c00", stroke_width=2)
    return out


def _trick(view: dict[str, Any], y0: float) -> tuple[str, float]:
    led = view.get("led_suit")
    head = "Trick" + (f" · led {led}" if led else "")
    out = [text(15, y0 + 14, head, 14, text_anchor="start", font_weight="bold")]
    x = 15
    order = list(view.get("sail_order") or [])
    for s in view["seats"]:
        i = int(s["seat"])
        card = s.get("played")
        out.append(text(x + 33, y0 + 34, f"P{i + 1}" + (" · lead" if view.get("lead") == i
                                                         else ""), 11))
        if card:
            out.append(_card(x, y0 + 40, card))
        else:
            out.append(rect(x, y0 + 40, 66, 96, rx=6, fill="none", stroke="#999",
                            stroke_dasharray="4 3"))
        if i in order:
            out.append(text(x + 33, y0 + 152, f"sails #{order.index(i) + 1}", 11))
        x += 80
    return "".join(out), y0 + 160


def _hand(view: dict[str, Any], legal: Legal, y0: float) -> tuple[str, float]:
    hand = list(view.get("hand") or [])
    out = [text(15, y0 + 14, f"Your hand ({len(hand)})", 14, text_anchor="start",
                font_weight="bold")]
    per_row = 8
    for k, card in enumerate(hand):
        x = 15 + (k % per_row) * 72
        y = y0 + 22 + (k // per_row) * 104
        moves = moves_of(legal, "play", suit=card.get("suit"), value=card.get("value"))
        body = _card(x, y, card)
        if moves:
            body += rect(x - 2, y - 2, 70, 100, rx=7, fill="none", stroke="#e0a000",
                         stroke_width=2.5)
        out.append(target(body, moves, f"in hand: {card.get('card')} (headings "
                          f"{' '.join(card.get('headings') or [])})"))
    rows = max(1, (len(hand) + per_row - 1) // per_row)
    y = y0 + 26 + rows * 104
    sight = view.get("sightings")
    if isinstance(sight, dict):
        bonus = " · ".join(f"{m} +{g}" for m, g in dict(sight.get("bonus") or {}).items())
        label = f"Your sightings card {sight.get('id', '')}: gold per order delivered: {bonus}"
        out.append(group(f"<title>your sightings card: {bonus}</title>",
                         text(15, y + 12, label, 11, text_anchor="start", fill="#2a4a6a")))
        y += 18
    return "".join(out), y


def draw(view: dict[str, Any], legal: Legal, seat: int | None) -> str:
    me = seat if seat is not None and 0 <= seat < len(view.get("seats") or []) else None
    parts = []
    status = (f"Round {view.get('round')}/{view.get('rounds')} · hand {view.get('hand_no')}/"
              f"{view.get('hands_per_round')} · hold limit {view.get('hold_limit')} · "
              f"bag {view.get('bag_size')} · orders left {view.get('order_deck_size')}")
    parts.append(text(15, 20, status, 13, text_anchor="start"))
    prompt = outcome(view)
    parts.append(text(15, 40, prompt, 12, text_anchor="start", fill="#6a3d00"))
    for cell in view["map"]:
        parts.append(_cell(view, cell, legal, me))
    parts.append(_ships_and_monsters(view, legal))
    parts.append(_arrows(view, legal, me))
    y: float = MAP_Y + 4 * CELL_H + 10
    event = view.get("event")
    if event:
        parts.append(rect(15, y, W - 30, 40, rx=6, fill="#eef4ff", stroke="#4a6fa5"))
        parts.append(text(25, y + 16, f"Event: {event.get('name', '')}", 12, text_anchor="start",
                          font_weight="bold"))
        changes = "; ".join(event.get("changes") or []) or event.get("text", "")
        parts.append(text(25, y + 32, str(changes)[:95], 10, text_anchor="start"))
        y += 48
    trick, y = _trick(view, y)
    parts.append(trick)
    seats, y = _seats(view, legal, me, y)
    parts.append(seats)
    if me is not None and "hand" in view:
        hand, y = _hand(view, legal, y)
        parts.append(hand)
    extra = [("pass", "Pass"), ("stay_docked", "Stay docked"), ("stop_at_sea", "Stop at sea"),
             ("sail_on", "Sail on")]
    parts.append(button_row(15, y + 6, legal, extra))
    y += 48
    return svg(W, y, "".join(parts), "Tricky Tides board")
