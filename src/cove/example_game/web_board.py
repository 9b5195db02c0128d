"""The Toy's board for the browser: the cards played, every seat's score and, for a seat,
its hand as cards to click and the bid as two buttons."""

from __future__ import annotations

from typing import Any

from cove.core.svg import Legal, button, group, moves_of, outcome, rect, svg, target, text
from cove.example_game.data import DATA

W = 640


def _card(x: float, y: float, value: int, faded: bool = False) -> str:
    body = rect(x, y, 44, 62, rx=6, fill="#eef2f6" if faded else "#fffdf6", stroke="#35506b",
                stroke_width=1.5)
    return body + text(x + 22, y + 38, value, 22, font_weight="bold", fill="#1d3550")


def draw(view: dict[str, Any], legal: Legal, seat: int | None) -> str:
    n = view["players"]
    out = [text(W / 2, 26, outcome(view), 15, font_weight="bold")]
    out.append(text(16, 58, f"Played ({view['plays_left']} left, deck {view['deck_size']})",
                    13, text_anchor="start"))
    for i, card in enumerate(view["played"]):
        out.append(group(f"<title>played {DATA.card_label} {card}</title>",
                         _card(16 + 50 * i, 66, card, faded=True)))
    y = 150
    for p in range(n):
        you = " (you)" if p == seat else ""
        total = view["card_points"][p] - view["bid_paid"][p]
        out.append(text(16, y + 20 * p, f"P{p + 1}{you}: {total} points "
                        f"({view['card_points'][p]} from cards, bid {view['bid_paid'][p]}), "
                        f"{view['hand_sizes'][p]} in hand", 13, text_anchor="start"))
    y += 20 * n + 16
    if "hand" in view:
        out.append(text(16, y, "Your hand", 13, text_anchor="start", font_weight="bold"))
        for i, card in enumerate(view["hand"]):
            moves = moves_of(legal, "play", card=card)
            out.append(target(_card(16 + 50 * i, y + 8, card), moves,
                              f"play {DATA.card_label} {card}" if moves
                              else f"{DATA.card_label} {card} in your hand"))
        bids = [(amount, moves_of(legal, "bid", amount=amount)) for amount in (0, 1)]
        for i, (amount, moves) in enumerate(b for b in bids if b[1]):
            out.append(button(300 + 140 * i, y + 20, 130, 34, f"bid {amount}", moves))
        y += 80
    return svg(W, y + 10, "".join(out), "The Toy's table")
