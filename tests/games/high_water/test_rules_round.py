"""The fragment's round procedure, F1-F8 (rules R1-R8 of RULES.md)."""

from __future__ import annotations

import pytest

import cove
from cove.games.high_water.rules import PICK, SEG, TRICK
from cove.games.high_water.state import HighWaterState
from tests.games.high_water.helpers import (
    dice_total,
    new,
    play_trick,
    random_play,
    texts,
    to_segment,
    trick_position,
)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_r1_fill_crates(n: int) -> None:
    s = new(n, seed=n)
    assert len(s.crates) == n
    assert all(c is not None and len(c) == 3 for c in s.crates)
    assert sum(s.bag) == 40 - 3 * n
    assert dice_total(s) == 40
    v = s.view(None)
    assert v["round"] == 1 and all(len(c) == 3 for c in v["crates"])


def test_r1_1_crates_refill_every_round_from_the_bag() -> None:
    s = new(3, seed=4)
    random_play(s, 1, limit=10**6)
    # every round drew 9 dice, so the log shows one crate line per round
    rounds = [e.text for e in s.events(None) if e.text.startswith("Round ")]
    assert len(rounds) == s.round
    assert all(t.count("|") == 2 for t in rounds)


def test_r2_water_coin_sets_the_direction() -> None:
    faces = set()
    for seed in range(40):
        s = new(2, seed=seed)
        faces.add(s.high_water)
        play_trick(s, {0: 3, 1: 6})
        assert s.trick_winner == (1 if s.high_water else 0)
    assert faces == {True, False}  # both faces come up


def test_r3_trick_is_a_secret_simultaneous_decision() -> None:
    s = new(3, seed=2)
    assert s.to_move() == (0, 1, 2)
    before = {p: s.view(p) for p in (None, 0, 2)}
    s.apply(1, "play 5")
    assert s.to_move() == (0, 2)
    for p in (None, 0, 2):
        v = s.view(p)
        assert v.get("my_commit") is None
        assert v["seats"][1]["hand"] == [1, 2, 3, 4, 5, 6, 7]  # not removed before reveal
        assert v["seats"][1]["committed"] is True
        assert v["trick"]["revealed"] == before[p]["trick"]["revealed"]
    assert s.view(1)["my_commit"] == {"player": 1, "card": 5}
    assert not any("5" in e.text for e in s.events(None) if "commit" in e.text)
    assert not any("commit" in e.text for e in s.events(0) + s.events(2))
    assert any(e.text == "P2 secretly commits 5" for e in s.events(1))
    s.apply(0, "play 2")
    s.apply(2, "play 7")
    assert s.phase == PICK
    assert s.view(None)["trick"]["revealed"] == [[2], [5], [7]]


def test_r3_1_a_committed_card_is_not_visible_in_any_other_view() -> None:
    base = new(3, seed=9)
    a, b = base.clone(), base.clone()
    a.apply(0, "play 1")
    b.apply(0, "play 7")
    for p in (None, 1, 2):
        assert a.view(p) == b.view(p)
        assert [e.text for e in a.events(p)] == [e.text for e in b.events(p)]


@pytest.mark.parametrize("high", [True, False])
def test_r4_pick_order_follows_the_water(high: bool) -> None:
    s = trick_position(4, seed=1, high_water=high)
    play_trick(s, {0: 5, 1: 2, 2: 7, 3: 4})
    assert s.pick_order == ([2, 0, 3, 1] if high else [1, 3, 0, 2])
    assert s.trick_winner == s.pick_order[0] and s.last_picker == s.pick_order[-1]
    assert s.to_move() == (s.pick_order[0],)


def test_r5_tie_for_first_re_reveals() -> None:
    s = trick_position(3, seed=1, high_water=True)
    play_trick(s, {0: 5, 1: 5, 2: 3})
    assert s.phase == TRICK and s.to_move() == (0, 1)
    assert s.view(None)["trick"]["waiting"] == [0, 1]
    assert 5 not in s.hands[0]
    play_trick(s, {0: 2, 1: 6})
    assert s.pick_order == [1, 0, 2]


def test_r5_1_every_tied_group_re_reveals_inside_its_slot() -> None:
    s = trick_position(4, seed=1, high_water=True)
    play_trick(s, {0: 6, 1: 6, 2: 2, 3: 2})
    assert s.to_move() == (0, 1, 2, 3)
    play_trick(s, {0: 1, 1: 4, 2: 5, 3: 7})
    # the 6s stay above the 2s whatever they re-reveal
    assert s.pick_order == [1, 0, 3, 2]


def test_r5_2_re_reveals_follow_low_water() -> None:
    s = trick_position(3, seed=1, high_water=False)
    play_trick(s, {0: 7, 1: 3, 2: 3})
    assert s.to_move() == (1, 2)
    play_trick(s, {1: 6, 2: 1})
    assert s.pick_order == [2, 1, 0]


def test_r5_3_tie_cap_orders_by_the_seeded_rng() -> None:
    orders = set()
    for seed in range(12):
        s = new(2, seed=seed, tie_rereveals=3)
        for v in (7, 6, 5, 4):  # the first reveal and three re-reveals all tie
            assert s.phase == TRICK
            play_trick(s, {0: v, 1: v})
        assert s.phase == PICK
        orders.add(tuple(s.pick_order))
        assert any(e.text.startswith("Still tied after 3 re-reveals (the cap set by option")
                   for e in s.events(None))
    assert orders == {(0, 1), (1, 0)}


def test_r5_4_tie_options() -> None:
    # F5 cannot be switched off: at least one re-reveal
    with pytest.raises(cove.OptionError, match="tie_rereveals=0"):
        new(2, seed=3, tie_rereveals=0)
    s = new(2, seed=3, tie_rereveals=1)
    play_trick(s, {0: 4, 1: 4})
    assert s.phase == TRICK and s.to_move() == (0, 1)
    play_trick(s, {0: 5, 1: 5})
    assert s.phase == PICK
    s = trick_position(3, seed=3, high_water=True, tie_scope="first")
    play_trick(s, {0: 7, 1: 3, 2: 3})
    assert s.phase == PICK and s.pick_order[0] == 0
    s = trick_position(3, seed=3, high_water=True, tie_scope="first")
    play_trick(s, {0: 7, 1: 7, 2: 3})
    assert s.to_move() == (0, 1)


def test_r5_6_ties_re_reveal_until_no_new_card_is_left() -> None:
    """F5 by default: re-reveal while the tied players still hold a card they have not
    revealed in this trick; chance only when no re-reveal can break the tie."""
    s = new(2, seed=1)
    for v in (7, 6, 5, 4, 3, 2):  # the first reveal and five re-reveals: no cap at 3
        play_trick(s, {0: v, 1: v})
        assert s.phase == TRICK and s.to_move() == (0, 1)
    # F6 gave back 7..3 at one card; only 1 is new in this trick
    assert s.hands[0] == [1, 3, 4, 5, 6, 7]
    assert texts(s, 0) == ["play 1 (re-reveal 6)"]
    play_trick(s, {0: 1, 1: 1})
    assert s.phase == PICK and s.rereveals == 6
    assert any(e.text.startswith("Still tied and no re-reveal can break the tie")
               for e in s.events(None))


def test_r5_7_a_re_reveal_needs_a_new_card() -> None:
    """F5 'a new card': a card revealed earlier in the trick, even if F6 brought it back to
    the hand, cannot be re-revealed (this is what makes the ties end)."""
    s = trick_position(2, seed=1, hands={0: [2, 3, 5]}, played={0: [1, 4, 6, 7]})
    play_trick(s, {0: 5, 1: 5})
    play_trick(s, {0: 2, 1: 2})  # P1 is left with 3: F6 brings back 1, 4, 5, 6, 7
    assert s.hands[0] == [1, 3, 4, 5, 6, 7] and s.phase == TRICK
    assert texts(s, 0) == [f"play {v} (re-reveal 2)" for v in (1, 3, 4, 6, 7)]
    with pytest.raises(cove.IllegalAction, match="revealed 5 earlier in this trick"):
        s.apply(0, "play 5")
    play_trick(s, {0: 3, 1: 4})
    assert s.phase == PICK


def test_r5_8_tie_log_says_why_chance_decides() -> None:
    """Under tie_scope=first a tie that drops below first place after a re-reveal is
    logged as a lower tie, not as 'still tied after the re-reveals' (re-reveals remain)."""
    s = trick_position(3, seed=1, high_water=True, tie_scope="first")
    play_trick(s, {0: 6, 1: 6, 2: 6})
    play_trick(s, {0: 7, 1: 2, 2: 2})
    assert s.phase == PICK and s.pick_order[0] == 0
    lines = [e.text for e in s.events(None) if "drawn at random" in e.text]
    assert lines == ["Tied below first place (DESIGN variant tie_scope=first: no re-reveal): "
                     "the order of P2 and P3 is drawn at random"]
    # a tie for first is never logged as a lower tie (it used to be, with tie_rereveals=0)
    s = new(2, seed=1, tie_rereveals=1)
    play_trick(s, {0: 5, 1: 5})
    play_trick(s, {0: 4, 1: 4})
    lines = [e.text for e in s.events(None) if "drawn at random" in e.text]
    assert lines == ["Still tied after 1 re-reveals (the cap set by option tie_rereveals): "
                     "the order of P1 and P2 is drawn at random"]


def test_r6_replenishment_at_one_card() -> None:
    s = trick_position(2, seed=0, hands={0: [2, 5]}, played={0: [1, 3, 4, 6, 7]})
    play_trick(s, {0: 5, 1: 1})
    assert s.hands[0] == [1, 2, 3, 4, 6, 7]
    assert s.played[0] == [5]
    assert any("takes back" in e.text for e in s.events(None))


def test_r6_1_replenishment_during_a_tie_re_reveal() -> None:
    s = trick_position(2, seed=0, high_water=True, hands={0: [2, 5, 6]},
                       played={0: [1, 3, 4, 7]})
    play_trick(s, {0: 6, 1: 6})  # tie: P1 now holds 2 and 5
    assert s.hands[0] == [2, 5]
    play_trick(s, {0: 5, 1: 4})  # the re-revealed 5 leaves one card: replenish
    assert s.hands[0] == [1, 2, 3, 4, 6, 7]  # the tied 6 comes back, the 5 does not
    assert s.played[0] == [5]
    assert s.pick_order == [0, 1]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_r6_2_hand_cycle_never_empties(n: int) -> None:
    sizes: set[int] = set()

    def check(s: object) -> None:
        assert isinstance(s, HighWaterState)
        for p in range(s.n):
            assert len(s.hands[p]) + len(s.played[p]) == 7
        if s.phase == TRICK:
            for p in s.to_move():  # every trick choice, re-reveals included
                assert 2 <= len(s.hands[p]) <= 7
                sizes.add(len(s.hands[p]))

    s = new(n, seed=5)
    random_play(s, 3, check=check)
    assert s.is_over and min(sizes) == 2 and 6 in sizes


def test_r7_crates_are_chosen_from_the_winner_down() -> None:
    s = trick_position(3, seed=6, high_water=True)
    play_trick(s, {0: 2, 1: 7, 2: 4})
    assert s.to_move() == (1,)
    assert [str(a).split(" (")[0] for a in s.legal_actions(1)] == [
        "take crate 1", "take crate 2", "take crate 3"]
    crate2 = s.crates[1]
    s.apply(1, s.legal_actions(1)[1])
    assert s.dice[1] == list(crate2 or ())
    assert s.to_move() == (2,)
    s.apply(2, s.legal_actions(2)[0])
    # the last crate goes to the last picker without a decision
    assert s.phase == SEG and all(c is None for c in s.crates)
    assert [len(d) for d in s.dice] == [3, 3, 3]


def test_r8_segments_run_in_reverse_pick_order() -> None:
    s = trick_position(4, seed=8, high_water=True)
    play_trick(s, {0: 3, 1: 6, 2: 1, 3: 5})
    order = list(s.pick_order)
    assert order == [1, 3, 0, 2]
    start = len(s.events(None))
    while s.round == 1:
        p = s.to_move()[0]
        s.apply(p, "stop" if s.phase == SEG and s.pending is None else s.legal_actions(p)[0])
    seen = [e.text for e in s.events(None)[start:] if e.text.endswith("action segment")]
    assert seen == [f"P{p + 1}'s action segment" for p in reversed(order)]


def test_r8_1_the_segment_player_is_shown() -> None:
    s = to_segment(3, seed=2)
    v = s.view(None)
    assert v["segment"]["player"] == s.pick_order[-1]
    assert v["segment"]["number"] == 1


def test_r5_5_first_scope_orders_lower_ties_by_the_seeded_rng() -> None:
    """With tie_scope='first' a tie below first place does not re-reveal; it is ordered by
    the seeded RNG (R5.1, G6), not by seat number."""
    lower = set()
    capped = set()
    for seed in range(16):
        s = trick_position(3, seed=seed, high_water=True, tie_scope="first")
        play_trick(s, {0: 7, 1: 3, 2: 3})
        assert s.phase == PICK and s.pick_order[0] == 0
        lower.add(tuple(s.pick_order))
        assert any("drawn at random" in e.text for e in s.events(None))
        # a tie for first that stays tied to the cap, with a tie below it too
        s = trick_position(4, seed=seed, high_water=True, tie_scope="first", tie_rereveals=1)
        play_trick(s, {0: 7, 1: 7, 2: 3, 3: 3})
        assert s.to_move() == (0, 1)
        play_trick(s, {0: 6, 1: 6})
        assert s.phase == PICK
        capped.add(tuple(s.pick_order[2:]))
    assert lower == {(0, 1, 2), (0, 2, 1)}
    assert capped == {(2, 3), (3, 2)}
