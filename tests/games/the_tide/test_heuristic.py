"""The heuristic: public information only, final score at the end, rewards beat waiting;
and the bots' defaults this game declares (``hard``: heuristic-guided rollouts)."""

from __future__ import annotations

from cove.bots.defaults import declared, game_defaults
from cove.bots.mcts import MctsBot
from cove.core import Rng
from cove.games.the_tide import GAME
from cove.games.the_tide.heuristic import heuristic
from cove.games.the_tide.rules import finish

from .helpers import biased_step, fill, position


def test_heuristic_reads_only_what_the_player_sees() -> None:
    s = GAME.new(3, seed=11)
    rng = Rng(3)
    for _ in range(30):
        biased_step(s, rng, 0.8)  # type: ignore[arg-type]
    for p in range(3):
        for k in range(4):
            assert heuristic(s.redeterminize(p, Rng(k)), p) == heuristic(s, p)


def test_heuristic_is_the_score_once_over() -> None:
    s = position(fill({"c3": "B1", "f6": "W2"}), held={0: "PPC"}, points=[4, 2])
    finish(s, "test")
    assert heuristic(s, 0) == 4.0 and heuristic(s, 1) == 2.0


def test_heuristic_prefers_completing_a_reward_to_waiting() -> None:
    # a recycling (the fourth type) or a specific collection (the third melon) scores 1 and
    # must be worth more than keeping the tiles toward it
    rows = fill({"c4": "W1", "b4": "B.", "f6": "S2"})
    for held, text in (("BPC", "collect melon at c4"), ("WW", "collect melon at c4")):
        wait = position(rows, held={0: held})
        wait.apply(0, "pass")
        done = position(rows, held={0: held})
        done.apply(0, text)
        while done.to_move() == (0,):
            done.apply(0, done.legal_actions(0)[0])
        assert done.points[0] == 1
        assert heuristic(done, 0) > heuristic(wait, 0) + 0.1


def test_heuristic_values_standing_on_a_tile_over_an_empty_square() -> None:
    on_tile = position(fill({"c3": "B1", "f6": "W2"}), held={0: "S"})
    on_empty = position(fill({"c3": ".1", "f6": "W2"}), held={0: "S"})
    assert heuristic(on_tile, 0) > heuristic(on_empty, 0)


def test_the_hard_level_takes_heuristic_rollouts_and_nothing_else() -> None:
    # the declaration's bot_defaults (cove.bots.defaults): valid, for the hard level only
    assert declared(GAME) == {"hard": "rollout=heuristic"}
    assert game_defaults(GAME, "hard", MctsBot.PARAMS) == {"rollout": "heuristic"}
    assert game_defaults(GAME, "mcts", MctsBot.PARAMS) == {}
