"""The engine contract, checked on a tiny hidden-information game."""

from __future__ import annotations

import dataclasses
from array import array
from typing import Any

import pytest

import cove
from cove.core.errors import SeatError
from cove.core.rng import Rng
from cove.example_game import GAME as TOY
from cove.example_game.actions import Bid, Play
from cove.lab import runner
from tests.games.observations import dense_of


def play_out(state: cove.State, seed: int) -> None:
    runner.play_out(state, runner.RandomChooser(Rng(seed)))


def test_illegal_action_leaves_state_unchanged() -> None:
    s = TOY.new(2, seed=3)
    before = s.view(0), s.record()
    with pytest.raises(cove.IllegalAction, match="not a legal move"):
        s.apply(0, Bid(7))
    with pytest.raises(cove.IllegalAction, match="not a legal move"):
        s.apply(0, "bid 9")
    assert (s.view(0), s.record()) == before


def test_wrong_player_is_rejected() -> None:
    s = TOY.new(2, seed=3, bidding=False)
    with pytest.raises(cove.IllegalAction, match="not P2's turn"):
        s.apply(1, s.legal_actions(0)[0])


def test_text_form_is_accepted() -> None:
    s = TOY.new(2, seed=3, bidding=False)
    a = s.legal_actions(0)[0]
    s.apply(0, f"  {str(a).upper()} ")
    assert s.history == [(0, a)]


def test_replay_reproduces_state() -> None:
    s = TOY.new(3, seed=11)
    play_out(s, 5)
    # the toy game is not registered; replay through its Game object directly
    r = TOY.new(3, seed=11)
    for p, text in s.record()["actions"]:
        r.apply(p, text)
    assert r.view(None) == s.view(None) and r.scores() == s.scores()


def test_clone_is_independent() -> None:
    s = TOY.new(2, seed=1)
    c = s.clone()
    play_out(c, 2)
    assert not s.is_over and s.decisions == 0
    assert c.is_over


def test_simultaneous_bids_hidden_until_all_in() -> None:
    s = TOY.new(3, seed=4)
    assert s.to_move() == (0, 1, 2)
    s.apply(1, Bid(1))
    assert s.to_move() == (0, 2)
    assert "my_bid" not in s.view(None)
    assert s.view(0)["my_bid"] is None and s.view(1)["my_bid"] == 1
    assert [e.text for e in s.events(0)] == []
    assert [e.text for e in s.events(1)] == ["P2 bids 1"]


def test_redeterminize_keeps_view_and_changes_hidden() -> None:
    s = TOY.new(3, seed=8, bidding=False)
    seen_other_hands = set()
    for k in range(20):
        d = s.redeterminize(0, Rng(k))
        assert d.view(0) == s.view(0)
        seen_other_hands.add(tuple(d.hands[1]))  # type: ignore[attr-defined]
    assert len(seen_other_hands) > 1


def test_options_validated() -> None:
    with pytest.raises(cove.OptionError, match="unknown option 'plyas'; valid options: bidding"):
        TOY.new(2, plyas=3)
    with pytest.raises(cove.OptionError, match="from 1 to 12"):
        TOY.new(2, plays=40)
    with pytest.raises(cove.OptionError, match="true or false"):
        TOY.new(2, bidding="maybe")
    assert TOY.new(2, plays="3", bidding="off").options.to_dict() == {"plays": 3, "bidding": False}


def test_player_count_validated() -> None:
    with pytest.raises(cove.PlayerCountError, match="2 to 4 players, not 5"):
        TOY.new(5)


def test_winners_and_play() -> None:
    s = TOY.new(2, seed=2, bidding=False)
    play_out(s, 9)
    sc = s.scores()
    assert set(s.winners()) == {p for p in range(2) if sc[p] == max(sc)}
    assert s.legal_actions(0) == () and s.to_move() == ()
    with pytest.raises(cove.IllegalAction, match="game is over"):
        s.apply(0, Play(1))


def test_rng_is_reproducible_and_unbiased_enough() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.below(6) for _ in range(50)] == [b.below(6) for _ in range(50)]
    counts = [0] * 6
    r = Rng(1)
    for _ in range(6000):
        counts[r.below(6)] += 1
    assert all(850 < c < 1150 for c in counts)


def test_unknown_game_lists_ids() -> None:
    with pytest.raises(cove.UnknownGame, match="unknown game 'chess'; games:"):
        cove.load("chess")


def test_illegal_text_carries_the_games_reason() -> None:
    s = TOY.new(2, seed=3)
    with pytest.raises(cove.IllegalAction,
                       match=r"everyone bids before the first card is played\. 'play 3' is not"):
        s.apply(0, "play 3")
    with pytest.raises(cove.IllegalAction) as e:
        s.apply(0, "bid 9")
    assert str(e.value).startswith("'bid 9' is not a legal move")


def test_event_numbers_do_not_reveal_private_events() -> None:
    a, b = TOY.new(2, seed=4), TOY.new(2, seed=4)
    a.apply(1, Bid(1))  # P2's private line is logged before the reveal in game a only...
    a.apply(0, Bid(0))
    b.apply(0, Bid(0))
    b.apply(1, Bid(1))
    # ...so P1's view of the log, numbers included, must be the same in both games
    assert a.events(0) == b.events(0)
    assert [(e.seq, e.text) for e in a.events(0)] == [(0, "P1 bids 0"),
                                                       (1, "bids revealed: 0, 1")]
    assert a.log_count(0) == 2 and a.log_count(None) == 1 and a.log_length == 3
    assert [e.text for e in a.events(0, since=1)] == ["bids revealed: 0, 1"]


@pytest.mark.parametrize("game_id", cove.ids())
def test_observation_size_takes_players_and_options(game_id: str) -> None:
    """``game.observation_size(players, **options)`` is the length of every
    observation of that configuration."""
    game = cove.load(game_id)
    for players in range(game.min_players, game.max_players + 1):
        s = game.new(players, seed=3)
        size = game.observation_size(players)
        assert size > 0
        assert all(len(s.observation(p)) == size for p in range(players))
    with pytest.raises(cove.OptionError, match="nosuch"):
        game.observation_size(game.min_players, nosuch=1)


def _check_sparse(sparse: tuple[Any, Any, Any], size: int) -> None:
    ones, at, values = sparse
    assert len(at) == len(values)
    indices = [*ones, *at]
    assert all(type(i) is int and 0 <= i < size for i in indices)
    assert len(set(indices)) == len(indices), "an index given twice"
    assert all(type(v) is float for v in values)


@pytest.mark.parametrize("game_id", [*cove.ids(), TOY.id])
def test_observation_sparse_is_the_observation(game_id: str) -> None:
    """``observation_sparse(p)`` (ones, at, values) stands for exactly ``observation(p)``
    (no index out of range or given twice), whether the game builds the sparse form (the
    five games) or the core finds it from the dense one (the toy game); and the core's
    sparse form found from a game's dense observation is the same observation again."""
    game = TOY if game_id == TOY.id else cove.load(game_id)
    checked = 0
    for players in range(game.min_players, game.max_players + 1):
        s = game.new(players, seed=players, log=False)
        size = game.observation_size(players)
        rng = Rng(players)
        step = 0
        while True:
            if step % 7 == 0 or s.is_over:
                for p in range(players):
                    dense = s.observation(p)
                    sparse = s.observation_sparse(p)
                    _check_sparse(sparse, size)
                    assert dense_of(sparse, size) == dense
                    derived = cove.State._observation_sparse(s, p)  # the core's default
                    _check_sparse(derived, size)
                    assert dense_of(derived, size) == dense
                    checked += 1
            if s.is_over or step > 400:
                break
            p = s.to_move()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
            step += 1
    assert checked > 20


def test_observation_sparse_checks_the_seat_and_needs_an_encoding(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = TOY.new(2, seed=1)
    with pytest.raises(SeatError, match=r"seats are 0\.\.1"):
        s.observation_sparse(2)
    s.game = dataclasses.replace(TOY, observer=None)  # no blocks and neither hook
    with pytest.raises(NotImplementedError, match="no observation encoding"):
        s.observation(0)
    with pytest.raises(NotImplementedError, match="no observation encoding"):
        s.observation_sparse(0)


def test_a_dense_observation_alone_gives_the_sparse_form(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game without blocks may implement the dense ``_observation`` only; the core finds
    the sparse form from it."""
    s = TOY.new(2, seed=1)
    s.game = dataclasses.replace(TOY, observer=None, observation_encoding=lambda n, o: 4)
    monkeypatch.setattr(type(s), "_observation", lambda self, p: [0.0, 1.0, 0.5, 0.0])
    ones, at, values = s.observation_sparse(1)
    assert list(ones) == [1] and list(at) == [2] and list(values) == [0.5]
    assert s.observation(1) == [0.0, 1.0, 0.5, 0.0]


def test_a_whole_run_in_another_order_is_placed_by_index(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The core takes a run of every value from index 0 as the list itself, and only that:
    the same indices in another order are placed one by one."""
    s = TOY.new(2, seed=1)
    size = TOY.observation_size(2)
    want = [float(i) for i in range(size)]
    at = array("q", range(size))
    monkeypatch.setattr(type(s), "_observation", cove.State._observation)  # the core's
    monkeypatch.setattr(type(s), "_observation_sparse",
                        lambda self, p: ((), at, array("d", want)))
    assert s.observation(0) == want
    monkeypatch.setattr(type(s), "_observation_sparse",
                        lambda self, p: ((), at[::-1], array("d", want)))
    assert s.observation(0) == want[::-1]
