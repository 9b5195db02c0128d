"""One test per numbered rule of the event and monster modules (RULES.md R12-R15)."""

from __future__ import annotations

import json

import pytest

import cove
from cove.core import Rng, replaced
from cove.games.tricky_tides import GAME, monsters
from cove.games.tricky_tides.constants import ISLAND_GOODS
from cove.games.tricky_tides.data import DATA
from cove.games.tricky_tides.decision_stack import (
    ACTION_STEP,
    MONSTER,
    OVERBOARD,
    PLACE,
    SAIL_STEP,
)
from cove.games.tricky_tides.module_state import Trigger
from cove.games.tricky_tides.monsters import OCTOPUS, SHARK, WHALE
from cove.games.tricky_tides.state import TidesState
from tests.games.tricky_tides.helpers import (
    KEYS,
    all_islands,
    at_action,
    at_monsters,
    at_sail,
    card,
    cell,
    check_invariants,
    gtype,
    new,
    play_random,
    set_event,
    set_goods,
    set_hold,
    set_monsters,
    set_sea,
    settle,
    texts,
)

G = 5


def corners(s: TidesState) -> None:
    """Every cell an island; monsters in the corners: shark a1, octopus c1, sea dragon a4,
    whale c4; ships away from them (b2/b3)."""
    all_islands(s)
    set_monsters(s, shark="a1", octopus="c1", sea_dragon="a4", whale="c4")
    for p in range(s.n):
        s.ship_cells[p] = cell("b3")


def same_suit(suit: str, n: int = 4, low: int = 0) -> dict[int, int]:
    """Everyone plays ``suit``; seat ``low`` holds the lowest card."""
    vals = iter(range(2, 9))
    return {p: card(suit, 1 if p == low else next(vals)) for p in range(n)}


def resolve_monsters(s: TidesState) -> list[str]:
    """Take the first legal action until the ships sail; return the monsters activated."""
    seen = []
    while s.phase == MONSTER:
        assert s.activation is not None
        name = DATA.suits[s.activation.monster]
        if not seen or seen[-1] != name:
            seen.append(name)
        p = s.to_move()[0]
        s.apply(p, s.legal_actions(p)[0])
    return seen


def log(s: TidesState) -> list[str]:
    return [e.text for e in s.events(None)]


# ============================================================================ R12 the deck
def test_r12_1_event_deck_setup_and_option() -> None:
    s = GAME.new(4, 1, events=True)
    assert isinstance(s, TidesState)
    assert s.phase == PLACE and s.modules.event == -1   # nothing revealed before placement
    assert sorted(s.modules.event_deck) == list(range(12))  # all 12 cards, shuffled face down
    assert list(s.modules.event_deck) != list(range(12))
    two = GAME.new(4, 1, events=True, event_deck="low-tide,edge-of-the-world")
    assert isinstance(two, TidesState)
    assert sorted(two.modules.event_deck) == [KEYS.index("low-tide"),
                                              KEYS.index("edge-of-the-world")]
    with pytest.raises(cove.OptionError, match="subset of: low-tide, edge-of-the-world"):
        GAME.new(4, 1, events=True, event_deck="low-tide,spring-tide")
    with pytest.raises(cove.OptionError, match="at least one event"):
        GAME.new(4, 1, events=True, event_deck=[])
    off = new(4, 1)
    assert off.modules.event == -1 and off.modules.event_deck == ()
    assert "event" not in off.view(None)


def test_r12_2_first_event_revealed_after_placement() -> None:
    s = GAME.new(3, 4, events=True, event_deck="storm")
    assert isinstance(s, TidesState)
    assert s.hold_limit == 7
    while s.phase == PLACE:
        p = s.to_move()[0]
        s.apply(p, s.legal_actions(p)[0])
    assert s.modules.event == KEYS.index("storm") and s.modules.event_deck == ()
    assert s.hold_limit == 5                                 # its rules hold this round
    v = s.view(1)
    assert v["event"]["name"] == "Storm" and "hold limit 5" in v["event"]["changes"]
    assert any(t.startswith("Event for round 1: Storm.") for t in log(s))


def test_r12_3_next_round_previous_to_bottom() -> None:
    s = new(4, 2, events=True, event_deck="storm,trade-winds")
    first = s.modules.event
    other = ({KEYS.index("storm"), KEYS.index("trade-winds")} - {first}).pop()
    rng = Rng(5)
    while s.round == 0:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    assert s.modules.event == other and s.modules.event_deck == (first,)
    assert s.modules.events_known == 1
    assert s.view(None)["events_at_bottom"] == [DATA.events[first].name]
    assert s.modules.rules == DATA.events[other].rules           # the old card's rules ended
    assert s.hold_limit == DATA.events[other].rules.hold_limit
    while s.round == 1:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    # round 3: back to the first
    assert s.modules.event == first and s.modules.event_deck == (other,)


def test_r12_4_event_public_deck_order_hidden() -> None:
    s = new(4, 3, events=True)
    rng = Rng(1)
    while s.round == 0:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    for p in (None, 0, 1, 2, 3):
        v = s.view(p)
        assert v["event"]["name"] == DATA.events[s.modules.event].name
        assert v["event_deck_size"] == 11 and len(v["events_at_bottom"]) == 1
        assert '"event_deck"' not in json.dumps(v)
    orders = set()
    for k in range(8):
        d = s.redeterminize(0, Rng(k))
        assert isinstance(d, TidesState)
        assert d.modules.event_deck[-1] == s.modules.event_deck[-1]   # known bottom card stays
        assert sorted(d.modules.event_deck) == sorted(s.modules.event_deck)
        assert d.view(0) == s.view(0)
        orders.add(d.modules.event_deck)
    assert len(orders) > 1                                     # the unseen cards reshuffled


def test_r12_5_effects_in_force_before_pick_up() -> None:
    """Event rules hold for the whole round, so at the pick up / deliver step too."""
    s = new(4, 1, events=True)
    all_islands(s)
    set_event(s, "smugglers")
    set_goods(s, "b2", sugar=1, silk=1)
    s.orders_on = replaced(s.orders_on, cell("b2"), -1)
    at_action(s, 0, "b2")
    assert "pick up sugar and silk" in texts(s, 0)


# ============================================================================ R13 the events
def test_r13_1_low_tide_highest_card_activates() -> None:
    s = new(4, 1, monsters=True, events=True)
    corners(s)
    trick = {0: card("shark", 5), 1: card("shark", 2), 2: card("whale", 3),
             3: card("shark", 7)}
    s.sailing_order = (3, 0, 1, 2)
    set_event(s, None)
    s.trick = [trick[p] for p in range(4)]
    assert monsters.activations(s) == (Trigger(SHARK, 1), Trigger(WHALE, 2))  # lowest: P2
    set_event(s, "low-tide")
    assert monsters.activations(s) == (Trigger(SHARK, 3), Trigger(WHALE, 2))  # highest: P4
    at_monsters(s, trick, (3, 0, 1, 2))
    assert s.phase == MONSTER and s.to_move() == (3,)
    assert "the shark by P4 (highest shark: 7 sharks)" in log(s)[-1]


def test_r13_2_edge_of_the_world_wraps_ships() -> None:
    s = new(4, 1, events=True)
    all_islands(s)
    at_sail(s, 0, card("shark", 8), "a1")          # N NE W: all off a bounded map
    assert s.phase == ACTION_STEP
    set_event(s, "edge-of-the-world")
    at_sail(s, 0, card("shark", 8), "a1")
    assert texts(s, 0) == ["sail n", "sail ne", "sail w", "drop anchor"]
    s.apply(0, "sail ne")
    assert s.ship_cells[0] == cell("b4")                  # diagonals wrap both axes
    set_sea(s, "c1")                               # open sea runs wrap as well
    set_event(s, "edge-of-the-world")
    at_sail(s, 0, card("shark", 8), "a1")
    s.apply(0, "sail w")
    assert s.ship_cells[0] == cell("c1") and texts(s, 0) == ["stop at sea", "sail on"]
    s.apply(0, "sail on")
    assert s.ship_cells[0] == cell("b1")
    set_event(s, None)                             # the next event puts the edges back
    at_sail(s, 0, card("shark", 8), "a1")
    assert s.phase == ACTION_STEP


def test_r13_2_edge_of_the_world_wraps_monsters() -> None:
    s = new(4, 1, monsters=True, events=True)
    corners(s)
    assert [cell_name(t) for t in monsters.targets(s, SHARK)] == ["b1", "b2", "a2"]
    set_event(s, "edge-of-the-world")
    # N wraps to a4 (the sea dragon), W to c1 (the octopus), NW to c4 (the whale): barred
    assert [cell_name(t) for t in monsters.targets(s, SHARK)] == ["b4", "b1", "b2", "a2", "c2"]
    set_monsters(s, octopus="b4", whale="b3")
    assert [cell_name(t) for t in monsters.targets(s, SHARK)] == [
        "b1", "b2", "a2", "c2", "c1", "c4"]


def test_r13_2_edge_of_the_world_ships_wrap_option() -> None:
    """Option edge_wrap=monsters (the seed names only monsters): ships keep the edges,
    monsters still wrap."""
    s = new(4, 1, monsters=True, events=True, edge_wrap="monsters")
    corners(s)
    set_event(s, "edge-of-the-world")
    at_sail(s, 0, card("shark", 8), "a1")          # N NE W: all off a bounded map
    assert s.phase == ACTION_STEP
    assert [cell_name(t) for t in monsters.targets(s, SHARK)] == ["b4", "b1", "b2", "a2", "c2"]
    assert "the map wraps around for monsters and the whale's line, not ships" in (
        s.view(None)["event"]["changes"])


def cell_name(c: int) -> str:
    from cove.games.tricky_tides.geometry import CELL_NAMES
    return CELL_NAMES[c]


def test_r13_3_calm_seas_stay_docked_free() -> None:
    s = new(4, 1, events=True)
    all_islands(s)
    set_event(s, "calm-seas")
    at_sail(s, 0, card("octopus", 5), "b2")
    assert texts(s, 0) == ["sail ne", "sail e", "sail se", "sail sw", "sail nw", "stay docked"]
    s.apply(0, "stay docked")
    assert s.ship_cells[0] == cell("b2") and s.anchors & 1                 # anchor not spent
    assert "P1 stays docked at b2 (calm seas)" in log(s)


def test_r13_4_strong_currents_two_cards() -> None:
    s = new(4, 1, events=True)
    all_islands(s)
    set_event(s, "strong-currents")
    at_sail(s, 0, card("whale", 4), "a1")            # N E S W NW
    assert texts(s, 0) == ["sail e", "sail s", "drop anchor"]
    s.apply(0, "sail s")
    assert s.ship_cells[0] == cell("a3")                    # 2 cards
    at_sail(s, 0, card("whale", 4), "a3")
    s.apply(0, "sail s")
    assert s.ship_cells[0] == cell("a4")                    # only 1 stays on the map
    set_sea(s, "a3")
    set_event(s, "strong-currents")
    at_sail(s, 0, card("whale", 4), "a1")
    s.apply(0, "sail s")                             # lands on open sea: stop or sail on
    assert s.ship_cells[0] == cell("a3") and texts(s, 0) == ["stop at sea", "sail on"]


def test_r13_5_doldrums_no_diagonals() -> None:
    s = new(4, 1, events=True)
    all_islands(s)
    set_event(s, "doldrums")
    at_sail(s, 0, card("shark", 1), "b2")            # N NE E SE S W
    assert texts(s, 0) == ["sail n", "sail e", "sail s", "sail w", "drop anchor"]
    at_sail(s, 0, card("sea dragon", 8), "b2", anchor=False)   # NE SE S: only S remains
    assert s.ship_cells[0] == cell("b3")                    # one choice: sailed at once


def test_r13_6_fog_bank_45_degrees() -> None:
    s = new(4, 1, events=True)
    all_islands(s)
    set_event(s, "fog-bank")
    at_sail(s, 0, card("octopus", 8), "b2")          # E W NW, widened by 45 degrees
    assert texts(s, 0) == ["sail n", "sail ne", "sail e", "sail se", "sail sw", "sail w",
                           "sail nw", "drop anchor"]


def test_r13_7_bountiful_harvest() -> None:
    s = new(4, 6, events=True, event_deck="bountiful-harvest")
    for c in range(12):
        assert sum(s.goods[c * G:c * G + G]) == ISLAND_GOODS[s.layout[c]] + 1
    assert s.bag_count == 78 - 3 - 46 - 12
    assert any(t.startswith("Bountiful harvest: ") for t in log(s))
    check_invariants(s)


def test_r13_8_storm_hold_limit_5() -> None:
    s = new(4, 1, events=True)
    all_islands(s)
    set_event(s, "storm")
    set_goods(s, "b2", coffee=2)
    s.orders_on = replaced(s.orders_on, cell("b2"), -1)
    set_hold(s, 0, sugar=4)
    at_action(s, 0, "b2")
    s.apply(0, "pick up coffee")
    assert s.phase == OVERBOARD and s.hold_limit == 5
    s.apply(0, "overboard sugar")
    assert s.hold_count[0] == 5 and s.current != 0
    set_hold(s, 1, silk=6)                            # over the limit from before the storm
    at_action(s, 1, "b2")
    s.apply(1, "pass")
    assert s.phase == OVERBOARD or s.hold_count[1] == 5   # one type: thrown at once
    settle(s)
    assert s.hold_count[1] == 5 and s.goods[cell("b2") * G + gtype("silk")] == 1


def test_r13_9_market_boom() -> None:
    s = new(4, 1, events=True)
    all_islands(s)
    set_event(s, "market-boom")
    o = s.orders_on[cell("b2")]
    need = DATA.orders[o].need
    set_hold(s, 0, **{DATA.goods[t]: need[t] for t in range(G)})
    at_action(s, 0, "b2")
    bag = s.bag_count
    s.apply(0, "deliver")
    assert s.hold_count[0] == 1 and s.bag_count == bag + sum(need) - 1
    assert any(t.startswith("Market boom: P1 draws 1 ") for t in log(s))
    check_invariants(s)


def test_r13_10_smugglers_two_types() -> None:
    s = new(4, 1, events=True)
    all_islands(s)
    set_event(s, "smugglers")
    set_goods(s, "b2", sugar=2, silk=1, gold=1)
    s.orders_on = replaced(s.orders_on, cell("b2"), -1)
    set_hold(s, 0)
    at_action(s, 0, "b2")
    assert texts(s, 0) == ["pick up sugar", "pick up silk", "pick up gold",
                           "pick up sugar and silk", "pick up sugar and gold",
                           "pick up silk and gold", "pass"]
    s.apply(0, "pick up sugar and gold")
    assert s.hold[gtype("sugar")] == 2 and s.hold[gtype("gold")] == 1 and s.hold_count[0] == 3
    assert s.goods[cell("b2") * G + gtype("silk")] == 1


def test_r13_11_harbor_tax() -> None:
    s = new(4, 1, events=True)
    all_islands(s)
    set_event(s, "harbor-tax")
    put_order(s, "b2", 0)                            # O01: 2 sugar
    set_goods(s, "b2", coffee=1)
    set_hold(s, 0, sugar=2, gold=1)                  # no spare non-gold good: no delivery
    at_action(s, 0, "b2")
    assert texts(s, 0) == ["pick up coffee", "pass"]
    set_hold(s, 0, sugar=3, spice=1)
    at_action(s, 0, "b2")
    assert texts(s, 0) == ["pick up coffee", "deliver and pay 1 sugar",
                           "deliver and pay 1 spice", "pass"]
    bag = s.bag[gtype("spice")]
    s.apply(0, "deliver and pay 1 spice")
    assert s.hold[gtype("sugar")] == 1 and s.hold[gtype("spice")] == 0
    assert s.bag[gtype("spice")] == bag + 1 and s.delivered[0] == (0,)


def put_order(s: TidesState, where: str, o: int) -> None:
    """Put order ``o`` on ``where``, swapping it with wherever it was."""
    c = cell(where)
    old = s.orders_on[c]
    if o in s.order_deck:
        s.order_deck = replaced(s.order_deck, s.order_deck.index(o), old)
    elif o in s.orders_on:
        s.orders_on = replaced(s.orders_on, s.orders_on.index(o), old)
    s.orders_on = replaced(s.orders_on, c, o)


def test_r13_12_trade_winds_reverse() -> None:
    s = new(3, 11, events=True)
    set_event(s, "trade-winds")
    s.trick = [card("shark", 3), card("shark", 5), card("sea dragon", 8)]
    s.led_by = 0
    s._end_trick()
    assert s.leader == 1 and s.sailing_order == (2, 0, 1)    # Henry, Edmund, then Anne (winner)


# ============================================================================ R14 monsters
def test_r14_1_monsters_start_on_icon_islands() -> None:
    for n in (2, 3, 4):
        s = new(n, 7, monsters=True)
        for m in range(4):
            c = s.modules.monster_cells[m]
            assert DATA.islands[s.layout[c]].monster == m and not s.sea[c]
        names = {x["monster"]: x["cell"] for x in s.view(None)["monsters"]}
        assert set(names) == set(DATA.suits)
    assert new(4, 7).modules.monster_cells == ()


def test_r14_2_lowest_card_activates() -> None:
    s = new(4, 1, monsters=True)
    corners(s)
    s.trick = [card("shark", 5), card("shark", 2), card("whale", 3), card("octopus", 8)]
    s.sailing_order = (0, 1, 2, 3)
    # lowest shark is P2's; the sea dragon suit was not played: not activated
    assert monsters.activations(s) == (Trigger(SHARK, 1), Trigger(WHALE, 2),
                                       Trigger(OCTOPUS, 3))


def test_r14_3_activations_before_sailing_in_sailing_order() -> None:
    s = new(4, 1, monsters=True)
    corners(s)
    before = s.ship_cells[:]
    trick = {0: card("octopus", 4), 1: card("whale", 6), 2: card("sea dragon", 2),
             3: card("shark", 1)}
    at_monsters(s, trick, (1, 3, 0, 2))
    assert s.phase == MONSTER and s.ship_cells == before           # no ship has sailed
    assert resolve_monsters(s) == ["whale", "shark", "octopus", "sea dragon"]
    assert s.phase == SAIL_STEP and s.current == 1


def test_r14_4_move_or_ability_first() -> None:
    s = new(4, 1, monsters=True)
    corners(s)
    set_monsters(s, octopus="b2")
    set_goods(s, "b2", silk=2)
    set_goods(s, "c3", spice=1)
    at_monsters(s, same_suit("octopus"))
    assert texts(s, 0) == ["octopus: move first", "octopus: ability first"]
    first = s.clone()
    s.apply(0, "octopus: ability first")                # acts on b2, then moves
    assert texts(s, 0)[0] == "octopus moves silk to b1"
    s.apply(0, "octopus moves silk to c2")
    assert s.goods[cell("c2") * G + gtype("silk")] >= 2
    assert "move the octopus to c3" in texts(s, 0)
    s.apply(0, "move the octopus to c3")
    assert s.modules.monster_cells[OCTOPUS] == cell("c3") and s.phase == SAIL_STEP
    first.apply(0, "octopus: move first")               # moves, then acts on c3
    first.apply(0, "move the octopus to c3")
    assert all(t.startswith("octopus moves spice") for t in texts(first, 0))
    check_invariants(s)
    check_invariants(first)


def test_r14_5_monster_movement() -> None:
    s = new(4, 1, monsters=True)
    corners(s)
    set_monsters(s, whale="a1", shark="c1", octopus="c4")
    set_sea(s, "b1", "b2")
    # E crosses open sea b1 to c1 (the shark: barred); SE crosses b2 to c3; S: a2
    assert [cell_name(t) for t in monsters.targets(s, WHALE)] == ["c3", "a2"]
    at_monsters(s, same_suit("whale"))
    s.apply(0, "whale: move first")
    assert texts(s, 0) == ["move the whale to c3", "move the whale to a2"]
    s.apply(0, "move the whale to c3")
    assert s.modules.monster_cells[WHALE] == cell("c3")
    assert "P1 moves the whale from a1 to c3" in " ".join(log(s))


def test_r14_6_no_legal_move_stays_put() -> None:
    s = new(4, 1, monsters=True)
    all_islands(s)
    set_monsters(s, shark="a1", octopus="a2", sea_dragon="b1", whale="b2")
    s.ship_cells = [cell("a1"), cell("c4"), cell("c4"), cell("c4")]
    set_hold(s, 0, coffee=2)
    assert monsters.targets(s, SHARK) == []
    at_monsters(s, same_suit("shark"))
    # no order choice, no move; the ability still happens (one choice: done at once)
    assert s.modules.monster_cells[SHARK] == cell("a1") and s.hold[gtype("coffee")] == 1
    assert "The shark has no legal move and stays at a1" in " ".join(log(s))
    assert s.phase == SAIL_STEP


def test_r14_7_monsters_never_touch_gold() -> None:
    s = new(4, 1, monsters=True)
    corners(s)
    set_monsters(s, shark="b2", octopus="c2")
    s.ship_cells[1] = cell("b2")
    set_hold(s, 1, gold=3)
    set_goods(s, "c2", gold=2)
    at_monsters(s, same_suit("shark"))
    s.apply(0, "shark: ability first")
    assert s.hold[G + gtype("gold")] == 3
    assert "The shark finds no non-gold cargo at b2" in log(s)
    resolve_monsters(s)
    at_monsters(s, same_suit("octopus"))
    s.apply(0, "octopus: ability first")
    assert s.goods[cell("c2") * G + gtype("gold")] == 2
    assert "The octopus finds nothing to move on c2" in log(s)


def test_r14_8_monsters_do_not_block_ships() -> None:
    s = new(4, 1, monsters=True)
    corners(s)
    at_sail(s, 0, card("octopus", 5), "b2")
    s.apply(0, "sail nw")
    assert s.ship_cells[0] == cell("a1") == s.modules.monster_cells[SHARK]


def test_r14_9_log_and_view_explain_activations() -> None:
    s = new(4, 1, monsters=True, log=True)
    corners(s)
    at_monsters(s, same_suit("whale"))
    v = s.view(None)
    assert v["monster_activation"]["monster"] == "whale" and v["monster_activation"]["player"] == 0
    assert v["phase"] == "monster activation"
    s.apply(0, "whale: ability first")
    assert len(s.view(2)["monster_activation"]["whale_goods"]) == 3     # public draw
    lines = log(s)
    assert any(t.startswith("Monsters activated: the whale by P1 (lowest whale") for t in lines)
    assert any(t.startswith("The whale draws ") for t in lines)


# ============================================================================ R15 abilities
def test_r15_1_shark_takes_from_every_hold() -> None:
    s = new(4, 1, monsters=True)
    corners(s)
    set_monsters(s, shark="b2")
    for p in (0, 2, 3):
        s.ship_cells[p] = cell("b2")
    set_hold(s, 0, sugar=1, coffee=2)
    set_hold(s, 2, silk=1)
    set_hold(s, 3, gold=1)                          # gold only: the shark skips it
    set_hold(s, 1, spice=2)                         # not on the island
    bag = s.bag_count
    at_monsters(s, same_suit("shark"))
    s.apply(0, "shark: ability first")
    assert texts(s, 0) == ["shark takes sugar from p1", "shark takes coffee from p1"]
    s.apply(0, "shark takes coffee from p1")        # then P3's silk: the only choice
    assert s.hold[gtype("coffee")] == 1 and s.hold[2 * G + gtype("silk")] == 0
    assert s.hold[3 * G + gtype("gold")] == 1 and s.hold[G + gtype("spice")] == 2
    assert s.bag_count == bag + 2
    assert texts(s, 0)[0].startswith("move the shark to")
    check_invariants(s)


def test_r15_1_shark_island_variant() -> None:
    s = new(4, 1, monsters=True, shark="island")
    corners(s)
    set_monsters(s, shark="b2")
    set_goods(s, "b2", sugar=2, gold=1, silk=1)
    bag = s.bag[gtype("sugar")]
    at_monsters(s, same_suit("shark"))
    s.apply(0, "shark: ability first")
    assert texts(s, 0) == ["shark eats the sugar", "shark eats the silk"]
    s.apply(0, "shark eats the sugar")
    assert s.goods[cell("b2") * G + gtype("sugar")] == 0 and s.bag[gtype("sugar")] == bag + 2
    assert s.goods[cell("b2") * G + gtype("gold")] == 1


def test_r15_2_octopus_moves_goods_to_adjacent_island() -> None:
    s = new(4, 1, monsters=True)
    corners(s)
    set_monsters(s, octopus="b2")
    set_sea(s, "c2")
    set_goods(s, "b2", coffee=3, gold=1)
    at_monsters(s, same_suit("octopus"))
    s.apply(0, "octopus: ability first")
    got = texts(s, 0)
    assert all(t.startswith("octopus moves coffee to ") for t in got)     # never gold
    assert "octopus moves coffee to c2" not in got                        # not open sea
    assert len(got) == 7
    s.apply(0, "octopus moves coffee to a1")
    assert s.goods[cell("a1") * G + gtype("coffee")] >= 3
    assert s.goods[cell("b2") * G + gtype("coffee")] == 0


def test_r15_2_octopus_grab_variant() -> None:
    s = new(4, 1, monsters=True, octopus="grab")
    corners(s)
    set_monsters(s, octopus="b2")
    s.ship_cells[1] = s.ship_cells[2] = cell("b2")
    set_hold(s, 1, silk=2, gold=1)
    set_hold(s, 2, sugar=1)
    set_goods(s, "b2")
    at_monsters(s, same_suit("octopus"))
    s.apply(0, "octopus: ability first")
    assert texts(s, 0) == ["octopus grabs silk from p2", "octopus grabs sugar from p3"]
    s.apply(0, "octopus grabs silk from p2")
    assert s.hold[G + gtype("silk")] == 1 and s.goods[cell("b2") * G + gtype("silk")] == 1


def test_r15_3_sea_dragon_buries_order() -> None:
    s = new(4, 1, monsters=True)
    corners(s)
    set_monsters(s, sea_dragon="b2")
    o = s.orders_on[cell("b2")]
    x = s.order_deck[0]
    s.delivered = replaced(s.delivered, 3, s.order_deck[1:])  # one card left in the pile
    s.order_deck = (x,)
    at_monsters(s, same_suit("sea dragon"))
    s.apply(0, "sea dragon: ability first")         # no choice: resolves at once
    assert s.orders_on[cell("b2")] == x and s.modules.orders_under == (o,)
    assert s.view(1)["orders_at_bottom"] == [DATA.orders[o].id]
    check_invariants(s)
    s.apply(0, s.legal_actions(0)[0])               # move the dragon
    there = s.orders_on[cell("b3")]
    set_hold(s, 0, **{DATA.goods[t]: k for t, k in DATA.orders[there].pairs})
    at_action(s, 0, "b3")
    s.apply(0, "deliver")                           # the pile is empty: o comes next
    assert s.orders_on[cell("b3")] == o and s.modules.orders_under == ()
    check_invariants(s)


def test_r15_3_sea_dragon_swap_variant() -> None:
    s = new(4, 1, monsters=True, sea_dragon="swap")
    corners(s)
    set_monsters(s, sea_dragon="b2")
    a, b = s.orders_on[cell("b2")], s.orders_on[cell("c3")]
    at_monsters(s, same_suit("sea dragon"))
    s.apply(0, "sea dragon: ability first")
    assert "sea dragon swaps orders with c3" in texts(s, 0) and len(texts(s, 0)) == 8
    s.apply(0, "sea dragon swaps orders with c3")
    assert s.orders_on[cell("b2")] == b and s.orders_on[cell("c3")] == a


def set_bag(s: TidesState, **counts: int) -> None:
    """Set the bag's make-up; the difference is parked in ``spent`` (keeps 78 in all)."""
    for t in range(G):
        k = counts.get(DATA.goods[t], 0)
        s.spent_goods += s.bag[t] - k
        s.bag_count += k - s.bag[t]
        s.bag[t] = k


def whale_ready(where: str = "a1", **options: object) -> TidesState:
    s = new(4, 1, monsters=True, **options)
    corners(s)
    set_monsters(s, whale=where, shark="c4")
    at_monsters(s, same_suit("whale"))
    s.apply(0, "whale: ability first")
    return s


def test_r15_4_whale_spouts_three_goods_in_a_line() -> None:
    s = whale_ready("a1")
    drawn = s.activation.whale_goods if s.activation else None
    assert drawn is not None and len(drawn) == 3
    assert texts(s, 0) == ["whale spouts e", "whale spouts se", "whale spouts s"]
    before = s.goods[:]
    s.apply(0, "whale spouts s")                    # a2, a3, a4 in drawn order
    for t, c in zip(drawn, ("a2", "a3", "a4"), strict=True):
        assert s.goods[cell(c) * G + t] > before[cell(c) * G + t]
    assert sum(s.goods) == sum(before) + 3
    check_invariants(s)


def test_r15_4_whale_heading_needs_two_on_map() -> None:
    s = whale_ready("b2")
    # E/W/N/NE/SE/SW/NW from b2 reach at most 1 card: only S lands 2 -> spouted at once
    assert s.modules.monster_cells[WHALE] == cell("b2")
    assert s.activation is not None and s.activation.used
    assert any(t.startswith("The whale spouts s: ") and "off the map (back to the bag)" in t
               for t in log(s))
    check_invariants(s)


def test_r15_4_whale_goods_in_sea_or_off_map_to_bag() -> None:
    s = new(4, 1, monsters=True, whale_on_map="cards")   # so that heading e is offered
    corners(s)
    set_monsters(s, whale="a1", shark="c4")
    set_sea(s, "b1")
    at_monsters(s, same_suit("whale"))
    s.apply(0, "whale: ability first")
    bag = s.bag_count
    drawn = s.activation.whale_goods if s.activation else ()
    assert drawn
    s.apply(0, "whale spouts e")                    # b1 sea, c1 island, then off the map
    assert s.bag_count == bag + 2
    assert s.goods[cell("c1") * G + drawn[1]] >= 1
    text = next(t for t in log(s) if t.startswith("The whale spouts e"))
    assert "in the sea at b1 (back to the bag)" in text and "off the map" in text
    check_invariants(s)


def test_r15_4_whale_heading_places_two_on_islands() -> None:
    """The seed: "choose a direction that allows you to place at least two items on the
    map"; a good landing on open sea goes back, so it is not placed."""
    s = new(4, 1, monsters=True)
    corners(s)
    set_monsters(s, whale="a1", shark="c4")
    set_sea(s, "b1")
    at_monsters(s, same_suit("whale"))
    s.apply(0, "whale: ability first")
    assert "whale spouts e" not in texts(s, 0)       # b1 sea, c1 island, off the map
    assert texts(s, 0) == ["whale spouts se", "whale spouts s"]
    s = new(4, 1, monsters=True, whale_on_map="cards")   # open sea counts as on the map
    corners(s)
    set_monsters(s, whale="a1", shark="c4")
    set_sea(s, "b1")
    at_monsters(s, same_suit("whale"))
    s.apply(0, "whale: ability first")
    assert texts(s, 0) == ["whale spouts e", "whale spouts se", "whale spouts s"]


def test_r15_4_whale_gold_drawn_goes_back() -> None:
    s = new(4, 1, monsters=True)
    corners(s)
    set_monsters(s, whale="a1", shark="c4")
    set_bag(s, sugar=1, silk=1, gold=8)
    at_monsters(s, same_suit("whale"))
    s.apply(0, "whale: ability first")
    assert s.activation is not None
    assert sorted(s.activation.whale_goods or ()) == [gtype("sugar"), gtype("silk")]
    assert s.bag == [0, 0, 0, 0, 8]                 # every gold drawn went back
    assert any("gold drawn and put back" in t for t in log(s))
    check_invariants(s)
    set_bag(s, gold=8)                              # no non-gold left: nothing to spout
    resolve_monsters(s)
    at_monsters(s, same_suit("whale"))
    s.apply(0, "whale: ability first")
    assert "The whale draws nothing (no non-gold goods left)" in log(s)
    check_invariants(s)


def test_r15_4_whale_own_island_variant() -> None:
    s = whale_ready("b2", whale="own")
    assert len(texts(s, 0)) == 8                    # the 1st good lands on b2 itself
    drawn = s.activation.whale_goods if s.activation else ()
    assert drawn
    before = s.goods[cell("b2") * G + drawn[0]]
    s.apply(0, "whale spouts e")                    # b2, c2, then off the map
    assert s.goods[cell("b2") * G + drawn[0]] == before + 1


def test_r15_4_whale_wraps_under_edge_of_the_world() -> None:
    s = new(4, 1, monsters=True, events=True)
    corners(s)
    set_event(s, "edge-of-the-world")
    set_monsters(s, whale="b2", shark="c4")
    at_monsters(s, same_suit("whale"))
    s.apply(0, "whale: ability first")
    assert len(texts(s, 0)) == 8
    assert monsters.whale_line(s, 2, 3) == [cell("c2"), cell("a2"), cell("b2")]


def test_r15_5_module_state_public_and_conserved() -> None:
    for n in (2, 3, 4):
        s = GAME.new(n, 12, events=True, monsters=True, log=True)
        assert isinstance(s, TidesState)
        play_random(s, 12, check=True)
        assert s.is_over
        v = s.view(0)
        assert v["event"] is not None and len(v["monsters"]) == 4
        assert any(t.startswith("Monsters activated") for t in log(s))


def test_r15_4_whale_empty_spot_variant() -> None:
    """Option whale_empty_spot (the seed's "choose an empty spot"): a good skips cards
    holding a ship or a monster; the plain reading (default) lands on the next card."""
    plain = whale_ready("b1")                       # ships on b3 (see corners)
    assert monsters.whale_line(plain, 4, 3) == [cell("b2"), cell("b3"), cell("b4")]
    s = whale_ready("b1", whale_empty_spot=True)
    assert monsters.whale_line(s, 4, 3) == [cell("b2"), cell("b4"), -1]   # b3 skipped
    # the octopus on c1 is skipped too: heading E from a1 finds b1's whale, c1's octopus
    set_monsters(s, whale="a2")
    assert monsters.whale_line(s, 2, 3) == [cell("b2"), cell("c2"), -1]
    s.ship_cells[0] = cell("b2")
    assert monsters.whale_line(s, 2, 3) == [cell("c2"), -1, -1]
    # at least 2 must land on the map: from b1 only S does (b2, b4; b3 skipped), so the
    # whale spouted there at once when the option was on
    assert s.activation is not None and s.activation.used
    line = next(t for t in log(s) if t.startswith("The whale spouts"))
    assert line.startswith("The whale spouts s: ") and "b3" not in line
    assert " onto b2, " in line and " onto b4, " in line
    assert line.endswith("off the map (back to the bag)")
    assert "cards holding a ship or monster are skipped" in s.view(None)["monsters"][3]["ability"]
    check_invariants(s)
