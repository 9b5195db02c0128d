"""Tiny Epic Pirates drawn from a seat's view: the 4x4 sea, the gold market, the crew line,
the battle in progress and each pirate's helm (wheel, assignments, legend and gold tracks,
treasures, booty, captain and crew).

The sea reads like the game's cards, named as every Cove board is: the column's letter a
(west) to d (east), then the row's number 1 (north) to 4 (south).
Clicks: a sea card takes the move naming it (starting cove, sailing there, the Navy's
corner or move, a merchant's port); the wheel's space moves the Captain there (the
Captain's own space performs its Order); an assignment box or a wheel Deckhand takes the
Deckhand moves from it; the Captain card chooses its side, mutinies or takes its bonus; a
crew card takes its bonus; a crew-line card is taken; a booty cube is kept or lost; a
battle die is re-rolled or set; buttons take the rest (stop, skip, done, fire...).
"""

from __future__ import annotations

import math
import re
from typing import Any

from cove.core.svg import (
    SEAT_COLOURS,
    Legal,
    button,
    circle,
    coded,
    line,
    lines,
    outcome,
    polygon,
    rect,
    svg,
    target,
    text,
    you_first,
)
from cove.games.tiny_epic_pirates import data, sea
from cove.games.tiny_epic_pirates.actions import dice_chosen

W = 600
CELL_W, CELL_H = 140, 100
SEA_X, SEA_Y = 20, 62
DIRECTIONS = tuple(name for _, _, name in sea.DIRS)
KIND_FILL = {"storm": "#8d99a6", "cove": "#f1e2b0", "market": "#f6d9a8", "settlement": "#e7c98e"}
_CELL = re.compile(r"\b([a-d][1-4])\b")


def _cell_xy(cell: str) -> tuple[float, float]:
    row, col = sea.SEA.position(sea.SEA.parse(cell))
    return SEA_X + col * CELL_W, SEA_Y + row * CELL_H


def _neighbour(cell: str, direction: str) -> str | None:
    d = DIRECTIONS.index(direction)
    return next((sea.cell(t) for k, t in sea.NEIGH[sea.SEA.parse(cell)] if k == d), None)


def _acts(legal: Legal, *kinds: str) -> list[tuple[str, dict[str, Any]]]:
    return [(str(a["text"]), a.get("json") or {}) for a in legal
            if (a.get("json") or {}).get("kind") in kinds]


def _cube(x: float, y: float, booty: str, size: float = 18) -> str:
    """A booty cube in its colour and with its label from the data file."""
    ruleset = data.presented()
    known = booty in ruleset.booty
    fill = ruleset.booty_colour[ruleset.booty.index(booty)] if known else "#ccc"
    short = ruleset.booty_short[ruleset.booty.index(booty)] if known else booty[:2]
    ink = "#222" if known and _light(fill) else "#fff"
    return coded(f"goods:{booty}", short,
                 rect(x, y, size, size, rx=3, fill=fill, stroke="#222", stroke_width=1)
                 + text(x + size / 2, y + size / 2 + 4, short, 9.5, fill=ink,
                        font_weight="bold"))


def _light(colour: str) -> bool:
    """A ``#rrggbb`` colour light enough for dark ink (its luma above half)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b > 127.5


def _ship(x: float, y: float, fill: str, label: str, scale: float = 1.0) -> str:
    s = scale
    hull = polygon([(x - 18 * s, y), (x + 18 * s, y), (x + 12 * s, y + 11 * s),
                    (x - 12 * s, y + 11 * s)], fill=fill, stroke="#111", stroke_width=1.2)
    mast = line(x, y, x, y - 20 * s, stroke="#111", stroke_width=1.5)
    sail = polygon([(x - 12 * s, y - 18 * s), (x + 12 * s, y - 18 * s), (x + 10 * s, y - 5 * s),
                    (x - 10 * s, y - 5 * s)], fill="#f8f4e6", stroke="#111", stroke_width=0.8)
    return hull + mast + sail + text(x, y + 9 * s, label, 9 * s, fill="#fff", font_weight="bold")


def _sea_card(view: dict[str, Any], card: dict[str, Any], legal: Legal) -> str:
    cell = str(card["cell"])
    x, y = _cell_xy(cell)
    kind = str(card.get("kind", ""))
    out = rect(x, y, CELL_W, CELL_H, fill="#5d9ccf", stroke="#1b3f60", stroke_width=1.5)
    out += rect(x + 4, y + 4, CELL_W - 8, CELL_H - 8, rx=8, fill=KIND_FILL.get(kind, "#ddd"),
                stroke="#6b5326", stroke_width=1)
    if kind == "storm":
        for r in (10, 18, 26):
            out += circle(x + CELL_W / 2, y + 52, r, fill="none", stroke="#fff",
                          stroke_width=2, stroke_dasharray="10 6")
    out += text(x + 9, y + 18, f"{cell} {card.get('name', '')}", 10.5, text_anchor="start",
                font_weight="bold")
    note = kind
    if kind == "settlement":
        note = f"settlement · plunder {card.get('plunder', 0)}"
    elif kind == "market":
        note = f"market · {card.get('market')}"
    out += text(x + 9, y + 31, note, 9, text_anchor="start", fill="#333")
    if card.get("searched"):
        out += text(x + 9, y + 43, "searched", 9, text_anchor="start", fill="#333",
                    font_style="italic")
    if kind == "market" and card.get("market"):
        out += _cube(x + CELL_W - 28, y + 22, str(card["market"]))
    if card.get("port"):
        out += rect(x + CELL_W - 44, y + 36, 36, 16, rx=3, fill="#fff", stroke="#1b3f60")
        out += text(x + CELL_W - 26, y + 48, "PORT", 9, font_weight="bold", fill="#1b3f60")
    moves = [t for t, j in _acts(legal, "cove", "navy_setup") if j.get("a") == _index(cell)]
    moves += [t for t, j in _acts(legal, "sail", "port") if _named_cell(t) == cell]
    navy = next((c["cell"] for c in view.get("sea") or [] if c.get("navy")), None)
    if navy:
        moves += [t for t, j in _acts(legal, "navy")
                  if _neighbour(str(navy), DIRECTIONS[int(j.get("a", 0)) % 4]) == cell]
    return target(out, moves, f"{cell} {card.get('name', '')} ({note})")


def _index(cell: str) -> int:
    return sea.SEA.parse(cell)


def _named_cell(move: str) -> str | None:
    found = _CELL.findall(move)
    return found[-1] if found else None


def _pieces(view: dict[str, Any], legal: Legal) -> str:
    """Navy, merchants and pirate ships on the sea, stacked along each card's bottom."""
    out = []
    slots: dict[str, int] = {}

    def place(cell: str) -> tuple[float, float]:
        k = slots.get(cell, 0)
        slots[cell] = k + 1
        x, y = _cell_xy(cell)
        return x + 24 + 31 * k, y + CELL_H - 22

    for card in view.get("sea") or []:
        if card.get("navy"):
            x, y = place(str(card["cell"]))
            body = _ship(x, y, "#1a1a1a", "NAVY", 1.1)
            moves = [t for t, _ in _acts(legal, "do", "bonus") if t.endswith("attack navy")
                     or " attack navy" in t]
            out.append(target(body, moves, f"the Navy at {card['cell']}"))
    for m in view.get("merchants") or []:
        if not m.get("cell"):
            continue
        x, y = place(str(m["cell"]))
        body = _ship(x, y, "#f3f0e6", "", 1.0)
        body += text(x, y + 9, f"M{str(m.get('name', '')).upper()}", 9, font_weight="bold")
        if m.get("cube"):
            body += _cube(x - 8, y - 38, str(m["cube"]), 14)
        name = f"merchant {m.get('name')}"
        moves = [t for t, _ in _acts(legal, "do", "bonus") if t.find(f"attack {name}") >= 0]
        out.append(target(body, moves, f"{name} at {m['cell']} (card {m.get('card')}, carries "
                          f"{m.get('cube') or 'nothing'}, heading for {m.get('heading_for')})"))
    for i, p in enumerate(view.get("pirates") or []):
        if not p.get("cell"):
            continue
        x, y = place(str(p["cell"]))
        label = "S" if p.get("solo_pirate") else str(p.get("name", f"P{i + 1}"))
        body = coded(f"seat:{label}", label,
                     _ship(x, y, SEAT_COLOURS[i % len(SEAT_COLOURS)], label))
        if p.get("hidden"):
            body += text(x, y - 24, "hidden", 8, fill="#222", font_style="italic")
        who = str(p.get("name", "")).lower()
        moves = [t for t, _ in _acts(legal, "do", "bonus") if t.find(f"attack {who}") >= 0]
        out.append(target(body, moves, f"{p.get('name')} ship at {p['cell']}"
                          + (" (hidden)" if p.get("hidden") else "")))
    return "".join(out)


def _wheel(cx: float, cy: float, p: dict[str, Any], legal: Legal, mine: bool) -> str:
    """The ship's wheel: six Order spaces around a hub, the Captain and the Deckhands."""
    out = [circle(cx, cy, 62, fill="#b98a4e", stroke="#4a3015", stroke_width=3)]
    for k in range(6):
        ang = math.radians(-90 + k * 60)
        out.append(line(cx, cy, cx + 70 * math.cos(ang), cy + 70 * math.sin(ang),
                        stroke="#4a3015", stroke_width=4, stroke_linecap="round"))
    out.append(circle(cx, cy, 12, fill="#4a3015"))
    wheel = list(p.get("wheel") or [])
    captain = p.get("captain_at")
    hands = list(p.get("wheel_deckhands") or [])
    for k, order in enumerate(wheel):
        ang = math.radians(-60 + k * 60)
        sx, sy = cx + 40 * math.cos(ang), cy + 40 * math.sin(ang)
        body = circle(sx, sy, 19, fill="#f8ecd0" if k != captain else "#ffd24a", stroke="#4a3015",
                      stroke_width=1.5)
        body += text(sx, sy - 3, f"{k}", 9, fill="#555")
        body += text(sx, sy + 8, order, 8.5, font_weight="bold")
        if k == captain:
            ox, oy = cx + 66 * math.cos(ang), cy + 66 * math.sin(ang)
            body += circle(sx, sy, 19, fill="none", stroke="#a00000", stroke_width=3)
            body += circle(ox, oy, 9, fill="#a00000", stroke="#fff", stroke_width=1.5)
            body += text(ox, oy + 4, "C", 10, fill="#fff", font_weight="bold")
        if k in hands:
            body += circle(sx + 15, sy - 13, 6, fill="#333", stroke="#fff")
            body += text(sx + 15, sy - 10, "d", 8, fill="#fff")
        moves: list[str] = []
        if mine:
            moves = [t for t, j in _acts(legal, "wheel") if j.get("a") == k]
            moves += [t for t, j in _acts(legal, "jostle", "move") if j.get("a") == 10 + k]
            if k == captain:
                moves += [t for t, _ in _acts(legal, "do")
                          if " attack " not in f" {t}" or not _attack_target(t)]
        label = f"{p.get('name')} wheel space {k}: {order}"
        label += (" (Captain)" if k == captain else "") + (" (Deckhand)" if k in hands else "")
        out.append(target(body, moves, label))
    return "".join(out)


def _attack_target(move: str) -> bool:
    return bool(re.search(r"attack (merchant [ab]|p\d|navy|the solo pirate)", move))


def _helm(view: dict[str, Any], legal: Legal, me: int | None, i: int, y0: float
          ) -> tuple[str, float]:
    p = view["pirates"][i]
    mine = i == me
    out: list[str] = []
    crew_rows = max(1, (len(p.get("crew") or []) + 2) // 3)
    h = 222 + 66 * (crew_rows - 1)
    out.append(rect(15, y0, W - 30, h, rx=8, fill="#fff1c4" if mine else "#fffaf0",
                    stroke="#c88a00" if mine else "#a08a5a", stroke_width=2.5 if mine else 1))
    name = str(p.get("name", f"P{i + 1}")) + (" (you)" if mine else "")
    mark = "S" if p.get("solo_pirate") else f"P{i + 1}"
    out.append(coded(f"seat:{mark}", mark, _ship(38, y0 + 26, SEAT_COLOURS[i % len(SEAT_COLOURS)],
                                                 mark)))
    out.append(text(62, y0 + 22, name, 13, text_anchor="start", font_weight="bold"))
    out.append(text(62, y0 + 36, f"at {p.get('cell') or '—'}" + (" · hidden" if p.get("hidden")
                    else "") + (" · bloody" if p.get("bloody") else ""), 10,
                    text_anchor="start", fill="#444"))
    out.append(_wheel(95, y0 + 130, p, legal, mine))
    # Assignments.
    ax, ay = 185.0, y0 + 12
    counts = dict(p.get("assignments") or {})
    for k, name_k in enumerate(data.ASSIGN):
        bx: float = ax + k * 96
        n = int(counts.get(name_k, 0))
        body = rect(bx, ay, 90, 36, rx=5, fill="#efe3c6", stroke="#6b5326")
        body += text(bx + 45, ay + 13, name_k, 10, font_weight="bold")
        for d in range(n):
            body += circle(bx + 12 + d * 14, ay + 26, 5, fill="#333", stroke="#fff")
        body += text(bx + 84, ay + 30, str(n), 11, text_anchor="end")
        moves: list[str] = []
        if mine:
            moves = [t for t, j in _acts(legal, "pay", "assign") if j.get("a") == k]
            moves += [t for t, j in _acts(legal, "jostle", "move") if j.get("a") == k]
        out.append(target(body, moves, f"{p.get('name')} {name_k}: {n} deckhands"))
    # Legend and gold tracks.
    ty = ay + 46
    legend = int(p.get("legend", 0))
    out.append(text(185, ty + 11, f"legend {legend} {p.get('legend_name', '')}", 10,
                    text_anchor="start", font_weight="bold"))
    for k in range(1, data.LEGEND_LEVELS + 1):
        fill = "#7a0000" if k <= legend else "#fff"
        out.append(rect(310 + (k - 1) * 17, ty + 1, 14, 14, fill=fill, stroke="#444"))
        out.append(text(317 + (k - 1) * 17, ty + 12, k, 8, fill="#fff" if k <= legend else "#444"))
    gold = int(p.get("gold", 0))
    out.append(text(185, ty + 31, f"gold {gold}", 10, text_anchor="start", font_weight="bold"))
    for k in range(1, data.presented().gold_cap + 1):
        fill = "#f2c500" if k <= gold else "#fff"
        out.append(circle(247 + k * 17, ty + 26, 6.5, fill=fill, stroke="#806000"))
        out.append(text(247 + k * 17, ty + 29, k, 8, fill="#5a4000"))
    # Treasures, booty, tokens.
    ty += 42
    nxt = p.get("next_treasure")
    trs = list(p.get("treasures") or [])
    label = f"treasures {len(trs)}" + (f" ({', '.join(trs)})" if trs else "")
    if nxt:
        label += f" · next: {nxt.get('cost')} gold at legend {nxt.get('min_legend')}"
    out.append(text(185, ty + 10, label, 10, text_anchor="start"))
    bx = 185
    out.append(text(bx, ty + 30, "booty", 10, text_anchor="start", fill="#555"))
    bx += 34
    for booty in p.get("booty") or []:
        moves = []
        if mine:
            moves = [t for t, _ in _acts(legal, "lose") if t == f"lose {booty}"]
            moves += [t for t, _ in _acts(legal, "keep") if t.endswith(f", discard {booty}")]
        out.append(target(_cube(bx, ty + 17, str(booty)), moves, f"{p.get('name')} booty: "
                          f"{booty}"))
        bx += 22
    tokens = [f"sure-fire {p.get('surefire', 0)}"]
    if p.get("sail_tokens"):
        tokens.append("sail tokens " + " ".join(f"+{t}" for t in p["sail_tokens"]))
    tok = text(bx + 10, ty + 30, " · ".join(tokens), 10, text_anchor="start")
    out.append(target(tok, [t for t, _ in _acts(legal, "token")] if mine else [],
                      f"{p.get('name')}: {', '.join(tokens)}"))
    # Captain and crew cards.
    cy = ty + 42
    cap = rect(185, cy, 120, 62, rx=5, fill="#f5ecd6", stroke="#6b5326", stroke_width=1.3)
    cap += text(190, cy + 13, str(p.get("captain", "")), 9.5, text_anchor="start",
                font_weight="bold")
    cap += text(190, cy + 26, f"side {p.get('captain_side')} · on {p.get('captain_trigger')}", 9,
                text_anchor="start")
    dice = " ".join(str(d) for d in p.get("captain_dice") or [])
    cap += text(190, cy + 38, f"dice {dice}", 9, text_anchor="start")
    cap_moves: list[str] = []
    if mine:
        cap_moves = [t for t, _ in _acts(legal, "side", "mutiny")]
        cap_moves += [t for t, j in _acts(legal, "bonus") if j.get("c") == -1]
    out.append(target(cap, cap_moves, f"{p.get('name')} captain {p.get('captain')}, side "
                      f"{p.get('captain_side')}, bonus on {p.get('captain_trigger')}"))
    for k, crew in enumerate(p.get("crew") or []):
        cx, cy = 311 + 86 * (k % 3), ty + 42 + 66 * (k // 3)
        cname = str(crew.get("name", ""))
        body = rect(cx, cy, 82, 62, rx=5, fill="#fbf7ee", stroke="#35506b")
        body += lines(cx + 4, cy + 12, cname, 9, 15, limit=2, font_weight="bold")
        body += text(cx + 4, cy + 44, f"on {crew.get('trigger')}", 8.5, text_anchor="start")
        bonus = crew.get("bonus") or []
        bonus_text = " ".join(bonus) if isinstance(bonus, list) else str(bonus)
        body += text(cx + 4, cy + 56, bonus_text[:16], 8.5, text_anchor="start", fill="#444")
        moves = [t for t, j in _acts(legal, "bonus")
                 if j.get("c") != -1 and t.endswith(f"({cname.lower()})")] if mine else []
        out.append(target(body, moves, f"{p.get('name')} crew {cname}: bonus "
                          f"{bonus_text} on {crew.get('trigger')}"))
    return "".join(out), y0 + h + 8


def _battle(view: dict[str, Any], legal: Legal, me: int | None, y0: float) -> tuple[str, float]:
    battle = view.get("battle")
    if not battle:
        return "", y0
    out = [rect(15, y0, W - 30, 84, rx=8, fill="#fbe3e0", stroke="#8a1a10", stroke_width=2)]
    pirates = view.get("pirates") or []
    att = str(battle.get("attacker"))
    against = " ".join(str(w) for w in (battle.get("against"), battle.get("target")) if w)
    out.append(text(25, y0 + 18, f"Battle: {att} attacks {against}", 12, text_anchor="start",
                    font_weight="bold"))
    mine = me is not None and pirates[me].get("name") == att
    mine_row = "attacker_dice" if mine else "defender_dice"
    for r, key in enumerate(("attacker_dice", "defender_dice")):
        y = y0 + 28 + r * 27
        out.append(text(25, y + 16, "attacker" if r == 0 else "defender", 10,
                        text_anchor="start"))
        for k, face in enumerate(battle.get(key) or []):
            body = rect(100 + k * 30, y, 24, 24, rx=4, fill="#fff", stroke="#222",
                        stroke_width=1.3)
            body += text(112 + k * 30, y + 17, face, 14, font_weight="bold")
            moves: list[str] = []
            if key == mine_row and me is not None:
                moves = [t for t, j in _acts(legal, "surefire") if j.get("a") == k]
                moves += [t for t, j in _acts(legal, "reroll")
                          if k in dice_chosen(int(j.get("a", 0)), k + 1)]
            out.append(target(body, moves, f"{key.split('_')[0]} die {k + 1}: {face}"))
    return "".join(out), y0 + 92


def draw(view: dict[str, Any], legal: Legal, seat: int | None) -> str:
    pirates = view.get("pirates") or []
    me = seat if seat is not None and 0 <= seat < len(pirates) else None
    parts = [text(15, 20, f"Round {view.get('round')} · turn of {view.get('turn_of')} · bag "
                  f"{view.get('bag')} · merchants left {view.get('merchant_deck')} · search "
                  f"tokens {view.get('search_tokens_left')}"
                  + (" · last round" if view.get("end_triggered") else ""), 12,
                  text_anchor="start")]
    prompt = outcome(view)
    parts.append(lines(15, 38, prompt, 11.5, 88, limit=2, fill="#6a3d00"))
    for card in view.get("sea") or []:
        parts.append(_sea_card(view, card, legal))
    parts.append(_pieces(view, legal))
    y: float = SEA_Y + 4 * CELL_H + 10
    # The gold market.
    parts.append(text(15, y + 16, "Market", 13, text_anchor="start", font_weight="bold"))
    for k, booty in enumerate(view.get("market") or []):
        bx = 80 + k * 70
        parts.append(rect(bx, y, 64, 24, rx=4, fill="#fff6dc", stroke="#806000"))
        parts.append(text(bx + 18, y + 16, f"{k + 2}g", 11, font_weight="bold"))
        parts.append(_cube(bx + 36, y + 3, str(booty)))
    y += 32
    # The crew line.
    line_names = list(view.get("crew_line") or [])
    parts.append(text(15, y + 16, f"Crew line (deck {view.get('crew_deck', 0)})", 13,
                      text_anchor="start", font_weight="bold"))
    y += 22
    for k, cname in enumerate(line_names):
        body = rect(15 + k * 140, y, 132, 36, rx=5, fill="#fbf7ee", stroke="#35506b")
        body += lines(21 + k * 140, y + 15, str(cname), 10, 24, limit=2, font_weight="bold")
        moves = [t for t, j in _acts(legal, "take") if j.get("a") == k]
        parts.append(target(body, moves, f"crew line {k + 1}: {cname}"))
    refresh = [t for t, _ in _acts(legal, "refresh")]
    if refresh:
        parts.append(button(15 + 3 * 140, y, 140, 36, "Refresh line", refresh))
    y += 44
    battle, y = _battle(view, legal, me, y)
    parts.append(battle)
    for i in you_first(len(pirates), me):
        helm, y = _helm(view, legal, me, i, y)
        parts.append(helm)
    # Moves with nothing to point at.
    bx = 15
    for kind in ("stop", "skip", "done", "fire", "keep"):
        for t, j in _acts(legal, kind):
            if kind == "keep" and j.get("a") != -1:
                continue
            if bx + 190 > W:
                bx, y = 15, y + 42
            parts.append(button(bx, y + 4, 186, 34, t, [t]))
            bx += 194
    y += 46
    return svg(W, y, "".join(parts), "Tiny Epic Pirates board")
