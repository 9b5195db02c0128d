"""The seed's worked examples, as tests."""

from __future__ import annotations

from cove.games.tricky_tides.decision_stack import SAIL_STEP
from tests.games.tricky_tides.helpers import (
    card,
    game_over,
    mask,
    new,
    set_hold,
    start_hand,
    texts,
    turn_over,
)

EDMUND, ANNE, HENRY = 0, 1, 2    # seated clockwise: Edmund, Anne, Henry


def test_seed_example_hand_and_sailing_order() -> None:
    """Edmund leads 3 of Sharks, Anne plays 5 of Sharks, Henry (no Sharks) plays 8 of Sea
    Dragons: Anne wins and leads; sailing order Anne, Edmund, Henry."""
    s = new(3, 11)
    s.hands = [
        mask(card("shark", 3), card("whale", 2), card("octopus", 4)),
        mask(card("shark", 5), card("shark", 1), card("whale", 6)),
        mask(card("sea dragon", 8), card("whale", 7), card("octopus", 6)),
    ]
    start_hand(s, EDMUND)
    s.apply(EDMUND, "play 3 sharks")
    assert texts(s, ANNE) == ["play 1 shark", "play 5 sharks"]          # must follow suit
    s.apply(ANNE, "play 5 sharks")
    assert "play 8 sea dragons" in texts(s, HENRY)                      # no Sharks: anything
    s.apply(HENRY, "play 8 sea dragons")
    assert s.leader == ANNE                                              # 8 off-suit can't win
    assert s.sorder == (ANNE, EDMUND, HENRY)
    assert turn_over(s, ANNE) or (s.phase == SAIL_STEP and s.cur == ANNE)  # Anne first


def test_seed_example_final_score() -> None:
    """17 gold from orders; +3 per octopus order, +2 for the whale order, +0 for the sea
    dragon order -> 25; +1 for one gold good and +1 for two spice (two coffee sell for
    nothing) -> 27."""
    s = new(4, 1)
    s.sight = (0, 1, 2, 3)                  # card A: octopus 3, sea dragon 0, whale 2
    s.won[0] = (6, 2, 27, 11)               # O07 octopus 7, O03 octopus 4, O28 whale 2,
    gold, bonus, _ = s.score_parts(0)       # O12 sea dragon 4 = 17 gold
    assert gold == 17 and gold + bonus == 25
    set_hold(s, 0, gold=1, spice=2, coffee=2)
    assert s.score_parts(0) == (17, 8, 2)
    game_over(s)
    assert s.scores()[0] == 27.0
