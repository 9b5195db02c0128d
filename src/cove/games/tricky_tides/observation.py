"""Tricky Tides' observation (SPEC.md, Observation), declared as named blocks
(:mod:`cove.core.observer`): the core lays them out, keeps the blocks that declare their
inputs while those are unchanged, and writes the SPEC.md table from them.

The observation has the same size at every player count: every per-seat block has a slot
for each of the four seats. Seats are relative to the observer: slot 0 is the observer,
slot i the player i seats to the left; slots past the player count stay zero.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cove.core import Block, Observer, Out
from cove.core.bits import has
from cove.games.tricky_tides.constants import (
    HANDS,
    ISLAND_GOODS,
    ORDER_GOLD,
    ROUNDS,
    SEATS,
    cards_in,
    known_void,
)
from cove.games.tricky_tides.data import DATA, GOODS_TYPES, NAV_CARDS, SUITS
from cove.games.tricky_tides.decision_stack import K_SEA, OVER, PHASE_NAMES, PHASE_OF
from cove.games.tricky_tides.geometry import CELLS

if TYPE_CHECKING:
    from cove.games.tricky_tides.state import TidesState

ORDER_SPAN: Final = 10
"""An order's floats: goods needed per type, gold, the monster suit one-hot."""


def hand(state: TidesState, player: int, out: Out) -> None:
    for card in cards_in(state.hands[player]):
        out.one(card)


def played(state: TidesState, player: int, out: Out) -> None:
    for card in cards_in(state.played):
        out.one(card)


def trick(state: TidesState, player: int, out: Out) -> None:
    n = state.n
    for slot in range(n):
        card = state.trick[(player + slot) % n]
        if card >= 0:
            out.one(slot * NAV_CARDS + card)


def ships(state: TidesState, player: int, out: Out) -> None:
    n = state.n
    for slot in range(n):
        cell = state.ship_cells[(player + slot) % n]
        if cell >= 0:
            out.one(slot * CELLS + cell)


def sea(state: TidesState, player: int, out: Out) -> None:
    for cell, open_sea in enumerate(state.sea):
        if open_sea:
            out.one(cell)


def islands(state: TidesState, player: int, out: Out) -> None:
    out.run(0, [ISLAND_GOODS[island] / 5.0 for island in state.layout])


def goods(state: TidesState, player: int, out: Out) -> None:
    out.run(0, [k / 10.0 for k in bytes(state.goods)])


def orders(state: TidesState, player: int, out: Out) -> None:
    for cell, o in enumerate(state.orders_on):
        if o >= 0:
            order = DATA.orders[o]
            start = cell * ORDER_SPAN
            out.run(start, [*(k / 5.0 for k in order.need), order.gold / 10.0])
            out.one(start + GOODS_TYPES + 1 + order.monster)


def holds(state: TidesState, player: int, out: Out) -> None:
    n = state.n
    for slot in range(n):
        start = (player + slot) % n * GOODS_TYPES
        out.run(slot * GOODS_TYPES,
                [state.hold[start + t] / 10.0 for t in range(GOODS_TYPES)])


def anchors(state: TidesState, player: int, out: Out) -> None:
    n = state.n
    for slot in range(n):
        seat = (player + slot) % n
        if has(state.anchors, seat):
            out.one(slot)


def voids(state: TidesState, player: int, out: Out) -> None:
    n = state.n
    for slot in range(n):
        seat = (player + slot) % n
        for suit in range(SUITS):
            if known_void(state.voids, seat, suit):
                out.one(slot * SUITS + suit)


def delivered(state: TidesState, player: int, out: Out) -> None:
    n = state.n
    for slot in range(n):
        delivered = state.delivered[(player + slot) % n]
        out.run(slot * 2, [sum(ORDER_GOLD[o] for o in delivered) / 40.0,
                           len(delivered) / 10.0])


def sightings(state: TidesState, player: int, out: Out) -> None:
    out.run(0, [bonus / 3.0 for bonus in DATA.sightings[state.sightings[player]].bonus])


def round_(state: TidesState, player: int, out: Out) -> None:
    if 0 <= state.round < ROUNDS:  # the round count reaches ROUNDS at the end: no one
        out.one(state.round)
    out.one(ROUNDS + state.hand_no)


def phase(state: TidesState, player: int, out: Out) -> None:
    top = state.top_step
    out.one(OVER if top is None else PHASE_OF[top.kind])


def mover(state: TidesState, player: int, out: Out) -> None:
    top = state.top_step
    if top is not None and top.players and top.players[0] >= 0:
        out.one((top.players[0] - player) % state.n)


def leader(state: TidesState, player: int, out: Out) -> None:
    n = state.n
    if state.leader >= 0:
        out.one((state.leader - player) % n)
    if state.led_by >= 0:
        out.one(SEATS + (state.led_by - player) % n)


def heading(state: TidesState, player: int, out: Out) -> None:
    top = state.top_step
    if top is not None and top.kind == K_SEA and top.data.heading >= 0:
        out.one(top.data.heading)


def bag(state: TidesState, player: int, out: Out) -> None:
    out.run(0, [state.hold_limit / 10.0, *(k / 20.0 for k in state.bag)])


def monsters(state: TidesState, player: int, out: Out) -> None:
    for monster, cell in enumerate(state.modules.monster_cells):
        if cell >= 0:
            out.one(monster * CELLS + cell)


def event(state: TidesState, player: int, out: Out) -> None:
    if state.modules.event >= 0:
        out.one(state.modules.event)


def seats(state: TidesState, player: int, out: Out) -> None:
    for slot in range(state.n):
        out.one(slot)


OBSERVER: Final = Observer([
    Block("hand", hand, "your hand (1 per card code 0–31)", size=NAV_CARDS,
          inputs=("hands",)),
    Block("played", played, "cards out of play this round", size=NAV_CARDS,
          inputs=("played",), same_for_all=True),
    Block("trick", trick, "each seat slot's card in the current hand, one-hot (zeros: none "
          "yet)", size=SEATS * NAV_CARDS, floats=f"{SEATS} × {NAV_CARDS}",
          inputs=("trick",)),
    Block("ships", ships, "each seat slot's ship cell, one-hot", size=SEATS * CELLS,
          floats=f"{SEATS} × {CELLS}", inputs=("ship_cells",)),
    Block("sea", sea, "open sea per cell", size=CELLS, inputs=("sea",), same_for_all=True),
    Block("islands", islands, "each cell's island goods number / 5", size=CELLS,
          inputs=("layout",), same_for_all=True),
    Block("goods", goods, "goods per cell and type / 10", size=CELLS * GOODS_TYPES,
          floats=f"{CELLS} × {GOODS_TYPES}", inputs=("goods",), same_for_all=True),
    Block("orders", orders, "per cell, its order: goods needed per type / 5, gold / 10, "
          "monster suit one-hot (zeros: none)", size=CELLS * ORDER_SPAN,
          floats=f"{CELLS} × {ORDER_SPAN}", inputs=("orders_on",), same_for_all=True),
    Block("holds", holds, "each seat slot's hold per type / 10", size=SEATS * GOODS_TYPES,
          floats=f"{SEATS} × {GOODS_TYPES}", inputs=("hold",)),
    Block("anchors", anchors, "each seat slot still has its anchor", size=SEATS,
          inputs=("anchors",)),
    Block("voids", voids, "each seat slot's known voids per suit", size=SEATS * 4,
          floats=f"{SEATS} × 4", inputs=("voids",)),
    Block("delivered", delivered, "each seat slot's delivered gold / 40 and orders / 10",
          size=SEATS * 2, floats=f"{SEATS} × 2", inputs=("delivered",)),
    Block("sightings", sightings, "your sightings bonus per suit / 3", size=4,
          inputs=("sightings",)),
    Block("round", round_, "round one-hot, hand one-hot", size=ROUNDS + HANDS,
          floats=f"{ROUNDS} + {HANDS}", inputs=("round", "hand_no"), same_for_all=True),
    Block("phase", phase, "phase one-hot (the order of `phase` above: place ship, play card, "
          "sail, open sea, pick up or deliver, overboard, game over, monster activation, "
          "first leader)", size=len(PHASE_NAMES)),
    Block("mover", mover, "seat slot of the current player (zeros at the end)", size=SEATS),
    Block("leader", leader, "seat slot of the leader, of the lead", size=2 * SEATS,
          floats=f"2 × {SEATS}", inputs=("leader", "led_by")),
    Block("heading", heading, "heading one-hot while on open sea", size=8),
    Block("bag", bag, "hold limit / 10; cubes in the bag per type / 20 (public: the bag's "
          "make-up follows from the public counts)", size=1 + GOODS_TYPES,
          floats=f"1 + {GOODS_TYPES}",
          inputs=("hold_limit", "bag"), same_for_all=True),
    Block("monsters", monsters, "each monster's cell, one-hot (zeros without monsters)",
          size=4 * CELLS, floats=f"4 × {CELLS}", inputs=("modules",), same_for_all=True),
    Block("event", event, "the face-up event, one-hot (zeros without one)",
          size=len(DATA.events), inputs=("modules",), same_for_all=True),
    Block("seats", seats, "seat slot is in the game", size=SEATS),
])
"""Tricky Tides' observation: 604 floats at every player count."""
