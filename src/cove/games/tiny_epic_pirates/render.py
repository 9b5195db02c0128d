"""Terminal drawing of a Tiny Epic Pirates view: the 4x4 sea, the market and each
pirate's helm (wheel, captain, deckhands) and legend mat."""

from __future__ import annotations

import re
import textwrap
from typing import Any

from cove.core import pack
from cove.games.tiny_epic_pirates import data
from cove.games.tiny_epic_pirates.sea import cell

COLOURS = ("\x1b[31m", "\x1b[34m", "\x1b[32m", "\x1b[35m")
RESET = "\x1b[0m"
BOLD = "\x1b[1m"
STORM = "\x1b[33m"


def _feature(c: dict[str, Any]) -> str:
    k = c["kind"]
    if k == "settlement":
        return f"settlement {c['plunder']}"
    if k == "market":
        return f"market {c['market']}"
    if k == "storm":
        return "~~ STORM ~~"
    return "cove"


def _paint(text: str, code: str, color: bool) -> str:
    return f"{code}{text}{RESET}" if color else text


def _tag(pr: dict[str, Any]) -> str:
    return "SP" if pr["solo_pirate"] else str(pr["name"])


def _cell(view: dict[str, Any], c: dict[str, Any], w: int) -> list[str]:
    """A sea card's text in lines of at most ``w``: name, feature, then the marks."""
    items = [f"{c['cell']} {c['name']}", _feature(c) + (" PORT" if c["port"] else ""),
             "" if c["searched"] else "?"]
    if c["navy"]:
        items.append("NAVY")
    items += [f"M{m['name']}" for m in view["merchants"]
              if m["cell"] == c["cell"]]
    for pr in view["pirates"]:
        if pr["cell"] == c["cell"]:
            items.append(f"({_tag(pr)} hid)" if pr["hidden"] else _tag(pr))
    treas = [_tag(pr) for pr in view["pirates"] if c["cell"] in pr["treasures"]]
    if treas:
        items.append("X " + ",".join(treas))
    lines = pack(items[:1], w) + pack(items[1:2], w)
    for x in filter(None, items[2:]):   # each on the first line with room (the name's too)
        i = next((i for i, ln in enumerate(lines) if len(ln) + 1 + len(x) <= w), None)
        if i is None:
            lines += pack([x], w)
        else:
            lines[i] += " " + x
    return lines


def _paint_cell(text: str, c: dict[str, Any], pirates: list[dict[str, Any]],
                color: bool) -> str:
    if not color:
        return text
    if c["kind"] == "storm":
        return _paint(text, STORM, True)
    for p, pr in enumerate(pirates):
        if pr["cell"] == c["cell"]:
            text = re.sub(rf"\b{re.escape(_tag(pr))}\b",
                          _paint(_tag(pr), COLOURS[p % 4], True), text)
    return text


COMPACT = 100
"""Below this width the sea has no column heads and no rules (each card's first line names
it) and the viewer's own mat follows it at once, so the whole sea and your mat fit 80x24."""


def _sea(view: dict[str, Any], color: bool, width: int) -> list[str]:
    """The 4x4 sea as a grid: framed and headed at ``COMPACT`` columns and more."""
    sea = view["sea"]
    compact = width < COMPACT
    w = max(14, min(24, (width - 4) // 4 - 1))        # a card's inner width
    columns = [cell(k)[0] for k in range(4)]          # the column letters, a1 to d1
    sep = "   +" + "+".join("-" * w for _ in range(4)) + "+"
    out = [] if compact else [
        "   " + "".join(f" {f'column {k}' if w >= 16 else k:^{w}}" for k in columns), sep]
    for r in range(4):   # no rule between rows: each row's first line names its cards
        row = sea[r * 4:r * 4 + 4]
        blocks = [_cell(view, c, w) for c in row]
        for k in range(max(len(b) for b in blocks)):
            label = f" {r + 1} " if k == 0 else "   "
            out.append(label + "|" + "|".join(
                _paint_cell((b[k] if k < len(b) else "").ljust(w), c, view["pirates"], color)
                for b, c in zip(blocks, row, strict=True)) + "|")
    return out if compact else [*out, sep]


def _sea_legend(view: dict[str, Any], width: int) -> list[str]:
    """What the sea's marks mean (only those on the sea now)."""
    on = " ".join(" ".join(ln.split("|")[1:]) for ln in _sea(view, False, width))
    legend = ["Columns a-d, rows 1-4: c2 = column c, row 2;",
              "? not searched yet;" if " ?" in on else "", "PORT merchants' port;",
              "NAVY navy ship;" if "NAVY" in on else "",
              "P1 pirate ship;", "SP the solo pirate;" if "SP" in on else "",
              "(P1 hid) hidden in a cove;" if " hid)" in on else "",
              "X P1 P1's buried treasure;" if "X " in on else "",
              "Ma merchant a;" if " Ma" in on or " Mb" in on else "",
              "(attack: 5 6 -> gold) trigger: dice -> bonus;",
              "wheel: C captain, d deckhand, ship line between 5 and 0"]
    return pack([" ".join(x for x in legend if x)], width, indent="  ")


def _pirate(view: dict[str, Any], p: int, pr: dict[str, Any], color: bool,
            width: int) -> list[str]:
    name = _tag(pr) if pr["solo_pirate"] else str(pr["name"])
    you = " (you)" if view.get("you") == p else ""
    nt = pr["next_treasure"]
    where = (f"at {pr['cell']}" + (" hidden" if pr["hidden"] else "") if pr["cell"]
             else "not on the sea")
    tok = " ".join(f"+{t}" for t in pr["sail_tokens"])
    ruleset = data.presented()
    items = [f"{name}{you} {where}:",
             f"legend {pr['legend']} {pr['legend_name']}{' (bloody)' if pr['bloody'] else ''},",
             f"gold {pr['gold']}/{ruleset.gold_cap},",
             f"treasures {len(pr['treasures'])}/{data.TREASURES}"
             + (f" (next {nt['cost']} gold at legend {nt['min_legend']})," if nt else ","),
             f"booty: {', '.join(pr['booty'])} ({len(pr['booty'])}/{ruleset.ship_capacity}),"
             if pr["booty"] else f"booty: 0/{ruleset.ship_capacity},",
             f"sure-fire {pr['surefire']}" + (f", sail tokens {tok};" if tok else ";")]
    dice = " ".join(map(str, pr["captain_dice"]))
    items.append(f"{pr['captain']} side {pr['captain_side']} ({pr['captain_trigger']}: "
                 f"{dice});")
    wheel = []
    for s, o in enumerate(pr["wheel"]):
        mark = "C" if pr["captain_at"] == s else ("d" if s in pr["wheel_deckhands"] else "")
        wheel.append(f"{s} {o}" + (f" {mark}" if mark else ""))
    items.append("wheel: " + ", ".join(wheel) + ";")
    a = pr["assignments"]
    hands = [f"{k} {a[k]}" for k in ("rigging", "cannons", "extort", "repair") if a[k]]
    hands += ["legend mat 1"] if pr["deckhand_on_legend_mat"] else []
    items.append(f"deckhands: {', '.join(hands) or 'none off the wheel'};")
    crew = []
    for c in pr["crew"]:
        dice = " ".join(map(str, c["dice"])) + (f" +{c['auto']} hit" if c["auto"] else "")
        bonus = "+".join(c["bonus"]) or "-"
        crew.append(f"{c['name']} ({c['trigger']}: {dice.strip()} -> {bonus})")
    items += ["crew:", *(x + ("," if i < len(crew) - 1 else "") for i, x in enumerate(crew))
              ] if crew else ["crew: none"]
    lines = _flow(items, width)           # painted after wrapping: colour takes no width
    lines[0] = _paint(name, BOLD + COLOURS[p % 4], color) + lines[0][len(name):]
    return lines


def _glue(item: str) -> str:
    """``item`` with no-break spaces inside brackets and in its short comma-separated parts."""
    item = re.sub(r"\([^)]*\)", lambda m: m.group(0).replace(" ", "\xa0"), item)
    parts = re.split(r"([,;] )", item)
    return "".join(x if i % 2 or len(x) > 18 else x.replace(" ", "\xa0")
                   for i, x in enumerate(parts))


def _flow(items: list[str], width: int) -> list[str]:
    """The items as running text wrapped at ``width``, broken only after a comma or
    semicolon inside an item (its other spaces are kept)."""
    glued = " ".join(_glue(x) for x in items)
    return [ln.replace("\xa0", " ") for ln in textwrap.wrap(
        glued, width, subsequent_indent="    ", break_on_hyphens=False)]


def render(view: dict[str, Any], color: bool = False, width: int = 100) -> str:
    out = pack([f"Tiny Epic Pirates - round {view['round']}, {view['turn_of']}'s turn"
                 + (f" - now: {view['pending']}" if view.get("pending") else ""),
                 "[final round: a third treasure is buried]" if view["end_triggered"] else ""],
                width, "  ", "  ")
    sea = _sea(view, color, width)
    market = _flow(["Market: " + ", ".join(f"{b} {i + 2}" for i, b in enumerate(view["market"]))
                    + " (gold a cube);",
                    *(f"M{m['name']} {m['cube'] or 'no cube'} to {m['heading_for']} card "
                      f"{m['card']}," for m in view["merchants"]),
                    f"merchant deck {view['merchant_deck']}, sunk {view['merchants_sunk']};",
                    "Crew line:", ", ".join(view["crew_line"]),
                    f"(crew deck {view['crew_deck']});", f"bag {view['bag']} cubes,",
                    f"search tokens {view['search_tokens_left']},",
                    f"sure-fire supply {view['surefire_supply']}"], width)
    battle: list[str] = []
    if view.get("battle"):
        b = view["battle"]
        tgt = f" {b['target']}" if b["target"] else ""
        dice = [" ".join(map(str, d)) or "none" for d in (b["attacker_dice"],
                                                          b["defender_dice"])]
        battle = pack([f"Battle: {b['attacker']} vs {b['against']}{tgt}; dice "
                       f"{dice[0]} against {dice[1]}"], width, indent="  ")
    mats = {p: _pirate(view, p, pr, color, width) for p, pr in enumerate(view["pirates"])}
    if width >= COMPACT:
        out += [*sea, *_sea_legend(view, width), *market, *battle,
                *(x for ls in mats.values() for x in ls)]
    else:   # the viewer's mat under the sea, so a window over the top shows both
        you = view.get("you")
        mine = mats.pop(you) if isinstance(you, int) and you in mats else []
        out += [*sea, *battle, *mine, *market, *(x for ls in mats.values() for x in ls),
                *_sea_legend(view, width)]
    return "\n".join(out)
