"""What each seat of a Tricky Tides game sees, and the score in named parts.

:func:`view_of` builds ``state.view(p)`` (``TidesState._view``) by whitelisting: the map,
every seat's public figures, the pending step, the event and monster modules' public
parts, and for a player their own hand and sightings card (every key: SPEC.md).
:func:`score_parts` reads a seat's score from such a view in the parts R9.1 adds up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from cove.core.bits import has, size
from cove.games.tricky_tides import events, monsters
from cove.games.tricky_tides.actions import CARD_TEXT
from cove.games.tricky_tides.constants import (
    CARD_HEADINGS,
    EVERY_GOODS_TYPE,
    HANDS,
    ORDER_GOLD,
    ROUNDS,
    SELL,
    cards_in,
    known_void,
    suit_of,
    value_of,
)
from cove.games.tricky_tides.data import DATA, GOODS_TYPES, SUITS
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
from cove.games.tricky_tides.round_rules import HOOK_EVENTS, HOOK_MONSTERS
from cove.games.tricky_tides.sailing import deck_headings

if TYPE_CHECKING:
    from cove.games.tricky_tides.state import TidesState


def card_dict(card: int, heads: tuple[tuple[int, ...], ...] = CARD_HEADINGS
              ) -> dict[str, Any]:
    return {
        "card": CARD_TEXT[card],
        "suit": DATA.suits[suit_of(card)],
        "value": value_of(card),
        "headings": [HEADINGS[h] for h in heads[card]],
    }


def order_dict(order: int) -> dict[str, Any]:
    card = DATA.orders[order]
    return {
        "id": card.id,
        "monster": DATA.suits[card.monster],
        "gold": card.gold,
        "goods": {DATA.goods[t]: k for t, k in card.pairs},
    }


def goods_dict(counts: Sequence[int]) -> dict[str, int]:
    return {DATA.goods[t]: counts[t] for t in EVERY_GOODS_TYPE if counts[t]}


def sight_text(k: int) -> str:
    """Sightings card ``k`` in words, for the log: ``A (octopus +3, ...)``."""
    card = DATA.sightings[k]
    return card.id + " (" + ", ".join(
        f"{DATA.suits[m]} +{b}" for m, b in enumerate(card.bonus)) + ")"


def sight_dict(k: int) -> dict[str, Any]:
    card = DATA.sightings[k]
    return {"id": card.id, "bonus": {DATA.suits[m]: b for m, b in enumerate(card.bonus)}}


def cell_view(state: TidesState, cell: int) -> dict[str, Any]:
    """One map card: its island (None on open sea), goods, order and ships."""
    island = DATA.islands[state.layout[cell]]
    base = cell * GOODS_TYPES
    return {
        "cell": CELL_NAMES[cell],
        "sea": state.sea[cell],
        "island": None if state.sea[cell] else {
            "id": island.id,
            "name": island.name,
            "number": island.goods,
            "ship_colour": island.colour + 1 if island.colour >= 0 else None,
            "monster": DATA.suits[island.monster] if island.monster >= 0 else None,
        },
        "goods": goods_dict(state.goods[base:base + GOODS_TYPES]),
        "order": order_dict(state.orders_on[cell]) if state.orders_on[cell] >= 0 else None,
        "ships": [p for p in range(state.n) if state.ship_cells[p] == cell],
    }


def seat_view(state: TidesState, p: int, heads: tuple[tuple[int, ...], ...], over: bool
              ) -> dict[str, Any]:
    """What everyone sees of seat ``p`` (its sightings card only once the game is over)."""
    base = p * GOODS_TYPES
    gold = sum(ORDER_GOLD[o] for o in state.delivered[p])
    return {
        "seat": p,
        "name": f"P{p + 1}",
        "colour": state.colour[p] + 1,
        "ship": CELL_NAMES[state.ship_cells[p]] if state.ship_cells[p] >= 0 else None,
        "hold": goods_dict(state.hold[base:base + GOODS_TYPES]),
        "hold_total": state.hold_count[p],
        "orders": [order_dict(o) for o in state.delivered[p]],
        "order_gold": gold,
        # the score so far without the secret sightings bonus (orders + goods sold)
        "public_score": gold + sum(state.hold[base + t] // SELL[t] for t in EVERY_GOODS_TYPE),
        "anchor": has(state.anchors, p),
        "cards_in_hand": size(state.hands[p]),
        "played": card_dict(state.trick[p], heads) if state.trick[p] >= 0 else None,
        "known_voids": [DATA.suits[suit] for suit in range(SUITS)
                        if known_void(state.voids, p, suit)],
        "sightings": (sight_dict(state.sightings[p]) if over else None),
    }


def view_of(state: TidesState, player: int | None) -> dict[str, Any]:
    """``state.view(player)`` less the keys every game's view has: what ``player`` (None:
    a spectator) may see, whitelisted."""
    over = state.phase == OVER
    heads = deck_headings(state.options.nav_deck == "flat")
    cells = [cell_view(state, c) for c in range(CELLS)]
    players = [seat_view(state, p, heads, over) for p in range(state.n)]
    phase = state.phase
    v: dict[str, Any] = {
        "round": min(state.round + 1, ROUNDS),
        "rounds": ROUNDS,
        "hand_no": state.hand_no + 1 if not over else HANDS,
        "hands_per_round": HANDS,
        "leader": state.leader if phase != LEADER else None,
        "lead": state.led_by,
        "phase": PHASE_NAMES[phase],
        "current": state.current if not over else None,
        "led_suit": (DATA.suits[state.led_suit()]
                     if phase != PLACE and not over and state.trick[state.led_by] >= 0
                     else None),
        "sail_order": list(state.sailing_order) if phase in (
            SAIL_STEP, SEA_STEP, ACTION_STEP, OVERBOARD, MONSTER) else [],
        "heading": HEADINGS[state.heading] if phase == SEA_STEP else None,
        "hold_limit": state.hold_limit,
        "map": cells,
        "seats": players,
        "played_this_round": [CARD_TEXT[c] for c in cards_in(state.played)],
        "bag_size": state.bag_count,
        "order_deck_size": len(state.order_deck),
        "goods_types": list(DATA.goods),
    }
    if state.hooks & HOOK_EVENTS:
        v.update(events.view(state))
    if state.hooks & HOOK_MONSTERS:
        v.update(monsters.view(state))
    if player is not None:
        v["hand"] = [card_dict(c, heads) for c in cards_in(state.hands[player])]
        v["sightings"] = sight_dict(state.sightings[player])
        v["my_score"] = sum(state.score_parts(player))   # with the own sightings bonus
    return v


SELL_OF: Final = dict(zip(DATA.goods, DATA.sell, strict=True))
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


def end_reason(view: dict[str, Any]) -> str:
    """Why the game ended, in plain words: it always ends after its last round."""
    return (f"the game ends after round {view['rounds']}, and round {view['round']} is "
            "over")
