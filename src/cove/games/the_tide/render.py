"""Terminal drawing of a Tide view: the piles, the beach grid, every player's holdings.
The tiles' letters, names and colours come from the data file (data.py)."""

from __future__ import annotations

import textwrap
from typing import Any

from cove.games.the_tide.beach import COLUMN_NAMES, ROWS
from cove.games.the_tide.data import DATA, RUBBISH, SHELL, TILE_TYPES

LETTER = {DATA.names[t]: DATA.letters[t] for t in TILE_TYPES}
COLOUR = {DATA.names[t]: DATA.ansi[t] for t in TILE_TYPES}
ORDER = tuple(DATA.names[t] for t in TILE_TYPES)
"""The tiles by name, shell first (the removed line)."""
HELD = tuple((DATA.names[t], DATA.shorts[t]) for t in RUBBISH)
"""The players' table's rubbish columns: (name in the view, column heading)."""
SHELLS = DATA.plurals[SHELL]
LEGEND = ", ".join(f"{DATA.letters[t]} {DATA.long_names[t]}" for t in TILE_TYPES)


def _paint(text: str, tile: str | None, color: bool, bold: bool = False) -> str:
    if not color or tile is None:
        return text
    code = COLOUR.get(tile, "0")
    return f"\x1b[{'1;' if bold else ''}{code}m{text}\x1b[0m"


def _wrap(text: str, width: int, indent: str = "    ") -> list[str]:
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def render(view: dict[str, Any], color: bool = False, width: int = 100) -> str:
    return "\n".join(_lines(view, color, width))


def _lines(view: dict[str, Any], color: bool, width: int) -> list[str]:
    cols = len(view["piles"])
    lines: list[str] = []
    decision = view.get("decision")
    if view["over"]:
        lines += _wrap(f"The Tide - game over: {view.get('end_reason') or ''}", width)
    else:
        who = view["to_move"][0] if view["to_move"] else view["active"]
        lines += _wrap(f"The Tide - turn {view['turn']}, P{view['active'] + 1}'s turn; "
                       f"P{who + 1} to decide ({_describe(decision)})", width)
    header = "        " + "".join(f"  {c}  " for c in COLUMN_NAMES[:cols])
    lines.append("  sea: top tile / height of each pile")
    tops = []
    for pile in view["piles"]:
        top = pile["top"]
        cell = f"{LETTER[top] if top else '-'}/{pile['height']}"
        tops.append(_paint(f"{cell:^5}", top, color))
    lines.append("  pile  " + "".join(tops))
    if view.get("pile_visibility") == "all":
        for c, pile in enumerate(view["piles"]):
            lines += _wrap(f"        pile {COLUMN_NAMES[c]} (bottom->top): "
                           + (" ".join(LETTER[t] for t in pile["tiles"]) or "empty"), width,
                           " " * 27)
    lines.append(header)
    rule = "        +" + "----+" * cols
    lines.append(rule)
    for r, row in enumerate(view["beach"]):
        cells = []
        for c, tile in enumerate(row):
            owner = view["friends"][r][c]
            letter = LETTER[tile] if tile else "."
            mark = str(owner + 1) if owner is not None else " "
            cells.append(" " + _paint(letter, tile, color) + _paint(mark, tile, color, True) + " ")
        lines.append(f"     {r + 1}  |" + "|".join(cells) + "|")
    lines.append(rule)
    # the players' table comes right under the beach and the legends after it, so a
    # window over the top of the screen (cove play at 80x24) shows the state first
    lines.append("        " + "  ".join(short for _, short in HELD)
                 + f"  {SHELLS}  points  tiles  friends")
    for p, seat in enumerate(view["seats"]):
        held = seat["held"]
        marker = ">" if p == view["active"] and not view["over"] else " "
        you = "*" if view.get("you") == p else " "
        waiting = f" (+{seat['friends_waiting']} next turn)" if seat["friends_waiting"] else ""
        counts = "".join(f" {held[name]:>{len(short) + (k > 0)}}"
                         for k, (name, short) in enumerate(HELD))
        lines.append(
            f"  {marker}P{p + 1}{you}{counts} {seat['shells']:>{len(SHELLS) + 1}} "
            f"{seat['points']:>7} {seat['tiles']:>6}  {seat['friends_on_beach']}{waiting}"
        )
    lines += _wrap("  > = whose turn it is; * = you; friends: on the beach (+ waiting to come "
                   "back next turn)", width)
    lines += _wrap(f"  Columns {COLUMN_NAMES[0]}-{COLUMN_NAMES[-1]}, rows 1-{ROWS} (c3 = column c, "
                   f"row 3); row 1 faces the sea. Letters: {LEGEND}; digit = a friend of that "
                   "player; '.' = empty square.", width)
    removed = view["removed"]
    lines += _wrap("  removed from the game: "
                   + ", ".join(f"{k} {removed[k]}" for k in ORDER), width)
    if not view["over"]:
        if view.get("column_end"):
            lines += _wrap("  a column and its pile are empty: the game ends after this check",
                           width)
        idle = view.get("idle_turns", 0)
        if idle:
            what = ("nothing could be collected" if view.get("stall_counts") == "stuck"
                    else "no tile collected")
            lines += _wrap(f"  {what} for {idle} turn{'s' if idle != 1 else ''} in a "
                           f"row; at {view['stall_limit']} the game ends on points (stall guard)",
                           width)
    if view["over"] and "scores" in view:
        win = ", ".join(f"P{w + 1}" for w in view["winners"])
        lines.append(f"  winner: {win}")
    return lines


def _describe(decision: dict[str, Any] | None) -> str:
    """A short form of the decision; the mover's own view has the details (owner, pool)."""
    if not decision:
        return ""
    kind = decision["kind"]
    if kind == "place":
        owner = decision.get("owner")
        return "place a friend" + (f" of P{owner + 1}" if owner is not None else "")
    if kind == "act":
        return "move, collect or pass"
    if kind == "shirk":
        return "choose a pile for a shirking friend's shell"
    if kind == "return":
        if "pool" not in decision:
            return "return tiles to the piles"
        pool = ", ".join(f"{n} {k}" for k, n in decision["pool"].items())
        return f"{decision['reason']}: return {decision['to_return']} of {pool} to the piles"
    return "double recycling: choose the reward"
