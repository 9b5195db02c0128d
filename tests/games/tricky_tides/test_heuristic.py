"""The heuristic (``heuristic.py``): a cheap estimate of a seat's final score, exact at the
end, reading no secret but the seat's own sightings card; and the bots' defaults this game
declares."""

from __future__ import annotations

import math

from cove.bots.defaults import declared, game_defaults
from cove.bots.mcts import MctsBot
from cove.core import Rng
from cove.games.tricky_tides import GAME
from cove.games.tricky_tides.state import TidesState
from tests.games.tricky_tides.helpers import new


def test_heuristic_is_cheap_estimate_and_exact_at_the_end() -> None:
    assert GAME.heuristic is not None
    s = GAME.new(4, 9, log=False)
    rng = Rng(9)
    while not s.is_over:
        for p in range(4):
            h = GAME.heuristic(s, p)
            assert math.isfinite(h) and h >= 0
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    assert [GAME.heuristic(s, p) for p in range(4)] == s.scores()


def test_heuristic_reads_only_the_seats_own_secret() -> None:
    """heuristic(s, q) uses public state and q's own sightings card, nothing else hidden."""
    assert GAME.heuristic is not None
    s = new(4, 2)
    play_random_until(s, 150)
    for q in range(4):
        h = GAME.heuristic(s, q)
        other = s.clone()
        sight = list(other.sightings)
        others = [p for p in range(4) if p != q]
        sight[others[0]], sight[others[1]] = sight[others[1]], sight[others[0]]
        other.sightings = tuple(sight)
        other.hands = [other.hands[q] if p == q else 0 for p in range(4)]
        other.order_deck = other.order_deck[::-1]
        assert GAME.heuristic(other, q) == h


def play_random_until(s: TidesState, k: int) -> None:
    rng = Rng(k)
    for _ in range(k):
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))


def test_r15_6_heuristic_with_modules_uses_own_view_only() -> None:
    assert GAME.heuristic is not None
    s = GAME.new(4, 9, events=True, monsters=True)
    rng = Rng(9)
    k = 0
    while not s.is_over:
        if k % 23 == 0:
            for q in range(4):
                h = GAME.heuristic(s, q)
                d = s.redeterminize(q, Rng(k))   # what q cannot see, resampled
                assert GAME.heuristic(d, q) == h
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
        k += 1
    assert [GAME.heuristic(s, p) for p in range(4)] == s.scores()


def test_the_hard_level_searches_with_heuristic_rollouts() -> None:
    """This game's ``hard`` bot changes one thing: its rollouts follow the heuristic."""
    assert dict(declared(GAME)) == {"hard": "rollout=heuristic"}
    assert game_defaults(GAME, "hard", MctsBot.PARAMS) == {"rollout": "heuristic"}
    assert game_defaults(GAME, "mcts", MctsBot.PARAMS) == {}

