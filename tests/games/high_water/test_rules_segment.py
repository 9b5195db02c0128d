"""The action segment and scoring, F9-F18 (rules R9-R18 of RULES.md)."""

from __future__ import annotations

import pytest

import cove
from cove.games.high_water import GAME
from cove.games.high_water.data import BOUGHT_CREW, DATA
from cove.games.high_water.rules import OVER, SEG, TRICK, has_flag
from tests.games.high_water.helpers import (
    CARD,
    Seat,
    dice_total,
    give,
    pending,
    quest,
    restart_segment,
    segment_position,
    texts,
    to_segment,
)


def test_r9_stop_at_any_time_and_carry_over() -> None:
    s, p = segment_position(2, dice="y3 br5 g2", gold=4, rum=3, quests=[])
    assert s.step == 3 and "stop" in texts(s)
    s.apply(p, "stop")
    assert s.segment_player() != p  # the segment is over
    assert [DATA.label[d] for d in s.dice[p]] == ["y3", "br5", "g2"]
    assert (s.gold[p], s.rum[p]) == (4, 3)


@pytest.mark.parametrize("step", [2, 3, 4, 5])
def test_r9_1_stop_is_offered_in_steps_2_to_5(step: int) -> None:
    s, _ = segment_position(step, dice="y3 br5", gold=2, rum=2, crew=["Cook"],
                            quests=[("Letter of Marque", 0, 0)], crew_row=["Fence"])
    assert s.step == step and texts(s)[-1] == "stop"


def test_r10_passives_trigger_automatically() -> None:
    s, p = segment_position(1, gold=0, rum=0,
                            crew=["Purser", "Distiller", "Lookout", "Press Gang"], quests=[])
    assert p == s.last_picker and p != s.trick_winner
    # Purser +1g, Distiller +1r, Lookout needs the trick win (no), Press Gang: last crate
    assert (s.gold[p], s.rum[p]) == (2, 2)


def test_r10_1_lookout_pays_the_trick_winner() -> None:
    s = to_segment(2, seed=1)
    w = s.trick_winner
    give(s, w, "y3", gold=0, rum=0, crew=("Lookout", "Press Gang"), quests=[])
    restart_segment(s, w)  # the winner's segment
    assert s.segment_player() == w and (s.gold[w], s.rum[w]) == (2, 0)


def test_r10_2_privateers_letter_is_forced_on_the_leader() -> None:
    s = to_segment(3, seed=1)
    p = s.segment_player()
    a, b = (q for q in range(3) if q != p)
    s.influence[a], s.influence[b] = 4, 7
    give(s, p, "", gold=0, rum=0, crew=("Privateer's Letter",), quests=[])
    give(s, b, quests=[("Letter of Marque", 0, 0)])
    restart_segment(s)
    # the owner would rather not, but there is no way to skip it
    assert s.quests[b][0].markers == 1 and s.quests[a][0].markers == 0


def test_r10_3_privateer_target_choice_among_tied_leaders() -> None:
    s, p = segment_position(1, 3, dice="y3", gold=0, rum=0, crew=["Privateer's Letter"],
                            quests=[])
    assert pending(s) == "sabotage"
    opts = texts(s)
    assert len(opts) == 2 and all(t.startswith("sabotage p") for t in opts)
    assert "stop" not in opts and "next step" not in opts  # mandatory
    s.apply(p, opts[0])
    assert s.step == 3


def test_r10_4_passive_without_target_does_nothing() -> None:
    s, _ = segment_position(1, crew=["Privateer's Letter", "Ship's Carpenter"], quests=[],
                            others=Seat(quests=[]))
    assert any("no legal target" in e.text for e in s.events(None))


def test_r11_actives_once_per_card_and_only_if_affordable() -> None:
    s, p = segment_position(2, gold=0, rum=3, crew=["Fence", "Fence", "Cook"], quests=[])
    assert texts(s) == ["activate fence", "stop"]  # Cook costs 1 gold: not affordable
    s.apply(p, "activate fence")
    assert (s.gold[p], s.rum[p]) == (2, 2)
    assert "activate fence" in texts(s) and "activate cook" in texts(s)
    s.apply(p, "activate fence")  # the second copy
    assert "activate fence" not in texts(s)
    s.apply(p, "activate cook")
    assert (s.gold[p], s.rum[p]) == (3, 2)
    assert s.step == 6 or s.segment_player() != p  # nothing left to do: the segment ran on
    with pytest.raises(cove.IllegalAction):
        s.apply(p, "activate fence")


def test_r11_1_any_payable_active_is_offered() -> None:
    """F11: a player may activate any ability they can pay for, even one with nothing to
    act on now; it still counts as 'used an active' (Admiral's Favour, Governor)."""
    s, p = segment_position(2, gold=3, rum=1, crew=["Gunner", "Navigator"],
                            quests=[("Governor of the Isles", 0, 0)],
                            others=Seat(quests=[]))  # no opponent quest: no Gunner target
    assert texts(s) == ["activate gunner", "activate navigator", "stop"]
    s.apply(p, "activate gunner")
    assert (s.gold[p], s.rum[p]) == (2, 0)
    assert any(e.text == f"P{p + 1} activates Gunner: it has nothing to act on now"
               for e in s.events(None))
    assert "used_active" in s.view(None)["segment"]["flags"]
    s.apply(p, "activate navigator")  # no dice to re-roll: paid, nothing happens
    assert s.gold[p] == 1 and s.step == 5
    assert texts(s) == ["advance governor of the isles", "stop"]


def test_r11_2_option_offers_only_actives_with_an_effect() -> None:
    s, p = segment_position(2, gold=3, rum=1, crew=["Gunner", "Navigator"],
                            quests=[("Governor of the Isles", 0, 0)], others=Seat(quests=[]),
                            actives_need_effect=True)
    assert s.step == 6 or s.segment_player() != p  # nothing to do in Steps 2-5


def test_r12_a_die_used_for_an_action_cannot_pay_a_pattern() -> None:
    s, p = segment_position(3, dice="y3 br5", gold=0, rum=0, quests=[],
                            crew_row=["Fence"])  # cost Y, Br
    assert "use y3" in texts(s)
    s.apply(p, "use y3")
    assert s.gold[p] == 1
    assert "buy fence" not in texts(s)
    with pytest.raises(cove.IllegalAction, match="cannot match Fence's pattern"):
        s.apply(p, "buy fence")
    assert dice_total(s) == 40


def test_r13_buy_by_pattern_with_immediate_replacement() -> None:
    s, p = segment_position(4, dice="y3 br5", gold=0, rum=0, quests=[("Recruit a Crew", 0, 0)],
                            crew_row=["Purser"])  # cost Y, Any
    top = s.crew_deck.cards[-1]
    deck = len(s.crew_deck)
    s.apply(p, "buy purser")
    # Y must take y3 (the only yellow), Any takes br5: both forced, so the buy completes
    assert s.crew[p] == [CARD["Purser"]]
    assert s.crew_row[0] == top and len(s.crew_deck) == deck - 1
    assert s.dice[p] == [] and dice_total(s) == 40
    assert has_flag(s.segment_flags, BOUGHT_CREW) and s.segment_player() == p
    assert texts(s) == ["advance recruit a crew", "stop"]  # did bought_crew is met
    # its passive fires from the next turn, not now
    assert s.gold[p] == 0


def test_r14_quest_tasks_one_at_a_time_in_order() -> None:
    s, p = segment_position(5, gold=0, rum=1, quests=[("Letter of Marque", 0, 0)])
    assert s.segment_player() != p  # pay 1g comes first: the rum alone does nothing
    s, p = segment_position(5, gold=1, rum=1, quests=[("Letter of Marque", 0, 0)])
    assert texts(s) == ["advance letter of marque", "stop"]
    s.apply(p, "advance letter of marque")
    assert s.quests[p] == [quest("Letter of Marque", done=1)] and s.gold[p] == 0
    s.apply(p, "advance letter of marque")
    assert s.completed[p] == [CARD["Letter of Marque"]] and s.quests[p] == []


def test_r15_step_6_free_removal_then_optional_paid_one() -> None:
    s, p = segment_position(6, gold=3, rum=0, quests=[("Letter of Marque", 0, 2)])
    assert s.quests[p][0].markers == 1  # the free removal had only one choice
    assert pending(s) == "paid_removal"
    assert texts(s) == ["pay to remove marker from letter of marque", "end segment"]
    s.apply(p, "pay to remove marker from letter of marque")
    assert s.quests[p][0].markers == 0 and s.gold[p] == 1


def test_r15_1_free_removal_choice_and_declining_the_paid_one() -> None:
    s, p = segment_position(6, gold=5, rum=0,
                            quests=[("Letter of Marque", 0, 1), ("Host a Feast", 0, 1)])
    assert texts(s) == ["remove marker from letter of marque", "remove marker from host a feast"]
    s.apply(p, "remove marker from host a feast")
    s.apply(p, "end segment")
    assert [q.markers for q in s.quests[p]] == [1, 0] and s.gold[p] == 5


def test_r16_influence_is_recalculated_after_the_own_segment() -> None:
    s, p = segment_position(5, gold=4, rum=1,
                            quests=[("Letter of Marque", 1, 0), ("Pay the Harbourmaster", 0, 0)],
                            completed=["Host a Feast"])
    s.apply(p, "advance letter of marque")
    assert s.influence[p] == 0 and s.scores()[p] == 0  # not yet: mid-segment
    if s.segment_player() == p:
        s.apply(p, "stop")
    assert s.influence[p] == 2 + 5


def test_r16_1_the_score_in_parts_is_each_completed_quests_influence() -> None:
    """score_parts names each completed quest with its influence, in every view; a quest
    completed in the segment counts at once, the score only once the segment ends (R16),
    and then the parts add up to it."""
    s, p = segment_position(5, gold=4, rum=1,
                            quests=[("Letter of Marque", 1, 0), ("Pay the Harbourmaster", 0, 0)],
                            completed=["Host a Feast"])
    s.apply(p, "advance letter of marque")
    want = [("Host a Feast", 5.0), ("Letter of Marque", 2.0)]
    for q in (None, 0, 1):
        assert GAME.score_parts(s.view(q), p) == want
        assert GAME.score_parts(s.view(q), 1 - p) == [("no quest completed", 0.0)]
    assert s.scores()[p] == 0  # not yet recalculated: mid-segment
    if s.segment_player() == p:
        s.apply(p, "stop")
    assert s.scores()[p] == sum(v for _, v in want) == 7
    assert GAME.score_parts({}, p) == GAME.score_parts(s.view(None), 9) == [
        ("no quest completed", 0.0)]  # never raises, even on a view it was not made for


def test_r17_reaching_the_goal_mid_round_lets_the_others_act() -> None:
    s, p = segment_position(5, 3, gold=1, rum=1, quests=[("Letter of Marque", 1, 0)],
                            completed=["Governor of the Isles", "Pirate Council", "Buy a Pardon"])
    s.apply(p, "advance letter of marque")
    if s.segment_player() == p:
        s.apply(p, "stop")
    assert s.influence[p] == 24 and s.end_triggered and not s.is_over
    acted = []
    while s.to_move():
        q = s.to_move()[0]
        assert s.phase == SEG and s.round == 1
        acted.append(q)
        s.apply(q, "stop" if s.pending is None else s.legal_actions(q)[-1])
    assert set(acted) <= set(s.pick_order[:2]) and s.end_reason == "goal"
    assert s.winners() == (p,)


def test_r17_1_goal_is_an_option() -> None:
    s, p = segment_position(5, gold=1, rum=1, quests=[("Letter of Marque", 0, 0)], goal=2)
    s.apply(p, "advance letter of marque")
    s.apply(p, "advance letter of marque")
    assert s.end_triggered and s.phase == SEG  # the other player still has a segment


def test_r18_completed_quests_stay_and_cannot_be_sabotaged() -> None:
    s, p = segment_position(3, dice="r5", gold=0, rum=0, quests=[],
                            others=Seat(quests=[], completed=["Host a Feast"], influence=5))
    o = 1 - p
    assert "use r5" not in texts(s)  # no uncompleted quest to sabotage
    assert s.completed[o] == [CARD["Host a Feast"]]


def test_r18_1_influence_never_decreases() -> None:
    s = to_segment(3, seed=11)
    last = [0, 0, 0]
    while not s.is_over:
        q = s.to_move()[0]
        s.apply(q, s.legal_actions(q)[0])
        assert all(a >= b for a, b in zip(s.influence, last, strict=True))
        last = list(s.influence)
    assert s.phase == OVER and s.phase != TRICK
