"""Terminal rendering of a Tricky Tides view: the 3x4 map as a grid, then the table."""

from __future__ import annotations

from typing import Any

CELL_W = 30
ARROWS = {"n": "↑", "ne": "↗", "e": "→", "se": "↘", "s": "↓", "sw": "↙", "w": "←", "nw": "↖"}
SHIP_COLOURS = ("31", "32", "33", "35")   # ANSI: red, green, yellow, magenta for P1..P4


def _abbr(name: str) -> str:
    return {"sugar": "Su", "coffee": "Co", "silk": "Si", "spice": "Sp", "gold": "Go"}.get(
        name, name[:2].title())


def _goods_short(goods: dict[str, int]) -> str:
    return " ".join(f"{k}{_abbr(t)}" for t, k in goods.items()) or "-"


def _goods_long(goods: dict[str, int]) -> str:
    return ", ".join(f"{k} {t}" for t, k in goods.items()) or "empty"


def _paint(text: str, code: str, color: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if color else text


def _fit(text: str, width: int) -> str:
    return text[:width].ljust(width)


def _cell_lines(cell: dict[str, Any], color: bool, monster: str | None = None,
                extra: bool = False) -> list[str]:
    """Six lines of plain text (padded to CELL_W) plus colour applied after padding; a
    seventh (the monster standing there) when ``extra`` (the monster module is on)."""
    w = CELL_W - 2
    ships = " ".join(f"P{p + 1}" for p in cell["ships"])
    if cell["sea"]:
        lines = [f"{cell['cell']}  ~ open sea ~", "", "  ~  ~  ~  ~", "", "",
                 f"ships: {ships}" if ships else ""] + ([""] if extra else [])
        out = [_fit(x, w) for x in lines]
        return [_paint(x, "34", color) if i < 5 else x for i, x in enumerate(out)]
    isl = cell["island"]
    icon = (f"ship icon C{isl['ship_colour']}" if isl["ship_colour"]
            else f"{isl['monster']} icon")
    order = cell["order"]
    lines = [
        f"{cell['cell']} {isl['id']} {isl['name']}",
        f"[{isl['number']}] {icon}",
        f"goods: {_goods_short(cell['goods'])}",
        f"{order['id']} order: {order['gold']}g {order['monster']}" if order
        else "order: none",
        f"  needs {_goods_short(order['goods'])}" if order else "",
        f"ships: {ships}" if ships else "",
    ]
    if extra:
        lines.append(f"<< {monster.upper()} >>" if monster else "")
    out = [_fit(x, w) for x in lines]
    if color and ships:
        painted = out[5]
        for p in cell["ships"]:
            painted = painted.replace(f"P{p + 1}", _paint(f"P{p + 1}", SHIP_COLOURS[p], True))
        out[5] = painted
    if color:
        out[0] = _paint(out[0], "1", True)
        if monster:
            out[6] = _paint(out[6], "1;36", True)
    return out


def _map(view: dict[str, Any], color: bool) -> list[str]:
    cells = view["map"]
    mons = view.get("monsters")
    where = {m["cell"]: m["monster"] for m in mons or () if m["cell"]}
    height = 7 if mons else 6
    sep = "+" + "+".join("-" * CELL_W for _ in range(3)) + "+"
    out = ["      " + "".join(f"{c:^{CELL_W + 1}}" for c in "abc") + "   N ↑", "      " + sep]
    for row in range(4):
        blocks = [_cell_lines(c, color, where.get(c["cell"]), bool(mons))
                  for c in cells[row * 3:row * 3 + 3]]
        for i in range(height):
            label = f"  {row + 1}   " if i == 2 else "      "
            out.append(label + "| " + " | ".join(b[i] for b in blocks) + " |")
        out.append("      " + sep)
    legend = ", ".join(f"{_abbr(t)}={t}" for t in view["goods_types"])
    out.append(f"      [n] = island's goods number; goods: {legend}")
    return out


def _event_lines(view: dict[str, Any], color: bool) -> list[str]:
    ev = view.get("event")
    if "event" not in view:
        return []
    if ev is None:
        return ["Event: none revealed yet (the top card is revealed once ships are placed)"]
    out = [_paint(f"EVENT this round: {ev['name']} - {ev['text']}", "1;35", color)]
    if ev["changes"]:
        out.append("  In force until the round ends: " + "; ".join(ev["changes"]) + ".")
    bottom = view["events_at_bottom"]
    out.append(f"  Event deck: {view['event_deck_size']} face down"
               + (f"; at its bottom: {', '.join(bottom)}" if bottom else ""))
    return out


def _monster_lines(view: dict[str, Any]) -> list[str]:
    mons = view.get("monsters")
    if not mons:
        return []
    out = ["Monsters (activated before sailing by the lowest card of their suit"
           + (", the HIGHEST under this event" if _low_tide(view) else "") + "):"]
    for m in mons:
        out.append(f"  {m['monster']} at {m['cell']}: {m['ability']}")
    act = view.get("monster_activation")
    if act:
        line = f"  Now: P{act['player'] + 1} activates the {act['monster']}"
        if act["order"]:
            line += f" ({act['order']})"
        line += "; moved" if act["moved"] else "; not moved yet"
        line += ", ability used" if act["ability_used"] else ", ability not used yet"
        out.append(line)
        if act["whale_goods"]:
            out.append("  The whale holds, to spout in a line: " + ", ".join(act["whale_goods"]))
        if act["next"]:
            out.append("  Then: " + ", ".join(f"the {x['monster']} by P{x['player'] + 1}"
                                              for x in act["next"]))
    if view.get("orders_at_bottom"):
        out.append("  Orders under the order deck (drawn last): "
                   + ", ".join(view["orders_at_bottom"]))
    return out


def _low_tide(view: dict[str, Any]) -> bool:
    ev = view.get("event")
    return bool(ev and any("highest card" in c for c in ev["changes"]))


def _card(c: dict[str, Any]) -> str:
    heads = " ".join(f"{ARROWS.get(h, '')}{h.upper()}" for h in c["headings"])
    return f"{c['card']:<16} ({c['suit']} {c['value']}; headings {heads})"


def render(view: dict[str, Any], color: bool = False, width: int = 100) -> str:
    out: list[str] = []
    n = view["players"]
    over = view["over"]
    leader = f"P{view['leader'] + 1}" if view["leader"] is not None else "to be named"
    status = f"Tricky Tides - round {view['round']}/{view['rounds']}, " \
             f"hand {view['hand_no']}/{view['hands_per_round']} - leader (rum barrel): " \
             f"{leader}"
    out.append(_paint(status, "1", color))
    if over:
        out.append("GAME OVER")
    else:
        cur = view["current"]
        out.append(f"Step: {view['phase']}" + (f" - P{cur + 1} to decide" if cur is not None
                                              and cur >= 0 else ""))
        if view["heading"]:
            out.append(f"Open sea: stop here or sail on {view['heading'].upper()} to the next "
                       "island")
    out.extend(_event_lines(view, color))
    out.extend(_map(view, color))
    out.extend(_monster_lines(view))

    plays = []
    for i in range(n):
        p = (view["lead"] + i) % n
        card = view["seats"][p]["played"]
        if card:
            plays.append(f"P{p + 1} {card['card']}")
    if plays and not over:
        led = f" (led suit: {view['led_suit']})" if view["led_suit"] else ""
        out.append("This hand: " + ", ".join(plays) + led)
    if view["sail_order"]:
        out.append("Sailing order: " + ", ".join(f"P{p + 1}" for p in view["sail_order"]))

    out.append("")
    out.append("Players:")
    scores = view.get("scores")
    for p, pl in enumerate(view["seats"]):
        me = " (you)" if view["you"] == p else ""
        orders = ", ".join(f"{o['id']} {o['gold']}g {o['monster']}" for o in pl["orders"])
        line = (f"  P{p + 1}{me}: ship at {pl['ship'] or '-'}; hold {pl['hold_total']}/"
                f"{view['hold_limit']}: {_goods_long(pl['hold'])}; orders: {orders or 'none'} "
                f"({pl['order_gold']} gold); anchor {'ready' if pl['anchor'] else 'used'}; "
                f"{pl['cards_in_hand']} cards")
        if scores is not None:
            line += f"; final score {scores[p]:g}"
        elif me and "my_score" in view:
            line += f"; score so far {view['my_score']} (with your sightings bonus)"
        else:
            line += f"; score so far {pl['public_score']} + secret sightings bonus"
        if pl["sightings"]:
            sc = pl["sightings"]
            line += "; sightings " + sc["id"]
        out.append(_paint(line, SHIP_COLOURS[pl["colour"] - 1], color) if color else line)
    out.append(f"  Bag: {view['bag_size']} goods; order deck: {view['order_deck_size']} cards")
    if view["played_this_round"]:
        out.append("  Played or discarded this round: " + ", ".join(view["played_this_round"]))

    if "hand" in view:
        out.append("")
        out.append("Your hand:")
        for c in view["hand"]:
            out.append("  " + _card(c))
        if not view["hand"]:
            out.append("  (no cards)")
        sc = view["sightings"]
        bonus = ", ".join(f"{m} +{b}" for m, b in sc["bonus"].items())
        out.append(f"Your secret sightings card {sc['id']}: bonus gold per order: {bonus}")
    if over and view.get("winners"):
        out.append("Winner(s): " + ", ".join(f"P{p + 1}" for p in view["winners"]))
    return "\n".join(out)
