"""One test per numbered rule of the base game in RULES.md (named after the rule), and the
seed's worked examples. The component rules (R1) are in test_data.py, the modules'
(R12-R15) in test_rules_modules.py."""

from __future__ import annotations

import pytest

import cove
from cove.core import Rng, Step
from cove.core.bits import first_n, size, without
from cove.games.tricky_tides import GAME
from cove.games.tricky_tides.constants import cards_in, known_void, suit_cards
from cove.games.tricky_tides.data import DATA
from cove.games.tricky_tides.decision_stack import (
    ACTION_STEP,
    K_OVERBOARD,
    LEADER,
    OVER,
    OVERBOARD,
    PLACE,
    PLAY_CARD,
    SAIL_STEP,
    SEA_STEP,
)
from cove.games.tricky_tides.state import TidesState
from tests.games.tricky_tides.helpers import (
    all_islands,
    at_action,
    at_sail,
    card,
    cell,
    end_hand,
    game_over,
    gtype,
    mask,
    new,
    position,
    sailing,
    set_goods,
    set_hold,
    set_sea,
    settle,
    texts,
    turn_over,
)

G = 5


# ----------------------------------------------------------------------------- R2 setup
def test_r2_1_one_anchor_and_ship_each() -> None:
    for n in (2, 3, 4):
        s = new(n, 3)
        assert s.anchors == first_n(n)
        assert all(0 <= s.ship_cells[p] < 12 for p in range(n))


def test_r2_2_all_cubes_start_in_the_bag() -> None:
    s = GAME.new(4, 9)
    assert isinstance(s, TidesState)
    # before placement only the non-leaders' single goods have left the bag
    assert s.bag_count == 78 - 3 and sum(s.goods) == 0


def test_r2_3_sightings_dealt_secretly() -> None:
    s = new(3, 5)
    assert len(set(s.sightings)) == 3 and len(s.sightings_out) == 1
    for p in range(3):
        v = s.view(p)
        assert v["sightings"]["id"] == DATA.sightings[s.sightings[p]].id
        assert all(seat["sightings"] is None for seat in v["seats"])
    assert "sightings" not in s.view(None)


def test_r2_4_first_leader_random() -> None:
    leaders = {GAME.new(4, seed).leader for seed in range(40)}  # type: ignore[attr-defined]
    assert leaders == {0, 1, 2, 3}


def test_r2_4_first_leader_ask_option() -> None:
    """Option first_leader=ask: the table names the player most recently on a boat at
    set-up (P1 enters it); set-up then goes on from that leader."""
    s = GAME.new(3, 5, first_leader="ask")
    assert isinstance(s, TidesState)
    assert s.phase == LEADER and s.to_move() == (0,)
    assert texts(s, 0) == ["first leader p1", "first leader p2", "first leader p3"]
    assert s.view(0)["leader"] is None and not any(s.hold_count)
    s.apply(0, "first leader p3")
    assert s.leader == 2 and s.phase == PLACE and s.to_move() == (1,)   # the leader's right
    assert [s.hold_count[p] for p in range(3)] == [1, 1, 0]
    assert "P1 names P3 as the player most recently on a boat" in [
        e.text for e in s.events(None)]
    for seed in range(5):           # the default draws the leader at random, no question
        assert GAME.new(3, seed).phase == PLACE  # type: ignore[attr-defined]


def test_r2_5_non_leaders_draw_one_good() -> None:
    for seed in range(10):
        s = GAME.new(4, seed)
        assert isinstance(s, TidesState)
        assert [s.hold_count[p] for p in range(4)] == [0 if p == s.leader else 1 for p in range(4)]


def test_r2_6_islands_shuffled_into_grid() -> None:
    layouts = set()
    for seed in range(10):
        s = new(4, seed)
        assert sorted(s.layout) == list(range(12))
        layouts.add(s.layout)
    assert len(layouts) > 5


@pytest.mark.parametrize(("n", "flipped"), [(2, 4), (3, 2), (4, 0)])
def test_r2_7_unclaimed_islands_flipped(n: int, flipped: int) -> None:
    s = new(n, 2)
    sea = [c for c in range(12) if s.sea[c]]
    assert len(sea) == flipped
    assert all(DATA.islands[s.layout[c]].colour >= n for c in sea)   # only unclaimed ship islands
    assert all(s.orders_on[c] == -1 and sum(s.goods[c * G:c * G + G]) == 0 for c in sea)


def test_r2_7_ship_colours_option() -> None:
    """Option ship_colours: each seat's colour; its islands are that seat's ports and the
    unclaimed colours flip to open sea."""
    s = GAME.new(3, 2, ship_colours="4,1,2")
    assert isinstance(s, TidesState)
    assert s.colour == (3, 0, 1)
    sea = [c for c in range(12) if s.sea[c]]
    assert len(sea) == 2 and all(DATA.islands[s.layout[c]].colour == 2 for c in sea)
    while s.phase == PLACE:
        p = s.to_move()[0]
        ports = {DATA.islands[s.layout[cell(t.split()[1])]].colour for t in texts(s)}
        assert ports == {s.colour[p]}
        s.apply(p, s.legal_actions(p)[0])
    assert [seat["colour"] for seat in s.view(None)["seats"]] == [4, 1, 2]
    with pytest.raises(cove.OptionError, match="gives 2 of the 3 entries it needs"):
        GAME.new(3, 2, ship_colours="2,1")
    with pytest.raises(cove.OptionError):
        GAME.new(2, 2, ship_colours="1,1")


def test_r2_8_placement_order_and_ports() -> None:
    for n in (2, 3, 4):
        s = GAME.new(n, 4)
        assert isinstance(s, TidesState)
        order = []
        while s.phase == PLACE:
            p = s.to_move()[0]
            order.append(p)
            ports = [DATA.islands[s.layout[cell(t.split()[1])]].colour for t in texts(s)]
            assert len(ports) == 2 and ports == [p, p]
            s.apply(p, s.legal_actions(p)[-1])
        assert order == [(s.leader - k) % n for k in range(1, n + 1)]   # leader places last


def test_r2_9_one_order_per_island() -> None:
    for n in (2, 3, 4):
        s = new(n, 6)
        islands = [c for c in range(12) if not s.sea[c]]
        assert all(s.orders_on[c] >= 0 for c in islands)
        assert len(s.order_deck) == 36 - len(islands)


def test_r2_10_goods_per_island() -> None:
    s = new(4, 7)
    for c in range(12):
        assert sum(s.goods[c * G:c * G + G]) == DATA.islands[s.layout[c]].goods


def test_r2_11_eight_cards_each() -> None:
    for n in (2, 3, 4):
        s = new(n, 8)
        assert all(size(h) == 8 for h in s.hands)
        assert size(s.aside) == 32 - 8 * n
        assert len(s.view(0)["hand"]) == 8


# ----------------------------------------------------------------------------- R3 the hand
def play(s: TidesState, p: int, text: str) -> None:
    """Play ``text`` for p, or check it was played already as a forced move."""
    if s.to_move() == (p,) and s.phase == PLAY_CARD:
        s.apply(p, text)
    else:
        assert _ct(s.trick[p]) == text.removeprefix("play ")


def test_r3_1_lead_then_clockwise() -> None:
    s = position(4, 1, leader=2, hands=[
        [card("whale", 1), card("whale", 2)], [card("whale", 3), card("whale", 4)],
        [card("whale", 5), card("whale", 6)], [card("whale", 7), card("whale", 8)]])
    seen = []
    for _ in range(4):
        p = s.to_move()[0]
        seen.append(p)
        s.apply(p, s.legal_actions(p)[0])
    assert seen == [2, 3, 0, 1]


def test_r3_2_follow_suit_when_able() -> None:
    s = position(3, 1, leader=0, hands=[
        [card("shark", 3), card("whale", 1)],
        [card("shark", 5), card("shark", 6), card("whale", 2)],
        [card("octopus", 2), card("whale", 4)]])
    assert texts(s, 0) == ["play 3 sharks", "play 1 whale"]    # the leader plays anything
    s.apply(0, "play 3 sharks")
    assert texts(s, 1) == ["play 5 sharks", "play 6 sharks"]     # must follow
    with pytest.raises(cove.IllegalAction):
        s.apply(1, "play 2 whales")
    s.apply(1, "play 5 sharks")
    assert texts(s, 2) == ["play 2 octopuses", "play 4 whales"]   # void: anything


def test_r3_3_highest_of_led_suit_wins() -> None:
    s = position(3, 1, leader=0, hands=[
        [card("octopus", 2), card("whale", 1)], [card("octopus", 7), card("octopus", 1)],
        [card("sea dragon", 8), card("shark", 8)]])
    s.apply(0, "play 2 octopuses")
    s.apply(1, "play 7 octopuses")
    s.apply(2, "play 8 sea dragons")
    assert s.leader == 1 and s.sailing_order[0] == 1


def test_r3_4_winner_leads_next() -> None:
    s = position(2, 1, islands_only=True, leader=0, hands=[
        [card("whale", 1), card("whale", 3), card("shark", 1)],
        [card("whale", 8), card("whale", 2), card("shark", 2)]])
    s.apply(0, "play 1 whale")
    s.apply(1, "play 8 whales")
    assert s.leader == 1
    while s.phase != PLAY_CARD:
        p = s.to_move()[0]
        s.apply(p, s.legal_actions(p)[0])
    assert s.to_move() == (1,) and s.cards_in_trick == 0 and s.led_by == 1


# ----------------------------------------------------------------------------- R4 sailing order
def _sailing_order_hand() -> TidesState:
    """P2 wins a hand of four with 6 sharks; P4 and P1 follow, P3 played off-suit."""
    s = position(4, 1, leader=0, hands=[
        [card("shark", 2), card("whale", 1)], [card("shark", 6), card("whale", 2)],
        [card("octopus", 7), card("whale", 3)], [card("shark", 4), card("whale", 4)]])
    for p, t in enumerate(["play 2 sharks", "play 6 sharks", "play 7 octopuses",
                           "play 4 sharks"]):
        play(s, p, t)
    return s


def test_r4_1_sailing_order() -> None:
    s = _sailing_order_hand()
    # winner P2, then on-suit high to low (P4 4, P1 2), then off-suit (P3)
    assert s.sailing_order == (1, 3, 0, 2)


@pytest.mark.parametrize(("ties_from", "expected"), [("winner", (2, 3, 0, 1)),
                                                     ("lead", (2, 0, 1, 3))])
def test_r4_2_offsuit_ties_clockwise(ties_from: str, expected: tuple[int, ...]) -> None:
    s = position(4, 1, options={"sail_ties_from": ties_from}, leader=0, hands=[
        [card("shark", 1), card("whale", 1)], [card("octopus", 5), card("whale", 2)],
        [card("shark", 3), card("whale", 3)], [card("sea dragon", 5), card("whale", 4)]])
    for p, t in enumerate(["play 1 shark", "play 5 octopuses", "play 3 sharks",
                           "play 5 sea dragons"]):
        play(s, p, t)
    # P3 wins; P1 on-suit; P2 and P4 both off-suit 5s: clockwise from the winner P3 -> P4
    # first; clockwise from the leader P1 -> P2 first
    assert s.sailing_order == (2, 0, *[p for p in expected if p not in (2, 0)])


# ----------------------------------------------------------------------------- R5 sailing
def test_r5_1_sail_by_compass() -> None:
    s = new(4, 1)
    all_islands(s)
    at_sail(s, 0, card("octopus", 5), "b2")
    assert texts(s, 0) == ["sail ne", "sail e", "sail se", "sail sw", "sail nw", "drop anchor"]
    s.apply(0, "sail ne")
    assert s.ship_cells[0] == cell("c1") and s.phase in (ACTION_STEP, SAIL_STEP)


def test_r5_2_never_off_map_stay_docked() -> None:
    s = position(4, 1, islands_only=True, goods={"a1": {"sugar": 2, "coffee": 1}},
                 orders={"a1": -1})
    at_sail(s, 0, card("octopus", 5), "a1")   # NE, SW, NW leave the map
    assert texts(s, 0) == ["sail e", "sail se", "drop anchor"]
    at_sail(s, 0, card("shark", 8), "a1")     # N NE W: none stays on the map
    assert s.ship_cells[0] == cell("a1") and s.phase == ACTION_STEP and s.to_move() == (0,)
    assert texts(s, 0) == ["pick up sugar", "pick up coffee", "pass"]
    assert s.anchors & 1   # staying docked this way does not spend the anchor


def test_r5_3_must_sail() -> None:
    s = new(4, 1)
    all_islands(s)
    at_sail(s, 0, card("octopus", 5), "b2", anchor=False)
    assert texts(s, 0) == ["sail ne", "sail e", "sail se", "sail sw", "sail nw"]
    with pytest.raises(cove.IllegalAction):
        s.apply(0, "pass")


def test_r5_4_anchor_once_per_game() -> None:
    s = position(4, 1, islands_only=True, goods={"b2": {"silk": 2}}, orders={"b2": -1})
    at_sail(s, 0, card("octopus", 5), "b2")
    s.apply(0, "drop anchor")
    assert s.ship_cells[0] == cell("b2") and not s.anchors & 1
    assert texts(s, 0) == ["pick up silk", "pass"]       # may still pick up / deliver
    s.apply(0, "pass")
    s.anchors = without(s.anchors, 0)
    at_sail(s, 0, card("octopus", 5), "b2", anchor=False)
    assert "drop anchor" not in texts(s, 0)


def test_r5_5_ships_share_cards() -> None:
    s = position(4, 1, islands_only=True, ships={1: "b1"})
    at_sail(s, 0, card("octopus", 5), "a2")
    s.apply(0, "sail ne")
    assert s.ship_cells[0] == s.ship_cells[1] == cell("b1")
    assert {0, 1} <= set(s.view(None)["map"][cell("b1")]["ships"])


def test_r5_6_open_sea_stop_or_sail_on() -> None:
    s = new(3, 1)
    all_islands(s)
    set_sea(s, "b2")
    at_sail(s, 0, card("octopus", 5), "a2")   # heading E crosses b2 to c2
    s.apply(0, "sail e")
    assert s.phase == SEA_STEP and texts(s, 0) == ["stop at sea", "sail on"]
    s.apply(0, "sail on")
    assert s.ship_cells[0] == cell("c2")
    # stop on open sea
    at_sail(s, 0, card("octopus", 5), "a2")
    s.apply(0, "sail e")
    s.apply(0, "stop at sea")
    assert s.ship_cells[0] == cell("b2") and turn_over(s, 0)      # nothing to do at sea: turn over
    # two open-sea cards in a row: sailing on crosses them one card at a time
    set_sea(s, "b2", "b3")
    at_sail(s, 0, card("whale", 4), "b4")     # N E S W NW: N crosses b3, b2 to b1
    s.apply(0, "sail n")
    s.apply(0, "sail on")
    assert s.ship_cells[0] == cell("b2") and s.phase == SEA_STEP
    s.apply(0, "sail on")
    assert s.ship_cells[0] == cell("b1")
    # no island ahead: the ship stops at sea without a choice
    set_sea(s, "b2", "c2")
    at_sail(s, 0, card("octopus", 5), "a2")
    s.apply(0, "sail e")
    assert s.ship_cells[0] == cell("b2") and turn_over(s, 0)


def test_r5_6_stop_on_any_open_sea_card_on_the_way() -> None:
    """The seed: "you can choose to stop on an open sea card" (any card of the run, not
    only the first one entered)."""
    s = new(3, 1)
    all_islands(s)
    set_sea(s, "b2", "b3")
    at_sail(s, 0, card("whale", 4), "b4")     # N crosses b3, b2 to b1
    s.apply(0, "sail n")
    assert s.ship_cells[0] == cell("b3") and texts(s, 0) == ["stop at sea", "sail on"]
    s.apply(0, "sail on")
    assert s.ship_cells[0] == cell("b2") and texts(s, 0) == ["stop at sea", "sail on"]
    s.apply(0, "stop at sea")
    assert s.ship_cells[0] == cell("b2") and turn_over(s, 0)
    assert "P1 sails on n to b2 (open sea)" in [e.text for e in s.events(None)]


def test_r5_6_sea_stop_first_option() -> None:
    """Option sea_stop=first: only the first open-sea card is a stop; sail on goes
    straight to the island."""
    s = new(3, 1, sea_stop="first")
    all_islands(s)
    set_sea(s, "b2", "b3")
    at_sail(s, 0, card("whale", 4), "b4")
    s.apply(0, "sail n")
    s.apply(0, "sail on")
    assert s.ship_cells[0] == cell("b1")


def test_r5_7_nothing_to_do_at_sea() -> None:
    s = new(3, 1)
    all_islands(s)
    set_sea(s, "b2")
    s.ship_cells[0] = cell("b2")
    at_action(s, 0, "b2")
    assert s.current != 0 and s.phase == SAIL_STEP   # the turn ended at once


def test_r5_8_geometry_switch_for_wrapping() -> None:
    s = new(4, 1)
    all_islands(s)
    at_sail(s, 0, card("shark", 8), "a1")
    assert s.phase == ACTION_STEP   # bounded: N NE W all leave the map
    s._set_geometry(wrap=True)      # the Edge of the World hook (R13.2)
    at_sail(s, 0, card("shark", 8), "a1")
    assert texts(s, 0) == ["sail n", "sail ne", "sail w", "drop anchor"]
    s.apply(0, "sail w")
    assert s.ship_cells[0] == cell("c1")


# ----------------------------------------------------------------------------- R6 pick up / deliver
def test_r6_1_pick_up_all_of_one_type() -> None:
    s = position(4, 1, islands_only=True, goods={"b2": {"sugar": 2, "silk": 1}},
                 orders={"b2": -1}, holds={0: {}})
    at_action(s, 0, "b2")
    assert texts(s, 0) == ["pick up sugar", "pick up silk", "pass"]
    bag = s.bag_count
    s.apply(0, "pick up sugar")
    assert s.hold[gtype("sugar")] == 2 and s.goods[cell("b2") * G + gtype("sugar")] == 0
    assert s.goods[cell("b2") * G + gtype("silk")] == 1
    assert s.bag_count == bag   # R6.2: nothing is replenished when goods are taken


def test_r6_2_goods_not_replenished_when_taken() -> None:
    s = position(4, 1, islands_only=True, goods={"b2": {"spice": 3}}, orders={"b2": -1})
    at_action(s, 0, "b2")
    s.apply(0, "pick up spice")
    assert sum(s.goods[cell("b2") * G:cell("b2") * G + G]) == 0   # stays empty until refill
    assert s.view(None)["map"][cell("b2")]["goods"] == {}


def test_r6_3_deliver_takes_order_and_replaces() -> None:
    s = position(4, 1, islands_only=True, goods={"b2": {}},
                 orders={"b2": 11},          # O12: 2 silk, 4 gold, sea dragon
                 holds={0: {"silk": 3}})
    deck = list(s.order_deck)
    at_action(s, 0, "b2")
    assert texts(s, 0) == ["deliver", "pass"]
    silk_bag = s.bag[gtype("silk")]
    s.apply(0, "deliver")
    assert s.delivered[0] == (11,) and s.hold[gtype("silk")] == 1
    assert s.orders_on[cell("b2")] in deck and len(s.order_deck) == len(deck) - 1
    assert sorted([*s.order_deck, s.orders_on[cell("b2")]]) == sorted(deck)
    assert s.bag[gtype("silk")] == silk_bag + 2     # R6.5 default: back into the bag
    assert s.view(None)["seats"][0]["orders"][0]["id"] == "O12"


def test_r6_3_deliver_needs_exact_goods() -> None:
    s = position(4, 1, islands_only=True, goods={"b2": {}},
                 orders={"b2": 8},   # O09: 1 sugar, 1 coffee, 1 spice, 1 gold
                 # no gold: silk does not substitute
                 holds={0: {"sugar": 1, "coffee": 1, "spice": 1, "silk": 3}})
    at_action(s, 0, "b2")
    assert s.current != 0    # nothing possible: the turn ended
    set_hold(s, 0, sugar=1, coffee=1, spice=1, gold=1)
    at_action(s, 0, "b2")
    assert texts(s, 0) == ["deliver", "pass"]


def test_r6_4_pick_up_or_deliver_not_both() -> None:
    s = position(4, 1, islands_only=True, goods={"b2": {"silk": 2}}, orders={"b2": 11},
                 holds={0: {"silk": 2}})
    at_action(s, 0, "b2")
    assert texts(s, 0) == ["pick up silk", "deliver", "pass"]
    s.apply(0, "deliver")
    assert s.current != 0 and s.phase == SAIL_STEP      # the turn is over
    assert s.goods[cell("b2") * G + gtype("silk")] == 2


def test_r6_5_delivered_goods_to_bag_option() -> None:
    s = position(4, 1, options={"delivered_goods_to_bag": False}, islands_only=True,
                 goods={"b2": {}}, orders={"b2": 11}, holds={0: {"silk": 2}})
    bag = s.bag_count
    at_action(s, 0, "b2")
    s.apply(0, "deliver")
    assert s.bag_count == bag and s.spent_goods == 2


def test_r6_6_empty_order_deck() -> None:
    s = position(4, 1, islands_only=True, goods={"b2": {}}, orders={"b2": 11},
                 holds={0: {"silk": 2}}, order_deck=[])
    at_action(s, 0, "b2")
    s.apply(0, "deliver")
    assert s.orders_on[cell("b2")] == -1
    assert s.view(None)["map"][cell("b2")]["order"] is None


# ----------------------------------------------------------------------------- R7 overboard
def test_r7_1_hold_limit_overboard_to_island() -> None:
    s = position(4, 1, islands_only=True, goods={"b2": {"coffee": 3}}, orders={"b2": -1},
                 holds={0: {"sugar": 6}})
    at_action(s, 0, "b2")
    s.apply(0, "pick up coffee")
    assert s.phase == OVERBOARD and s.hold_count[0] == 9
    assert texts(s, 0) == ["overboard sugar", "overboard coffee"]
    s.apply(0, "overboard coffee")
    assert s.phase == OVERBOARD
    s.apply(0, "overboard sugar")
    assert s.hold_count[0] == 7 and s.current != 0
    assert s.goods[cell("b2") * G + gtype("coffee")] == 1
    assert s.goods[cell("b2") * G + gtype("sugar")] == 1


def test_r7_2_overboard_at_sea_to_bag() -> None:
    s = position(3, 1, islands_only=True, sea=["b2"], holds={0: {"sugar": 4, "silk": 4}},
                 ships={0: "b2"})
    sailing(s, (0, 1, 2))
    s.pop()                                                 # P1 has sailed
    s.push(Step(K_OVERBOARD, (0,)))
    settle(s)
    bag = s.bag[gtype("silk")]
    s.apply(0, "overboard silk")
    assert s.bag[gtype("silk")] == bag + 1 and s.hold_count[0] == 7 and s.current != 0


# ----------------------------------------------------------------------------- R8 end of round
def test_r8_1_six_hands_per_round_and_discard() -> None:
    s = GAME.new(4, 5)
    rng = Rng(5)
    plays_per_round: dict[int, int] = {}
    assert isinstance(s, TidesState)
    while not s.is_over:
        r = s.round
        before = s.decisions
        del before
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
        plays_per_round.setdefault(r, 0)
    texts_ = [e.text for e in s.events(None)]
    rounds = [i for i, t in enumerate(texts_) if " begins; " in t]
    assert len(rounds) == 3
    bounds = [*rounds, len(texts_)]
    for k in range(3):
        chunk = texts_[bounds[k]:bounds[k + 1]]
        assert sum(" leads " in t or " plays " in t for t in chunk) == 6 * 4
        assert sum(" wins the hand " in t for t in chunk) == 6


def test_r8_2_last_two_cards_discarded_and_redealt() -> None:
    s = position(4, 2, hand_no=5,
                 hands=[[card("whale", 2 * p + 1), card("whale", 2 * p + 2)] for p in range(4)])
    end_hand(s)
    assert s.round == 1 and s.hand_no == 0
    assert all(size(h) == 8 for h in s.hands) and s.played == 0
    assert s.phase == PLAY_CARD and s.current == s.leader


def test_r8_3_refill_islands() -> None:
    s = position(4, 3, hand_no=5,
                 goods={"a1": {"gold": 1},
                        "b1": {"sugar": 4, "coffee": 5}},   # more than its number: left alone
                 hands=[[card("whale", 2 * p + 1), card("whale", 2 * p + 2)] for p in range(4)])
    a1, b1 = cell("a1"), cell("b1")
    num_a1 = DATA.islands[s.layout[a1]].goods
    end_hand(s)
    assert sum(s.goods[a1 * G:a1 * G + G]) == num_a1 and s.goods[a1 * G + gtype("gold")] >= 1
    assert list(s.goods[b1 * G:b1 * G + 2]) == [4, 5] and sum(s.goods[b1 * G:b1 * G + G]) == 9


def test_r8_3_refill_stops_when_bag_runs_out() -> None:
    s = new(4, 3)
    for c in range(12):
        set_goods(s, "abc"[c % 3] + str(c // 3 + 1))
    left = list(s.bag)
    left[gtype("sugar")] -= 1            # keep exactly one sugar in the bag
    set_hold(s, 1, **{DATA.goods[t]: s.hold[G + t] + left[t] for t in range(G)})
    assert s.bag_count == 1
    s.hands = [mask(card("whale", 2 * p + 1), card("whale", 2 * p + 2)) for p in range(4)]
    s.hand_no = 5
    end_hand(s)
    assert list(s.goods[0:G]) == [1, 0, 0, 0, 0] and sum(s.goods) == 1   # reading order: a1 first


def test_r8_4_reshuffle_and_redeal() -> None:
    s = new(3, 4)
    deals = set()
    for _ in range(2):
        s.hands = [mask(card("octopus", 2 * p + 1), card("octopus", 2 * p + 2))
                   for p in range(3)]
        s.hand_no = 5
        end_hand(s)
        assert [size(h) for h in s.hands] == [8, 8, 8] and size(s.aside) == 8
        deals.add(tuple(s.hands))
    assert len(deals) == 2


def test_r8_5_orders_stay_between_rounds() -> None:
    s = position(4, 4, hand_no=5,
                 hands=[[card("whale", 2 * p + 1), card("whale", 2 * p + 2)] for p in range(4)])
    before = s.orders_on
    end_hand(s)
    assert s.orders_on == before


def test_r8_6_three_rounds() -> None:
    s = new(2, 4)
    for _ in range(3):
        s.hands = [mask(card("whale", 2 * p + 1), card("whale", 2 * p + 2)) for p in range(2)]
        s.hand_no = 5
        end_hand(s)
    settle(s)
    assert s.phase == OVER and s.is_over and s.to_move() == () and s.round == 3


# ----------------------------------------------------------------------------- R9 scoring
def test_r9_1_scoring_parts() -> None:
    s = position(4, 1,
                 sightings=(1, 0, 2, 3),  # P1 holds card B: octopus 1, dragon 2, shark 3, whale 0
                 delivered={0: (19, 20)},  # O20 shark 3 gold, O21 shark 4 gold
                 holds={0: {"sugar": 5, "coffee": 3, "silk": 3, "spice": 1, "gold": 2}})
    # 7 gold + 2 x shark bonus 3 + sugar 1 + coffee 1 + silk 1 + spice 0 + gold 2
    assert s.score_parts(0) == (7, 6, 5)
    assert s.scores()[0] == 18.0


def test_r9_1_score_parts_name_each_source() -> None:
    """The score in parts (Game.score_parts, read from a view): the order gold, the
    sightings bonus where the view shows the seat's card, and the goods sold; the viewer's
    own parts add up to their score so far, the others' to their public score, and once
    the game is over every view's parts add up to the score."""
    s = position(4, 1,
                 sightings=(1, 0, 2, 3),  # P1 holds card B: octopus 1, dragon 2, shark 3, whale 0
                 delivered={0: (19, 20)},  # O20 shark 3 gold, O21 shark 4 gold
                 holds={0: {"sugar": 5, "coffee": 3, "silk": 3, "spice": 1, "gold": 2}})
    assert GAME.score_parts is not None
    own = GAME.score_parts(s.view(0), 0)
    assert own == [("order gold", 7.0), ("sightings bonus", 6.0), ("goods sold", 5.0)]
    assert sum(v for _, v in own) == s.view(0)["my_score"] == s.scores()[0]
    for viewer in (None, 1):
        v = s.view(viewer)
        parts = GAME.score_parts(v, 0)
        assert parts == [("order gold", 7.0), ("goods sold", 5.0)]     # the card is secret
        assert sum(x for _, x in parts) == v["seats"][0]["public_score"]
    game_over(s)
    for viewer in (None, 0, 1, 2, 3):
        v = s.view(viewer)
        for p in range(4):
            assert sum(x for _, x in GAME.score_parts(v, p)) == s.scores()[p]
    assert dict(GAME.score_parts(s.view(None), 0))["sightings bonus"] == 6.0


def _final(s: TidesState) -> None:
    game_over(s)


def test_r9_2_tie_breaks() -> None:
    s = position(3, 1, sightings=(0, 1, 2),   # A: octopus 3, dragon 0, shark 1, whale 2;
                 holds={0: {}, 1: {}, 2: {}})   # B: octopus 1, dragon 2, shark 3, whale 0
    _final(s)
    s.delivered = ((6,), (12, 10), ())     # P1 O07 7+3 = 10; P2 O13 3+2 and O11 3+2 = 10
    assert s.scores()[:2] == [10.0, 10.0]
    assert s.winners() == (1,)       # more order cards wins
    s.delivered = ((3, 19), (12, 10), ())  # P1 O04 3+3 and O20 3+1 = 10: two orders each
    assert s.scores()[:2] == [10.0, 10.0]
    set_hold(s, 0, sugar=1)          # 1 sugar sells for nothing but breaks the tie
    assert s.scores()[:2] == [10.0, 10.0] and s.winners() == (0,)
    set_hold(s, 1, coffee=1)
    assert s.winners() == (0, 1)     # still tied: a shared win


# ----------------------------------------------------------------------------- R10 hidden info
def test_r10_1_views_hide_secrets() -> None:
    s = new(4, 2)
    for p in range(4):
        v = s.view(p)
        assert [c["card"] for c in v["hand"]] == [
            _ct(c) for c in cards_in(s.hands[p])]
        assert all(seat["sightings"] is None for seat in v["seats"])
        assert "bag" not in v and "order_deck" not in v
        assert set(v) >= {"bag_size", "order_deck_size"}
    spect = s.view(None)
    assert "hand" not in spect and "sightings" not in spect


def _ct(c: int) -> str:
    from cove.games.tricky_tides.actions import CARD_TEXT
    return CARD_TEXT[c]


def test_r10_2_redeterminize_respects_voids() -> None:
    shark = DATA.suits.index("shark")
    pool = [card("shark", v) for v in range(1, 9)]
    s = position(4, 3, leader=0, hands=[[pool[0], pool[1], card("whale", 1)],
                                        [card("whale", 2), card("whale", 3), card("octopus", 1)],
                                        [pool[2], pool[3], card("whale", 4)],
                                        [pool[4], pool[5], card("whale", 5)]])
    s.apply(0, "play 1 shark")
    s.apply(1, "play 2 whales")          # P2 shows a void in sharks
    assert known_void(s.voids, 1, shark)
    want = s.view(0)
    got_sharks = 0
    for k in range(60):
        d = s.redeterminize(0, Rng(k))
        assert isinstance(d, TidesState)
        assert suit_cards(d.hands[1], shark) == 0
        assert d.view(0) == want
        got_sharks |= suit_cards(d.hands[3], shark)
    assert got_sharks    # the other players' sharks really were redealt


# ----------------------------------------------------------------------------- R11 engine
def test_r11_forced_steps_resolved() -> None:
    s = position(3, 1, leader=0, hands=[
        [card("shark", 3), card("whale", 1)], [card("shark", 5), card("whale", 2)],
        [card("shark", 6), card("shark", 7)]])
    s.apply(0, "play 3 sharks")
    # P2 holds one shark: the forced play happens at once and P3 is to move
    assert s.trick[1] == card("shark", 5) and s.to_move() == (2,)
    assert all(len(s.legal_actions(p)) >= 2 for p in s.to_move())



STEP_KINDS = {"place_ship", "play_card", "sail", "open_sea", "pick_up_or_deliver",
              "overboard", "first_leader", "monster_order", "monster_move", "monster_ability"}


def test_r11_1_every_decision_is_a_step_rule_with_a_prompt() -> None:
    """Every pending decision is the top step of the decision stack: its rule names who
    decides (the step's player), the legal actions (computed without side effects) and a
    one-sentence prompt; the other players get a public prompt."""
    seen: set[str] = set()
    for n, seed, opts in [(2, 1, {"first_leader": "ask"}),
                          (3, 2, {"events": True, "monsters": True}),
                          (4, 3, {"monsters": True, "shark": "island", "octopus": "grab",
                                  "sea_dragon": "swap"}),
                          (3, 4, {"events": True, "monsters": True, "whale": "own"})]:
        s = GAME.new(n, seed, **opts)
        assert isinstance(s, TidesState)
        rng = Rng(seed)
        while not s.is_over:
            top = s.steps[-1]
            rule = s.STEPS[top.kind]
            p = top.players[0]
            assert s.to_move() == top.players == (s.current,)
            before = s.fingerprint()
            legal = rule.legal(s, top, p)
            assert s.fingerprint() == before                  # no side effects
            assert tuple(legal) == s.legal_actions(p) and len(legal) >= 2
            mine = s.decision(p)
            assert mine["prompt"] and mine["prompt"] == rule.prompt(s, top, p)
            assert s.decision((p + 1) % n)["prompt"].startswith(f"Waiting for P{p + 1}: ")
            seen.add(top.kind)
            s.apply(p, rng.choice(legal))
        assert not s.steps and s.phase == OVER and s.current == -1
    assert seen == STEP_KINDS


def test_r11_2_forced_actions_logged_as_the_action() -> None:
    """A forced action is logged as the action itself ("P2 plays 5 sharks"), never as an
    engine line "(the only choice)", and is not in the history (not a decision)."""
    s = position(3, 1, leader=0, hands=[
        [card("shark", 3), card("whale", 1)], [card("shark", 5), card("whale", 2)],
        [card("shark", 6), card("shark", 7)]])
    n = len(s.history)
    s.apply(0, "play 3 sharks")
    texts_ = [e.text for e in s.events(None)]
    assert "P2 plays 5 sharks" in texts_
    assert not any("only choice" in x for x in texts_)
    assert not any(e.kind == "forced" for e in s.events(None))
    assert len(s.history) == n + 1


def test_r11_3_sailing_order_is_pushed_as_sail_steps() -> None:
    """Once the trick is won, the stack holds one sail step per ship in the sailing order
    (the first sailor on top); the hand ends when the stack runs empty."""
    s = _sailing_order_hand()
    assert s.sailing_order == (1, 3, 0, 2)
    sails = [st.players[0] for st in reversed(s.steps) if st.kind == "sail"]
    assert sails == [q for q in s.sailing_order
                     if q != s.current or s.phase == SAIL_STEP][-len(sails):]
    assert [st.kind for st in s.steps[:3]] == ["sail"] * 3     # P4, P1, P3 still to sail
    hand = s.hand_no
    rng = Rng(5)
    while s.hand_no == hand:
        assert s.phase != PLAY_CARD and s.steps
        s.apply(s.current, rng.choice(s.legal_actions(s.current)))
    assert s.led_by == 1                           # the next hand: P2 won, P2 led


# ----------------------------------------------------------------------------- the seed's examples
EDMUND, ANNE, HENRY = 0, 1, 2    # seated clockwise: Edmund, Anne, Henry


def test_seed_example_hand_and_sailing_order() -> None:
    """Edmund leads 3 of Sharks, Anne plays 5 of Sharks, Henry (no Sharks) plays 8 of Sea
    Dragons: Anne wins and leads; sailing order Anne, Edmund, Henry."""
    s = position(3, 11, leader=EDMUND, hands=[
        [card("shark", 3), card("whale", 2), card("octopus", 4)],
        [card("shark", 5), card("shark", 1), card("whale", 6)],
        [card("sea dragon", 8), card("whale", 7), card("octopus", 6)],
    ])
    s.apply(EDMUND, "play 3 sharks")
    assert texts(s, ANNE) == ["play 1 shark", "play 5 sharks"]          # must follow suit
    s.apply(ANNE, "play 5 sharks")
    assert "play 8 sea dragons" in texts(s, HENRY)                      # no Sharks: anything
    s.apply(HENRY, "play 8 sea dragons")
    assert s.leader == ANNE                                              # 8 off-suit can't win
    assert s.sailing_order == (ANNE, EDMUND, HENRY)
    assert turn_over(s, ANNE) or (s.phase == SAIL_STEP and s.current == ANNE)  # Anne first


def test_seed_example_final_score() -> None:
    """17 gold from orders; +3 per octopus order, +2 for the whale order, +0 for the sea
    dragon order -> 25; +1 for one gold good and +1 for two spice (two coffee sell for
    nothing) -> 27."""
    s = position(4, 1, sightings=(0, 1, 2, 3),  # card A: octopus 3, sea dragon 0, whale 2
                 # O07 octopus 7, O03 octopus 4, O28 whale 2, O12 sea dragon 4 = 17 gold
                 delivered={0: (6, 2, 27, 11)})
    gold, bonus, _ = s.score_parts(0)
    assert gold == 17 and gold + bonus == 25
    set_hold(s, 0, gold=1, spice=2, coffee=2)
    assert s.score_parts(0) == (17, 8, 2)
    game_over(s)
    assert s.scores()[0] == 27.0
