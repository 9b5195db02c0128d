"""The MCTS and greedy bots on the toy game: hidden information, simultaneous moves, sense."""

from __future__ import annotations

import dataclasses
import time

import pytest

from cove.bots import make_bot, mcts
from cove.bots.mcts import MctsBot, outcome
from cove.core.rng import Rng
from cove.example_game import GAME as TOY
from cove.example_game.actions import Play
from cove.example_game.state import ToyState


class CanonicalToyState(ToyState):
    """The toy game with a resample that depends only on the player's view (it sorts the
    unseen cards before shuffling), so equal views give identical sampled worlds."""

    __slots__ = ()

    def _resample(self, player: int, rng: Rng) -> None:
        self.deck.sort()
        for p in range(self.n):
            if p != player:
                self.hands[p].sort()
        unseen = sorted(self.deck + [c for p in range(self.n) if p != player
                                     for c in self.hands[p]])
        rng.shuffle(unseen)
        for p in range(self.n):
            if p != player:
                k = len(self.hands[p])
                self.hands[p] = [unseen.pop() for _ in range(k)]
        self.deck = unseen
        if self.bids is not None:
            for p in range(self.n):
                if p != player and self.bids[p] is not None:
                    self.bids[p] = rng.below(2)


CANON = dataclasses.replace(TOY, id="toy-canonical", state_cls=CanonicalToyState)


@pytest.mark.parametrize("spec", ["mcts:iterations=200", "mcts:iterations=100,depth=-1",
                                  "mcts:iterations=60,rollout=heuristic", "greedy",
                                  "mcts:iterations=100,key=infoset", "mcts:iterations=100,key=own",
                                  "mcts:search=paired,rollout=greedy,depth=3,others=random",
                                  "mcts:search=paired,iterations=20,depth=-1"])
def test_same_choice_when_hidden_cards_are_reshuffled(spec: str) -> None:
    for seed in range(6):
        s = CANON.new(3, seed=seed, bidding=False)
        s.apply(0, s.legal_actions(0)[1])
        p = s.to_move()[0]
        # the other players' hands and the deck differ; P2's view is the same
        other = s.redeterminize(p, Rng(seed + 50))
        assert other.view(p) == s.view(p)
        assert other.hands != s.hands or other.deck != s.deck  # type: ignore[attr-defined]
        a = make_bot(spec, seed).choose(s, p)
        b = make_bot(spec, seed).choose(other, p)
        assert a == b


def test_same_choice_with_a_hidden_simultaneous_bid_already_in() -> None:
    s = CANON.new(3, seed=5)
    s.apply(0, "bid 1")  # P1's bid is hidden from P2
    for k in range(5):
        other = s.redeterminize(1, Rng(k))
        assert other.view(1) == s.view(1)
        a = make_bot("mcts:iterations=150", 9).choose(s, 1)
        assert make_bot("mcts:iterations=150", 9).choose(other, 1) == a


def test_mcts_and_greedy_play_the_highest_card() -> None:
    # Toy without bids: scoring the highest card now is optimal (all cards get played
    # in value order by a good player), and the gap here is large.
    s = TOY.new(2, seed=0, bidding=False)
    s.hands = [[2, 11], [5, 6]]  # type: ignore[attr-defined]
    s._legal = None
    assert make_bot("greedy", 1).choose(s, 0) == Play(11)
    assert make_bot("mcts:iterations=300", 1).choose(s, 0) == Play(11)


def test_simultaneous_root_is_decoupled() -> None:
    s = TOY.new(4, seed=2)
    assert len(s.to_move()) == 4
    bot = make_bot("mcts:iterations=120", 3)
    assert isinstance(bot, MctsBot)
    for p in s.to_move():
        assert bot.choose(s, p) in s.legal_actions(p)
    assert 0 < bot.last_iterations <= 120


def test_budget_in_forward_model_calls() -> None:
    s = TOY.new(2, seed=4, bidding=False)
    bot = make_bot("mcts:iterations=100000,steps=500,depth=-1", 0)
    assert isinstance(bot, MctsBot)
    bot.choose(s, 0)
    assert 500 <= bot.last_steps < 520 and bot.last_iterations < 100


def test_time_cap_stops_the_search() -> None:
    s = TOY.new(2, seed=4, bidding=False)
    bot = make_bot("mcts:iterations=10000000,steps=0,time=0.05", 0)
    t = time.perf_counter()
    bot.choose(s, 0)
    assert time.perf_counter() - t < 1.0


def test_forced_move_needs_no_search() -> None:
    s = TOY.new(2, seed=4, bidding=False, plays=1)
    s.hands[0] = [7]  # type: ignore[attr-defined]
    s._legal = None
    bot = make_bot("mcts", 0)
    assert isinstance(bot, MctsBot)
    assert bot.choose(s, 0) == Play(7) and bot.last_iterations == 0


def test_outcome_splits_ties_and_measures_margins() -> None:
    wins, margins = outcome([10.0, 10.0, 3.0], [0, 1])
    assert wins == [0.5, 0.5, 0.0] and margins == [0.0, 0.0, -7.0]
    wins, margins = outcome([12.0, 10.0, 3.0], [0])
    assert wins == [1.0, 0.0, 0.0] and margins == [2.0, -2.0, -9.0]
    assert outcome([3.0], [0]) == ([1.0], [3.0])


def test_width_keeps_only_the_moves_a_lookahead_rates_best() -> None:
    s = TOY.new(2, seed=0, bidding=False)
    s.hands = [[2, 11, 3], [5, 6]]  # type: ignore[attr-defined]
    s._legal = None
    bot = make_bot("mcts:iterations=50,width=1", 4)
    assert bot.choose(s, 0) == Play(11)


def test_versus_none_backs_up_own_estimates_instead_of_leads() -> None:
    # Scores in the toy are never negative, so own estimates are >= 0, while a lead over
    # the best other player is negative for whoever is behind.
    s = TOY.new(3, seed=1, bidding=False)
    lead = make_bot("mcts:iterations=80,depth=0", 2)
    own = make_bot("mcts:iterations=80,depth=0,versus=none,margin=1", 2)
    assert isinstance(lead, MctsBot) and isinstance(own, MctsBot)
    lead.choose(s, 0)
    own.choose(s, 0)
    assert lead._lo < 0 <= own._lo


def test_anchor_credits_every_root_move_with_the_lookahead_value() -> None:
    s = TOY.new(2, seed=0, bidding=False)
    s.hands = [[2, 11, 3], [5, 6]]  # type: ignore[attr-defined]
    s._legal = None
    bot = make_bot("mcts:iterations=1,anchor=3", 4)
    assert isinstance(bot, MctsBot)
    # one iteration adds one visit: the move the lookahead rates best gets it
    assert bot.choose(s, 0) == Play(11)
    assert bot.last_tree is not None
    stats = bot.last_tree.stats[0]
    assert sorted(st[0] for st in stats.values()) == [3, 3, 4]
    assert all(st[2] >= 3 for st in stats.values())
    # the anchored margins follow the lookahead: 3 visits at each card's lead
    assert stats[Play(3)][3] - stats[Play(2)][3] == 3.0
    assert stats[Play(11)][3] > stats[Play(3)][3]


@pytest.mark.pure_build  # patches the module's WIDE_ROOT, which compiled code reads as a value
def test_default_anchors_only_a_wide_root(monkeypatch: pytest.MonkeyPatch) -> None:
    s = TOY.new(2, seed=0, bidding=False)
    s.hands = [[2, 11, 3], [5, 6]]  # type: ignore[attr-defined]
    s._legal = None
    # 3 moves is narrow: one iteration visits one move only
    narrow = make_bot("mcts:iterations=1", 4)
    assert isinstance(narrow, MctsBot) and narrow.anchor == -1
    narrow.choose(s, 0)
    assert narrow.last_tree is not None
    assert sum(st[0] for st in narrow.last_tree.stats[0].values()) == 1
    # with the threshold below 3 moves the same root is wide: every move starts at 4 visits
    monkeypatch.setattr(mcts, "WIDE_ROOT", 2)
    wide = make_bot("mcts:iterations=1", 4)
    wide.choose(s, 0)
    assert isinstance(wide, MctsBot) and wide.last_tree is not None
    assert sorted(st[0] for st in wide.last_tree.stats[0].values()) == [4, 4, 5]


def _tree_keys(node: mcts._Node) -> list[object]:
    """Every child key of a search tree, depth first (the tree's shape as the keys say)."""
    out: list[object] = []
    for k, child in node.children.items():
        out.append(k)
        out += _tree_keys(child)
    return out


@pytest.mark.parametrize("players, same_as, not_as", [(2, "actions", "own"),
                                                      (3, "own", "actions"),
                                                      (4, "own", "actions")])
def test_default_key_is_own_moves_from_three_players(players: int, same_as: str,
                                                     not_as: str) -> None:
    s = TOY.new(players, seed=3, bidding=False)
    me = s.to_move()[0]
    trees = {}
    for key in ("auto", same_as, not_as):
        bot = make_bot(f"mcts:iterations=300,key={key}", 11)
        assert isinstance(bot, MctsBot)
        bot.choose(s, me)
        assert bot.last_tree is not None
        trees[key] = _tree_keys(bot.last_tree)
    assert make_bot("mcts", 1).key == "auto"  # type: ignore[attr-defined]
    assert trees["auto"] == trees[same_as]
    assert trees["auto"] != trees[not_as]
