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


COMPACT = 100
"""Below this width the screen is compact: the map without island names or rules between
rows, the viewer's own lines right under it, so the whole map and your hand fit 80x24."""


def _compact_cell_lines(cell: dict[str, Any], w: int, monster: str | None,
                        icons: bool) -> list[str]:
    """The cell in as few lines of at most ``w`` as its contents allow (mostly two): the
    cell and goods number, the start colour or monster icon (``icons``: while ships are
    placed, the only time they matter), the goods and ships; then the order."""
    extras = [f"P{p + 1}" for p in cell["ships"]] + (
        [f"<{monster.split()[-1].upper()}>"] if monster else [])
    if cell["sea"]:
        return _fit_in([f"{cell['cell']} ~ open sea ~"], extras, w)
    isl = cell["island"]
    icon = f"C{isl['ship_colour']}" if isl["ship_colour"] else isl["monster"]
    ident = f"{cell['cell']} [{isl['number']}]" + (f" {icon}" if icons else "")
    goods = _goods_short(cell["goods"]) if cell["goods"] else "no goods"
    lines = _squeezed([ident, *extras, goods], w)
    order = cell["order"]
    if order:
        head = f"{order['gold']}g {order['monster'].split()[-1]}:"
        lines += _squeezed([head, _goods_short(order["goods"])], w, " ")
    return lines


def _squeezed(items: list[str], w: int, sep: str = "  ") -> list[str]:
    """``items`` packed into lines of ``w``; when that saves a line, the goods lists are
    written without their inner spaces (``1Su1Co``) and the items one space apart."""
    lines = pack(items, w, sep)
    if len(lines) == 1:
        return lines
    tight = [re.sub(r"(?<=[a-z]) (?=\d)", "", x) for x in items]
    shorter = min(pack(tight, w, sep), pack(tight, w, " "), key=len)
    return shorter if len(shorter) < len(lines) else lines


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
    text = re.sub(r"<<?[A-Z ]+>>?", lambda m: _paint(m.group(0), "1;36", True), text)
    return _paint(text, "1", True) if first else text


def _map(view: dict[str, Any], color: bool, width: int) -> list[str]:
    """The map as a grid, and its legend (``_legend``) unless the screen is compact."""
    cells = view["map"]
    compact = width < COMPACT
    where = {m["cell"]: m["monster"] for m in view.get("monsters") or () if m["cell"]}
    if compact:   # "1 " then the cells with " | " between them: no frame, no rules, no
        w = max(14, (width - 2 - 3 * (WIDTH - 1)) // WIDTH)   # letters (the cells name them)
        out = []
    else:
        cw = max(16, min(32, (width - 4) // WIDTH - 1))  # a cell's inner width, with padding
        w = cw - 2
        sep = "   +" + "+".join("-" * cw for _ in range(WIDTH)) + "+"
        out = [("    " + "".join(f"{c[0]:^{cw + 1}}" for c in CELL_NAMES[:WIDTH])).rstrip(),
               sep]
    icons = view["phase"] == "place ship"
    for row in range(HEIGHT):
        row_cells = cells[row * WIDTH:row * WIDTH + WIDTH]
        blocks = [_compact_cell_lines(c, w, where.get(c["cell"]), icons) if compact
                  else _cell_lines(c, w, where.get(c["cell"])) for c in row_cells]
        height = max(len(b) for b in blocks)
        for i in range(height):
            parts = [_paint_cell((b[i] if i < len(b) else "").ljust(w), c, i == 0, color)
                     for b, c in zip(blocks, row_cells, strict=True)]
            if compact:
                out.append((f"{row + 1} " if i == 0 else "  ") + " | ".join(parts).rstrip())
            else:
                out.append((f" {row + 1} " if i == 0 else "   ") + "| " + " | ".join(parts)
                           + " |")
        if not compact:
            out.append(sep)
    return out if compact else out + _legend(view, width)


def _legend(view: dict[str, Any], width: int) -> list[str]:
    legend = " ".join(f"{_abbr(t)}={t}" for t in view["goods_types"])
    if width < COMPACT:
        text = (f"Map: a1 [4] = cell and goods number; C1 = a start island of ship colour 1, "
                f"shark = a monster's island; goods {legend}; 5g shark: 2Su = order paying 5 "
                "gold, its monster, the goods it needs; P1-P4 ships; north is up; your "
                "hand: (in brackets: the headings a card sails)")
    else:
        text = (f"[n] island's goods number; goods {legend}; O21 5g shark: 2Su = order "
                "paying 5 gold, its monster, the goods it needs; P1-P4 ships; north is up")
    if view.get("monsters"):
        text += "; " + ("<SHARK>" if width < COMPACT else "<<SHARK>>") + (
            " = a monster standing there")
    return _wrap(text, width)


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
    """The screen: the status, the map, the hand's plays, every seat, your hand and
    sightings card. Below ``COMPACT`` columns the map is compact and your own lines follow
    it at once, so a window over the top of the screen shows the map and your hand."""
    compact = width < COMPACT
    n = view["players"]
    over = view["over"]
    leader = f"P{view['leader'] + 1}" if view["leader"] is not None else "to be named"
    status = f"Tricky Tides  round {view['round']}/{view['rounds']}  " \
             f"hand {view['hand_no']}/{view['hands_per_round']}  " \
             + (f"leader {leader}" if compact else f"leader (rum barrel): {leader}")
    if over:
        status += "  GAME OVER"
    else:
        cur = view["current"]
        decides = f"P{cur + 1} to decide" if cur is not None and cur >= 0 else ""
        status += (f"  {view['phase']}: {decides or 'now'}" if compact
                   else f"  Step: {view['phase']}" + (f", {decides}" if decides else ""))
    top = [_paint(x, "1", color) for x in _wrap(status, width)]
    if not over and view["heading"]:
        top += _wrap(f"Open sea: stop here or sail on {view['heading'].upper()} to the next "
                     "island", width)
    top += _event_lines(view, color, width)
    top += _map(view, color, width)

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
    hand = _wrap(line, width) if line else []

    seats = {p: _seat_lines(view, p, color, width) for p in range(n)}
    tail = f"Bag: {view['bag_size']} goods; order deck: {view['order_deck_size']} cards"
    if view["played_this_round"]:
        tail += "; played or discarded this round: " + _by_suit(view["played_this_round"])
    yours = seats.pop(view["you"], []) if compact and view["you"] is not None else []
    yours += _your_cards(view, width)
    if compact:
        out = [*top, *yours, *hand, *(x for ls in seats.values() for x in ls),
               *_wrap(tail, width), *_monster_lines(view, width), *_legend(view, width)]
    else:
        out = [*top, *_monster_lines(view, width), *hand,
               *(x for ls in seats.values() for x in ls), *_wrap(tail, width), *yours]
    if over and view.get("winners"):
        out.append("Winner(s): " + ", ".join(f"P{p + 1}" for p in view["winners"]))
    return "\n".join(out)


def _seat_lines(view: dict[str, Any], p: int, color: bool, width: int) -> list[str]:
    """Seat ``p``'s ship, hold, orders, anchor and score."""
    pl = view["seats"][p]
    scores = view.get("scores")
    me = " (you)" if view["you"] == p else ""
    compact = width < COMPACT
    orders = ", ".join((f"{o['gold']}g {o['monster']}" if compact
                        else f"{o['id']} {o['gold']}g {o['monster']}") for o in pl["orders"])
    items = [f"P{p + 1}{me}: ship {pl['ship'] or 'not placed'}",
             f"hold {pl['hold_total']}/{view['hold_limit']} "
             + (_goods_short(pl["hold"]) if pl["hold_total"] else "empty"),
             (f"orders {orders}" + (f" = {pl['order_gold']} gold" if len(pl["orders"]) > 1
                                    else "")) if orders else "no orders",
             f"anchor {'ready' if pl['anchor'] else 'used'}"]
    if scores is not None:
        items.append(f"final score {scores[p]:g}")
    elif me and "my_score" in view:
        items.append(f"score {view['my_score']}" + ("" if compact else " incl. sightings"))
    else:
        items.append(f"score {pl['public_score']} + secret sightings")
    if pl["sightings"]:
        items.append("sightings " + pl["sightings"]["id"])
    return [_paint(x, SHIP_COLOURS[pl["colour"] - 1], color) if color else x
            for x in pack(items, width, "; ", "    ")]


def _your_cards(view: dict[str, Any], width: int) -> list[str]:
    """The viewer's hand with each card's headings, and their secret sightings card."""
    if "hand" not in view:
        return []
    compact = width < COMPACT
    explain = [] if compact else ["(in brackets: the headings a card sails)"]
    cards_text = [*map(_card, view["hand"]), *explain] if view["hand"] else ["(no cards)"]
    out = pack(["Your hand:", *cards_text], width, "  ", "  ")
    sc = view["sightings"]
    bonus = ", ".join(f"{m} +{b}" for m, b in sc["bonus"].items())
    return out + _wrap(f"Your secret sightings card {sc['id']}: "
                       + ("" if compact else "bonus gold per order: ") + bonus, width)
