"""One test per numbered rule of RULES.md (named after the rule), plus the seed's and the
notes' worked examples."""

from __future__ import annotations

from typing import Any

import pytest

import cove
from cove.games.tiny_epic_pirates import data, sea, turn
from cove.games.tiny_epic_pirates.actions import (
    AssignDeckhand,
    MoveCaptain,
    PaySkip,
    PlaceNavy,
    SailTo,
)
from cove.games.tiny_epic_pirates.state import PiratesState
from tests.games.tiny_epic_pirates.helpers import (
    acts,
    after_setup,
    at_order,
    battle,
    check_conservation,
    do,
    do_prefix,
    find_card,
    legal_of,
    new,
    over,
    pirate,
    play_random,
    position,
    rig_dice,
    run_step,
    set_steps,
    step,
    texts,
    top,
    turn_of,
)

RULESET = data.ruleset("design")
SUGAR, RUM, COFFEE, POWDER = range(4)


# ---------------------------------------------------------------- R2 resources
def test_r2_1_gold_between_0_and_13() -> None:
    s = after_setup(2)
    s.add_gold(0, 40)
    assert s.gold[0] == 13
    s.add_gold(0, -20)
    assert s.gold[0] == 0


def test_r2_2_full_ship_discard_or_swap() -> None:
    s = position(booty=[SUGAR, SUGAR, RUM])
    s.bag[COFFEE] -= 1
    s._load(0, COFFEE)
    s._legal = None
    s.settle()
    assert texts(s) == ["discard the new coffee", "keep coffee, discard sugarcane",
                        "keep coffee, discard rum"]
    bag_before = s.bag[SUGAR]
    do(s, "keep coffee, discard sugarcane")
    assert sorted(s.booty[0]) == [SUGAR, RUM, COFFEE] and s.bag[SUGAR] == bag_before + 1
    check_conservation(s)


def test_r2_3_booty_cubes_conserved() -> None:
    s = new(3, seed=4)
    play_random(s, 4, check=True, limit=800)


# ---------------------------------------------------------------- R3 setup
def test_r3_1_sea_of_16_cards_with_face_down_tokens() -> None:
    s = new(2, seed=1)
    assert sorted(s.maps) == list(range(16))
    assert len(s.search_tokens) == 16 and len(s.box_tokens) == 4
    assert sorted(s.search_tokens + s.box_tokens) == list(range(20))
    v = s.view(0)
    assert all(not c["searched"] for c in v["sea"]) and v["search_tokens_left"] == 16
    assert new(2, seed=2).maps != s.maps


def test_r3_2_legend_mat_start() -> None:
    s = new(4, seed=1)
    for p in range(4):
        assert s.legend_level[p] == 1 and s.gold[p] == 1 and s.treasures[p] == []
        assert s.deckhand_on_legend_mat[p] == 1 and not s.bloody[p]


def test_r3_3_helm_start() -> None:
    s = new(4, seed=1)
    for p in range(4):
        assert s.wheel[p][0] == data.HIDE_OUT and sorted(s.wheel[p][1:]) == [0, 1, 2, 3, 4]
        assert s.captain_space[p] == 0 and s.assignments[p] == [1, 1, 1, 0]
        assert s.wheel_deckhands[p] == [0] * 6
    assert len({tuple(w) for seed in range(6) for w in new(4, seed=seed).wheel}) > 4


def test_r3_4_market_one_cube_of_each_at_random() -> None:
    orders = {tuple(new(2, seed=k).market) for k in range(12)}
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders) and len(orders) > 3


def test_r3_5_ports_opposite_corners_merchants_face_each_other() -> None:
    for seed in range(8):
        s = new(2, seed=seed)
        a, b = s.ports
        assert {a, b} in ({0, 15}, {3, 12})
        assert s.merchant_at == [a, b] and s.merchant_heading == [1, 0]
        assert all(c >= 0 for c in s.merchant_cube)


def test_r3_6_merchant_deck_order() -> None:
    s = new(2)
    assert s.merchant_card == [2, 2]
    assert s.merchant_deck == [8, 8, 6, 6, 6, 4, 4, 4, 2]      # bottom .. top


def test_r3_7_crew_line_of_three() -> None:
    s = new(2)
    assert len(s.crew_line) == 3 and len(s.crew_deck) == 21


def test_r3_8_first_player_places_navy_in_free_corner() -> None:
    s = new(3, seed=5)
    assert s.to_move() == (0,) and top(s) == turn.T_NAVY_SETUP
    corners = {a.cell for a in acts(s, 0) if isinstance(a, PlaceNavy)}
    assert len(corners) == len(acts(s, 0))
    assert corners == set(sea.CORNERS) - set(s.ports)
    do(s, texts(s)[1])
    assert s.navy_at in corners


def test_r3_9_each_player_starts_hidden_in_a_free_cove() -> None:
    s = new(4, seed=5)
    do(s, texts(s)[0])
    for p in range(4):
        assert s.to_move() == (p,) or p == 3
        if top(s) != turn.T_COVE:
            break
        opts = s.legal_actions(p)
        assert len(opts) == 4 - p
        do(s, str(opts[-1]))
    coves = [s.ship_at[p] for p in range(4)]
    assert len(set(coves)) == 4 and all(s.card(c).kind == data.COVE for c in coves)
    assert all(s.hidden)


def test_r3_10_captain_side_chosen_in_turn_order() -> None:
    s = new(2, seed=5)
    while top(s) != turn.T_SIDE:
        do(s, texts(s)[0])
    assert s.to_move() == (0,)
    do(s, "captain side b (bury then plunder)")
    assert s.to_move() == (1,)
    do(s, "captain side a (bury then attack)")
    assert s.captain_side == [1, 0]


def test_r3_11_starting_cube_by_market_space() -> None:
    for seed in range(4):
        s = new(4, seed=seed)
        market = s.market[:]
        s2 = after_setup(4, seed=seed)
        assert [b for b in s2.booty] == [[market[p]] for p in range(4)]


# ---------------------------------------------------------------- R4 the wheel
def _wheel(s: PiratesState) -> list[int]:
    """The wheel spaces P1's Captain may move to now."""
    out = [a.space for a in acts(s, 0) if isinstance(a, MoveCaptain)]
    assert len(out) == len(acts(s, 0))
    return out


def test_r4_1_captain_advances_at_least_one_space() -> None:
    s = after_setup(2)
    assert _wheel(s) == [1, 2, 3, 4]     # 5 would need 4 deckhands
    pirate(s, 0, assignments=[3, 3, 3, 3])
    turn_of(s, 0)
    assert _wheel(s) == [1, 2, 3, 4, 5]  # never back to 0


def test_r4_2_skipping_spaces_with_deckhands_seed_example() -> None:
    s = position(captain_space=1)
    turn_of(s, 0)
    assert "captain to 4 (" in texts(s)[2] and "2 deckhands" in texts(s)[2]
    do(s, texts(s)[2])
    assert s.steps[-1] == turn.step_of(turn.T_PAY, 0, 2)
    do(s, "skip with a deckhand from rigging")
    do(s, "skip with a deckhand from cannons")
    assert s.captain_space[0] == 4 and s.wheel_deckhands[0] == [0, 0, 1, 1, 0, 0]
    assert s.assignments[0] == [0, 0, 1, 0]
    check_conservation(s)


def test_r4_2_repair_deckhands_can_skip() -> None:
    s = position(assignments=[0, 0, 0, 2], captain_space=1)
    turn_of(s, 0)
    do_prefix(s, "captain to 3")
    assert s.wheel_deckhands[0][2] == 1 and s.assignments[0] == [0, 0, 0, 1]


def test_r4_3_hide_out_free_and_5_to_1_wrap() -> None:
    s = position(captain_space=5, assignments=[0, 0, 0, 0],
                 wheel_deckhands=[0, 1, 1, 1, 0, 0])
    turn_of(s, 0)
    # from 5: 0 is next; 1 is reached by skipping 0 for free, with no deckhand to spare
    assert texts(s)[0].startswith("captain to 0 (hide out)")
    assert texts(s)[1].startswith("captain to 1 (") and "deckhand" not in texts(s)[1]
    s2 = s.clone()
    pirate(s2, 0, wheel_deckhands=[0, 0, 1, 1, 0, 0], assignments=[1, 0, 0, 0])
    turn_of(s2, 0)
    do_prefix(s2, "captain to 1")
    assert s2.captain_space[0] == 1 and s2.crossed_ship_line
    assert s2.wheel_deckhands[0] == [0, 0, 1, 1, 0, 0]


def test_r4_4_released_deckhands_go_to_any_deck_assignment_repair_included() -> None:
    # SEED: "immediately move the skipped or landed Deckhands to any Deck Assignment"; the
    # seed names 4 (Rigging, Cannons, Extort, Repair). Before, Repair was never offered
    # (kept as place_in_repair=false).
    for opts, want in (({}, ["rigging", "cannons", "extort", "repair"]),
                       ({"place_in_repair": False}, ["rigging", "cannons", "extort"])):
        s = position(options=opts, captain_space=1, assignments=[1, 1, 0, 0],
                     wheel_deckhands=[0, 0, 1, 0, 0, 0])
        turn_of(s, 0)
        do_prefix(s, "captain to 2")
        assert top(s) == turn.T_RELEASE
        assert texts(s) == [f"released deckhand to {j}" for j in want], opts
        if "repair" in want:
            do(s, "released deckhand to repair")
            assert s.assignments[0] == [1, 1, 0, 1] and s.wheel_deckhands[0] == [0] * 6
            check_conservation(s)


def test_r4_4_reassigning_skipped_deckhands_seed_example() -> None:
    s = position(captain_space=1, assignments=[0, 0, 0, 0],
                 wheel_deckhands=[0, 0, 1, 1, 1, 0])
    turn_of(s, 0)
    dests = _wheel(s)
    # 2, 3, 4 hold deckhands: skipping them is free; 5 is empty and the released
    # deckhands cannot pay for it this turn, so 0 is out of reach
    assert dests == [2, 3, 4, 5]
    do_prefix(s, "captain to 5")
    for want in ("rigging", "cannons", "extort"):
        assert top(s) == turn.T_RELEASE
        do(s, f"released deckhand to {want}")
    assert s.wheel_deckhands[0] == [0] * 6 and s.assignments[0] == [1, 1, 1, 0]
    assert s.captain_space[0] == 5
    check_conservation(s)


# ---------------------------------------------------------------- R5 sailing
def _to_sail(s: PiratesState, p: int = 0) -> None:
    """Put p at the sailing step of a fresh turn (captain moved one space)."""
    turn_of(s, p)
    do(s, texts(s)[0])
    while top(s) in (turn.T_RELEASE, turn.T_PAY):
        do(s, texts(s)[0])
    assert top(s) == turn.T_SAIL


def _no_storms(s: PiratesState) -> None:
    s.maps = [m for m in s.maps if RULESET.maps[m].kind != data.STORM] + [
        m for m in s.maps if RULESET.maps[m].kind == data.STORM]   # storms at c4, d4


def test_r5_1_sail_is_legend_plus_rigging_orthogonal() -> None:
    s = position(ship_at=5, assignments=[2, 0, 1, 0])     # b2
    _no_storms(s)
    _to_sail(s)
    assert sorted(a.text.split()[1] for a in acts(s, 0) if isinstance(a, SailTo)) == [
        "east", "north", "south", "west"]
    for d in ("east", "east", "south"):       # 1 (Sea Dog) + 2 rigging = 3 moves
        do_prefix(s, f"sail {d}")
    assert s.ship_at[0] == 11 and top(s) != turn.T_SAIL   # out of movement: sailing ends


def test_r5_2_storm_jostles_once_per_storm_entered() -> None:
    # at c3, Legend level 7 (sail 4) and 3 on Rigging
    s = position(ship_at=10, legend_level=7, assignments=[3, 0, 0, 0])
    _no_storms(s)                  # storms at c4 (14) and d4 (15)
    _to_sail(s)
    do(s, "sail south to c4")
    assert s.assignments[0] == [2, 0, 0, 1]      # the storm jostled a rigging deckhand
    do(s, "sail east to d4")       # a second storm: jostled again
    assert s.assignments[0] == [1, 0, 0, 2]
    do(s, "sail north to d3")      # leaving a storm does not jostle
    assert s.assignments[0] == [1, 0, 0, 2]
    do(s, "sail south to d4")      # entering it again does
    assert s.assignments[0] == [0, 0, 0, 3]
    assert top(s) != turn.T_SAIL      # 4 + 0 rigging = 4 moves used: sailing is over


def test_r5_3_jostling_order_and_all_in_repair_seed_example() -> None:
    # a deckhand on cannons and one on the wheel: the assignment goes first; sail 4 + the
    # token's 2: movement left after 3 moves
    s = position(ship_at=10, assignments=[0, 1, 0, 1], wheel_deckhands=[0, 0, 0, 0, 1, 0],
                 sail_tokens=[2], legend_level=7)
    _no_storms(s)
    _to_sail(s)
    do(s, "use sail token +2")
    do(s, "sail south to c4")
    assert s.assignments[0] == [0, 0, 0, 2] and s.wheel_deckhands[0][4] == 1
    # next storm: nothing on rigging/cannons/extort, so the wheel deckhand goes
    do(s, "sail east to d4")
    assert s.assignments[0] == [0, 0, 0, 3] and s.wheel_deckhands[0] == [0] * 6
    # all in repair: sailing into a storm is not allowed (the ship still has movement)
    do(s, "sail north to d3")
    assert top(s) == turn.T_SAIL and "sail west to c3" in texts(s)
    assert "sail south to d4" not in texts(s)
    s2 = position(ship_at=10, assignments=[0, 0, 0, 3])
    _no_storms(s2)
    _to_sail(s2)
    assert not any("to c4" in t for t in texts(s2))


def test_r5_3_all_in_repair_not_jostled_by_lost_attack() -> None:
    s = position(assignments=[0, 0, 0, 3])
    s._jostle_after_loss(0)
    assert turn.step_of(turn.T_JOSTLE, 0) not in s.steps


def test_r5_4_sail_tokens_single_use() -> None:
    s = position(ship_at=0, assignments=[0, 1, 1, 0], sail_tokens=[1, 2])
    _no_storms(s)
    _to_sail(s)
    do(s, "sail east to b1")
    assert "use sail token +1" in texts(s) and not any(t.startswith("sail ") for t in texts(s))
    do(s, "use sail token +2")
    do(s, "sail east to c1")
    do(s, "sail east to d1")
    assert s.sail_tokens[0] == [1] and s.ship_at[0] == 3


def test_r5_5_sailing_leaves_the_cove() -> None:
    s = after_setup(2)
    _no_storms(s)
    assert s.hidden[0]
    _to_sail(s)
    do(s, texts(s)[0])
    assert not s.hidden[0]


# ---------------------------------------------------------------- R6 the ship line
def test_r6_1_crossing_the_ship_line_pays_extort() -> None:
    s = position(captain_space=4, assignments=[0, 1, 2, 0])
    turn_of(s, 0)
    do_prefix(s, "captain to 0")        # 4 -> 0 skips 5 (paid from cannons: only choice?)
    while top(s) == turn.T_PAY:
        do(s, "skip with a deckhand from cannons")
    assert s.crossed_ship_line and s.gold[0] == 1 + 2
    s2 = after_setup(2)                  # 0 -> 2 does not cross
    do_prefix(s2, "captain to 2")
    while top(s2) == turn.T_PAY:
        do(s2, texts(s2)[0])
    assert not s2.crossed_ship_line and s2.gold[0] == 1


def _finish_turn(s: PiratesState) -> None:
    p = s.turn_player()
    while s.turn_player() == p and not s.is_over:
        t = texts(s)
        pick = next((x for x in t if x.startswith(("stop", "skip", "end", "done", "fire"))),
                    t[0])
        do(s, pick)


def test_r6_2_navy_and_merchants_sail_only_after_crossing() -> None:
    s = after_setup(2)
    m0 = s.merchant_at[:]
    do_prefix(s, "captain to 1")
    _finish_turn(s)
    assert s.merchant_at == m0
    s.captain_space[1] = 5
    turn_of(s, 1)
    do_prefix(s, "captain to 0")
    navy = s.navy_at
    _finish_turn(s)
    assert s.merchant_at != m0
    assert sea.dist(s.navy_at, s.ship_at[1]) < sea.dist(navy, s.ship_at[1])


def test_r6_3_merchants_step_diagonally_and_turn_at_port() -> None:
    s = after_setup(2)
    s.ports = (0, 15)
    s.merchant_at, s.merchant_heading = [0, 10], [1, 1]
    s._merchants_sail()
    assert s.merchant_at == [5, 15] and s.merchant_heading == [1, 0]
    s._merchants_sail()
    assert s.merchant_at == [10, 10]


def test_r6_4_navy_chases_and_attacks_unhidden_ship() -> None:
    s = position(ship_at=5, hidden=False, legend_level=3)  # navy deals 4 + 3 // 2 = 5
    _no_storms(s)
    s.navy_at = 0
    s.crossed_ship_line = True
    set_steps(s, (turn.T_NEXT, 0, 0), (turn.T_NAVY_FIGHT, 0, 0), (turn.T_NAVY_MOVE, 0, 0))
    assert top(s) == turn.T_NAVY_MOVE and texts(s) == ["navy sails east", "navy sails south"]
    do(s, "navy sails east")
    assert s.navy_at == 1
    s.navy_at = 5                      # (test) bring it onto the ship
    s.turn = 0
    s.battle = None
    pirate(s, 0, assignments=[1, 1, 1, 0], captain=0, captain_side=0)  # dice symbols 5, 6
    booty = len(s.booty[0])
    rig_dice(s, [3, 3])             # no symbols: 0 damage + 1 cannon < 5
    set_steps(s, (turn.T_NEXT, 0, 0), (turn.T_NAVY_FIGHT, 0, 0))
    assert any("the navy deals 5, P1 deals 1" in e.text for e in s.events(None))
    while top(s) in (turn.T_JOSTLE, turn.T_LOSE) and s.to_move() == (0,) and s.turn == 0:
        do(s, texts(s)[0])
    assert s.assignments[0][3] == 1 and len(s.booty[0]) == booty - 1
    # a hidden ship is not attacked
    s3 = after_setup(2)
    s3.navy_at = s3.ship_at[0]
    set_steps(s3, (turn.T_NEXT, 0, 0), (turn.T_NAVY_FIGHT, 0, 0))
    assert s3.hidden[0] and s3.turn == 1


# ---------------------------------------------------------------- R7 orders
def test_r7_1_plunder_draws_settlement_icons() -> None:
    s = position(booty=[])
    pirate(s, 0, ship_at=find_card(s, data.SETTLEMENT, plunder=2))
    at_order(s, 0, data.PLUNDER)
    assert texts(s) == ["plunder 2", "skip plunder"]
    do(s, "plunder 2")
    assert len(s.booty[0]) == 2
    check_conservation(s)


def test_r7_2_trade_three_sugarcane_at_four_seed_example() -> None:
    s = position(booty=[SUGAR] * 3)
    s.market = [RUM, COFFEE, SUGAR, POWDER]          # sugarcane at value 4
    pirate(s, 0, ship_at=find_card(s, data.MARKET, booty=SUGAR))
    at_order(s, 0, data.TRADE)
    assert texts(s) == ["trade 1 sugarcane", "trade 2 sugarcane", "trade 3 sugarcane",
                        "skip trade"]
    do(s, "trade 3 sugarcane")
    assert s.gold[0] == 1 + 12 and s.booty[0] == []
    assert s.market == [SUGAR, RUM, COFFEE, POWDER]   # sold type to 2, the others move up
    check_conservation(s)


def test_r7_2_trade_at_lowest_value_moves_nothing() -> None:
    s = position(booty=[RUM])
    s.market = [RUM, COFFEE, SUGAR, POWDER]
    pirate(s, 0, ship_at=find_card(s, data.MARKET, booty=RUM))
    at_order(s, 0, data.TRADE)
    do(s, "trade 1 rum")
    assert s.gold[0] == 3 and s.market == [RUM, COFFEE, SUGAR, POWDER]


def test_r7_3_crew_up_take_refresh_and_four_limit() -> None:
    s = after_setup(2)
    at_order(s, 0, data.CREW_UP)
    do(s, "crew up")
    line = s.crew_line[:]
    do(s, "refresh the crew line for 1 gold")
    assert s.gold[0] == 0 and s.crew_deck[:3] == line and s.crew_bottom_seen == 3
    assert "refresh the crew line for 1 gold" not in texts(s)
    first = s.crew_line[0]
    do_prefix(s, "take ")
    assert s.crew[0] == [first] and len(s.crew_line) == 3
    assert not any(t.startswith("take") for t in texts(s))   # one card per crew up
    # four crew: taking means discarding one to the bottom of the deck
    s.crew[0] += [c for c in s.crew_deck[5:8]]
    for c in s.crew[0][1:]:
        s.crew_deck.remove(c)
    s.crew_bottom_seen = 3
    at_order(s, 0, data.CREW_UP)
    do(s, "crew up")
    opts = [t for t in texts(s) if t.startswith("take")]
    assert len(opts) == 12 and all(", discard " in t for t in opts)
    gone = s.crew[0][0]
    do(s, opts[0])
    assert gone not in s.crew[0] and s.crew_deck[0] == gone and len(s.crew[0]) == 4
    check_conservation(s)


def test_r7_4_mutiny_once_per_game() -> None:
    s = after_setup(2)
    side = s.captain_side[0]
    at_order(s, 0, data.CREW_UP)
    do(s, "crew up")
    do(s, "mutiny (flip the captain card)")
    assert s.captain_side[0] == 1 - side and s.bloody[0]
    assert "mutiny (flip the captain card)" not in texts(s)
    at_order(s, 0, data.CREW_UP)
    do(s, "crew up")
    assert "mutiny (flip the captain card)" not in texts(s)


def test_r7_5_search_takes_the_token_once() -> None:
    s = after_setup(2)
    here = s.ship_at[0]
    g3 = next(i for i, t in enumerate(RULESET.search) if t == (data.S_GOLD, 3))
    if g3 in s.box_tokens:
        s.box_tokens[s.box_tokens.index(g3)] = s.search_tokens[here]
    else:
        s.search_tokens[s.search_tokens.index(g3)] = s.search_tokens[here]
    s.search_tokens[here] = g3
    at_order(s, 0, data.SEARCH)
    do(s, "search")
    assert s.gold[0] == 4 and s.search_tokens[here] == -1 and s.view(1)["sea"][here]["searched"]
    at_order(s, 0, data.SEARCH)
    assert "search" not in texts(s)


def test_r7_5_search_sail_token_kept() -> None:
    s = after_setup(2)
    here = s.ship_at[0]
    sail = [i for i, t in enumerate(RULESET.search) if t == (data.S_SAIL, 2)]
    s.search_tokens = [t if t not in sail else -1 for t in s.search_tokens]
    s.box_tokens = [t for t in s.box_tokens if t not in sail]
    s.search_tokens[here] = sail[0]
    at_order(s, 0, data.SEARCH)
    do(s, "search")
    assert s.sail_tokens[0] == [2]


def test_r7_6_attack_targets_on_your_card_not_navy_not_hidden() -> None:
    s = after_setup(3)
    here = s.merchant_at[0]
    for p, hidden in enumerate((False, True, False)):
        pirate(s, p, ship_at=here, hidden=hidden)
    s.navy_at = here
    at_order(s, 0, data.ATTACK)
    assert texts(s) == ["attack merchant a", "attack p3", "skip attack"]


def test_r7_7_attack_damage_counting_notes_example() -> None:
    # Magnus Bolt side B: dice 1, 2 (no 6); Ursula Bane: 6, 6
    s = position(captain=0, captain_side=1, crew=["Ursula Bane"], assignments=[0, 0, 0, 0])
    assert s.damage(0, [6, 3]) == 2     # two "6" symbols, one 6 rolled
    assert s.damage(0, [6, 6]) == 4     # two 6s rolled
    assert s.damage(0, [6, 6, 1]) == 5
    pirate(s, 0, assignments=[0, 2, 0, 0])    # +1 per deckhand on cannons
    assert s.damage(0, [6, 3]) == 4
    pirate(s, 0, crew=["Buck Cannon"])        # automatic hit
    assert s.damage(0, [4, 4]) == 3


def _attack_merchant(s: PiratesState, dice: list[int], value: int = 2) -> None:
    """P1 sails to merchant a (card ``value``) and attacks it, rolling ``dice``."""
    pirate(s, 0, ship_at=s.merchant_at[0], hidden=False)
    s.merchant_card[0] = value
    at_order(s, 0, data.ATTACK)
    rig_dice(s, dice)
    do(s, "attack merchant a")


def test_r7_8_surefire_sets_a_die() -> None:
    s = position(captain=0, captain_side=0, surefire=2,      # dice 5, 6
                 assignments=[0, 0, 3, 0])
    _attack_merchant(s, [1, 1])
    assert "sure-fire: die 1 to 5" in texts(s) and "sure-fire: die 2 to 6" in texts(s)
    do(s, "sure-fire: die 1 to 6")
    assert s.battle is not None and s.battle.attacker_dice == (6, 1) and s.surefire[0] == 1
    do(s, "sure-fire: die 2 to 5")        # no token left: the shot is fired
    assert battle(s) is None and s.surefire[0] == 1   # 2 vs merchant 2: a tie gives one back
    # it changes a die, it does not add one: 2 dice, 2 hits (+0 cannons)
    assert any("P1 fires 6 5: 2 from dice + 0 cannons" in e.text for e in s.events(None))
    check_conservation(s)


def test_r7_9_reroll_during_attack() -> None:
    s = position(crew=["Betty Blunderbuss"])
    s.rerolls = 1
    pirate(s, 0, ship_at=s.merchant_at[0], hidden=False,
           captain_space=s.wheel[0].index(data.ATTACK))
    set_steps(s, (turn.T_END_TURN, 0, 0), (turn.T_BONUS_SETUP, 0, 0), (turn.T_ORDER, 0, 0))
    do(s, "attack merchant a")
    assert "reroll dice 1+2" in texts(s)
    do(s, "reroll dice 1+2")
    assert not any(t.startswith("reroll") for t in texts(s))


def _fresh_for_merchant(n: int = 2, **fields: Any) -> PiratesState:
    """P1 with Magnus side A (symbols 5, 6), an empty ship and ``fields``."""
    return position(n, captain=0, captain_side=0, booty=[], **fields)


def test_r7_10_merchant_loss_jostles_and_gives_surefire() -> None:
    s = _fresh_for_merchant(assignments=[1, 0, 0, 0], wheel_deckhands=[0, 0, 0, 0, 1, 1])
    _attack_merchant(s, [6, 5], value=4)  # 2 damage vs 4
    assert s.assignments[0] == [0, 0, 0, 1] and s.surefire[0] == 1 and s.merchant_card[0] == 4
    check_conservation(s)


def test_r7_10_merchant_tie_gives_surefire_no_jostle() -> None:
    s = _fresh_for_merchant(assignments=[0, 2, 0, 0])
    _attack_merchant(s, [6, 5], value=4)  # 2 + 2 cannons = 4 vs 4
    assert s.surefire[0] == 1 and s.assignments[0] == [0, 2, 0, 0] and s.merchant_card[0] == 4
    assert s.merchant_at[0] == s.ship_at[0]


def test_r7_10_merchant_sunk() -> None:
    s = _fresh_for_merchant(assignments=[0, 3, 0, 0])   # 2 players: a 4 gives legend
    s.merchant_deck = [8, 8, 6, 6, 6, 4, 4]
    s.merchant_cards_removed = 2
    cube = s.merchant_cube[0]
    port = s.merchant_at[0]
    _attack_merchant(s, [6, 5], value=4)  # 2 + 3 = 5 vs 4: sunk
    assert s.booty[0] == [cube] and s.gold[0] == 1 + 4 + 2      # +2 for reaching Pirate
    assert s.legend_level[0] == 2 and s.merchant_card[0] == 4
    assert s.merchant_cards_removed == 3 and s.merchant_deck == [8, 8, 6, 6, 6, 4]
    other = s.ports[1] if port == s.ports[0] else s.ports[0]
    assert s.merchant_at[0] == other                     # the port farthest from the ship
    assert s.merchant_heading[0] == s.ports.index(port)      # pointing back at the other port
    assert s.merchant_cube[0] >= 0                        # a fresh cube from the bag
    check_conservation(s)


def test_r7_10_merchant_two_gives_no_legend_and_eight_stays() -> None:
    s = _fresh_for_merchant(4, assignments=[0, 3, 0, 0])
    _attack_merchant(s, [6, 5], value=2)
    assert s.legend_level[0] == 1 and s.merchant_card[0] == 2 and s.merchant_cards_removed == 1
    # an 8 gives legend even at 4 players
    s = _fresh_for_merchant(4, assignments=[0, 3, 0, 0], crew=["Ursula Bane"])
    _attack_merchant(s, [6, 6], value=8)  # three 6 symbols x two 6s + 3 = 9 > 8
    while s.to_move() == (0,) and top(s) in (turn.T_KEEP, turn.T_PORT, turn.T_NEWHAND):
        do(s, texts(s)[0])
    assert s.merchant_card[0] == 8 and s.legend_level[0] == 2 and s.merchant_cards_removed == 0
    check_conservation(s)


def test_r7_10_equal_port_distance_attacker_chooses() -> None:
    s = _fresh_for_merchant(assignments=[0, 3, 0, 0])
    s.ports = (0, 15)
    s.merchant_at[0] = 3                         # merchant and ship at d1 (corner 3)
    _attack_merchant(s, [6, 5], value=2)
    assert top(s) == turn.T_PORT and texts(s) == ["merchant to port a1", "merchant to port d4"]
    do(s, "merchant to port d4")
    assert s.merchant_at[0] == 15 and s.merchant_heading[0] == 0


def test_r7_11_pirate_battle() -> None:
    s = position(hidden=False, captain=0, captain_side=0,        # 5, 6
                 assignments=[1, 1, 1, 0])
    pirate(s, 1, ship_at=s.ship_at[0], hidden=False, captain=1, captain_side=0,  # 4, 6
           assignments=[1, 1, 1, 0], surefire=1)
    at_order(s, 0, data.ATTACK)
    rig_dice(s, [5, 6, 1, 2])            # P1: 2 + 1 cannon = 3; P2: 0 + 1 = 1
    gold = s.gold[:]
    booty = [b[:] for b in s.booty]
    do(s, "attack p2")
    # the attacker totals first, then the defender (who may spend a sure-fire)
    assert s.to_move() == (1,) and top(s) == turn.T_FIRE
    assert any("P1 fires 5 6: 2 from dice + 1 cannons + 0 auto-hits = 3" in e.text
               for e in s.events(None))
    do(s, "fire with 1 2")
    # P2 loses: jostled and gains a sure-fire; P1 rises a level; no theft
    assert s.surefire[1] == 2 and s.surefire[0] == 0
    assert s.to_move() == (1,) and top(s) == turn.T_JOSTLE
    do(s, "jostle: cannons deckhand to repair")
    assert s.legend_level == [2, 1]
    assert s.assignments[1] == [1, 0, 1, 1]
    assert s.booty == booty and s.gold[1] == gold[1]
    check_conservation(s)


def test_r7_11_pirate_battle_tie() -> None:
    s = position(hidden=False)
    pirate(s, 1, ship_at=s.ship_at[0], hidden=False, captain=s.captain[0],
           captain_side=s.captain_side[0], assignments=s.assignments[0])
    at_order(s, 0, data.ATTACK)
    rig_dice(s, [3, 4, 3, 4])
    do(s, "attack p2")
    assert s.surefire == [1, 1] and s.legend_level == [1, 1] and s.assignments[1] == [1, 1, 1, 0]


def test_r7_12_hide_out_in_a_free_cove() -> None:
    s = after_setup(3)
    pirate(s, 0, ship_at=s.ship_at[1], hidden=False)    # the cove P2 hides in
    at_order(s, 0, data.HIDE_OUT)
    assert texts(s) == ["skip hide out"] or top(s) != turn.T_ORDER
    s = after_setup(3)
    pirate(s, 0, ship_at=_free_cove(s), hidden=False, assignments=[1, 0, 1, 2],
           deckhand_on_legend_mat=0)
    at_order(s, 0, data.HIDE_OUT)
    do_prefix(s, "hide out")
    assert s.hidden[0] and top(s) == turn.T_DIST
    do(s, "move: repair deckhand to extort")
    do(s, "move: repair deckhand to cannons")
    do(s, "move: rigging deckhand to extort")
    assert top(s) == turn.T_DIST            # any number: one more move is allowed
    do(s, "done moving deckhands")
    assert s.assignments[0] == [0, 1, 3, 0] and s.gold[0] == 1 + 2   # 2 newly on extort
    check_conservation(s)


def test_r7_12_hide_out_takes_deckhands_from_anywhere_on_the_helm() -> None:
    # SOURCED (Dz-Hide): "any number of your Deckhands from ANYWHERE (including Repair) on
    # your Helm Mat": the wheel too; each one placed onto Extort gives 1 Gold.
    s = after_setup(2)
    pirate(s, 0, ship_at=_free_cove(s), hidden=False, assignments=[0, 0, 1, 1],
           wheel_deckhands=[0, 0, 0, 1, 0, 1], deckhand_on_legend_mat=0, gold=0)
    at_order(s, 0, data.HIDE_OUT)
    do_prefix(s, "hide out")
    assert "move: wheel deckhand on 3 to rigging" in texts(s)
    assert "move: wheel deckhand on 5 to extort" in texts(s)
    do(s, "move: wheel deckhand on 5 to extort")
    do(s, "move: repair deckhand to rigging")
    do(s, "done moving deckhands")       # space 3 keeps its deckhand
    assert s.wheel_deckhands[0] == [0, 0, 0, 1, 0, 0] and s.assignments[0] == [1, 0, 2, 0]
    assert s.gold[0] == 1
    check_conservation(s)


def _free_cove(s: PiratesState) -> int:
    """The first Cove card no ship is on."""
    return next(i for i in range(16) if s.card(i).kind == data.COVE and i not in s.ship_at)


def _hide_out_swap(**opts: object) -> PiratesState:
    """P1 hides out and moves one Deckhand off Extort and one from Repair onto it."""
    s = after_setup(2, **opts)
    # the 4th Deckhand is still on the Legend Mat
    pirate(s, 0, ship_at=_free_cove(s), hidden=False, assignments=[1, 0, 1, 1], gold=0)
    at_order(s, 0, data.HIDE_OUT)
    do_prefix(s, "hide out")
    do(s, "move: extort deckhand to cannons")
    do(s, "move: repair deckhand to extort")
    do(s, "done moving deckhands")
    assert s.assignments[0] == [1, 1, 1, 0]
    check_conservation(s)
    return s


def test_r7_12_hide_out_pays_each_deckhand_placed_on_extort() -> None:
    # SOURCED (Dz-Hide): "each one placed on Extort gives 1 Gold at once". One Deckhand
    # leaves Extort and another is placed on it: the placed one pays (the old default,
    # now hideout_extort=moved, paid the net gain on Extort: nothing).
    assert _hide_out_swap().gold[0] == 1
    assert _hide_out_swap(hideout_extort="moved").gold[0] == 0
    # moving a Deckhand off Extort and back on places it there once: 1 Gold for 2 moves
    s = after_setup(2)
    pirate(s, 0, ship_at=_free_cove(s), hidden=False, gold=0)
    at_order(s, 0, data.HIDE_OUT)
    do_prefix(s, "hide out")
    do(s, "move: extort deckhand to rigging")
    do(s, "move: rigging deckhand to extort")
    do(s, "done moving deckhands")
    assert s.gold[0] == 1 and s.assignments[0] == [1, 1, 1, 0]


def test_r7_12_hideout_extort_moved_option_pays_the_net_gain() -> None:
    s = after_setup(2, hideout_extort="moved")
    pirate(s, 0, ship_at=_free_cove(s), hidden=False, gold=0)
    at_order(s, 0, data.HIDE_OUT)
    do_prefix(s, "hide out")
    do(s, "move: extort deckhand to rigging")
    do(s, "move: rigging deckhand to extort")
    do(s, "move: cannons deckhand to extort")
    do(s, "done moving deckhands")
    assert s.gold[0] == 1 and s.assignments[0] == [1, 0, 2, 0]


def test_r7_12_any_other_pirate_ship_on_the_cove_blocks_hide_out() -> None:
    # SOURCED (Dz-Hide): only "a Cove that no other Pirate Ship occupies"; before, only a
    # ship hidden there blocked it (kept as cove_blocked_by=hidden).
    for opts, offered in (({}, False), ({"cove_blocked_by": "hidden"}, True)):
        s = after_setup(2, **opts)
        free = _free_cove(s)
        pirate(s, 0, ship_at=free, hidden=False)
        pirate(s, 1, ship_at=free, hidden=False)     # P2 sails there but is not hidden
        at_order(s, 0, data.HIDE_OUT)
        assert (top(s) == turn.T_ORDER and any(t.startswith("hide out") for t in texts(s))) \
            == offered, opts
    s = after_setup(2, cove_blocked_by="hidden")
    pirate(s, 0, ship_at=s.ship_at[1], hidden=False)  # P2 hidden there blocks under both
    at_order(s, 0, data.HIDE_OUT)
    assert top(s) != turn.T_ORDER or not any(t.startswith("hide out") for t in texts(s))


def test_r7_12_hideout_extort_all_option() -> None:
    s = after_setup(2, hideout_extort="all")
    pirate(s, 0, ship_at=_free_cove(s), hidden=False)
    at_order(s, 0, data.HIDE_OUT)
    do_prefix(s, "hide out")
    do(s, "move: rigging deckhand to extort")
    do(s, "move: cannons deckhand to extort")
    do(s, "done moving deckhands")
    assert s.gold[0] == 1 + 3


def test_r7_13_every_order_is_optional() -> None:
    s = after_setup(2)
    for o in range(6):
        s.captain_space[0] = s.wheel[0].index(o)
        assert str(legal_of(s, (turn.T_ORDER, 0, 0))[-1]) == f"skip {data.ORDERS[o]}"


# ---------------------------------------------------------------- R8 bonus actions
def test_r8_1_bonus_triggers_even_if_order_skipped() -> None:
    # Magnus A: trigger attack (not search); Eliza Lucky: search -> sure-fire
    s = position(captain=0, captain_side=0, crew=["Eliza Lucky"])
    at_order(s, 0, data.SEARCH)
    do(s, "skip search")
    assert texts(s) == ["bonus sure-fire (eliza lucky)", "end bonus actions"]
    do(s, "bonus sure-fire (eliza lucky)")
    assert s.surefire[0] == 1


def test_r8_2_captain_bury_first_then_second_action() -> None:
    # Magnus B: trigger plunder, Bury then Plunder
    s = position(captain=0, captain_side=1, gold=8, legend_level=2)
    pirate(s, 0, ship_at=find_card(s, data.SETTLEMENT, plunder=1))
    at_order(s, 0, data.PLUNDER)
    do(s, "skip plunder")
    assert top(s) == turn.T_CAPBURY
    assert texts(s)[0].startswith("bury treasure at") and texts(s)[1] == "skip bury"
    do(s, texts(s)[0])
    assert s.treasures[0] == [s.ship_at[0]] and s.gold[0] == 2
    assert top(s) == turn.T_CAPT2 and texts(s) == ["bonus plunder 1 (captain)",
                                                "skip captain's plunder"]
    # skipping Bury still allows the second action
    s2 = position(captain=0, captain_side=1, gold=8, legend_level=2)
    pirate(s2, 0, ship_at=find_card(s2, data.SETTLEMENT, plunder=1))
    at_order(s2, 0, data.PLUNDER)
    do(s2, "skip plunder")
    do(s2, "skip bury")
    assert top(s2) == turn.T_CAPT2


def test_r8_3_crew_bonuses_any_order_and_no_chaining() -> None:
    # Francisco B: trigger search (Bury -> Plunder); Eliza Lucky: search -> sure-fire;
    # Lieutenant Flint: search -> plunder; Jolly Rodger: plunder -> trade, which must NOT
    # chain from a bonus
    s = position(captain=1, captain_side=1, booty=[],
                 crew=["Eliza Lucky", "Lieutenant Flint", "Jolly Rodger"])
    pirate(s, 0, ship_at=find_card(s, data.SETTLEMENT, plunder=1))
    s.search_tokens[s.ship_at[0]] = -1
    at_order(s, 0, data.SEARCH)
    assert texts(s) == ["skip search"] or top(s) == turn.T_CAPBURY or top(s) == turn.T_CAPT2 \
        or top(s) == turn.T_CREWBONUS
    while top(s) in (turn.T_CAPBURY, turn.T_CAPT2):
        do(s, texts(s)[-1])
    assert texts(s) == ["bonus sure-fire (eliza lucky)", "bonus plunder 1 (lieutenant flint)",
                        "end bonus actions"]
    do(s, "bonus plunder 1 (lieutenant flint)")
    assert len(s.booty[0]) == 1
    assert texts(s) == ["bonus sure-fire (eliza lucky)", "end bonus actions"]
    do(s, "bonus sure-fire (eliza lucky)")
    assert s.surefire[0] == 1 and s.turn == 1        # turn over, no trade from Jolly Rodger


def test_r8_4_design_bonus_actions() -> None:
    # Sara Silver: trade -> gold +1; Quartermaster Quigley: trade -> reassign
    s = position(crew=["Sara Silver", "Quartermaster Quigley"], captain=0, captain_side=0,
                 assignments=[0, 0, 1, 1], wheel_deckhands=[0, 0, 1, 0, 0, 0])
    at_order(s, 0, data.TRADE)
    do(s, "bonus gold (sara silver)")
    assert s.gold[0] == 2
    do(s, "bonus reassign (quartermaster quigley)")
    assert top(s) == turn.T_REASSIGN
    do(s, "reassign: repair deckhand to rigging")
    do(s, "reassign: wheel deckhand on 2 to cannons")
    assert s.assignments[0] == [1, 1, 1, 0] and s.wheel_deckhands[0] == [0] * 6
    check_conservation(s)


def test_r8_4_reassign_moves_chosen_deckhands_from_repair_or_wheel() -> None:
    # DESIGN (notes §6): Reassign moves any number of Deckhands from Repair or the Wheel to
    # Rigging, Cannons or Extort; the player picks which ones (so which wheel spaces stay
    # free to skip). Deckhands already on Rigging/Cannons/Extort stay put.
    s = position(crew=["Quartermaster Quigley"], captain=0, captain_side=0,  # -> reassign
                 booty=[], assignments=[0, 0, 1, 1], wheel_deckhands=[0, 0, 1, 0, 1, 0],
                 deckhand_on_legend_mat=0)
    at_order(s, 0, data.TRADE)
    do(s, "bonus reassign (quartermaster quigley)")
    assert texts(s) == [f"reassign: {w} to {j}"
                        for w in ("repair deckhand", "wheel deckhand on 2",
                                  "wheel deckhand on 4")
                        for j in ("rigging", "cannons", "extort")] + ["done reassigning"]
    do(s, "reassign: wheel deckhand on 4 to rigging")   # space 2 keeps its deckhand
    assert s.wheel_deckhands[0] == [0, 0, 1, 0, 0, 0] and s.assignments[0] == [1, 0, 1, 1]
    do(s, "done reassigning")
    assert s.assignments[0] == [1, 0, 1, 1] and s.turn_player() == 1
    check_conservation(s)
    # option reassign=all: the ones on Rigging/Cannons/Extort may move too
    s = position(options={"reassign": "all"}, crew=["Quartermaster Quigley"], captain=0,
                 captain_side=0, booty=[])
    at_order(s, 0, data.TRADE)
    do(s, "bonus reassign (quartermaster quigley)")
    do(s, "reassign: extort deckhand to rigging")
    assert s.assignments[0] == [2, 1, 0, 0]
    for _ in range(3):
        do(s, texts(s)[0])
    assert s.turn_player() == 1          # at most 4 moves (one per Deckhand): then done
    check_conservation(s)


# ---------------------------------------------------------------- R9 legend
def test_r9_1_legend_levels_bonuses_and_top() -> None:
    s = position(gold=0)
    gained = []
    for _ in range(8):
        s._gain_legend(0)
        while s.steps and s.steps[-1].kind == turn.T_NEWHAND:
            s.pop()
            run_step(s, (turn.T_NEWHAND, 0, 0), legal_of(s, (turn.T_NEWHAND, 0, 0))[1])
        gained.append((s.legend_level[0], s.gold[0], s.surefire[0], s.assignments[0][1]))
    assert gained[0] == (2, 2, 0, 1)
    assert gained[1] == (3, 2, 0, 2)        # Corsair: the 4th deckhand
    assert gained[2] == (4, 2, 1, 2)
    assert gained[3] == (5, 5, 1, 2)
    assert gained[4] == (6, 5, 2, 2)
    assert gained[5] == (7, 9, 2, 2)
    assert gained[6] == gained[7] == gained[5]   # nothing more at the top
    assert s.deckhand_on_legend_mat[0] == 0 and RULESET.legend[6].sail == 4
    assert s.dice_count(0) == 3


# ---------------------------------------------------------------- R10 bury
def test_r10_1_bury_cost_gate_and_location() -> None:
    s = after_setup(2)
    pirate(s, 0, ship_at=find_card(s, data.SETTLEMENT, plunder=1), gold=5, legend_level=2)
    assert not s.can_bury(0)                 # 6 gold needed
    pirate(s, 0, gold=6, legend_level=1)
    assert not s.can_bury(0)                 # Pirate (level 2) needed
    pirate(s, 0, legend_level=2)
    assert s.can_bury(0)
    s.treasures[0] = [s.ship_at[0]]
    pirate(s, 0, gold=13, legend_level=7)
    assert not s.can_bury(0)                 # not twice on one card
    pirate(s, 0, ship_at=find_card(s, data.STORM))
    assert not s.can_bury(0)                 # no island
    pirate(s, 0, ship_at=find_card(s, data.COVE))
    assert s.can_bury(0)
    assert RULESET.treasure_cost == (6, 9, 12) and RULESET.treasure_level == (2, 4, 6)


def test_r10_1_the_order_pays_for_the_bury_that_follows() -> None:
    # Bury comes after the Order, so Gold and Legend the Order earns this turn count.
    # Francisco A: trigger trade (Bury -> Attack)
    s = position(captain=1, captain_side=0, booty=[SUGAR] * 3, gold=0, legend_level=2)
    s.market = [RUM, COFFEE, SUGAR, POWDER]          # sugarcane at value 4
    pirate(s, 0, ship_at=find_card(s, data.MARKET, booty=SUGAR))
    at_order(s, 0, data.TRADE)
    assert not s.can_bury(0)
    do(s, "trade 3 sugarcane")                       # 12 gold
    assert top(s) == turn.T_CAPBURY and texts(s)[0].startswith("bury treasure at")
    do_prefix(s, "bury treasure")
    assert s.treasures[0] == [s.ship_at[0]] and s.gold[0] == 6
    # a sunk Merchant's Gold and Legend (a 4 at 2 players) pay for it too
    s = _fresh_for_merchant(assignments=[0, 3, 0, 0], gold=0)   # Magnus A: trigger attack
    s.merchant_deck = [8, 8, 6, 6, 6, 4, 4]
    s.merchant_cards_removed = 2
    corner = s.merchant_at[0]
    if s.card(corner).kind == data.STORM:               # make the merchant's card an island
        other = find_card(s, data.COVE)
        s.maps[corner], s.maps[other] = s.maps[other], s.maps[corner]
    _attack_merchant(s, [6, 5], value=4)             # 5 damage vs 4: +4 gold, Pirate +2 gold
    assert s.legend_level[0] == 2 and s.gold[0] == 6
    assert top(s) == turn.T_CAPBURY and texts(s)[0].startswith("bury treasure at")
    do_prefix(s, "bury treasure")
    assert s.treasures[0] == [corner] and s.gold[0] == 0
    check_conservation(s)


# ---------------------------------------------------------------- R11 end
def test_r11_1_third_treasure_ends_after_equal_turns() -> None:
    # P2: Magnus B, trigger plunder
    s = position(3, seat=1, captain=0, captain_side=1, gold=13, legend_level=6)
    pirate(s, 1, ship_at=find_card(s, data.SETTLEMENT, plunder=1))
    s.treasures[1] = [i for i in range(16) if i != s.ship_at[1]][:2]
    at_order(s, 1, data.PLUNDER)
    do(s, "skip plunder")
    do_prefix(s, "bury treasure")
    assert s.end_triggered and not s.is_over
    while top(s) != turn.T_WHEEL:
        do(s, texts(s)[-1])
    assert s.turn_player() == 2              # P3 still plays
    _finish_turn(s)
    assert over(s) and s.winners() == (1,)  # P1 gets no extra turn


def test_r11_2_tie_breaks() -> None:
    s = after_setup(3)
    s.treasures = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    s.over = True
    s.legend_level = [5, 5, 5]
    s.gold = [3, 4, 4]
    s.booty = [[0], [0], [0, 1]]
    assert s.winners() == (2,)
    s.booty = [[0], [0, 1], [0, 1]]
    assert s.winners() == (1, 2)              # shared victory
    s.legend_level = [6, 5, 5]
    assert s.winners() == (0,)


def test_r11_3_safety_round_cap() -> None:
    s = new(2, seed=3, max_rounds=5)
    play_random(s, 3)
    assert s.is_over and s.turn == 10


# ---------------------------------------------------------------- R12 solo
def test_r12_1_solo_pirate_wheel_rules() -> None:
    sp = 1
    s = position(1, seat=sp, captain_space=1, assignments=[1, 0, 1, 2],
                 wheel_deckhands=[0, 0, 0, 0, 0, 0])
    assert s.pirate_count == 2 and s.solo_pirate == sp
    # pay with the rightmost deckhand (repair first); released go to the leftmost free
    pay = (turn.T_PAY, sp, 2)
    from cove.games.tiny_epic_pirates.solo import choose
    assert choose(s, step(pay), legal_of(s, pay)) == PaySkip(data.REP, "skip with a deckhand "
                                                            "from repair")
    pirate(s, sp, assignments=[1, 0, 1, 0])
    release = (turn.T_RELEASE, sp, 3)
    assert choose(s, step(release), legal_of(s, release)) == AssignDeckhand(
        data.CAN, "released deckhand to cannons")
    pirate(s, sp, assignments=[1, 1, 1, 0])
    assert choose(s, step(release), legal_of(s, release)) == AssignDeckhand(
        data.REP, "released deckhand to repair")


def test_r12_2_solo_attack_dice_and_surefire_as_gold() -> None:
    s = after_setup(1)
    assert s.dice_count(1) == RULESET.solo_dice[0]
    s.treasures[1] = [1, 2]
    assert s.dice_count(1) == RULESET.solo_dice[2]
    g = s.gold[1]
    s.gain_surefire(1)
    assert s.surefire[1] == 0 and s.gold[1] == g + 1


def test_r12_3_solo_game_plays_the_human_only() -> None:
    s = new(1, seed=2)
    seen: set[int] = set()
    while not s.is_over:
        seen.update(s.to_move())
        s.apply(0, s.legal_actions(0)[-1])
    assert seen == {0} and s.scores() == [float(len(s.treasures[0]))]
    assert any("the solo pirate rolls" in e.text for e in s.events(None))
    w = s.winners()
    assert w in ((), (0,))


# ---------------------------------------------------------------- R13 hidden information
def test_r13_1_views_hide_tokens_decks_and_bag() -> None:
    s = new(3, seed=9)
    play_random(s, 9, limit=300)
    v = s.view(1)
    text = repr(v)
    assert "tokens" not in v and "box" not in text
    assert isinstance(v["crew_deck"], int) and isinstance(v["bag"], int)
    assert isinstance(v["merchant_deck"], int)
    assert all(set(c) == {"cell", "name", "kind", "plunder", "market", "searched", "port",
                          "navy"} for c in v["sea"])


# ---------------------------------------------------------------- audit additions
def test_r8_3_a_discarded_crew_card_gives_no_further_bonus() -> None:
    # Raina Rumor's Crew Up bonus swaps Sara Silver out; Sara's pending Gold bonus goes with
    # her (a card no longer in the crew has no bonus to give).
    s = position(captain=0, captain_side=0, booty=[],   # Magnus A: trigger attack (not trade)
                 crew=["Raina Rumor", "Sara Silver", "Ursula Bane", "Buck Cannon"])
    at_order(s, 0, data.TRADE)
    assert texts(s) == ["bonus crew up (raina rumor)", "bonus gold (sara silver)",
                        "end bonus actions"]
    do(s, "bonus crew up (raina rumor)")
    do(s, next(t for t in texts(s) if t.startswith("take ") and t.endswith("sara silver")))
    do(s, "done crewing")
    gold = s.gold[0]
    # nothing is left to offer: the turn has moved on without Sara's Gold
    assert s.turn_player() == 1 and s.gold[0] == gold and s.bonus_left == []
    check_conservation(s)


def test_r12_1_solo_pirate_hide_out_keeps_one_deckhand_per_assignment() -> None:
    # SOURCED (Dz-Solo): each Assignment holds 1 Deckhand, except Repair.
    s = after_setup(1)
    sp = 1
    pirate(s, sp, ship_at=_free_cove(s), hidden=False, assignments=[1, 0, 1, 2],
           deckhand_on_legend_mat=0)
    at_order(s, sp, data.HIDE_OUT)
    assert s.hidden[sp]
    assert s.assignments[sp] == [1, 1, 1, 1]
    check_conservation(s)


def test_r6_1_extort_pays_after_the_move_and_its_releases() -> None:
    # SEED: step 1 is "choose your Captain's Order and assign Deckhands"; Extort "grants 1
    # Gold if the Captain crosses the Ship Line". Extort pays for the Deckhands on it once
    # the move is done: one released onto Extort from space 1 (after the line) pays, one
    # paid from Extort for space 1 does not (before, both were counted at the line).
    s = position(captain_space=4, assignments=[0, 0, 1, 0],
                 wheel_deckhands=[0, 1, 0, 1, 0, 0], gold=0)
    turn_of(s, 0)
    do_prefix(s, "captain to 1")           # pays 5 from Extort, crosses, lands on 1
    do(s, "released deckhand to extort")
    assert s.crossed_ship_line and s.gold[0] == 1 and s.assignments[0] == [0, 0, 1, 0]
    s = position(captain_space=4, assignments=[0, 0, 2, 0],
                 wheel_deckhands=[0, 0, 0, 1, 0, 0], gold=0)
    turn_of(s, 0)
    do_prefix(s, "captain to 2")           # skips 5 (paid), 0 (free), 1 (paid)
    assert s.crossed_ship_line and s.gold[0] == 0 and s.assignments[0] == [0, 0, 0, 0]
    check_conservation(s)


def test_r6_1_extort_at_line_option_counts_as_the_captain_crosses() -> None:
    # Option extort_timing=at_line (the INFERRED reading before): the line lies between
    # space 5 and space 0. A Deckhand paid from Extort for a space after the line (here
    # space 1) was still on Extort when the Captain crossed: it pays.
    at_line = {"extort_timing": "at_line"}
    s = position(options=at_line, captain_space=4, assignments=[0, 0, 2, 0],
                 wheel_deckhands=[0, 0, 0, 1, 0, 0], gold=0)
    turn_of(s, 0)
    do_prefix(s, "captain to 2")           # skips 5 (paid), 0 (free), 1 (paid)
    assert s.wheel_deckhands[0] == [0, 1, 0, 1, 0, 1] and s.assignments[0] == [0, 0, 0, 0]
    assert s.crossed_ship_line and s.gold[0] == 1    # one was on Extort at the line
    # A Deckhand released from a space after the line (landing on 1) comes too late...
    s = position(options=at_line, captain_space=4, assignments=[0, 0, 1, 0],
                 wheel_deckhands=[0, 1, 0, 1, 0, 0], gold=0)
    turn_of(s, 0)
    do_prefix(s, "captain to 1")           # pays 5 from Extort, crosses, lands on 1
    do(s, "released deckhand to extort")
    assert s.crossed_ship_line and s.gold[0] == 0 and s.assignments[0] == [0, 0, 1, 0]
    # ...while one released before it (space 5) is placed in time.
    s = position(options=at_line, captain_space=4, assignments=[1, 0, 0, 0],
                 wheel_deckhands=[0, 0, 0, 1, 0, 1], gold=0)
    turn_of(s, 0)
    do_prefix(s, "captain to 0")
    do(s, "released deckhand to extort")
    assert s.crossed_ship_line and s.gold[0] == 1
    check_conservation(s)


def test_r7_10_merchant_loss_surefire_option() -> None:
    # DESIGN with a plausible other reading (Dz-Merchant is silent): option
    # merchant_loss_surefire=false gives no Sure-fire for losing to a Merchant.
    s = position(options={"merchant_loss_surefire": False}, captain=0, captain_side=0,
                 booty=[], assignments=[1, 0, 0, 0], wheel_deckhands=[0, 0, 0, 0, 1, 1])
    _attack_merchant(s, [6, 5], value=4)  # 2 damage vs 4
    assert s.assignments[0] == [0, 0, 0, 1] and s.surefire[0] == 0
    check_conservation(s)


def test_r13_2_an_action_from_an_earlier_state_is_not_legal() -> None:
    # An action's equality covers its text: "take <name>" for crew-line slot 0 is the same
    # numbers before and after a refresh but a different card. The stale action must be
    # refused (before, it was accepted and its stale text went into the record).
    s = position(gold=5)
    at_order(s, 0, data.CREW_UP)
    do(s, "crew up")
    stale = next(a for a in acts(s, 0) if str(a).startswith("take "))
    do(s, "refresh the crew line for 1 gold")
    fresh = next(a for a in acts(s, 0) if str(a).startswith("take "))
    assert fresh.key() == stale.key() == ("take", 0, -1, 0)
    assert str(fresh) != str(stale) and fresh != stale and stale not in s.legal_actions(0)
    with pytest.raises(cove.IllegalAction):
        s.apply(0, stale)
    s.apply(0, fresh)
    assert s.record()["actions"][-1] == [0, str(fresh)]
    assert len(s.crew[0]) == 1
    assert str(fresh) == f"take {RULESET.crew[s.crew[0][0]].name.lower()}"
