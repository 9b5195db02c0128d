"""Test-only helpers: build Tricky Tides positions by setting fields directly."""

from __future__ import annotations

from typing import Any

from cove.core.rng import Rng
from cove.games.tricky_tides import GAME, monsters
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
    return DATA.suits.index(suit) * 8 + value - 1


def cell(name: str) -> int:
    return CELL_NAMES.index(name)


def gtype(name: str) -> int:
    return DATA.goods.index(name)


def heading(name: str) -> int:
    return HEADING_INDEX[name]


def mask(*cards: int) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def new(n: int = 4, seed: int = 1, **options: Any) -> TidesState:
    """A game after ship placement (every player takes their first offered port)."""
    s = GAME.new(n, seed, **options)
    assert isinstance(s, TidesState)
    while s.phase == PLACE:
        p = s.to_move()[0]
        s.apply(p, s.legal_actions(p)[0])
    assert s.phase == PLAY_CARD
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
    return not (s.cur == p and s.phase in (SAIL_STEP, SEA_STEP, ACTION_STEP, OVERBOARD))


def sailing(s: TidesState, sorder: tuple[int, ...]) -> None:
    """The pending steps: every player in ``sorder`` still to sail, the first one next."""
    s.sorder = sorder
    s.clear_steps()
    s.then(*[SAIL_STEPS[q] for q in sorder])


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
                s.odeck.append(s.orders_on[c])
            s.orders_on[c] = -1
            for t in range(G):
                s.bag[t] += s.goods[c * G + t]
                s.bag_n += s.goods[c * G + t]
                s.goods[c * G + t] = 0
    s._set_geometry()


def at_sail(s: TidesState, p: int, c: int, where: str, *, anchor: bool = True) -> None:
    """Put player p about to sail with card c from cell ``where``."""
    s.trick = [c] * s.n       # the others sail with the same card after p
    s.pos[p] = cell(where)
    sailing(s, (p, *[q for q in range(s.n) if q != p]))
    if not anchor:
        s.anchors &= ~(1 << p)
    else:
        s.anchors |= 1 << p
    settle(s)


def at_action(s: TidesState, p: int, where: str) -> None:
    """Put player p at the pick up / deliver step on ``where``."""
    s.pos[p] = cell(where)
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
        s.bag_n -= diff
        s.hcount[p] += diff


def set_goods(s: TidesState, where: str, **goods: int) -> None:
    c = cell(where)
    for t in range(G):
        k = goods.get(DATA.goods[t], 0)
        diff = k - s.goods[c * G + t]
        s.goods[c * G + t] = k
        s.bag[t] -= diff
        s.bag_n -= diff


def cubes(s: TidesState) -> int:
    return sum(s.bag) + sum(s.goods) + sum(s.hold) + s.spent + monsters.pending_cubes(s)


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
    deck = list(s.mod.edeck)            # the card comes from the deck, the old one goes back
    if s.mod.event >= 0:
        deck.append(s.mod.event)
    if i in deck:
        deck.remove(i)
    s.mod = s.mod._replace(event=i, rules=rules, edeck=tuple(deck), eknown=0)
    events.install(s)


def set_monsters(s: TidesState, **where: str) -> None:
    """Place monsters, e.g. set_monsters(s, shark="b2"); the others keep their cells."""
    mp = list(s.mod.mpos)
    for name, c in where.items():
        mp[DATA.suits.index(name.replace("_", " "))] = cell(c)
    s.mod = s.mod._replace(mpos=tuple(mp))


def at_monsters(s: TidesState, trick: dict[int, int], sorder: tuple[int, ...] | None = None
                ) -> None:
    """Everyone has played ``trick`` (seat -> card); activate the monsters now. The trick's
    cards leave the hands and the set-aside pile, and each hand keeps its size, so the
    position stays one the game's invariants accept."""
    s.trick = [trick[p] for p in range(s.n)]
    played = mask(*s.trick)
    s.played |= played
    s.aside &= ~played
    want = 8 - s.hand_no - 1
    for p in range(s.n):
        s.hands[p] &= ~played
        while s.hands[p].bit_count() > want:        # extra cards to the set-aside pile
            low = s.hands[p] & -s.hands[p]
            s.hands[p] ^= low
            s.aside |= low
    for p in range(s.n):
        while s.hands[p].bit_count() < want and s.aside:   # missing cards from it
            low = s.aside & -s.aside
            s.aside ^= low
            s.hands[p] |= low
    s.tpos = s.n
    s.sorder = sorder if sorder is not None else tuple(range(s.n))
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
