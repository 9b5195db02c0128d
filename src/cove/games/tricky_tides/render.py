"""Terminal rendering of a Tricky Tides view: the 3x4 map as a grid, then the table."""

from __future__ import annotations

import re
import textwrap
from typing import Any

from cove.core import pack
from cove.games.tricky_tides.geometry import CELL_NAMES, HEIGHT, WIDTH

SHIP_COLOURS = ("31", "32", "33", "35")   # ANSI: red, green, yellow, magenta for P1..P4


def _abbr(name: str) -> str:
    """A goods type in two letters ("Su" sugar), as on the web board's cubes."""
    return name[:2].title()


def _goods_short(goods: dict[str, int]) -> str:
    return " ".join(f"{k}{_abbr(t)}" for t, k in goods.items()) or "-"


def _paint(text: str, code: str, color: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if color else text


def _wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _cell_lines(cell: dict[str, Any], w: int, monster: str | None) -> list[str]:
    """The cell's text, packed into lines of at most ``w``."""
    extras = [f"P{p + 1}" for p in cell["ships"]] + ([f"<<{monster.upper()}>>"] if monster
                                                      else [])
    if cell["sea"]:
        return _fit_in(pack([f"{cell['cell']} ~ open sea ~"], w), extras, w)
    isl = cell["island"]
    icon = (f"ship icon C{isl['ship_colour']}" if isl["ship_colour"]
            else f"{isl['monster']} icon")
    order = cell["order"]
    ident = (f"{cell['cell']} {isl['id']} {isl['name']} [{isl['number']}]" if w >= 27
             else f"{cell['cell']} {isl['name']} [{isl['number']}]")   # narrow: no island id
    items = [ident, icon,
             f"goods {_goods_short(cell['goods'])}"]
    if order:
        head, needs = f"{order['id']} {order['gold']}g {order['monster']}", _goods_short(
            order["goods"])
        items += [f"{head}: {needs}"] if len(head) + len(needs) + 2 <= w else [
            head, f"needs {needs}"]
    else:
        items.append("no order")
    return _fit_in(pack(items, w), extras, w)


def _fit_in(lines: list[str], extras: list[str], w: int) -> list[str]:
    """``extras`` (ships, a monster) each put on the first line with room for it."""
    for x in extras:
        i = next((i for i, ln in enumerate(lines) if len(ln) + 2 + len(x) <= w), None)
        if i is None:
            lines.append(x)
        else:
            lines[i] += "  " + x
    return lines


def _paint_cell(text: str, cell: dict[str, Any], first: bool, color: bool) -> str:
    if not color:
        return text
    if cell["sea"]:
        return _paint(text, "34", True)
    for p in cell["ships"]:
        text = text.replace(f"P{p + 1}", _paint(f"P{p + 1}", SHIP_COLOURS[p], True))
    text = re.sub(r"<<[A-Z ]+>>", lambda m: _paint(m.group(0), "1;36", True), text)
    return _paint(text, "1", True) if first else text


def _map(view: dict[str, Any], color: bool, width: int) -> list[str]:
    cells = view["map"]
    mons = view.get("monsters")
    where = {m["cell"]: m["monster"] for m in mons or () if m["cell"]}
    cw = max(16, min(32, (width - 4) // WIDTH - 1))  # a cell's inner width, padding included
    w = cw - 2
    sep = "   +" + "+".join("-" * cw for _ in range(WIDTH)) + "+"
    head = "    " + "".join(f"{c[0]:^{cw + 1}}" for c in CELL_NAMES[:WIDTH])
    out = [head.rstrip()]
    out.append(sep)
    for row in range(HEIGHT):
        row_cells = cells[row * WIDTH:row * WIDTH + WIDTH]
        blocks = [_cell_lines(c, w, where.get(c["cell"])) for c in row_cells]
        height = max(len(b) for b in blocks)
        for i in range(height):
            label = f" {row + 1} " if i == 0 else "   "
            parts = [_paint_cell((b[i] if i < len(b) else "").ljust(w), c, i == 0, color)
                     for b, c in zip(blocks, row_cells, strict=True)]
            out.append(label + "| " + " | ".join(parts) + " |")
        out.append(sep)
    legend = " ".join(f"{_abbr(t)}={t}" for t in view["goods_types"])
    text = (f"[n] island's goods number; goods {legend}; O21 5g shark: 2Su = order "
            "paying 5 gold, its monster, the goods it needs; P1-P4 ships; north is up")
    if mons:
        text += "; <<SHARK>> = a monster standing there"
    out.extend(_wrap(text, width))
    return out


def _event_lines(view: dict[str, Any], color: bool, width: int) -> list[str]:
    ev = view.get("event")
    if "event" not in view:
        return []
    if ev is None:
        return _wrap("Event: none revealed yet (the top card is revealed once ships are "
                     "placed)", width)
    out = [_paint(x, "1;35", color)
           for x in _wrap(f"EVENT this round: {ev['name']} - {ev['text']}", width)]
    text = ""
    if ev["changes"]:
        text = "In force until the round ends: " + "; ".join(ev["changes"]) + ". "
    bottom = view["events_at_bottom"]
    text += f"Event deck: {view['event_deck_size']} face down" + (
        f"; at its bottom: {', '.join(bottom)}" if bottom else "")
    return out + _wrap("  " + text, width, "    ")


def _monster_lines(view: dict[str, Any], width: int) -> list[str]:
    mons = view.get("monsters")
    if not mons:
        return []
    out = _wrap("Monsters (activated before sailing by the lowest card of their suit"
                + (", the HIGHEST under this event" if _low_tide(view) else "") + "):", width)
    for m in mons:
        out += _wrap(f"  {m['monster']} at {m['cell'] or 'no cell'}: {m['ability']}", width,
                     "    ")
    act = view.get("monster_activation")
    if act:
        line = f"  Now: P{act['player'] + 1} activates the {act['monster']}"
        if act["order"]:
            line += f" ({act['order']})"
        line += "; moved" if act["moved"] else "; not moved yet"
        line += ", ability used" if act["ability_used"] else ", ability not used yet"
        if act["whale_goods"]:
            line += ". The whale holds, to spout in a line: " + ", ".join(act["whale_goods"])
        if act["next"]:
            line += ". Then: " + ", ".join(f"the {x['monster']} by P{x['player'] + 1}"
                                           for x in act["next"])
        out += _wrap(line, width, "    ")
    if view.get("orders_at_bottom"):
        out += _wrap("  Orders under the order deck (drawn last): "
                     + ", ".join(view["orders_at_bottom"]), width, "    ")
    return out


def _low_tide(view: dict[str, Any]) -> bool:
    ev = view.get("event")
    return bool(ev and any("highest card" in c for c in ev["changes"]))


def _card(c: dict[str, Any]) -> str:
    heads = " ".join(h.upper() for h in c["headings"])
    return f"{c['card']} ({heads})"


def _by_suit(cards: list[str]) -> str:
    """``["2 octopuses", "1 whale", "5 whales"]`` as ``octopus 2; whale 1 5``."""
    suits: dict[str, list[str]] = {}
    for c in cards:
        value, _, name = c.partition(" ")
        if value != "1":                            # plural: octopuses, sea dragons, ...
            name = name[:-2] if name.endswith("ses") else name[:-1]
        suits.setdefault(name, []).append(value)
    return "; ".join(f"{k} {' '.join(v)}" for k, v in suits.items())


def render(view: dict[str, Any], color: bool = False, width: int = 100) -> str:
    out: list[str] = []
    n = view["players"]
    over = view["over"]
    leader = f"P{view['leader'] + 1}" if view["leader"] is not None else "to be named"
    status = f"Tricky Tides  round {view['round']}/{view['rounds']}  " \
             f"hand {view['hand_no']}/{view['hands_per_round']}  leader (rum barrel): " \
             f"{leader}"
    if over:
        status += "  GAME OVER"
    else:
        cur = view["current"]
        status += f"  Step: {view['phase']}" + (f", P{cur + 1} to decide"
                                                 if cur is not None and cur >= 0 else "")
    out += [_paint(x, "1", color) for x in _wrap(status, width)]
    if not over and view["heading"]:
        out += _wrap(f"Open sea: stop here or sail on {view['heading'].upper()} to the next "
                     "island", width)
    out.extend(_event_lines(view, color, width))
    out.extend(_map(view, color, width))
    out.extend(_monster_lines(view, width))

    plays = []
    for i in range(n):
        p = (view["lead"] + i) % n
        card = view["seats"][p]["played"]
        if card:
            plays.append(f"P{p + 1} {card['card']}")
    line = ""
    if plays and not over:
        led = f" (led suit: {view['led_suit']})" if view["led_suit"] else ""
        line = "This hand: " + ", ".join(plays) + led
    if view["sail_order"]:
        line += ("; " if line else "") + "sailing order: " + ", ".join(
            f"P{p + 1}" for p in view["sail_order"])
    if line:
        out += _wrap(line, width)

    scores = view.get("scores")
    for p, pl in enumerate(view["seats"]):
        me = " (you)" if view["you"] == p else ""
        orders = ", ".join(f"{o['id']} {o['gold']}g {o['monster']}" for o in pl["orders"])
        items = [f"P{p + 1}{me}: ship {pl['ship'] or 'not placed'}",
                 f"hold {pl['hold_total']}/{view['hold_limit']} "
                 + (_goods_short(pl["hold"]) if pl["hold_total"] else "empty"),
                 (f"orders {orders}" + (f" = {pl['order_gold']} gold" if len(pl["orders"]) > 1
                                        else "")) if orders else "no orders",
                 f"anchor {'ready' if pl['anchor'] else 'used'}"]
        if scores is not None:
            items.append(f"final score {scores[p]:g}")
        elif me and "my_score" in view:
            items.append(f"score {view['my_score']} incl. sightings")
        else:
            items.append(f"score {pl['public_score']} + secret sightings")
        if pl["sightings"]:
            items.append("sightings " + pl["sightings"]["id"])
        for x in pack(items, width, "; ", "    "):
            out.append(_paint(x, SHIP_COLOURS[pl["colour"] - 1], color) if color else x)
    tail = f"Bag: {view['bag_size']} goods; order deck: {view['order_deck_size']} cards"
    if view["played_this_round"]:
        tail += "; played or discarded this round: " + _by_suit(view["played_this_round"])
    out += _wrap(tail, width)

    if "hand" in view:
        cards_text = ([*map(_card, view["hand"]), "(in brackets: the headings a card sails)"]
                      if view["hand"] else ["(no cards)"])
        out += pack(["Your hand:", *cards_text], width, "  ", "  ")
        sc = view["sightings"]
        bonus = ", ".join(f"{m} +{b}" for m, b in sc["bonus"].items())
        out += _wrap(f"Your secret sightings card {sc['id']}: bonus gold per order: {bonus}",
                     width)
    if over and view.get("winners"):
        out.append("Winner(s): " + ", ".join(f"P{p + 1}" for p in view["winners"]))
    return "\n".join(out)
