"""The event module (option ``events``): a deck of event cards, one face up per round.

The cards are data (``[[events]]`` in ``tricky_tides.toml``): each one is a
:class:`~cove.games.tricky_tides.round_rules.Rules` value saying which rules it changes for its
round. This module only runs the deck and puts a card's rules in force (:func:`install`);
each rule field is honoured in one place (listed on the field in ``round_rules.py``).

Deck (notes section 11.1): shuffled face down at setup; when a round starts the previous
event goes to the bottom and the top card is revealed, staying face up on the deck. The
order of the face-down cards is hidden, except the cards put back, whose place at the
bottom everyone saw (``eknown`` of them, at the end of ``edeck``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cove.games.tricky_tides.constants import EVENT_INDEX, G
from cove.games.tricky_tides.data import DATA
from cove.games.tricky_tides.geometry import CELL_NAMES, CELLS
from cove.games.tricky_tides.round_rules import EX_EVENTS, EX_MODULES, describe, ex_bits

if TYPE_CHECKING:
    from cove.core.rng import Rng
    from cove.games.tricky_tides.state import TidesState


def setup(s: TidesState) -> None:
    """R12.1: the chosen event cards, shuffled face down (revealed when round 1 starts)."""
    deck = [EVENT_INDEX[k] for k in s._opts().event_deck]
    s.rng.shuffle(deck)
    s.mod = s.mod._replace(edeck=tuple(deck))
    s.ex |= EX_EVENTS


def reveal(s: TidesState) -> None:
    """Start of a round: the previous event to the bottom, the top one face up."""
    m = s.mod
    edeck, known = m.edeck, m.eknown
    if m.event >= 0:
        edeck = (*edeck, m.event)
        known += 1
        if s.logging:
            s.say(f"Event {DATA.events[m.event].name} goes to the bottom of the event deck")
    ev = edeck[0]
    edeck = edeck[1:]
    s.mod = m._replace(event=ev, edeck=edeck, eknown=min(known, len(edeck)),
                       rules=DATA.events[ev].rules)
    install(s)
    e = DATA.events[ev]
    if s.logging:
        s.say(f"Event for round {s.round + 1}: {e.name}. {e.text}", kind="event",
              data={"round": s.round + 1, "event": e.key, "name": e.name})
    if e.rules.harvest:
        harvest(s, e.rules.harvest)


def install(s: TidesState) -> None:
    """Put the rules of ``s.mod.rules`` in force (and the base rules back where the new
    card changes nothing)."""
    r = s.mod.rules
    s.hold_limit = r.hold_limit                       # Storm
    s.ex = (s.ex & EX_MODULES) | ex_bits(r)           # Calm Seas, Smugglers, Harbor Tax,
    s._set_geometry()                                 # Market Boom, Trade Winds; geometry


def harvest(s: TidesState, k: int) -> None:
    """Bountiful Harvest: ``k`` goods from the bag onto each island, reading order; stops
    if the bag runs out."""
    placed = []
    for c in range(CELLS):
        if s.sea[c]:
            continue
        for _ in range(k):
            if not s.bag_n:
                break
            t = s._draw()
            s.goods[c * G + t] += 1
            placed.append((c, t))
    if s.logging:
        text = ", ".join(f"{DATA.goods[t]} on {CELL_NAMES[c]}" for c, t in placed)
        s.say(f"Bountiful harvest: {text or 'the bag is empty'}")


def after_delivery(s: TidesState, p: int, tax: int) -> None:
    """Harbor Tax (pay good ``tax`` into the bag) and Market Boom (draw into the hold)."""
    hb = p * G
    if tax >= 0:
        s.hold[hb + tax] -= 1
        s.hcount[p] -= 1
        s.bag[tax] += 1
        s.bag_n += 1
        if s.logging:
            s.say(f"P{p + 1} pays 1 {DATA.goods[tax]} harbor tax into the bag")
    for _ in range(s.mod.rules.deliver_draw):
        if not s.bag_n:
            break
        t = s._draw()
        s.hold[hb + t] += 1
        s.hcount[p] += 1
        if s.logging:
            s.say(f"Market boom: P{p + 1} draws 1 {DATA.goods[t]} into their hold")


def resample(s: TidesState, rng: Rng) -> None:
    """Reshuffle the face-down event cards nobody has seen (the bottom ``eknown`` stay)."""
    m = s.mod
    k = len(m.edeck) - m.eknown
    if k > 1:
        unseen = sorted(m.edeck[:k])  # sorted: the sample depends on the view alone
        rng.shuffle(unseen)
        s.mod = m._replace(edeck=(*unseen, *m.edeck[k:]))


def event_dict(i: int, ships_wrap: bool = True) -> dict[str, Any]:
    e = DATA.events[i]
    return {"id": e.id, "key": e.key, "name": e.name, "tag": e.tag, "text": e.text,
            "changes": describe(e.rules, ships_wrap)}


def view(s: TidesState) -> dict[str, Any]:
    """Public: the face-up event, the deck's size, the known cards at its bottom."""
    m = s.mod
    known = m.edeck[len(m.edeck) - m.eknown:] if m.eknown else ()
    return {
        "event": (event_dict(m.event, s._opts().edge_wrap == "all") if m.event >= 0
                  else None),
        "event_deck_size": len(m.edeck),
        "events_at_bottom": [DATA.events[i].name for i in known],
    }
