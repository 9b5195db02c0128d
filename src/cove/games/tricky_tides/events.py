"""The event module (option ``events``): a deck of event cards, one face up per round.

The cards are data (``[[events]]`` in ``tricky_tides.toml``): each one is a
:class:`~cove.games.tricky_tides.round_rules.Rules` value saying which rules it changes for its
round. This module only runs the deck and puts a card's rules in force (:func:`install`);
each rule field is honoured in one place (listed on the field in ``round_rules.py``).

Deck (notes section 11.1): shuffled face down at setup; when a round starts the previous
event goes to the bottom and the top card is revealed, staying face up on the deck. The
order of the face-down cards is hidden, except the cards put back, whose place at the
bottom everyone saw (``events_known`` of them, at the end of ``event_deck``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cove.games.tricky_tides.constants import EVENT_INDEX
from cove.games.tricky_tides.data import DATA, GOODS_TYPES
from cove.games.tricky_tides.geometry import CELL_NAMES, CELLS
from cove.games.tricky_tides.round_rules import HOOK_EVENTS, HOOK_MODULES, describe, hook_bits

if TYPE_CHECKING:
    from cove.core import Rng
    from cove.games.tricky_tides.state import TidesState


def setup(state: TidesState) -> None:
    """R12.1: the chosen event cards, shuffled face down (revealed when round 1 starts)."""
    deck = [EVENT_INDEX[key] for key in state.options.event_deck]
    state.rng.shuffle(deck)
    state.modules = state.modules._replace(event_deck=tuple(deck))
    state.hooks |= HOOK_EVENTS


def reveal(state: TidesState) -> None:
    """Start of a round: the previous event to the bottom, the top one face up."""
    modules = state.modules
    deck, known = modules.event_deck, modules.events_known
    if modules.event >= 0:
        deck = (*deck, modules.event)
        known += 1
        if state.logging:
            state.say(f"Event {DATA.events[modules.event].name} goes to the bottom of the "
                      "event deck")
    top = deck[0]
    deck = deck[1:]
    card = DATA.events[top]
    state.modules = modules._replace(event=top, event_deck=deck,
                                     events_known=min(known, len(deck)), rules=card.rules)
    install(state)
    if state.logging:
        state.say(f"Event for round {state.round + 1}: {card.name}. {card.text}", kind="event",
                  data={"round": state.round + 1, "event": card.key, "name": card.name})
    if card.rules.harvest:
        harvest(state, card.rules.harvest)


def install(state: TidesState) -> None:
    """Put the rules of ``state.modules.rules`` in force (and the base rules back where the
    new card changes nothing)."""
    rules = state.modules.rules
    state.hold_limit = rules.hold_limit                          # Storm
    # Calm Seas, Smugglers, Harbor Tax, Market Boom, Trade Winds
    state.hooks = (state.hooks & HOOK_MODULES) | hook_bits(rules)
    state._set_geometry()                                        # the map geometry


def harvest(state: TidesState, count: int) -> None:
    """Bountiful Harvest: ``count`` goods from the bag onto each island, reading order;
    stops if the bag runs out."""
    placed = []
    for cell in range(CELLS):
        if state.sea[cell]:
            continue
        for _ in range(count):
            if not state.bag_count:
                break
            goods_type = state._draw()
            state.goods[cell * GOODS_TYPES + goods_type] += 1
            placed.append((cell, goods_type))
    if state.logging:
        text = ", ".join(f"{DATA.goods[t]} on {CELL_NAMES[c]}" for c, t in placed)
        state.say(f"Bountiful harvest: {text or 'the bag is empty'}")


def after_delivery(state: TidesState, player: int, tax: int) -> None:
    """Harbor Tax (pay good ``tax`` into the bag) and Market Boom (draw into the hold)."""
    base = player * GOODS_TYPES
    if tax >= 0:
        state.hold[base + tax] -= 1
        state.hold_count[player] -= 1
        state.bag[tax] += 1
        state.bag_count += 1
        if state.logging:
            state.say(f"P{player + 1} pays 1 {DATA.goods[tax]} harbor tax into the bag")
    for _ in range(state.modules.rules.deliver_draw):
        if not state.bag_count:
            break
        goods_type = state._draw()
        state.hold[base + goods_type] += 1
        state.hold_count[player] += 1
        if state.logging:
            state.say(f"Market boom: P{player + 1} draws 1 {DATA.goods[goods_type]} into "
                      "their hold")


def resample(state: TidesState, rng: Rng) -> None:
    """Reshuffle the face-down event cards nobody has seen (the bottom ``events_known``
    stay)."""
    modules = state.modules
    k = len(modules.event_deck) - modules.events_known
    if k > 1:
        unseen = sorted(modules.event_deck[:k])  # sorted: the sample depends on the view alone
        rng.shuffle(unseen)
        state.modules = modules._replace(event_deck=(*unseen, *modules.event_deck[k:]))


def event_dict(i: int, ships_wrap: bool = True) -> dict[str, Any]:
    card = DATA.events[i]
    return {"id": card.id, "key": card.key, "name": card.name, "tag": card.tag,
            "text": card.text, "changes": describe(card.rules, ships_wrap)}


def view(state: TidesState) -> dict[str, Any]:
    """Public: the face-up event, the deck's size, the known cards at its bottom."""
    modules = state.modules
    deck = modules.event_deck
    known = deck[len(deck) - modules.events_known:] if modules.events_known else ()
    return {
        "event": (event_dict(modules.event, state.options.edge_wrap == "all")
                  if modules.event >= 0 else None),
        "event_deck_size": len(deck),
        "events_at_bottom": [DATA.events[i].name for i in known],
    }
