"""Every bot in every game: legal moves only, reproducible, blind to hidden information."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cove.core.game import Game
from cove.core.rng import Rng
from tests.bots.helpers import (
    SMALL_SPECS,
    ViewGuard,
    case_id,
    cases,
    choose,
    random_position,
    same_worlds,
)

CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=case_id)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 300))
def test_every_bot_returns_a_legal_action(case: tuple[Game, int], seed: int, steps: int) -> None:
    game, players = case
    s = random_position(game, players, seed, steps)
    if s is None:
        return
    before = [s.view(p) for p in range(players)]
    for spec in SMALL_SPECS:
        for p in s.to_move():
            a = choose(spec, seed, s, p)
            assert a in s.legal_actions(p), f"{spec} chose {a} for P{p + 1}"
    # choosing never changes the position
    assert [s.view(p) for p in range(players)] == before


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_seeded_bots_are_deterministic(case: tuple[Game, int]) -> None:
    game, players = case
    for k, steps in enumerate((0, 7, 25)):
        s = random_position(game, players, 100 + k, steps)
        if s is None:
            continue
        p = s.to_move()[0]
        for spec in SMALL_SPECS:
            picks = {str(choose(spec, k, s, p)) for _ in range(2)}
            assert len(picks) == 1, f"{spec} is not reproducible: {picks}"


@pytest.mark.pure_build  # the guard is no State: the compiled bots take only a State
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_bots_only_use_what_their_view_gives(case: tuple[Game, int]) -> None:
    """Through a guard that exposes only the player's view, a bot makes the same choice:
    so it reads no hidden part of the state, and searches only worlds resampled from its
    own view."""
    game, players = case
    for k, steps in enumerate((0, 11, 40)):
        s = random_position(game, players, 200 + k, steps)
        if s is None:
            continue
        for p in s.to_move():
            for spec in SMALL_SPECS:
                guard = ViewGuard(s, p)
                assert str(choose(spec, k, guard, p)) == str(choose(spec, k, s, p))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_mcts_choice_survives_reshuffled_hidden_parts(case: tuple[Game, int]) -> None:
    """The same seed in a state whose hidden parts were resampled (the bot's view kept)
    gives the same move. Exact only when the game resamples from the view alone; a game
    whose _resample depends on the hidden order is reported by the skip."""
    game, players = case
    if not game.hidden_information:
        pytest.skip(f"{game.id} has no hidden information")
    checked = 0
    for k, steps in enumerate((0, 9, 30, 60)):
        s = random_position(game, players, 300 + k, steps)
        if s is None:
            continue
        p = s.to_move()[0]
        other = s.redeterminize(p, Rng(77 + k))
        assert other.view(p) == s.view(p)
        assert same_worlds(s, other, p), (
            f"{game.id}: _resample depends on the order of the hidden parts, so equal views "
            "do not give equal sampled worlds (sort the pool before shuffling)")
        for spec in ("mcts:iterations=40,depth=8", "greedy"):
            assert str(choose(spec, k, s, p)) == str(choose(spec, k, other, p))
        checked += 1
    assert checked
