"""What each seat of a Tricky Tides game sees, and the score in named parts.

:func:`view_of` builds ``state.view(p)`` (``TidesState._view``) by whitelisting: the map,
every seat's public figures, the pending step, the event and monster modules' public
parts, and for a player their own hand and sightings card (every key: SPEC.md).
:func:`score_parts` reads a seat's score from such a view in the parts R9.1 adds up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cove.games.tricky_tides import events, monsters
from cove.games.tricky_tides.actions import CARD_TEXT
from cove.games.tricky_tides.constants import (
    CARD_HEADINGS,
    HANDS,
    ORDER_GOLD,
    RG,
    ROUNDS,
    SELL,
    G,
)
from cove.games.tricky_tides.data import DATA, NAV_CARDS, VALUES
from cove.games.tricky_tides.decision_stack import (
    ACTION_STEP,
    LEADER,
    MONSTER,
    OVER,
    OVERBOARD,
    PHASE_NAMES,
    PLACE,
    SAIL_STEP,
    SEA_STEP,
)
from cove.games.tricky_tides.geometry import CELL_NAMES, CELLS, HEADINGS
from cove.games.tricky_tides.round_rules import EX_EVENTS, EX_MONSTERS
from cove.games.tricky_tides.sailing import deck_headings

if TYPE_CHECKING:
    from cove.games.tricky_tides.state import TidesState


def card_dict(c: int, heads: tuple[tuple[int, ...], ...] = CARD_HEADINGS) -> dict[str, Any]:
    return {
        "card": CARD_TEXT[c],
        "suit": DATA.suits[c // VALUES],
        "value": c % VALUES + 1,
        "headings": [HEADINGS[h] for h in heads[c]],
    }


def order_dict(o: int) -> dict[str, Any]:
    od = DATA.orders[o]
    return {
        "id": od.id,
        "monster": DATA.suits[od.monster],
        "gold": od.gold,
        "goods": {DATA.goods[t]: k for t, k in od.pairs},
    }


def goods_dict(counts: Sequence[int]) -> dict[str, int]:
    return {DATA.goods[t]: counts[t] for t in RG if counts[t]}


def sight_text(k: int) -> str:
    """Sightings card ``k`` in words, for the log: ``A (octopus +3, ...)``."""
    sc = DATA.sightings[k]
    return sc.id + " (" + ", ".join(
        f"{DATA.suits[m]} +{b}" for m, b in enumerate(sc.bonus)) + ")"


def sight_dict(k: int) -> dict[str, Any]:
    sc = DATA.sightings[k]
    return {"id": sc.id, "bonus": {DATA.suits[m]: b for m, b in enumerate(sc.bonus)}}


def cell_view(s: TidesState, c: int) -> dict[str, Any]:
    """One map card: its island (None on open sea), goods, order and ships."""
    isl = DATA.islands[s.layout[c]]
    b = c * G
    return {
        "cell": CELL_NAMES[c],
        "sea": s.sea[c],
        "island": None if s.sea[c] else {
            "id": isl.id,
            "name": isl.name,
            "number": isl.goods,
            "ship_colour": isl.colour + 1 if isl.colour >= 0 else None,
            "monster": DATA.suits[isl.monster] if isl.monster >= 0 else None,
        },
        "goods": goods_dict(s.goods[b:b + G]),
        "order": order_dict(s.orders_on[c]) if s.orders_on[c] >= 0 else None,
        "ships": [p for p in range(s.n) if s.pos[p] == c],
    }


def seat_view(s: TidesState, p: int, heads: tuple[tuple[int, ...], ...], over: bool
              ) -> dict[str, Any]:
    """What everyone sees of seat ``p`` (its sightings card only once the game is over)."""
    b = p * G
    gold = sum(ORDER_GOLD[o] for o in s.won[p])
    return {
        "seat": p,
        "name": f"P{p + 1}",
        "colour": s.colour[p] + 1,
        "ship": CELL_NAMES[s.pos[p]] if s.pos[p] >= 0 else None,
        "hold": goods_dict(s.hold[b:b + G]),
        "hold_total": s.hcount[p],
        "orders": [order_dict(o) for o in s.won[p]],
        "order_gold": gold,
        # the score so far without the secret sightings bonus (orders + goods sold)
        "public_score": gold + sum(s.hold[b + t] // SELL[t] for t in RG),
        "anchor": bool(s.anchors >> p & 1),
        "cards_in_hand": s.hands[p].bit_count(),
        "played": card_dict(s.trick[p], heads) if s.trick[p] >= 0 else None,
        "known_voids": [DATA.suits[k] for k in range(4) if s.voids >> (p * 4 + k) & 1],
        "sightings": (sight_dict(s.sight[p]) if over else None),
    }


def view_of(s: TidesState, player: int | None) -> dict[str, Any]:
    """``s.view(player)`` less the keys every game's view has: what ``player`` (None: a
    spectator) may see, whitelisted."""
    over = s.phase == OVER
    heads = deck_headings(s._opts().nav_deck == "flat")
    cells = [cell_view(s, c) for c in range(CELLS)]
    players = [seat_view(s, p, heads, over) for p in range(s.n)]
    phase = s.phase
    v: dict[str, Any] = {
        "round": min(s.round + 1, ROUNDS),
        "rounds": ROUNDS,
        "hand_no": s.hand_no + 1 if not over else HANDS,
        "hands_per_round": HANDS,
        "leader": s.leader if phase != LEADER else None,
        "lead": s.lead,
        "phase": PHASE_NAMES[phase],
        "current": s.cur if not over else None,
        "led_suit": (DATA.suits[s.trick[s.lead] >> 3]
                     if phase != PLACE and not over and s.trick[s.lead] >= 0
                     else None),
        "sail_order": list(s.sorder) if phase in (SAIL_STEP, SEA_STEP, ACTION_STEP,
                                                  OVERBOARD, MONSTER) else [],
        "heading": HEADINGS[s.heading] if phase == SEA_STEP else None,
        "hold_limit": s.hold_limit,
        "map": cells,
        "seats": players,
        "played_this_round": [CARD_TEXT[c] for c in range(NAV_CARDS)
                              if s.played >> c & 1],
        "bag_size": s.bag_n,
        "order_deck_size": len(s.odeck),
        "goods_types": list(DATA.goods),
    }
    if s.ex & EX_EVENTS:
        v.update(events.view(s))
    if s.ex & EX_MONSTERS:
        v.update(monsters.view(s))
    if player is not None:
        v["hand"] = [card_dict(c, heads) for c in range(NAV_CARDS)
                     if s.hands[player] >> c & 1]
        v["sightings"] = sight_dict(s.sight[player])
        v["my_score"] = sum(s.score_parts(player))   # with the own sightings bonus
    return v


SELL_OF = dict(zip(DATA.goods, DATA.sell, strict=True))
"""How many goods of each type (by name, as a view names them) sell for 1 gold (R9.1)."""


def score_parts(view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Seat ``p``'s score in the parts R9.1 adds up, read from ``view`` alone: the gold of
    the orders delivered, the sightings card's bonus for each of those orders' monsters,
    and the goods left in the hold sold at the end (1 gold per 3 sugar, 3 coffee, 2 silk,
    2 spice or 1 gold, each type rounded down). The bonus is left out while ``view`` does
    not show the seat's card (another seat's, or a spectator's, before the game ends);
    once the game is over every view shows every card and the parts add up to the
    score."""
    seat = view["seats"][p]
    parts = [("order gold", float(seat["order_gold"]))]
    card = seat["sightings"] or (view.get("sightings") if view.get("you") == p else None)
    if card is not None:
        bonus = card["bonus"]
        parts.append(("sightings bonus",
                      float(sum(bonus.get(o["monster"], 0) for o in seat["orders"]))))
    parts.append(("goods sold", float(sum(k // SELL_OF[t] for t, k in seat["hold"].items()))))
    return parts
