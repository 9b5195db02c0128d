"""Evaluators behind the one search, the shared one-step lookahead, and tree keys."""

from __future__ import annotations

import pytest

from cove.bots import make_bot
from cove.bots.evaluate import (
    Evaluation,
    Evaluator,
    HeuristicEvaluator,
    RolloutEvaluator,
    lookahead,
    values_fn,
)
from cove.bots.mcts import MctsBot
from cove.core.rng import Rng
from cove.core.state import State
from cove.example_game import GAME as TOY
from cove.example_game.actions import Play
from cove.lab.runner import play_out


def _toy(hands: list[list[int]]) -> State:
    s = TOY.new(2, seed=0, bidding=False)
    s.hands = hands  # type: ignore[attr-defined]
    s._legal = None
    return s


def test_heuristic_evaluator_gives_final_scores_and_winners_at_the_end() -> None:
    s = TOY.new(2, seed=3, bidding=False)
    rng = Rng(1)
    play_out(s, lambda st, p: st.legal_actions(p)[0])
    e = HeuristicEvaluator().evaluate(s, rng)
    assert e.values == [float(v) for v in s.scores()]
    assert tuple(e.winners) == s.winners() and e.steps == 0


def test_heuristic_evaluator_names_the_top_estimates_as_winners_while_running() -> None:
    s = TOY.new(3, seed=2, bidding=False)
    e = HeuristicEvaluator().evaluate(s, Rng(0))
    assert e.values == values_fn(s)(s)
    assert list(e.winners) == [q for q in range(3) if e.values[q] == max(e.values)]


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_rollout_evaluator_plays_at_most_depth_moves_and_counts_them(depth: int) -> None:
    s = TOY.new(2, seed=4, bidding=False)
    before = s.clone()
    e = RolloutEvaluator(depth, "random").evaluate(s, Rng(5))
    assert e.steps == depth
    assert len(s.history_for(0)) == len(before.history_for(0)) + depth


def test_rollout_evaluator_to_the_end_returns_the_real_outcome() -> None:
    s = TOY.new(2, seed=4, bidding=False)
    e = RolloutEvaluator(-1, "heuristic").evaluate(s, Rng(5))
    assert s.is_over and e.values == [float(v) for v in s.scores()]
    assert tuple(e.winners) == s.winners() and e.steps > 0


def test_rollout_evaluator_rejects_an_unknown_policy() -> None:
    with pytest.raises(ValueError, match="use one of random, heuristic, greedy"):
        RolloutEvaluator(2, "clever")


class _Prefers(Evaluator):
    """Says player 0 wins exactly when ``card`` was played (a stand-in for a learned value)."""

    def __init__(self, card: int) -> None:
        self.card = card
        self.calls = 0

    def evaluate(self, state: State, rng: Rng) -> Evaluation:
        self.calls += 1
        hit = self.card not in state.hands[0]  # type: ignore[attr-defined]
        vals = [1.0, 0.0] if hit else [0.0, 1.0]
        return Evaluation(vals, [0] if hit else [1], 0)


def test_the_search_asks_a_plugged_in_evaluator_and_follows_it() -> None:
    s = _toy([[2, 11, 5], [3, 4, 6]])
    ev = _Prefers(2)  # the weakest card, which the heuristic would never choose
    bot = MctsBot(1, iterations=60, evaluator=ev)
    assert bot.choose(s, 0) == Play(2)
    assert ev.calls == bot.last_iterations > 0
    assert make_bot("mcts:iterations=60", 1).choose(s, 0) == Play(11)


def test_greedy_plays_the_move_the_shared_lookahead_rates_best() -> None:
    s = _toy([[2, 11, 5], [3, 4, 6]])
    legal = s.legal_actions(0)
    rated = lookahead(s, 0, legal, values_fn(s), Rng(0))
    best = legal[max(range(len(legal)), key=lambda i: rated[i])]
    assert best == Play(11)
    assert make_bot("greedy", 3).choose(s, 0) == best
    assert make_bot("mcts:iterations=20,width=1", 3).choose(s, 0) == best


def test_lookahead_averages_over_the_sampled_worlds() -> None:
    s = TOY.new(2, seed=6, bidding=False)
    legal = s.legal_actions(0)
    one = lookahead(s, 0, legal, values_fn(s), Rng(2), samples=1)
    four = lookahead(s, 0, legal, values_fn(s), Rng(2), samples=4)
    assert len(one) == len(four) == len(legal)
    # the toy's heuristic depends on the mover's own hand and scores only: no hidden part
    assert one == four


def test_own_key_does_not_split_the_tree_on_other_players_moves() -> None:
    s = TOY.new(2, seed=1, bidding=False)
    bot = MctsBot(2, iterations=200, key="own")
    bot.choose(s, 0)
    root = bot.last_tree
    assert root is not None
    mine = set(s.legal_actions(0))
    assert root.children and set(root.children) <= mine
    # after the searcher's move the opponent moves: one child, whatever it played
    for child in root.children.values():
        assert set(child.children) <= {None}


def test_actions_key_splits_on_the_opponents_moves() -> None:
    s = TOY.new(2, seed=1, bidding=False)
    bot = MctsBot(2, iterations=200, key="actions")
    bot.choose(s, 0)
    assert bot.last_tree is not None
    assert any(len(c.children) > 1 for c in bot.last_tree.children.values())


def test_infoset_key_makes_nodes_of_the_searchers_information_sets() -> None:
    s = TOY.new(3, seed=5)  # simultaneous hidden bids, then cards drawn
    assert len(s.to_move()) == 3
    bot = MctsBot(4, iterations=150, key="infoset")
    assert bot.choose(s, 1) in s.legal_actions(1)
    assert bot.last_tree is not None and bot.last_tree.children
    # every child is the searcher's information set after a joint bid in some sampled world
    rng = Rng(8)
    seen = set()
    for _ in range(400):
        w = s.redeterminize(1, rng)
        for p in w.to_move():
            w.apply(p, w.legal_actions(p)[rng.below(len(w.legal_actions(p)))])
        seen.add(w.infoset_key(1))
    assert set(bot.last_tree.children) <= seen


def test_bad_key_is_a_clear_spec_error() -> None:
    with pytest.raises(ValueError, match="actions, infoset, own"):
        make_bot("mcts:key=world")
