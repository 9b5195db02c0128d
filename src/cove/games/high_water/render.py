"""Terminal drawing of a High Water view: round and coin, crates, the trick, both market
rows, every player's hand, played pile, hold, crew and quests, and whose segment/step it is.
"""

from __future__ import annotations

from typing import Any

_COLOURS = {"y": "33", "br": "38;5;130", "r": "31", "bl": "34", "g": "32"}


def _die(label: str, color: bool) -> str:
    if not color:
        return f"[{label}]"
    code = _COLOURS.get(label.rstrip("0123456789"), "37")
    return f"\x1b[{code}m[{label}]\x1b[0m"


def _dice(labels: list[str], color: bool) -> str:
    return " ".join(_die(x, color) for x in labels) or "-"


def _bold(text: str, color: bool) -> str:
    return f"\x1b[1m{text}\x1b[0m" if color else text


def render(view: dict[str, Any], color: bool = False, width: int = 100) -> str:
    out: list[str] = []
    you = view.get("you")
    water = view.get("water", "high")
    coin = "HIGH water (highest card wins)" if water == "high" else "LOW water (lowest card wins)"
    out.append(_bold(f"High Water - round {view['round']} of at most {view['max_rounds']}"
                     f" - goal {view['goal']} influence", color))
    out.append(f"Coin: {coin}    Bag: {view['bag']} dice    Phase: {view['phase']}")
    if view.get("end_triggered") and not view.get("over"):
        out.append("A player has reached the goal: this is the last round.")
    if view.get("game_end"):
        out.append(f"Game over ({view['game_end']}).")

    crates = view.get("crates", [])
    cr = []
    for i, c in enumerate(crates):
        cr.append(f"{i + 1}: " + ("taken" if c is None else _dice(c, color)))
    out.append("Crates   " + "   ".join(cr))

    trick = view.get("trick", {})
    seats = view["seats"]
    n = len(seats)
    reveals = []
    for p in range(n):
        vals = trick.get("revealed", [[]] * n)[p]
        state = ""
        if p in trick.get("waiting", []):
            state = " (chosen)" if seats[p]["committed"] else " (choosing)"
        reveals.append(f"P{p + 1}: " + ("/".join(map(str, vals)) or "-") + state)
    out.append("Trick    " + "   ".join(reveals))
    if view.get("my_commit") is not None:
        out.append(f"         your secret card: {view['my_commit']['card']}")
    if view.get("order"):
        out.append("Order    " + " > ".join(f"P{p + 1}" for p in view["order"])
                   + "   (picks in this order; segments run in reverse)")

    m = view["market"]
    out.append(_bold(f"Crew market (deck {m['crew_deck']})", color))
    for c in m["crew"]:
        out.append("  -" if c is None else
                   f"  {c['name']:<20} {c['type']:<7} cost {c['cost']:<16} {c['text']}")
    out.append(_bold(f"Quest market (deck {m['quest_deck']})", color))
    for c in m["quest"]:
        out.append("  -" if c is None else
                   f"  {c['name']:<22} cost {c['cost']:<18} {c['text']}")
    for key in ("crew_bottom", "quest_bottom"):
        if m.get(key):
            out.append(f"  known at the bottom of the {key[:-7]} deck: " + ", ".join(m[key]))

    seg = view.get("segment")
    for p, s in enumerate(seats):
        tag = " (you)" if p == you else ""
        if seg and seg["player"] == p:
            tag += "  <- acting"
        out.append(_bold(f"P{p + 1}{tag}: influence {s['influence']}", color)
                   + f"   gold {s['gold']}  rum {s['rum']}  dice {_dice(s['dice'], color)}")
        out.append(f"    hand {' '.join(map(str, s['hand'])) or '-'}   played "
                   f"{' '.join(map(str, s['played'])) or '-'}")
        if s["crew"]:
            out.append("    crew: " + "; ".join(
                c["name"] + (" (used)" if c.get("used") else "") for c in s["crew"]))
        for q in s["quests"]:
            tasks = " · ".join(("[x] " if i < q["done"] else "[ ] ") + t
                               for i, t in enumerate(q["tasks"]))
            marks = f"  SABOTAGE x{q['markers']}" if q["markers"] else ""
            out.append(f"    quest {q['name']} ({q['influence']}): {tasks}{marks}")
        if s["completed"]:
            out.append("    completed: " + ", ".join(
                f"{c['name']} ({c['influence']})" for c in s["completed"]))
    if seg:
        line = (f"Segment {seg['number']} of {n}: P{seg['player'] + 1}, "
                f"step {seg['step']} ({seg['step_name']})")
        if seg["flags"]:
            line += "   done this turn: " + ", ".join(f.replace("_", " ") for f in seg["flags"])
        out.append(_bold(line, color))
        if seg["pending"]:
            out.append("  " + seg["pending"])
    return "\n".join(out)
