"""The contract, checked on every registered game at every player count.

Each game has its own rule tests; these check what every game owes the engine, so a new
game registered in cove.games is held to them without writing anything here.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import cove
from cove.core.rng import Rng
from cove.core.state import State

CASES = [
    (gid, n)
    for gid in cove.ids()
    for n in range(cove.load(gid).min_players, cove.load(gid).max_players + 1)
]


def random_moves(state: State, rng: Rng, limit: int) -> None:
    while not state.is_over and limit > 0:
        for p in state.to_move():
            if p in state.to_move():
                state.apply(p, rng.choice(state.legal_actions(p)))
                limit -= 1


def mid_game(gid: str, n: int, seed: int) -> State:
    s = cove.load(gid).new(n, seed)
    random_moves(s, Rng(seed), 40 + seed % 37)
    return s


@pytest.mark.parametrize(("gid", "n"), CASES)
def test_random_game_ends_and_replays(gid: str, n: int) -> None:
    s = cove.load(gid).new(n, seed=n)
    random_moves(s, Rng(7), 200_000)
    assert s.is_over and s.to_move() == ()
    assert len(s.scores()) == n
    assert s.winners() or n == 1  # a solo player can lose to the game itself
    again = cove.replay(json.loads(json.dumps(s.record())))
    assert again.view(None) == s.view(None)
    assert again.scores() == s.scores()
    assert [e.text for e in again.events(None)] == [e.text for e in s.events(None)]


@pytest.mark.parametrize(("gid", "n"), CASES)
def test_views_are_json_and_clone_is_independent(gid: str, n: int) -> None:
    s = mid_game(gid, n, 3)
    before = [json.dumps(s.view(p), sort_keys=True) for p in [None, *range(n)]]
    c = s.clone()
    random_moves(c, Rng(1), 60)
    after = [json.dumps(s.view(p), sort_keys=True) for p in [None, *range(n)]]
    assert before == after


@pytest.mark.parametrize(("gid", "n"), CASES)
def test_redeterminize_keeps_the_players_view(gid: str, n: int) -> None:
    for seed in range(3):
        s = mid_game(gid, n, seed)
        for p in range(n):
            want = s.view(p)
            d = s.redeterminize(p, Rng(seed * 10 + p))
            assert d.view(p) == want
            assert s.view(p) == want
            assert d.to_move() == s.to_move()
            random_moves(d, Rng(5), 100_000)  # a sampled world must still play to the end
            assert d.is_over


@pytest.mark.parametrize(("gid", "n"), CASES)
def test_illegal_text_is_rejected_and_state_unchanged(gid: str, n: int) -> None:
    s = cove.load(gid).new(n, seed=5)
    random_moves(s, Rng(5), 5)
    assert not s.is_over
    p = s.to_move()[0]
    before: Any = (json.dumps(s.view(None), sort_keys=True), s.record())
    with pytest.raises(cove.IllegalAction, match="not a legal move"):
        s.apply(p, "definitely not a move")
    assert (json.dumps(s.view(None), sort_keys=True), s.record()) == before


@pytest.mark.parametrize("gid", cove.ids())
def test_declaration_and_render(gid: str) -> None:
    game = cove.load(gid)
    info = game.describe()
    assert info["id"] == gid and 1 <= info["min_players"] <= info["max_players"]
    s = mid_game(gid, game.min_players if game.min_players > 1 else 2, 2)
    assert game.render is not None, f"{gid} has no terminal renderer"
    for p in range(s.n):
        text = game.render(s.view(p), False)
        assert isinstance(text, str) and text.strip()
        assert "\x1b[" not in text  # color=False means plain text


@pytest.mark.parametrize(("gid", "n"), CASES)
def test_same_seed_same_game(gid: str, n: int) -> None:
    a, b = cove.load(gid).new(n, seed=11), cove.load(gid).new(n, seed=11)
    random_moves(a, Rng(2), 300)
    random_moves(b, Rng(2), 300)
    assert a.record() == b.record() and a.view(None) == b.view(None)
