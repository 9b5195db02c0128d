"""Test-only helpers: build Tricky Tides positions (:func:`position`, the position builder,
and the smaller helpers it is made of) and play them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cove.core import Rng, replaced
from cove.core.bits import including, minus, set_of, size, without
from cove.games.tricky_tides import GAME, monsters
from cove.games.tricky_tides.constants import ALL_CARDS, NO_CARDS, card_of, cards_in
from cove.games.tricky_tides.data import DATA
from cove.games.tricky_tides.decision_stack import (
    ACTION_STEP,
    ACTION_STEPS,
    OVERBOARD,
    PLACE,
    PLAY_CARD,
    SAIL_STEP,
    SAIL_STEPS,
    SEA_STEP,
)
from cove.games.tricky_tides.geometry import CELL_NAMES, HEADING_INDEX
from cove.games.tricky_tides.state import TidesState

G = len(DATA.goods)


def card(suit: str, value: int) -> int:
    return card_of(DATA.suits.index(suit), value)


def cell(name: str) -> int:
    return CELL_NAMES.index(name)


def gtype(name: str) -> int:
    return DATA.goods.index(name)


def heading(name: str) -> int:
    return HEADING_INDEX[name]


def mask(*cards: int) -> int:
    """The set of ``cards`` (a hand)."""
    return set_of(cards)


def new(n: int = 4, seed: int = 1, **options: Any) -> TidesState:
    """A game after ship placement (every player takes their first offered port)."""
    s = GAME.new(n, seed, **options)
    assert isinstance(s, TidesState)
    while s.phase == PLACE:
        p = s.to_move()[0]
        s.apply(p, s.legal_actions(p)[0])
    assert s.phase == PLAY_CARD
    return s


def position(n: int = 4, seed: int = 1, *, options: Mapping[str, Any] | None = None,
             islands_only: bool = False, sea: Sequence[str] = (),
             goods: Mapping[str, Mapping[str, int]] | None = None,
             orders: Mapping[str, int] | None = None,
             holds: Mapping[int, Mapping[str, int]] | None = None,
             ships: Mapping[int, str] | None = None,
             sightings: tuple[int, ...] | None = None,
             delivered: Mapping[int, tuple[int, ...]] | None = None,
             order_deck: Sequence[int] | None = None,
             hands: Sequence[Sequence[int]] | None = None,
             hand_no: int | None = None,
             leader: int | None = None) -> TidesState:
    """A position for a test: the seeded game of :func:`new` (after ship placement, in the
    first hand) with only the named parts changed, each kept consistent with the rest the
    way the game's own counts want it:

    - ``islands_only``: every cell an island (as at 4 players); ``sea``: these cells open
      sea instead (their goods back to the bag, their orders back to the deck);
    - ``goods``: cell -> goods on it, e.g. ``{"b2": {"silk": 2}}`` (the rest to the bag;
      a cell named with no goods is emptied);
    - ``orders``: cell -> the order on it (index into ``DATA.orders``, -1: none);
    - ``holds``: seat -> its hold, e.g. ``{0: {"silk": 3}}`` (from / to the bag);
    - ``ships``: seat -> the cell of its ship;
    - ``sightings``: every seat's sightings card; ``delivered``: seat -> its orders;
    - ``order_deck``: the face-down order deck;
    - ``hands``: every seat's cards (the rest of the deck set aside, none played);
      ``hand_no``: the hand of the round (0..5);
    - ``leader``: a hand starts now with this seat leading (else the first hand's card
      plays stay as dealt).

    The decision stack is settled afterwards, so the position is ready to play."""
    s = new(n, seed, **(options or {}))
    if islands_only:
        all_islands(s)
    if sea:
        set_sea(s, *sea)
    for where, cubes in (goods or {}).items():
        set_goods(s, where, **cubes)
    for where, order in (orders or {}).items():
        s.orders_on = replaced(s.orders_on, cell(where), order)
    for p, cubes in (holds or {}).items():
        set_hold(s, p, **cubes)
    for p, where in (ships or {}).items():
        s.ship_cells[p] = cell(where)
    if sightings is not None:
        s.sightings = sightings
    for p, orders_delivered in (delivered or {}).items():
        s.delivered = replaced(s.delivered, p, tuple(orders_delivered))
    if order_deck is not None:
        s.order_deck = tuple(order_deck)
    if hands is not None:
        s.hands = [mask(*h) for h in hands]
        dealt = NO_CARDS
        for h in s.hands:
            dealt |= h
        s.aside = minus(ALL_CARDS, dealt)
        s.played = NO_CARDS
    if hand_no is not None:
        s.hand_no = hand_no
    if leader is not None:
        start_hand(s, leader)
    else:
        settle(s)
    return s


def settle(s: TidesState) -> None:
    """After fields were set by hand: resolve forced steps, recompute the legal list."""
    s._legal = None
    s.settle()


def start_hand(s: TidesState, leader: int) -> None:
    """A hand starts now with ``leader`` leading (the hands as they are)."""
    s.leader = leader
    s.clear_steps()
    s.then(*s._start_hand())
    settle(s)


def end_hand(s: TidesState) -> None:
    """Every ship has sailed: the hand ends (and with hand_no 5, the round)."""
    s.clear_steps()
    settle(s)


def game_over(s: TidesState) -> None:
    """Nothing left to decide: the game is over as it stands (for scoring tests)."""
    s.clear_steps()
    s._legal = None


def turn_over(s: TidesState, p: int) -> bool:
    """Sailor ``p`` has finished their turn (sail, open sea, pick up, overboard)."""
    return not (s.current == p and s.phase in (SAIL_STEP, SEA_STEP, ACTION_STEP, OVERBOARD))


def sailing(s: TidesState, sailing_order: tuple[int, ...]) -> None:
    """The pending steps: every player in ``sailing_order`` still to sail, the first one
    next."""
    s.sailing_order = sailing_order
    s.clear_steps()
    s.then(*[SAIL_STEPS[q] for q in sailing_order])


def texts(s: TidesState, p: int | None = None) -> list[str]:
    if p is None:
        p = s.to_move()[0]
    return [str(a) for a in s.legal_actions(p)]


def all_islands(s: TidesState) -> None:
    """Make every cell an island (as at 4 players) and recompute the geometry."""
    s.sea = tuple(False for _ in range(12))
    s._set_geometry()


def set_sea(s: TidesState, *names: str) -> None:
    sea = [False] * 12
    for nm in names:
        sea[cell(nm)] = True
    s.sea = tuple(sea)
    for c in range(12):
        if sea[c]:
            if s.orders_on[c] >= 0:         # the order goes back into the deck
                s.order_deck = (*s.order_deck, s.orders_on[c])
            s.orders_on = replaced(s.orders_on, c, -1)
            for t in range(G):
                s.bag[t] += s.goods[c * G + t]
                s.bag_count += s.goods[c * G + t]
                s.goods[c * G + t] = 0
    s._set_geometry()


def at_sail(s: TidesState, p: int, c: int, where: str, *, anchor: bool = True) -> None:
    """Put player p about to sail with card c from cell ``where``."""
    s.trick = [c] * s.n       # the others sail with the same card after p
    s.ship_cells[p] = cell(where)
    sailing(s, (p, *[q for q in range(s.n) if q != p]))
    s.anchors = including(s.anchors, p) if anchor else without(s.anchors, p)
    settle(s)


def at_action(s: TidesState, p: int, where: str) -> None:
    """Put player p at the pick up / deliver step on ``where``."""
    s.ship_cells[p] = cell(where)
    sailing(s, (p, *[q for q in range(s.n) if q != p]))
    s.pop()                                         # p has sailed
    s.push(ACTION_STEPS[p])
    settle(s)


def set_hold(s: TidesState, p: int, **goods: int) -> None:
    """Set p's hold; the difference comes from / goes to the bag."""
    for t in range(G):
        k = goods.get(DATA.goods[t], 0)
        diff = k - s.hold[p * G + t]
        s.hold[p * G + t] = k
        s.bag[t] -= diff
        s.bag_count -= diff
        s.hold_count[p] += diff


def set_goods(s: TidesState, where: str, **goods: int) -> None:
    c = cell(where)
    for t in range(G):
        k = goods.get(DATA.goods[t], 0)
        diff = k - s.goods[c * G + t]
        s.goods[c * G + t] = k
        s.bag[t] -= diff
        s.bag_count -= diff


def cubes(s: TidesState) -> int:
    return sum(s.bag) + sum(s.goods) + sum(s.hold) + s.spent_goods + monsters.pending_cubes(s)


def check_invariants(s: TidesState) -> None:
    """Every cube and every card is accounted for, and counters agree (the game's own
    conformance hook, whose failures test_hooks.py checks)."""
    s.check_invariants()


KEYS = [e.key for e in DATA.events]


def set_event(s: TidesState, key: str | None) -> None:
    """Put event ``key`` face up now (None: no event) and its rules in force."""
    from cove.games.tricky_tides import events
    from cove.games.tricky_tides.round_rules import BASE_RULES
    i = KEYS.index(key) if key else -1
    rules = DATA.events[i].rules if key else BASE_RULES
    deck = list(s.modules.event_deck)   # the card comes from the deck, the old one goes back
    if s.modules.event >= 0:
        deck.append(s.modules.event)
    if i in deck:
        deck.remove(i)
    s.modules = s.modules._replace(event=i, rules=rules, event_deck=tuple(deck), events_known=0)
    events.install(s)


def set_monsters(s: TidesState, **where: str) -> None:
    """Place monsters, e.g. set_monsters(s, shark="b2"); the others keep their cells."""
    cells = list(s.modules.monster_cells)
    for name, c in where.items():
        cells[DATA.suits.index(name.replace("_", " "))] = cell(c)
    s.modules = s.modules._replace(monster_cells=tuple(cells))


def at_monsters(s: TidesState, trick: dict[int, int],
                sailing_order: tuple[int, ...] | None = None) -> None:
    """Everyone has played ``trick`` (seat -> card); activate the monsters now. The trick's
    cards leave the hands and the set-aside pile, and each hand keeps its size, so the
    position stays one the game's invariants accept."""
    s.trick = [trick[p] for p in range(s.n)]
    played = mask(*s.trick)
    s.played |= played
    s.aside = minus(s.aside, played)
    want = 8 - s.hand_no - 1
    for p in range(s.n):
        s.hands[p] = minus(s.hands[p], played)
        extra = size(s.hands[p]) - want
        for c in cards_in(s.hands[p])[:max(extra, 0)]:  # the lowest to the set-aside pile
            s.hands[p] = without(s.hands[p], c)
            s.aside = including(s.aside, c)
    for p in range(s.n):
        missing = want - size(s.hands[p])
        for c in cards_in(s.aside)[:max(missing, 0)]:   # the lowest from it
            s.aside = without(s.aside, c)
            s.hands[p] = including(s.hands[p], c)
    s.cards_in_trick = s.n
    s.sailing_order = sailing_order if sailing_order is not None else tuple(range(s.n))
    s.clear_steps()                 # the hand's card plays are done
    monsters.begin(s)
    settle(s)


def play_random(s: TidesState, seed: int, check: bool = False) -> None:
    rng = Rng(seed)
    while not s.is_over:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
        if check:
            check_invariants(s)
