"""High Water drawn from a seat's view: the water coin, the trick, the crates, the two
market rows and every seat's hand, played pile, hold of dice, crew and quests.

Clicks: a trick card in your hand plays it; a crate takes it; a die in your hold is used,
marked for a re-roll, set, paid or returned; a face chooses the Quartermaster's face; a
market card is bought or cycled; your crew card is activated; a quest card is advanced (its
own or with a die), sabotaged (an opponent's) or has a marker removed; buttons take the
steps (`next step`, `stop`, `end segment`, `roll`). The dice colours (ids, names, fills)
are read from the loaded data file.
"""

from __future__ import annotations

import re
from typing import Any

from cove.core.svg import (
    SEAT_COLOURS,
    Legal,
    button_row,
    circle,
    coded,
    group,
    lines,
    moves_of,
    outcome,
    polygon,
    rect,
    svg,
    target,
    text,
    you_first,
)
from cove.games.high_water.data import DATA

W = 600
DIE_FILL = {c.id: c.fill for c in DATA.colours}
DIE_NAME = {c.id: c.name for c in DATA.colours}
_LABEL = re.compile(r"([a-z]+)(\d+)")


def _light(fill: str) -> bool:
    """Whether a "#rrggbb" fill is light enough to take dark ink (its luma above 150)."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b > 150


DIE_INK = {c.id: "#222" if _light(c.fill) else "#fff" for c in DATA.colours}
"""The ink of a die's face on its fill: dark on a light colour, white on a dark one."""


def _die(x: float, y: float, label: str, size: float = 26) -> str:
    """A die: its colour, its face large and its colour id small, so colour is not needed."""
    m = _LABEL.fullmatch(label)
    colour, face = (m.group(1), m.group(2)) if m else (label, "?")
    fill = DIE_FILL.get(colour, "#999")
    ink = DIE_INK.get(colour, "#fff")
    out = rect(x, y, size, size, rx=5, fill=fill, stroke="#222", stroke_width=1.2)
    out += text(x + size / 2 + 3, y + size / 2 + 6, face, size * 0.6, fill=ink, font_weight="bold")
    return coded(f"die:{colour}", colour.upper(),
                 out + text(x + 7, y + 10, colour.upper(), 8, fill=ink))


def _die_moves(legal: Legal, label: str) -> list[str]:
    return moves_of(legal, ("use", "mark", "pick", "pay", "return"), label=label)


def _trick_card(x: float, y: float, card: int | str, w: float = 30, h: float = 42,
                faded: bool = False) -> str:
    fill = "#e8eef5" if faded else "#fffdf6"
    out = rect(x, y, w, h, rx=4, fill=fill, stroke="#35506b", stroke_width=1.2)
    return out + text(x + w / 2, y + h / 2 + 6, card, 17 if w >= 30 else 12, font_weight="bold",
                      fill="#8a9aaa" if faded else "#1d3550")


def _water(x: float, y: float, water: str) -> str:
    high = water == "high"
    out = circle(x, y, 26, fill="#3c7fb8" if high else "#9ec7e6", stroke="#123", stroke_width=2)
    if high:
        out += polygon([(x, y - 20), (x - 8, y - 9), (x + 8, y - 9)], fill="#fff")
    else:
        out += polygon([(x, y + 20), (x - 8, y + 9), (x + 8, y + 9)], fill="#123")
    return group(out + text(x, y + 5, water.upper(), 12, font_weight="bold",
                            fill="#fff" if high else "#123"),
                 "<title>" + f"water coin: {water} (the {water}est card wins)" + "</title>")


def _name(card: dict[str, Any]) -> str:
    return str(card.get("name", "")).lower()


def _market_card(x: float, y: float, w: float, h: float, card: dict[str, Any] | None,
                 legal: Legal) -> str:
    if not card:
        return rect(x, y, w, h, rx=6, fill="none", stroke="#999", stroke_dasharray="4 3")
    quest = card.get("type") == "quest"
    out = rect(x, y, w, h, rx=6, fill="#f5ecd6" if quest else "#fbf7ee", stroke="#6b5326",
               stroke_width=1.3)
    out += rect(x, y, w, 18, rx=6, fill="#6b5326" if quest else "#35506b")
    out += text(x + 5, y + 13, card.get("name", ""), 10.5, text_anchor="start", fill="#fff",
                font_weight="bold")
    out += text(x + 5, y + 31, f"{card.get('type', '')} · cost {card.get('cost') or 'free'}", 9,
                text_anchor="start", fill="#444")
    if quest:
        out += _tasks(x + 5, y + 42, card, w)
    else:
        out += lines(x + 5, y + 45, str(card.get("text", "")), 9, int(w / 5.2), limit=3)
    moves = moves_of(legal, ("buy", "cycle"), card=_name(card))
    return target(out, moves, f"{card.get('name')}: {card.get('type')}, cost "
                  f"{card.get('cost') or 'free'}: {card.get('text', '')}")


def _tasks(x: float, y: float, card: dict[str, Any], w: float) -> str:
    """A quest's tasks as a checklist (filled box = done), then its influence."""
    done = int(card.get("done", 0))
    out = ""
    tasks = list(card.get("tasks") or [])
    for k, task in enumerate(tasks):
        ok = k < done
        out += rect(x, y + k * 12 - 7, 8, 8, fill="#2e9a4a" if ok else "#fff", stroke="#333",
                    stroke_width=0.8)
        mark = "done: " if ok else ""
        out += text(x + 12, y + k * 12, f"{mark}{task}"[: int(w / 5.3)], 9, text_anchor="start",
                    fill="#1d5a2a" if ok else "#222")
    ty = y + len(tasks) * 12
    out += text(x, ty, f"→ {card.get('influence', 0)} influence", 9.5, text_anchor="start",
                font_weight="bold")
    markers = int(card.get("markers", 0) or 0)
    if markers:
        out += text(x + w - 10, ty, f"✕ {markers} sabotage", 9.5, text_anchor="end",
                    fill="#b00", font_weight="bold")
    return out


def _seat(view: dict[str, Any], legal: Legal, me: int | None, i: int, y0: float
          ) -> tuple[str, float]:
    s = view["seats"][i]
    you = i == me
    out: list[str] = []
    order = list(view.get("order") or [])
    info = [f"gold {s.get('gold', 0)}", f"rum {s.get('rum', 0)}",
            f"influence {s.get('influence', 0)}"]
    if s.get("committed"):
        info.append("card committed")
    if view.get("won_trick") == i:
        info.append("won the trick")
    if i in order:
        info.append(f"picks #{order.index(i) + 1}")
    seg = view.get("segment") or {}
    if seg.get("player") == i:
        info.append(f"in segment: {seg.get('step_name', '')}")
    head = f"P{i + 1}" + (" (you)" if you else "")
    out.append(coded(f"seat:P{i + 1}", f"P{i + 1}",
                     rect(25, y0 + 5, 12, 12, fill=SEAT_COLOURS[i % len(SEAT_COLOURS)],
                          stroke="#222")
                     + text(42, y0 + 16, head, 13, text_anchor="start", font_weight="bold")))
    out.append(text(110, y0 + 16, " · ".join(info), 11, text_anchor="start"))
    y = y0 + 24
    # Hand and played pile.
    out.append(text(25, y + 26, "hand", 10, text_anchor="start", fill="#555"))
    x = 55.0
    for card in s.get("hand") or []:
        moves = moves_of(legal, "play", card=card) if you else []
        out.append(target(_trick_card(x, y + 6, card), moves, f"P{i + 1} hand: card {card}"))
        x += 34
    commit = view.get("my_commit") if you else None
    if commit:
        out.append(group(_trick_card(x, y + 6, commit.get("card", "?")),
                         rect(x - 2, y + 4, 34, 46, rx=5, fill="none", stroke="#c88a00",
                              stroke_width=2, stroke_dasharray="3 2"),
                         "<title>your secret card for this trick</title>"))
        x += 34
    x += 10
    out.append(text(x, y + 26, "played", 10, text_anchor="start", fill="#555"))
    x += 38
    for card in s.get("played") or []:
        out.append(_trick_card(x, y + 13, card, 22, 30, faded=True))
        x += 25
    y += 54
    # Hold of dice.
    out.append(text(25, y + 17, "hold", 10, text_anchor="start", fill="#555"))
    x = 55
    for label in s.get("dice") or []:
        moves = _die_moves(legal, label) if you else []
        out.append(target(_die(x, y, label), moves,
                          f"P{i + 1} die {DIE_NAME.get(_split(label), label)} {label}"))
        x += 30
        if x > W - 50:
            x, y = 55, y + 30
    y += 34
    # Crew and quests.
    x = 25
    row_h = 0.0
    for card in s.get("crew") or []:
        used = bool(card.get("used"))
        body = rect(x, y, 120, 52, rx=5, fill="#e6e6e6" if used else "#fbf7ee", stroke="#35506b")
        body += text(x + 5, y + 13, card.get("name", ""), 10.5, text_anchor="start",
                     font_weight="bold")
        body += text(x + 5, y + 24, "used this turn" if used else card.get("type", ""), 8.5,
                     text_anchor="start", fill="#555", font_style="italic")
        body += lines(x + 5, y + 36, str(card.get("text", "")), 8.5, 26, limit=2)
        moves = moves_of(legal, "activate", card=_name(card)) if you else []
        out.append(target(body, moves, f"P{i + 1} crew {card.get('name')}: {card.get('text')}"
                          + (" (used)" if used else "")))
        x += 125
        row_h = max(row_h, 56)
        if x > W - 140:
            x, y, row_h = 25, y + 56, 0
    for card in s.get("quests") or []:
        qh = 34 + 12 * len(card.get("tasks") or [])
        if x + 180 > W - 20:
            x, y, row_h = 25, y + row_h, 0
        body = rect(x, y, 180, qh, rx=5, fill="#f5ecd6", stroke="#6b5326", stroke_width=1.3)
        body += text(x + 5, y + 13, card.get("name", ""), 10.5, text_anchor="start",
                     font_weight="bold")
        body += _tasks(x + 5, y + 26, card, 180)
        qname = _name(card)
        moves = moves_of(legal, "target", player=i, quest=qname)
        if you:
            moves = moves_of(legal, ("advance", "remove", "extra"), quest=qname) + moves
        out.append(target(body, moves, f"P{i + 1} quest {card.get('name')}: "
                          f"{card.get('done', 0)}/{len(card.get('tasks') or [])} tasks done, "
                          f"{card.get('markers', 0)} sabotage markers"))
        x += 185
        row_h = max(row_h, qh + 4)
    done = ", ".join(f"{c.get('name')} ({c.get('influence')})" for c in s.get("completed") or [])
    y += row_h
    if done:
        out.append(lines(25, y + 12, f"completed: {done}", 10, 95, fill="#1d5a2a"))
        y += 16 * max(1, len(done) // 95 + 1)
    y += 6
    frame = rect(15, y0, W - 30, y - y0, rx=8, fill="#fff1c4" if you else "#fffaf0",
                 stroke="#c88a00" if you else "#a08a5a", stroke_width=2.5 if you else 1)
    return frame + "".join(out), y + 6


def _split(label: str) -> str:
    m = _LABEL.fullmatch(label)
    return m.group(1) if m else label


def draw(view: dict[str, Any], legal: Legal, seat: int | None) -> str:
    seats = view.get("seats") or []
    me = seat if seat is not None and 0 <= seat < len(seats) else None
    parts: list[str] = []
    status = (f"Round {view.get('round')} of at most {view.get('max_rounds')} · goal "
              f"{view.get('goal')} influence · bag {view.get('bag')} dice")
    if view.get("end_triggered"):
        status += " · last round"
    parts.append(text(15, 20, status, 13, text_anchor="start"))
    prompt = outcome(view)
    parts.append(lines(15, 38, prompt, 12, 78, limit=2, fill="#6a3d00"))
    parts.append(_water(W - 45, 42, str(view.get("water", "high"))))
    # The trick.
    y: float = 72
    trick = view.get("trick") or {}
    revealed = list(trick.get("revealed") or [])
    waiting = set(trick.get("waiting") or [])
    parts.append(text(15, y + 14, "Trick", 14, text_anchor="start", font_weight="bold"))
    x = 70.0
    for i in range(len(seats)):
        cards = revealed[i] if i < len(revealed) else []
        parts.append(text(x, y + 14, f"P{i + 1}" + (" …" if i in waiting else ""), 11,
                          text_anchor="start"))
        cx = x
        for card in cards:
            parts.append(_trick_card(cx, y + 20, card, 24, 32))
            cx += 27
        x += max(70, cx - x + 12)
    y += 62
    # Crates.
    parts.append(text(15, y + 14, "Crates", 14, text_anchor="start", font_weight="bold"))
    y += 20
    x = 15
    for k, crate in enumerate(view.get("crates") or []):
        dice = list(crate or [])
        w = max(100, 12 + 30 * len(dice))
        if x + w > W - 10:
            x, y = 15, y + 62
        if crate is None:
            parts.append(rect(x, y, w, 54, rx=6, fill="none", stroke="#999",
                              stroke_dasharray="4 3"))
            parts.append(text(x + w / 2, y + 32, f"crate {k + 1} taken", 11, fill="#777"))
        else:
            body = rect(x, y, w, 54, rx=4, fill="#c89a5a", stroke="#5a3a12", stroke_width=2)
            body += text(x + 6, y + 13, f"crate {k + 1}", 10, text_anchor="start",
                         font_weight="bold", fill="#2a1a00")
            for d, label in enumerate(dice):
                body += _die(x + 6 + 30 * d, y + 20, label)
            moves = moves_of(legal, "take", crate=k)
            parts.append(target(body, moves, f"crate {k + 1}: {' '.join(dice)}"))
        x += w + 8
    y += 64
    # Face choice (Quartermaster).
    faces = [a for a in legal if (a.get("json") or {}).get("kind") == "face"]
    if faces:
        parts.append(text(15, y + 18, "Set the die to", 12, text_anchor="start"))
        for k, a in enumerate(faces):
            face = a["json"].get("face")
            body = rect(120 + 36 * k, y, 30, 30, rx=5, fill="#fff", stroke="#222",
                        stroke_width=1.5)
            body += text(135 + 36 * k, y + 21, face, 16, font_weight="bold")
            parts.append(target(body, [a["text"]], f"set the die to {face}"))
        y += 40
    # The market.
    market = view.get("market") or {}
    crew = list(market.get("crew") or [])
    quests = list(market.get("quest") or [])
    parts.append(text(15, y + 14, f"Crew market (deck {market.get('crew_deck', 0)})", 14,
                      text_anchor="start", font_weight="bold"))
    y += 20
    cw = (W - 30 - 6 * (max(1, len(crew)) - 1)) / max(1, len(crew))
    for k, card in enumerate(crew):
        parts.append(_market_card(15 + k * (cw + 6), y, cw, 90, card, legal))
    y += 98
    parts.append(text(15, y + 14, f"Quest market (deck {market.get('quest_deck', 0)})", 14,
                      text_anchor="start", font_weight="bold"))
    y += 20
    qw = (W - 30 - 6 * (max(1, len(quests)) - 1)) / max(1, len(quests))
    qh = 50 + 12 * max([len((c or {}).get("tasks") or []) for c in quests] or [0])
    for k, card in enumerate(quests):
        parts.append(_market_card(15 + k * (qw + 6), y, qw, qh, card, legal))
    y += qh + 10
    # The seats, yours first.
    for i in you_first(len(seats), me):
        body, y = _seat(view, legal, me, i, y)
        parts.append(body)
    # Step buttons.
    steps = (("roll", "Roll"), ("next", "Next step"), ("stop", "Stop"), ("end", "End segment"))
    parts.append(button_row(15, y + 4, legal, steps))
    y += 46
    from cove.games.high_water import GAME  # the declaration imports this module

    return svg(W, y, "".join(parts), f"{GAME.name} board")
