"""Terminal drawing of a High Water view: round and coin, crates, the trick, both market
rows, every player's hand, played pile, hold, crew and quests, and whose segment/step it is.
The dice colours (ids, names, terminal colours, actions) are read from the loaded data file.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from cove.games.high_water.data import DATA

_COLOURS = {c.id: c.ansi for c in DATA.colours}
_DIE_LABEL = re.compile(r"(?<![\w=])(?:" + "|".join(
    sorted((re.escape(c.id) for c in DATA.colours), key=len, reverse=True)) + r")\d\b")


def _die(label: str, color: bool) -> str:
    if not color:
        return label
    code = _COLOURS.get(label.rstrip("0123456789"), "37")
    return f"\x1b[{code}m{label}\x1b[0m"


def _dice(labels: list[str], color: bool) -> str:
    return " ".join(_die(x, color) for x in labels) or "-"


def _bold(text: str, color: bool) -> str:
    return f"\x1b[1m{text}\x1b[0m" if color else text


def _wrap(text: str, width: int, indent: str = "    ") -> list[str]:
    """``text`` wrapped at ``width`` (dice labels such as ``[bl6]`` kept whole)."""
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=False) or [""]


def _columns(items: list[str], width: int, indent: str, sep: str = " | ") -> list[str]:
    """Items side by side, ``sep`` between them (a space after one ending in a colon), as
    many to a line as fit in ``width``; an item that does not fit on a line of its own is
    wrapped, the first line of ``items[0]`` not indented."""
    out: list[str] = []
    whole = False                          # the last line holds whole items only
    for item in items:
        join = " " if out and out[-1].endswith(":") else sep
        if whole and len(out[-1]) + len(join) + len(item) <= width:
            out[-1] += join + item
        else:
            lines = _wrap((indent if out else "") + item, width, indent + "  ")
            out += lines
            whole = len(lines) == 1
    return out


def _paint_dice(line: str, color: bool) -> str:
    return _DIE_LABEL.sub(lambda m: _die(m.group(0), color), line) if color else line


def _task(t: str) -> str:
    return t.replace("_", " ")


_EXAMPLE = DATA.colours[0]
LEGEND = (f"Dice: {_EXAMPLE.id}{DATA.faces} = a {_EXAMPLE.name} {DATA.faces}; "
          + "; ".join(f"{c.id} {c.name}: {c.text}" for c in DATA.colours)
          + ". [x] task done.")
COSTS = ("costs: " + " ".join(c.id.capitalize() for c in DATA.colours)
         + " a colour, Any any, 4+ face 4 or more, =4 exactly 4")


def render(view: dict[str, Any], color: bool = False, width: int = 100) -> str:
    out: list[str] = []
    you = view.get("you")
    water = view.get("water", "high")
    coin = "HIGH water (highest card wins)" if water == "high" else "LOW water (lowest card wins)"
    from cove.games.high_water import GAME  # the declaration imports this module

    title = ((f"{GAME.name}: round" if width >= 110 else "Round")
             + f" {view['round']} of at most {view['max_rounds']}, goal {view['goal']} influence")
    top = _columns([title, coin, f"phase: {view['phase']}"], width, "  ", "  |  ")
    out += [_bold(title, color) + top[0][len(title):], *top[1:]]
    if view.get("end_triggered") and not view.get("over"):
        out.append("A player has reached the goal: this is the last round.")
    if view.get("game_end"):
        out += _wrap(f"Game over ({view['game_end']}).", width)

    crates = view.get("crates", [])
    cr = []
    for i, c in enumerate(crates):
        cr.append(f"{i + 1}: " + ("taken" if c is None else _dice(c, False)))
    bag = f"{view['bag']} {'die' if view['bag'] == 1 else 'dice'}"
    table = [f"Crates (bag {bag}): " + ("all taken" if crates and all(c is None for c in crates)
                                        else "  ".join(cr))]

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
    table.append("Trick: " + "   ".join(reveals))
    if view.get("my_commit") is not None:
        table.append(f"your secret card: {view['my_commit']['card']}")
    if view.get("order"):
        table.append("Order: " + " > ".join(f"P{p + 1}" for p in view["order"])
                     + " (picks in this order; segments run in reverse)")
    out += [_paint_dice(x, color) for x in _columns(table, width, "  ", "  |  ")]

    m = view["market"]
    out += _columns([f"Crew market (deck {m['crew_deck']}):", *(
        "-" if c is None else f"{c['name']} ({c['type']}, cost {c['cost']}): {c['text']}"
        for c in m["crew"])], width, "  ")
    out += _wrap(f"Quest market (deck {m['quest_deck']}; {COSTS}):", width)
    quests = ["-" if c is None else f"{c['name']} (cost {c['cost']}): {_task(c['text'])}"
              for c in m["quest"]]
    out += _columns([f"  {x}" if i == 0 else x for i, x in enumerate(quests)], width, "  ")
    bottom = [f"{key[:-7]} deck: " + ", ".join(m[key]) for key in ("crew_bottom",
                                                                  "quest_bottom") if m.get(key)]
    if bottom:
        out += _wrap("  Known at the bottom: " + "; ".join(bottom), width, "    ")

    seg = view.get("segment")
    for p, s in enumerate(seats):
        tag = " (you)" if p == you else ""
        if seg and seg["player"] == p:
            tag += " (acting)"
        head = f"P{p + 1}{tag}: influence {s['influence']},"
        held = [head, f"gold {s['gold']}, rum {s['rum']},",
                f"hand {' '.join(map(str, s['hand'])) or '-'},",
                f"played {' '.join(map(str, s['played'])) or '-'},",
                f"dice {_dice(s['dice'], False)}"]
        if s["crew"]:
            held.append("crew: " + "; ".join(
                c["name"] + (" (used)" if c.get("used") else "") for c in s["crew"]))
        if s["completed"]:
            held.append("completed: " + ", ".join(
                f"{c['name']} ({c['influence']})" for c in s["completed"]))
        quests = []
        for q in s["quests"]:
            tasks = " · ".join(("[x] " if i < q["done"] else "[ ] ") + _task(t)
                               for i, t in enumerate(q["tasks"]))
            marks = f"  SABOTAGE x{q['markers']}" if q["markers"] else ""
            quests.append(f"{q['name']} ({q['influence']}): {tasks}{marks}")
        held += [("quests: " if i == 0 else "") + q + ("," if i < len(quests) - 1 else "")
                 for i, q in enumerate(quests)]
        held = [x if i == len(held) - 1 or x.endswith(",") else x + ";"
                for i, x in enumerate(held)]
        lines = _columns(held, width, "    ", "  ")
        lines[0] = _bold(head, color) + lines[0][len(head):]
        out += [_paint_dice(x, color) for x in lines]
    if seg:
        line = (f"Segment {seg['number']} of {n}: P{seg['player'] + 1}, "
                f"step {seg['step']} ({seg['step_name']})")
        if seg["flags"]:
            line += "   done this turn: " + ", ".join(f.replace("_", " ") for f in seg["flags"])
        out += [_bold(x, color) for x in _wrap(line, width)]
        if seg["pending"]:
            out += _wrap("  " + seg["pending"], width)
    out += _wrap(LEGEND, width, "  ")
    return "\n".join(out)
