"""The bots' heuristic (an estimate of a seat's final score from its own sheet) and the
bots' defaults this game declares (``GAME.bot_defaults``)."""

from __future__ import annotations

from typing import Any

import pytest

from cove.bots.defaults import game_defaults
from cove.bots.mcts import MctsBot
from cove.core import Rng
from cove.core.bits import has
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.heuristic import heuristic
from cove.games.trails_of_tucana.state import TucanaState
from tests.games.trails_of_tucana.helpers import build_pair_but_last, draw_now, new

CONFIGS = [(1, {}), (3, {"map": "grande"}), (5, {"special_bonus": True})]


def certain(s: TucanaState, p: int) -> int:
    """The points ``p``'s own view already guarantees: the boxes written, the pairs, the
    bonus cards, and the sights circled so far once in each box still to come."""
    view = s.view(p)
    sheet = view["sheets"][p]
    left = 0 if view["over"] else view["rounds"] - len(sheet["boxes"])
    return (sum(sheet["boxes"]) + sheet["pair_points"] + sheet["bonus_points"]
            + sheet["sight_sum"] * left)


@pytest.mark.parametrize(("n", "opts"), CONFIGS)
def test_the_estimate_is_the_certain_points_and_more_and_the_score_at_the_end(
        n: int, opts: dict[str, Any]) -> None:
    s = new(n, seed=n, **opts)
    rng = Rng(n)
    k = 0
    while not s.is_over:
        if k % 4 == 0:
            for p in range(n):
                assert heuristic(s, p) >= certain(s, p)
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
        k += 1
    assert [heuristic(s, p) for p in range(n)] == s.scores()


def test_the_estimate_reads_only_what_the_seat_sees() -> None:
    """Worlds that differ only in what P1 cannot see (the deck's order, the others'
    hidden segments of this step) give P1 the same estimate."""
    s = new(3, seed=6)
    rng = Rng(6)
    for _ in range(20):
        p = s.to_move()[-1]
        s.apply(p, rng.choice(s.legal_actions(p)))
    assert any(x is not None for x in s.snapshots[1:])  # some of the others' moves are hidden
    want = heuristic(s, 0)
    for k in range(4):
        other = s.redeterminize(0, Rng(k))
        assert isinstance(other, TucanaState)
        assert heuristic(other, 0) == want


def test_a_pair_about_to_be_joined_is_worth_more_and_counts_in_full_once_joined() -> None:
    s = new(1, seed=2, setup_card=1)
    far = heuristic(s, 0)
    last = build_pair_but_last(s, 0, "A")
    near, before = heuristic(s, 0), certain(s, 0)
    assert near > far
    draw_now(s, 0, *last)
    assert has(s.pairs[0], 0) and s.blue_points[0] == 3  # pair A-A and its blue card
    assert certain(s, 0) - before >= s.island.pair_values[0] + 3
    assert heuristic(s, 0) > near


def test_the_declared_bot_defaults_are_the_paired_search_and_a_wider_hard() -> None:
    assert set(GAME.bot_defaults) == {"mcts", "hard"}
    mcts = game_defaults(GAME, "mcts", MctsBot.PARAMS)
    assert (mcts["search"], mcts["width"], mcts["rollout"]) == ("paired", 5, "greedy")
    hard = game_defaults(GAME, "hard", MctsBot.PARAMS)
    assert (hard["width"], hard["scale"]) == (12, 2.4)
