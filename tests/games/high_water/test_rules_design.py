"""The DESIGN completion (rules R19 onwards of RULES.md): components, dice, patterns, crew,
quests, sabotage, step order, the safety ends and the winner."""

from __future__ import annotations

import dataclasses

import pytest

import cove
from cove.core.components import Deck
from cove.core.rng import Rng
from cove.games.high_water import GAME
from cove.games.high_water.data import DATA, Icon
from cove.games.high_water.patterns import affords, can_pay, pattern
from cove.games.high_water.rules import NO_FLAGS, OVER, SEG, SHORT, TRICK, has_flag
from cove.games.high_water.state import HighWaterState
from tests.games.high_water.helpers import (
    CARD,
    Seat,
    dice_total,
    die,
    give,
    goto,
    new,
    pending,
    quest,
    random_play,
    restart_segment,
    segment_position,
    texts,
    to_segment,
)


def test_r19_two_to_five_players() -> None:
    for n in (2, 3, 4, 5):
        assert new(n).n == n
    for n in (1, 6):
        with pytest.raises(cove.PlayerCountError, match="2 to 5 players"):
            GAME.new(n)


def test_r20_components_and_setup() -> None:
    assert DATA.total_dice == 40 and len(DATA.colours) == 5
    assert all(c.count == 8 for c in DATA.colours)
    assert len(DATA.crew_deck) == 24 and len(set(DATA.crew_deck)) == 12
    assert len(DATA.quest_deck) == 20
    assert sum(DATA.cards[c].influence for c in DATA.quest_deck) == 102
    s = new(4, seed=3)
    for p in range(4):
        assert s.hands[p] == [1, 2, 3, 4, 5, 6, 7] and s.played[p] == []
        assert (s.gold[p], s.rum[p], s.dice[p]) == (2, 1, [])
        assert s.quests[p] == [quest("Letter of Marque")]
    assert len(s.crew_row) == 4 and len(s.quest_row) == 3
    assert len(s.crew_deck) == 20 and len(s.quest_deck) == 17
    assert s.round == 1


def test_r21_yellow_and_brown_gain_by_face() -> None:
    s, p = segment_position(3, dice="y3 y4 br1 br6", gold=0, rum=0, quests=[])
    for lab in ("y3", "y4", "br1", "br6"):
        s.apply(p, f"use {lab}")
    assert (s.gold[p], s.rum[p]) == (1 + 2, 1 + 2)


def test_r21_1_red_sabotages_an_opponent_only_if_a_target_exists() -> None:
    rival = Seat(quests=[("Letter of Marque", 0, 2), ("Host a Feast", 0, 0)])
    s, p = segment_position(3, dice="r2 y1", gold=0, rum=0, quests=[], others=rival)
    o = 1 - p
    s.apply(p, "use r2")  # one target with room (the max is 2 markers)
    assert [q.markers for q in s.quests[o]] == [2, 1]
    assert has_flag(s.segment_flags, DATA.flags.index("used_red"))
    give(s, o, quests=[("Letter of Marque", 0, 2)])
    give(s, p, "r2 y1", gold=0, rum=0, quests=[])
    goto(s, 3)
    assert "use r2" not in texts(s) and "use y1" in texts(s)


def test_r21_2_blue_re_rolls_one_or_two_other_dice() -> None:
    s, p = segment_position(3, dice="bl1 y1 y2 br1", gold=0, rum=0, quests=[])
    s.apply(p, "use bl1")
    assert pending(s) == "reroll"
    assert texts(s) == ["reroll y1", "reroll y2", "reroll br1"]  # at least one
    s.apply(p, "reroll y1")
    assert "roll" in texts(s)
    s.apply(p, "reroll br1")  # the second die: rolls at once
    assert pending(s) is None
    assert [d // 10 for d in s.dice[p]] == [0, 0, 1]
    assert s.dice[p][1] == die("y2")  # not chosen, not re-rolled
    assert dice_total(s) == 40


def test_r21_3_blue_needs_another_die() -> None:
    s, p = segment_position(3, dice="bl1", gold=0, rum=0, quests=[("Letter of Marque", 0, 0)])
    assert s.segment_player() != p or "use bl1" not in texts(s)


def test_r21_4_green_removes_one_of_your_markers() -> None:
    s, p = segment_position(3, dice="g1 y1", gold=0, rum=0, quests=[("Letter of Marque", 0, 2)])
    s.apply(p, "use g1")
    assert s.quests[p][0].markers == 1


def test_r22_spent_dice_go_back_to_the_bag() -> None:
    s, p = segment_position(3, dice="y1 y2", gold=0, rum=0, quests=[])
    bag = sum(s.bag)
    s.apply(p, "use y1")
    assert sum(s.bag) == bag + 1 and dice_total(s) == 40


def test_r23_dice_carry_over_without_a_cap() -> None:
    """F9: unused dice carry over; by default nothing is returned after Step 6."""
    s, p = segment_position(None, dice="y1 y1 y2 br3 br3 bl4 g5", gold=0, rum=0, quests=[])
    bag = sum(s.bag)
    goto(s, 6)
    assert pending(s) is None and s.segment_player() != p  # the segment ended without a return
    assert [DATA.label[d] for d in s.dice[p]] == ["y1", "y1", "y2", "br3", "br3", "bl4", "g5"]
    assert sum(s.bag) == bag and dice_total(s) == 40
    assert not any("carry-over cap" in e.text for e in s.events(None))


def test_r23_1_carry_cap_option() -> None:
    s, p = segment_position(None, dice="y1 y1 y2 br3 br3 bl4 g5", gold=0, rum=0, quests=[],
                            carry_cap=5)
    bag = sum(s.bag)
    goto(s, 6)
    assert pending(s) == "carry_cap"
    assert texts(s) == ["return y1", "return y2", "return br3", "return bl4", "return g5"]
    s.apply(p, "return g5")
    s.apply(p, "return y1")
    assert [DATA.label[d] for d in s.dice[p]] == ["y1", "y2", "br3", "br3", "bl4"]
    assert sum(s.bag) == bag + 2 and dice_total(s) == 40
    assert s.segment_player() != p
    # any cap is safe now: a short bag is topped up between rounds (R23.2)
    assert GAME.new(5, carry_cap=6).n == 5


def _end_round_with_holds(s: HighWaterState, holds: dict[int, str]) -> None:
    """Give the holds, then end every segment left in round 1 at once."""
    for q in holds:
        give(s, q, "")
    for q, labels in holds.items():
        give(s, q, labels, gold=0, rum=0, quests=[], crew=())
    while s.phase == SEG and s.round == 1:
        p = s.segment_player()
        s.apply(p, "stop") if "stop" in texts(s) else s.apply(p, texts(s)[0])


def test_r23_2_a_short_bag_takes_back_only_the_missing_dice() -> None:
    """R23.2: when the bag holds fewer than the 3 x P dice Phase 1 draws, the biggest holds
    return dice of their owners' choice, one at a time, only until the bag has enough."""
    s = to_segment(3, seed=5)
    holds = {0: "y1 y2 y3 y4 y5 y6 y1 y2 br1 br2 br3 br4",
             1: "r1 r2 r3 r4 r5 r6 r1 r2 bl1 bl2 bl3 bl4",
             2: "g1 g2 g3 g4 g5 g6 g1 g2"}
    _end_round_with_holds(s, holds)
    assert s.phase == SHORT and sum(s.bag) == 40 - 32 == 8
    order = s.pick_order
    first = min((0, 1), key=order.index)  # 12 dice each: the earlier picker returns first
    assert s.to_move() == (first,)
    assert s.view(None)["bag_short"] == {"player": first, "need": 9}
    s.apply(first, texts(s)[0])
    # the 9 dice are drawn at once into round 2's crates
    assert sum(s.bag) == 0 and s.phase == TRICK and s.round == 2
    assert all(c is not None and len(c) == 3 for c in s.crates)
    assert len(s.dice[first]) == 11 and len(s.dice[1 - first]) == 12 and len(s.dice[2]) == 8
    assert any("the bag is short" in e.text for e in s.events(None))
    assert dice_total(s) == 40


def test_r23_3_a_full_enough_bag_takes_nothing_back() -> None:
    s = to_segment(3, seed=5)
    _end_round_with_holds(s, {0: "y1 y2 y3 y4 y5 y6 y1 y2 br1 br2 br3 br4",
                              1: "r1 r2 r3 r4 r5 r6 r1 r2 bl1 bl2 bl3",
                              2: "g1 g2 g3 g4 g5 g6 g1 g2"})
    assert sum(s.bag) == 0 and s.phase == TRICK and s.round == 2
    assert [len(d) for d in s.dice] == [12, 11, 8]
    assert not any("the bag is short" in e.text for e in s.events(None))


def icon(text: str) -> Icon:
    for c in DATA.cards:
        for i in c.cost:
            if i.text == text:
                return i
    raise KeyError(text)


def test_r24_pattern_matching_with_pip_conditions() -> None:
    dice = [die(x) for x in ("y5", "g4", "r3")]
    assert not can_pay([icon("Y =6")], dice)
    assert can_pay([icon("Y =6")], [die("y6")])
    assert can_pay([icon("G 4+")], dice) and not can_pay([icon("G 4+")], [die("g3")])
    assert can_pay([icon("R 4+")], [die("r4")]) and not can_pay([icon("R 4+")], dice)
    assert can_pay([icon("Y 5+"), icon("G"), icon("Any")], dice)
    assert not can_pay([icon("Y 5+"), icon("Y")], [die("y6")])  # one die per icon
    assert can_pay([icon("Any"), icon("Any")], [die("bl1"), die("br1")])
    gov = [die(x) for x in ("y6", "g4", "br1")]
    assert can_pay(DATA.cards[CARD["Governor of the Isles"]].cost, gov)
    assert not can_pay(DATA.cards[CARD["Governor of the Isles"]].cost, gov[:2])


def test_r24_quick_pattern_check_agrees_with_the_full_matching() -> None:
    """``affords`` (the purchase step's quick check) says what ``can_pay`` says, for every
    card of the data, on holds of 0-6 dice drawn at random plus hand-made edge cases."""
    rng = Rng(24)
    codes = list(DATA.codes)
    holds = [[rng.choice(codes) for _ in range(rng.below(7))] for _ in range(1500)]
    holds += [[die("y6")], [die("y6"), die("y6")], [die("r5"), die("br5")],
              [die("y6"), die("g4")], [die("bl5"), die("bl1")], []]
    answers = set()
    for card in DATA.cards:
        pat = pattern(card.match_order, DATA.codes)
        for hold in holds:
            want = can_pay(card.cost, hold)
            assert affords(pat, hold) == want, (card.name, hold)
            answers.add(want)
    assert answers == {True, False}
    # two overlapping icons (a blue die that is also "bl 4+") need two different dice
    two = pattern((icon("Bl 4+"), icon("Bl")), DATA.codes)
    assert not two.disjoint
    assert not affords(two, [die("bl5")]) and affords(two, [die("bl5"), die("bl1")])
    assert not affords(two, [die("bl1"), die("bl2")])


def test_r24_1_paying_die_by_die_keeps_the_rest_payable() -> None:
    s, p = segment_position(None, dice="y6 g1 bl2", gold=0, rum=0, quests=[])
    card = dataclasses.replace(DATA.cards[CARD["Recruit a Crew"]],
                               cost=(icon("Any"), icon("Y =6")))
    # 'Any' must not take the y6 the second icon needs
    assert s.payable(p, card, ()) == [die("g1"), die("bl2")]
    assert s.payable(p, card, (1,)) == [die("y6")]


def test_r24_2_an_illegal_payment_gets_a_clear_reason() -> None:
    s, p = segment_position(4, dice="r3 r4 r6", gold=0, rum=0, quests=[],
                            quest_row=["Storm the Fort"])  # R 4+, R
    s.apply(p, "buy storm the fort")
    assert texts(s) == ["pay r4", "pay r6"]
    before = s.record(), s.view(None)
    with pytest.raises(cove.IllegalAction, match="r3 does not match icon R 4\\+ of Storm"):
        s.apply(p, "pay r3")
    with pytest.raises(cove.IllegalAction, match="no unspent die 'y2'"):
        s.apply(p, "pay y2")
    assert (s.record(), s.view(None)) == before
    s.apply(p, "pay r6")
    assert texts(s) == ["pay r3", "pay r4"]
    s.apply(p, "pay r3")
    assert s.quests[p] == [quest("Storm the Fort")]
    assert [DATA.label[d] for d in s.dice[p]] == ["r4"]


def test_r24_3_pay_reason_when_the_rest_would_be_unpayable() -> None:
    s, p = segment_position(4, dice="bl5 g2 y1", gold=0, rum=0, quests=[],
                            quest_row=["Chart the Strait"])  # Bl 4+, G
    with pytest.raises(cove.IllegalAction, match="no card named 'nothing'"):
        s.apply(p, "buy nothing")
    s.apply(p, "buy chart the strait")  # forced all the way
    assert s.quests[p][0].card == CARD["Chart the Strait"]


def test_r25_cook_and_fence_trade() -> None:
    s, p = segment_position(2, dice="y1", gold=1, rum=1, crew=["Cook", "Fence"], quests=[])
    s.apply(p, "activate cook")
    assert (s.gold[p], s.rum[p]) == (0, 2)
    s.apply(p, "activate fence")
    assert (s.gold[p], s.rum[p]) == (2, 1)


def test_r25_1_gunner_sabotages() -> None:
    s, p = segment_position(2, dice="y1", gold=1, rum=1, crew=["Gunner"], quests=[],
                            others=Seat(quests=[("Letter of Marque", 0, 0)]))
    o = 1 - p
    s.apply(p, "activate gunner")
    assert s.quests[o][0].markers == 1 and (s.gold[p], s.rum[p]) == (0, 0)


def test_r25_2_navigator_re_rolls_any_number() -> None:
    s, p = segment_position(2, dice="y1 y1 br1", gold=1, rum=0, crew=["Navigator"], quests=[])
    s.apply(p, "activate navigator")
    assert texts(s) == ["reroll y1", "reroll br1"]
    s.apply(p, "reroll y1")
    assert texts(s) == ["reroll y1", "reroll br1", "roll"]
    s.apply(p, "reroll y1")
    s.apply(p, "reroll br1")  # every die chosen: rolls at once
    assert s.pending is None and len(s.dice[p]) == 3 and s.gold[p] == 0


def test_r25_3_cartographer_cycles_a_market_card() -> None:
    s, p = segment_position(2, dice="y1", gold=1, rum=0, crew=["Cartographer"], quests=[])
    old = s.quest_row[1]
    top = s.quest_deck.cards[-1]
    s.apply(p, "activate cartographer")
    s.apply(p, f"cycle {DATA.cards[old].key}")
    assert s.quest_row[1] == top and s.quest_deck.cards[0] == old
    assert s.view(None)["market"]["quest_bottom"] == [DATA.cards[old].name]
    # the known bottom card survives a redeterminization
    from cove.core.rng import Rng

    for k in range(5):
        d = s.redeterminize(1 - p, Rng(k))
        assert d.quest_deck.cards[0] == old  # type: ignore[attr-defined]


def test_r25_4_quartermaster_sets_a_face() -> None:
    s, p = segment_position(2, dice="y1 g2", gold=2, rum=0, crew=["Quartermaster"], quests=[])
    s.apply(p, "activate quartermaster")
    assert texts(s) == ["set y1", "set g2"]
    s.apply(p, "set y1")
    assert texts(s) == ["to 2", "to 3", "to 4", "to 5", "to 6"]
    s.apply(p, "to 6")
    assert [DATA.label[d] for d in s.dice[p]] == ["y6", "g2"] and s.gold[p] == 0


def test_r25_5_carpenter_removes_a_marker_with_a_choice() -> None:
    s, p = segment_position(1, dice="y1", gold=0, rum=0, crew=["Ship's Carpenter"],
                            quests=[("Letter of Marque", 0, 1), ("Host a Feast", 0, 2)])
    assert texts(s) == ["remove marker from letter of marque", "remove marker from host a feast"]
    s.apply(p, "remove marker from host a feast")
    assert [q.markers for q in s.quests[p]] == [1, 1]


def test_r26_at_most_three_active_quests() -> None:
    three = [("Letter of Marque", 0, 0), ("Host a Feast", 0, 0), ("Treasure Map", 0, 0)]
    s, p = segment_position(4, dice="y1 y2", gold=0, rum=0, quests=three,
                            quest_row=["Recruit a Crew"])
    assert not any(t.startswith("buy recruit") for t in texts(s) if s.segment_player() == p)
    s, p = segment_position(4, dice="y1 y2", gold=0, rum=0, quests=three,
                            quest_row=["Recruit a Crew"], max_quests=4)
    assert "buy recruit a crew" in texts(s)


def test_r26_1_did_flags_are_not_consumed_and_reset_each_turn() -> None:
    s, p = segment_position(3, dice="r1 y1", gold=0, rum=0,
                            quests=[("Raid a Merchantman", 0, 0), ("Sink the Rival", 0, 0)])
    s.apply(p, "use r1")
    goto(s, 5)
    assert texts(s) == ["advance raid a merchantman", "advance sink the rival", "stop"]
    s.apply(p, "advance raid a merchantman")
    s.apply(p, "advance sink the rival")  # the same red use serves both
    assert [q.done for q in s.quests[p]] == [1, 1]
    restart_segment(s)  # a new turn of the same player
    assert s.segment_flags == NO_FLAGS  # the flag is gone


def test_r26_2_die_tasks_spend_a_matching_die() -> None:
    s, p = segment_position(5, dice="g2 g5 y1", gold=0, rum=0,
                            quests=[("Refit the Flagship", 0, 0)])
    assert texts(s) == ["advance refit the flagship with g2",
                        "advance refit the flagship with g5", "stop"]
    s.apply(p, "advance refit the flagship with g5")
    assert [DATA.label[d] for d in s.dice[p]] == ["g2", "y1"] and dice_total(s) == 40


def test_r27_sabotage_blocks_step_5_until_a_green_die() -> None:
    s, p = segment_position(5, dice="g3 y1", gold=1, rum=1, quests=[("Letter of Marque", 0, 1)])
    assert s.segment_player() != p or not any(t.startswith("advance") for t in texts(s))
    s, p = segment_position(3, dice="g3 y1", gold=1, rum=1, quests=[("Letter of Marque", 0, 1)],
                            crew_row=[None] * 4, quest_row=[None] * 3)  # nothing to buy
    with pytest.raises(cove.IllegalAction, match="sabotage marker"):
        s.apply(p, "advance letter of marque")
    s.apply(p, "use g3")
    s.apply(p, "next step")
    assert s.step == 5 and "advance letter of marque" in texts(s)


def test_r27_1_at_most_two_markers_per_quest() -> None:
    s, p = segment_position(None, 3, quests=[("Letter of Marque", 0, 2)],
                            others=Seat(quests=[("Letter of Marque", 0, 2)]))
    assert s.targets(p, False) == []


def test_r28_steps_run_in_order() -> None:
    s, p = segment_position(2, dice="y1 y2", gold=1, rum=1, crew=["Cook"],
                            quests=[("Letter of Marque", 0, 0)])
    assert texts(s) == ["activate cook", "next step", "stop"]
    s.apply(p, "next step")
    assert s.step == 3
    s.apply(p, "next step")  # step 4 has nothing to buy with y1 y2? then straight to 5
    assert s.step in (4, 5)
    goto(s, 5)
    with pytest.raises(cove.IllegalAction, match="dice actions are Step 3"):
        s.apply(p, "use y1")
    with pytest.raises(cove.IllegalAction, match="active abilities are Step 2"):
        s.apply(p, "activate cook")


def test_r28_1_empty_steps_are_passed() -> None:
    s, _ = segment_position(2, gold=1, rum=0, quests=[("Letter of Marque", 0, 0)])
    assert s.step == 5 and texts(s) == ["advance letter of marque", "stop"]


def test_r29_round_cap_ends_the_game() -> None:
    s = new(3, seed=2, max_rounds=1)
    random_play(s, 4)
    assert s.is_over and s.round == 1 and s.end_reason == "round cap"
    assert s.view(None)["game_end"] == "round cap"


def test_r29_1_quest_exhaustion_ends_the_game() -> None:
    s, _ = segment_position(None, quests=[], others=Seat(quests=[]), quest_row=[None] * 3)
    s.quest_deck = Deck()
    while not s.is_over:
        q = s.to_move()[0]
        s.apply(q, s.legal_actions(q)[-1])
    assert s.round == 1 and s.end_reason == "quests exhausted" and s.phase == OVER


def test_r29_2_winner_and_tie_breaks() -> None:
    s = new(3, seed=2, max_rounds=1)
    s.influence = [7, 7, 7]
    s.completed = [[CARD["Buy a Pardon"]], [CARD["Host a Feast"], CARD["Letter of Marque"]],
                [CARD["Smuggle Rum Ashore"], CARD["Raid a Merchantman"]]]
    s.gold, s.rum = [9, 1, 3], [0, 1, 0]
    s.clear_steps()  # the game is over
    assert s.winners() == (2,)  # two quests each for P2/P3, then gold + rum 3 > 2
    s.gold, s.rum = [9, 2, 2], [0, 1, 1]
    assert s.winners() == (1, 2)  # shared victory


def test_r30_hidden_information_is_only_the_secret_card() -> None:
    s = new(3, seed=2)
    v = s.view(0)
    assert [seat["hand"] for seat in v["seats"]] == [[1, 2, 3, 4, 5, 6, 7]] * 3  # public
    assert isinstance(v["market"]["crew_deck"], int)  # deck order: only its size
    assert isinstance(v["market"]["quest_deck"], int)
    assert isinstance(v["bag"], int)  # the bag: only how many dice are in it
    d = s.redeterminize(0, __import__("cove").Rng(1))
    assert d.view(0) == v
    assert sorted(d.quest_deck) == sorted(s.quest_deck)  # type: ignore[attr-defined]


def test_r31_passives_resolve_in_any_order_with_the_same_result() -> None:
    # only gain, sabotage and remove_marker may be passive, and these commute
    from cove.games.high_water.data import PASSIVE_KINDS

    assert PASSIVE_KINDS == ("gain", "sabotage", "remove_marker")
    results = set()
    for crew in (("Purser", "Ship's Carpenter", "Privateer's Letter"),
                 ("Privateer's Letter", "Ship's Carpenter", "Purser")):
        s, p = segment_position(1, dice="y1", gold=0, rum=0, crew=crew,
                                quests=[("Letter of Marque", 0, 1)])
        results.add((s.gold[p], s.quests[p][0].markers, s.quests[1 - p][0].markers))
    assert results == {(1, 0, 1)}


def test_r32_a_started_purchase_always_completes() -> None:
    s, p = segment_position(4, dice="bl5 bl6 y1 g2", gold=0, rum=0, quests=[],
                            quest_row=["Treasure Map"])  # Bl 5+, Any, Any
    s.apply(p, "buy treasure map")
    while pending(s) is not None:
        opts = texts(s)
        assert opts and all(t.startswith("pay ") for t in opts)  # no cancel, never stuck
        s.apply(p, opts[-1])
    assert s.quests[p][0].card == CARD["Treasure Map"] and len(s.dice[p]) == 1


def test_r25_6_cartographer_offers_copies_of_a_card_once() -> None:
    """Two face-up copies of a crew card are one choice: every legal action text is unique."""
    s, p = segment_position(2, dice="y1", gold=1, rum=0, crew=["Cartographer"], quests=[],
                            crew_row=["Purser", "Purser", "Cook"])
    s.apply(p, "activate cartographer")
    opts = texts(s)
    assert len(opts) == len(set(opts)) and opts.count("cycle purser") == 1
    top = s.crew_deck.cards[-1]
    s.apply(p, "cycle purser")
    assert s.crew_row[:2] == [top, CARD["Purser"]] and s.crew_deck.cards[0] == CARD["Purser"]


def test_r21_5_idle_dice_actions_option() -> None:
    """Default: a die action that can do nothing is not offered (a green die with no marker,
    so Careen the Hull's 'did used_green' needs a marker to clear). Option idle_dice_actions:
    green and blue may be spent for nothing and still set used_<colour>; red never."""
    careen = [("Careen the Hull", 0, 0)]
    s, _ = segment_position(3, dice="g1 r3 y1", gold=0, rum=2, quests=careen,
                            others=Seat(quests=[]))  # no target for a red die
    assert "use g1" not in texts(s) and "use r3" not in texts(s)
    s, p = segment_position(3, dice="g1 r3 y1", gold=0, rum=2, quests=careen,
                            others=Seat(quests=[]), crew_row=[None] * 4, quest_row=[None] * 3,
                            idle_dice_actions=True)
    assert "use g1" in texts(s) and "use r3" not in texts(s)
    s.apply(p, "use g1")
    assert has_flag(s.segment_flags, DATA.flags.index("used_green")) and dice_total(s) == 40
    s.apply(p, "use y1")
    assert s.step == 5 and "advance careen the hull" in texts(s)
