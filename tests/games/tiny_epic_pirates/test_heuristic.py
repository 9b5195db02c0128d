"""The heuristic guides one-step bots toward the win condition (burying treasure) and stays
in score units; the bots take no parameters of this game's own."""

from __future__ import annotations

from cove.bots import BOTS, LEVELS, make_bot
from cove.bots.defaults import declared, game_defaults
from cove.games.tiny_epic_pirates import GAME, data, sea, turn
from cove.games.tiny_epic_pirates.heuristic import heuristic, win_chance
from cove.games.tiny_epic_pirates.state import PiratesState
from tests.games.tiny_epic_pirates.helpers import (
    after_setup,
    at_order,
    find_card,
    new,
    play_random,
    set_steps,
)


def _off_turn(s: PiratesState) -> None:
    s.turn = 1                       # P2's turn: no turn opportunity for P1
    set_steps(s, (turn.T_WHEEL, 1, 0), settle=False)


def test_heuristic_values_progress_toward_next_treasure() -> None:
    s = after_setup(2)
    _off_turn(s)
    s.booty[0] = []
    s.gold[0], s.legend_level[0] = 1, 1
    h0 = heuristic(s, 0)
    s.gold[0] = 4
    h_gold = heuristic(s, 0)
    s.legend_level[0] = 2
    h_level = heuristic(s, 0)
    s.gold[0] = 6
    h_ready = heuristic(s, 0)
    assert h0 < h_gold < h_level < h_ready < 1.0
    s.gold[0], s.treasures[0] = 0, [5]        # after burying the first: above 1
    assert heuristic(s, 0) >= 1.0 > h_ready
    s.legend_level[0] = 3                            # a level toward the second gate counts
    assert heuristic(s, 0) > 1.0


def test_heuristic_sees_a_bury_the_order_triggers() -> None:
    s = after_setup(2)
    s.captain[0], s.captain_side[0] = 0, 1            # Magnus Bolt side B: trigger plunder
    s.ship_at[0] = find_card(s, data.SETTLEMENT, plunder=1)
    s.gold[0], s.legend_level[0] = 6, 2
    at_order(s, 0, data.PLUNDER)
    assert heuristic(s, 0) >= 1.0             # the bury after this order is in sight
    at_order(s, 0, data.TRADE)
    assert heuristic(s, 0) < 1.0              # no bury on a trade turn
    # last turn's order: the wheel still to move
    s.captain_space[0] = s.wheel[0].index(data.PLUNDER)
    set_steps(s, (turn.T_END_TURN, 0, 0), (turn.T_BONUS_SETUP, 0, 0), (turn.T_ORDER, 0, 0),
              (turn.T_SAIL, 0, 0), (turn.T_WHEEL, 0, 0), settle=False)
    assert heuristic(s, 0) < 1.0


def test_heuristic_prefers_sailing_toward_where_the_order_works() -> None:
    s = after_setup(2)
    s.booty[0] = []
    settle = find_card(s, data.SETTLEMENT, plunder=2)
    s.ship_at[0] = next(c for _, c in sea.NEIGH[settle] if s.card(c).kind != data.SETTLEMENT)
    s.captain_space[0] = s.wheel[0].index(data.PLUNDER)
    s.turn = 0
    set_steps(s, (turn.T_END_TURN, 0, 0), (turn.T_BONUS_SETUP, 0, 0), (turn.T_ORDER, 0, 0),
              (turn.T_SAIL, 0, 0), settle=False)
    s.moves_used = s.sail_total(0) - 1        # 1 move left
    assert s.to_move() == (0,)
    before = heuristic(s, 0)
    after = []
    for a in s.legal_actions(0):
        c = s.clone()
        c.apply(0, a)
        after.append((heuristic(c, 0), str(a)))
    best = max(after)[1]
    assert best.startswith("sail") and best.endswith(sea.cell(settle)), after
    assert max(after)[0] >= before


def test_win_chance_counts_dice_cannons_and_surefire() -> None:
    s = after_setup(2)
    s.crew[0] = []
    s.captain[0], s.captain_side[0] = 0, 0            # Magnus Bolt side A: dice 5, 6
    s.assignments[0] = [1, 0, 1, 2]
    s.surefire[0] = 0
    assert win_chance(s, 0, 0) == 1.0
    assert abs(win_chance(s, 0, 2) - 4 / 36) < 1e-9     # both dice on 5 or 6
    s.assignments[0] = [0, 1, 1, 2]                           # a cannon: one hit is enough
    assert abs(win_chance(s, 0, 2) - 20 / 36) < 1e-9
    s.surefire[0] = 1                                        # a sure-fire sets one die
    assert win_chance(s, 0, 2) == 1.0


def test_greedy_bots_bury_three_treasures() -> None:
    s = new(2, 1)
    s.logging = False
    bots = [make_bot("greedy", seed=i) for i in range(2)]
    while not s.is_over:
        p = s.to_move()[0]
        s.apply(p, bots[p].choose(s, p))
    assert s.end_triggered and max(len(t) for t in s.treasures) == 3
    assert s.turn // s.pirate_count < 60


def test_heuristic_in_score_units() -> None:
    s = new(2, 3)
    play_random(s, 3, limit=500)
    h = GAME.heuristic
    assert h is not None
    for p in range(2):
        assert 0.0 <= h(s, p) <= 3.0
        assert h(s, p) >= len(s.treasures[p])


def test_no_bot_defaults_of_its_own() -> None:
    """The game declines per-game bot parameters (with the reason): its levels are the
    shared specs, ``hard`` the default search at four times the budget."""
    assert declared(GAME) == {} and GAME.declines["bot_defaults"].strip()
    assert LEVELS["hard"] == "mcts:scale=4"
    for name in ("mcts", "hard"):
        assert game_defaults(GAME, name, BOTS["mcts"].PARAMS) == {}
