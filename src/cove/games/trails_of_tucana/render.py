"""Terminal drawing of a Trails of Tucana view: the island as a hex map plus the tables.

Spaces sit on a character grid: row r on line 2r, doubled column c at x = 4c. A space
is four characters: its terrain letter then its feature, ``D(A)`` a village with letter
A, ``Fob`` a sight (``FOB*`` once connected to a village). Trails are ``────`` between
spaces of one row and ``/`` or ``\\`` on the line between rows. Below ``COMPACT`` columns
the rows sit on consecutive lines (the island fits a 24-line terminal) and a trail to the
row below is drawn beside its upper space: ``\\`` after it (down and right), ``/``
before it (down and left), the trail within a row shortened to ``──`` between them.
Colour only adds emphasis: everything reads the same without it.
"""

from __future__ import annotations

import textwrap
from typing import Any

from cove.games.trails_of_tucana.data import CARD_NAMES, TABLES, TERRAINS

_TERRAIN_COLOR = ("33", "32", "37", "34")  # desert yellow, forest green, mountain, water blue
_SIGHT_SHORT = tuple(code.lower() for code in TABLES.sight_codes)  # "ob" for an obelisk
_KEY = (", ".join(f"{code} {name}" for code, name in zip(TABLES.terrain_codes,
                                                         CARD_NAMES[:TERRAINS], strict=True))
        + "; (A) village with its letter; "
        + ", ".join(f"{short} {name}" for short, name in zip(_SIGHT_SHORT, TABLES.sight_names,
                                                             strict=True))
        + f" ({_SIGHT_SHORT[0].upper()}* = linked)")
"""The map's key: the terrains' and the sights' letters as the map shows them."""
_RESET = "\x1b[0m"
COMPACT = 100
"""Below this width (when the island fits at four characters a column) its rows sit on
consecutive lines."""
_BOX = ("I", "II", "III")


def _c(text: str, code: str, color: bool) -> str:
    return f"\x1b[{code}m{text}{_RESET}" if color else text


def _ends(text: str) -> tuple[str, str]:
    a, b = text.split("-")
    return a, b


def _compact(view: dict[str, Any], width: int) -> bool:
    """Whether the island is drawn with its rows on consecutive lines: below ``COMPACT``
    columns, when it fits at four characters a doubled column."""
    cols = max(c for _, c in TABLES.islands[view["map"]].coords)
    return width < COMPACT and 4 + 4 * cols + 4 <= width


def draw_island(view: dict[str, Any], seat: int, color: bool, width: int = 100) -> list[str]:
    """The hex map of ``seat``'s sheet as it appears in ``view``; a doubled column is four
    characters wide, or three when four would not fit in ``width`` (trails ``──``)."""
    isl = TABLES.islands[view["map"]]
    sheet = view["sheets"][seat]
    mine = view.get("you") == seat
    pending = set()
    if mine:
        for t in view.get("this_turn", []):
            if t != "pass":
                pending.add(_ends(t.split(" ", 1)[1]))
    segs = {_ends(t) for t in sheet["segments"]}
    circled = set(sheet["circled_sights"])
    letters = sheet["letters"]
    rows = max(r for r, _ in isl.coords) + 1
    cols = max(c for _, c in isl.coords)
    margin = 4
    step = 4 if margin + 4 * cols + 4 <= width else 3
    compact = _compact(view, width)
    line = 1 if compact else 2                  # lines per row of spaces
    width = margin + step * cols + 4
    grid: list[list[str]] = [[" "] * width for _ in range(line * (rows - 1) + 1)]
    for i, (r, c) in enumerate(isl.coords):
        x = margin + step * c
        t = isl.terrain[i]
        cell = [_c(TABLES.terrain_codes[t], _TERRAIN_COLOR[t] + ";1", color), " ", " ", " "]
        v = isl.village[i]
        s = isl.sight[i]
        if v >= 0:
            cell[1:] = ["(", _c(letters[v], "35;1", color), ")"]
        elif s >= 0:
            short = _SIGHT_SHORT[isl.sight_kind[s]]
            if isl.labels[i] in circled:
                cell[1:] = [_c(ch, "36;1;7", color) for ch in short.upper()] + ["*"]
            else:
                cell[1:3] = [_c(ch, "36", color) for ch in short]
        grid[line * r][x - 1 : x + 3] = cell
    for a, b in isl.edges:
        la, lb = isl.labels[a], isl.labels[b]
        if (la, lb) not in segs:
            continue
        code = "33;1" if (la, lb) in pending else "31;1"
        (ra, ca), (rb, cb) = isl.coords[a], isl.coords[b]
        xa = margin + step * ca
        if compact:   # on a's own line: "\\" after it, "/" before it, "──" in a row
            if ra == rb:
                grid[ra][xa + 4 : xa + 6] = [_c("─", code, color)] * 2
            else:
                grid[ra][xa + 3 if cb > ca else xa - 2] = _c("\\" if cb > ca else "/", code,
                                                             color)
        elif ra == rb:  # same row: a is left of b
            grid[2 * ra][xa + 3 : xa + 2 * step - 1] = [_c("─", code, color)] * (2 * step - 4)
        elif cb > ca:
            grid[2 * ra + 1][xa + step - 2] = _c("\\", code, color)
        else:
            grid[2 * ra + 1][xa - 2] = _c("/", code, color)
    ruler = [" "] * width
    for c in range(0, cols + 1, 2):
        text = chr(ord("a") + c)
        for k, ch in enumerate(text):
            ruler[margin + step * c - 1 + k] = ch
    ruler2 = [" "] * width
    for c in range(1, cols + 1, 2):
        text = chr(ord("a") + c)
        for k, ch in enumerate(text):
            ruler2[margin + step * c - 1 + k] = ch
    if compact:   # one ruler: every column's letter fits four characters apart
        out = ["".join(a if a != " " else b for a, b in zip(ruler, ruler2, strict=True)
                       ).rstrip()]
    else:
        out = ["".join(ruler).rstrip(), "".join(ruler2).rstrip()]
    for y, chars in enumerate(grid):
        if y % line == 0:
            chars[0:2] = list(f"{y // line + 1:>2}")
        out.append("".join(chars).rstrip())
    return out


def _sheet_lines(view: dict[str, Any], seat: int) -> list[str]:
    sheet = view["sheets"][seat]
    rounds = view["rounds"]
    boxes = sheet["boxes"]
    box_text = "  ".join(
        f"{_BOX[r]}={boxes[r] if r < len(boxes) else '-'}" for r in range(rounds)
    )
    sv = sheet["sight_values"]
    isl = TABLES.islands[view["map"]]
    sight_text = "  ".join(
        name + " " + " ".join(
            f"[{x}]" if j < len(sv[name]) else str(x) for j, x in enumerate(isl.sight_values[k])
        )
        for k, name in enumerate(TABLES.sight_names)
    )
    lines = [
        f"Sights ([n] = circled): {sight_text}  (sum {sheet['sight_sum']})",
        f"Sight boxes: {box_text}   Village pairs: "
        f"{' '.join(sheet['pairs']) or '-'} ({sheet['pair_points']})   "
        f"Bonus: {' '.join(sheet['blue_bonus']) or '-'} ({sheet['bonus_points']})   "
        f"Score: {sheet['score']}",
    ]
    if sheet["linked_red"]:
        lines.append("Sight pairs linked (red cards): " + ", ".join(sheet["linked_red"]))
    return lines


def _wrap(text: str, width: int, indent: str = "    ") -> list[str]:
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _n(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def render(view: dict[str, Any], color: bool = False, width: int = 100) -> str:
    seat = view.get("you")
    me = 0 if seat is None else int(seat)
    out: list[str] = []
    title = f"Trails of Tucana - {view['map_name']}"
    if view["over"]:
        status = "game over"
    else:
        status = (f"round {view['round']}/{view['rounds']}, turn {view['turn']}/"
                  f"{view['turns_per_round']}")
    compact = _compact(view, width)
    cards = " + ".join(_c(c.upper(), "1", color) for c in view["cards"] or ())
    if compact:   # the island's name, the turn and the cards on one line when they fit
        turn = f"  {status}  deck: {_n(view['deck'], 'card')}"
        plain = " + ".join(c.upper() for c in view["cards"] or ())
        one = len(view["map_name"] + turn) + (len(plain) + 9 if plain else 0) <= width
        out.append(_c(view["map_name"], "1", color) + turn
                   + (f"  cards: {cards}" if cards and one else ""))
        if cards and not one:
            out.append(f"cards: {cards}")
    else:
        out.append(_c(title, "1", color) + f"   {status}   deck: {_n(view['deck'], 'card')}")
        if cards:
            out.append(f"Revealed terrain cards: {cards}")
    if view.get("bonus_step") and not view["over"]:
        out.append("Bonus step: players with a bonus segment draw one anywhere (or pass).")
    if seat is not None and view.get("bonus_segments"):
        later = "" if view.get("bonus_step") else " after everyone has drawn"
        out += [_c(x, "33;1", color) for x in _wrap(
            f"You have {_n(view['bonus_segments'], 'bonus segment')} to draw anywhere{later}.",
            width)]
    if seat is not None and view.get("this_turn"):
        out += _wrap("Your segments this turn: " + ", ".join(view["this_turn"]), width)
    if seat is not None and view.get("connected_this_turn"):
        out += _wrap("Connected this turn: " + ", ".join(view["connected_this_turn"]), width)
    who = "Your island" if seat is not None else "Island of P1 (spectator)"
    letters = " ".join(view["sheets"][me]["letters"])
    if seat is None or not compact:   # (compact: the villages show their letters)
        out.append(f"{who} (P{me + 1}); letters {letters} in villages 1-10")
    out += draw_island(view, me, color, width)
    isl = TABLES.islands[view["map"]]
    last_col = chr(ord("a") + max(c for _, c in isl.coords))
    rows = max(r for r, _ in isl.coords) + 1
    trails = ("── a trail in a row; \\ after a space or / before it: a trail to the row below"
              if compact else "── / \\ trails")
    out += _wrap(f"Key: columns a-{last_col}, rows 1-{rows}; {_KEY}; {trails}", width, "     ")
    out += [y for x in _sheet_lines(view, me) for y in _wrap(x, width)]
    blue = "  ".join(
        f"{L}-{L}: {'/'.join(map(str, v)) if v else 'gone'}" for L, v in view["blue"].items()
    )
    out += _wrap(f"Blue bonus cards left: {blue}", width)
    if view["red"] or view["red_taken"]:
        red = ", ".join(f"{r['sight']}-{r['sight']} ({r['value']})" for r in view["red"])
        taken = ", ".join(
            f"{r['sight']} by {' '.join(f'P{p + 1}' for p in r['by'])}" for r in view["red_taken"]
        )
        out += _wrap(f"Red bonus cards: {red or 'none left'}" + (f"; taken: {taken}" if taken
                                                                    else ""), width)
    if "solo" in view:
        solo = view["solo"]
        dropped = " ".join(solo["discarded_blue"]) or "none yet"
        out += _wrap(f"Solo (unofficial rule): reach {solo['target']} points to win; "
                     f"blue cards discarded after round 1: {dropped}", width)
    if view["players"] > 1:
        out.append("Players (* = you):" if seat is not None else "Players (* = the island shown):")
        waiting = set(view["to_move"])
        for q, sh in enumerate(view["sheets"]):
            mark = "*" if q == me else " "
            state = "" if view["over"] else ("  (drawing)" if q in waiting else "  (done)")
            if sh.get("bonus_owed") and not view["over"]:
                state += f"  bonus owed {sh['bonus_owed']}"
            boxes = " ".join(str(b) for b in sh["boxes"]) or "-"
            out.append(
                f" {mark}P{q + 1}: score {sh['score']:3}  boxes {boxes}  sights {sh['sight_sum']}"
                f"  pairs {' '.join(sh['pairs']) or '-'}  bonus {sh['bonus_points']}{state}"
            )
    if view["over"]:
        winners = " ".join(f"P{p + 1}" for p in view.get("winners", []))
        scores = ", ".join(f"P{p + 1} {x:g}" for p, x in enumerate(view.get("scores") or []))
        out += [_c(x, "1", color) for x in _wrap(
            f"Final scores: {scores or 'none'}; winner(s): {winners or 'none'}", width)]
    return "\n".join(out)
