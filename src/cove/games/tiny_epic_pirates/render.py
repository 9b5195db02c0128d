"""Terminal drawing of a Tiny Epic Pirates view: the 4x4 sea, the market and each
pirate's helm (wheel, captain, deckhands) and legend mat."""

from __future__ import annotations

from typing import Any

W = 19  # inner width of a sea cell

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


def render(view: dict[str, Any], color: bool = False, width: int = 100) -> str:
    sea = view["sea"]
    pirates = view["pirates"]
    out: list[str] = []
    out.append(f"Tiny Epic Pirates - round {view['round']}, {view['turn_of']}'s turn"
               + (f" - now: {view['pending']}" if view.get("pending") else "")
               + ("  [final round: a third treasure is buried]" if view["end_triggered"]
                  else ""))
    # the sea
    cells: list[list[tuple[str, str]]] = []
    for c in sea:
        lines: list[tuple[str, str]] = []
        lines.append((f"{c['cell']} {c['name']}", ""))
        feat = _feature(c) + (" PORT" if c["port"] else "")
        lines.append((feat, STORM if c["kind"] == "storm" else ""))
        marks = ["searched" if c["searched"] else "search ?"]
        if c["navy"]:
            marks.append("NAVY")
        lines.append((" ".join(marks), ""))
        ms = [f"M{m['name']}:{m['cube'] or '-'}>{m['heading_for']}" for m in view["merchants"]
              if m["cell"] == c["cell"]]
        lines.append((" ".join(ms), ""))
        ships = []
        for p, pr in enumerate(pirates):
            if pr["cell"] == c["cell"]:
                tag = "SP" if pr["solo_pirate"] else pr["name"]
                ships.append((f"({tag} hid)" if pr["hidden"] else tag, p))
        treas = [("SP" if pr["solo_pirate"] else pr["name"]) for pr in pirates
                 if c["cell"] in pr["treasures"]]
        ship_txt = " ".join(t for t, _ in ships)
        lines.append((ship_txt, "ships"))
        lines.append(("X " + ",".join(treas) if treas else "", ""))
        cells.append(lines)
    sep = "+" + "+".join("-" * W for _ in range(4)) + "+"
    for r in range(4):
        out.append(sep)
        for k in range(6):
            row = "|"
            for c in range(4):
                text, code = cells[r * 4 + c][k]
                text = text[:W].ljust(W)
                if color and code == "ships":
                    for p, pr in enumerate(pirates):
                        tag = "SP" if pr["solo_pirate"] else pr["name"]
                        text = text.replace(tag, _paint(tag, COLOURS[p % 4], True))
                elif color and code:
                    text = _paint(text, code, True)
                row += text + "|"
            out.append(row)
    out.append(sep)
    out.append("  X = buried treasure; (Pn hid) = hidden in a cove; Mx:cube>port = merchant")
    # market and decks
    out.append("Market: " + ", ".join(f"{b} {i + 2}" for i, b in enumerate(view["market"]))
               + "   Merchant cards: " + ", ".join(f"M{m['name']}={m['card']}"
                                                  for m in view["merchants"])
               + f" (deck {view['merchant_deck']}, sunk {view['merchants_sunk']})")
    out.append("Crew line: " + ", ".join(view["crew_line"])
               + f"   (crew deck {view['crew_deck']}, bag {view['bag']} cubes, "
               f"{view['search_tokens_left']} search tokens left, "
               f"sure-fire supply {view['surefire_supply']})")
    if view.get("battle"):
        b = view["battle"]
        tgt = f" {b['target']}" if b["target"] else ""
        out.append(f"Battle: {b['attacker']} vs {b['against']}{tgt}; dice "
                   f"{b['attacker_dice']} / {b['defender_dice']}")
    # the pirates
    for p, pr in enumerate(pirates):
        name = pr["name"]
        head = _paint(name, BOLD + COLOURS[p % 4], color) if color else name
        you = " (you)" if view.get("you") == p else ""
        nt = pr["next_treasure"]
        nxt = (f", next costs {nt['cost']} gold at legend {nt['min_legend']}" if nt else "")
        out.append("")
        out.append(
            f"{head}{you}: {pr['captain']} side {pr['captain_side']} (trigger "
            f"{pr['captain_trigger']}, dice {' '.join(map(str, pr['captain_dice']))})"
            f"  legend {pr['legend']} {pr['legend_name']}{' (bloody)' if pr['bloody'] else ''}"
            f"  gold {pr['gold']}/13  treasures {len(pr['treasures'])}/3{nxt}")
        wheel = []
        for s, o in enumerate(pr["wheel"]):
            mark = "C" if pr["captain_at"] == s else ("d" if s in pr["wheel_deckhands"] else " ")
            wheel.append(f"{s}:{o}[{mark}]")
        out.append("  wheel: " + "  ".join(wheel) + "   (C captain, d deckhand; line 5|0)")
        a = pr["assignments"]
        spare = " +1 on legend mat" if pr["deckhand_on_legend_mat"] else ""
        out.append(f"  deckhands: rigging {a['rigging']}, cannons {a['cannons']}, extort "
                   f"{a['extort']}, repair {a['repair']}{spare}")
        tok = " ".join(f"+{t}" for t in pr["sail_tokens"]) or "none"
        out.append(f"  booty: {', '.join(pr['booty']) or 'empty'} ({len(pr['booty'])}/3)  "
                   f"sure-fire {pr['surefire']}  sail tokens {tok}  at {pr['cell']}"
                   f"{' hidden' if pr['hidden'] else ''}")
        crew = []
        for c in pr["crew"]:
            dice = " ".join(map(str, c["dice"])) + (f" +{c['auto']} hit" if c["auto"] else "")
            bonus = "+".join(c["bonus"]) or "-"
            crew.append(f"{c['name']} ({c['trigger']}: {dice.strip()} -> {bonus})")
        out.append("  crew: " + ("; ".join(crew) if crew else "none"))
    return "\n".join(out)
