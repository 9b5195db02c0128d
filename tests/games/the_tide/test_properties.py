"""Property tests: random games end, all 72 tiles are conserved at every step, clones are
independent, records replay, views hide only the unseen pile tiles, redeterminize keeps the
view. Run for every player count under the default options and under every alternative."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cove
from cove.core.rng import Rng
from cove.games.the_tide import GAME
from cove.games.the_tide.state import TideState

from .helpers import biased_step, conserved

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"move_dirs": 8, "shell_adjacency": 8, "connectivity": 8, "gravity": "one_step",
     "pile_visibility": "all", "check_timing": "every_turn", "collect_under_others": False},
    {"gravity": "one_step", "check_timing": "every_turn", "stall_rounds": 6,
     "shirk_penalty": "per_player"},
]
CASES = [(n, i) for n in range(2, 7) for i in range(len(OPTION_SETS))]
SETTINGS = settings(max_examples=25, deadline=None, derandomize=True)


def snapshot(s: TideState) -> str:
    """Every rules field of the state, its record and the RNG's next draws, as text."""
    fields = {k: repr(getattr(s, k)) for k in TideState.__slots__ if k != "rules"}
    probe = s.clone().rng
    return json.dumps([fields, s.record(), [probe.below(1000) for _ in range(4)],
                       s.view(None)], sort_keys=True, default=repr)


def new(n: int, i: int, seed: int, **extra: Any) -> TideState:
    s = GAME.new(n, seed=seed, **{**OPTION_SETS[i], **extra})
    assert isinstance(s, TideState)
    return s


@pytest.mark.parametrize(("n", "i"), CASES)
@SETTINGS
@given(seed=st.integers(0, 2**32), bias=st.sampled_from([0.0, 0.5, 0.9]))
def test_games_end_and_conserve_all_72_tiles_at_every_step(
    n: int, i: int, seed: int, bias: float
) -> None:
    s = new(n, i, seed, stall_rounds=4)
    rng = Rng(seed)
    assert conserved(s)
    steps = 0
    while not s.is_over:
        biased_step(s, rng, bias)
        steps += 1
        assert conserved(s), (steps, s.record())
        s.check_invariants()
        assert all(0 <= s.onboard[p] + s.waiting[p] <= 3 for p in range(n))
        assert steps < 20_000
    assert s.to_move() == () and s.end_reason and s.winners()


@pytest.mark.parametrize(("n", "i"), CASES)
@SETTINGS
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 150))
def test_clone_replay_views_and_redeterminize(n: int, i: int, seed: int, cut: int) -> None:
    # play a whole game, then rebuild it up to a cut that is always before the end, so the
    # clone below always has moves left to make
    full = new(n, i, seed)
    rng = Rng(seed + 1)
    while not full.is_over:
        biased_step(full, rng, 0.8)
    actions = full.record()["actions"]
    s = new(n, i, seed)
    for p, text in actions[: min(cut, len(actions) - 1)]:
        s.apply(p, text)
    assert not s.is_over
    # clone independence: every field of the original, not only its view, is untouched
    before = snapshot(s)
    c = s.clone()
    crng = Rng(seed + 2)
    while not c.is_over:
        biased_step(c, crng, 0.8)
    assert c.decisions > s.decisions
    assert snapshot(s) == before
    # replay reproduces view, scores and log
    r = cove.replay(json.loads(json.dumps(s.record())))
    assert r.view(None) == s.view(None) and r.scores() == s.scores()
    assert [e.text for e in r.events(None)] == [e.text for e in s.events(None)]
    # every player sees the same public table: nothing is private in The Tide
    public = {k: v for k, v in s.view(None).items() if k != "you"}
    for p in range(n):
        assert {k: v for k, v in s.view(p).items() if k != "you"} == public
        assert all(e.to is None for e in s.events(p))
    # pile contents below the top stay hidden unless pile_visibility = all
    if OPTION_SETS[i].get("pile_visibility") != "all":
        assert all(set(pile) == {"height", "top"} for pile in public["piles"])
    # redeterminize keeps the player's view and the tile multiset
    for p in range(n):
        d = s.redeterminize(p, Rng(seed + p))
        assert isinstance(d, TideState)
        assert d.view(p) == s.view(p)
        assert conserved(d)
        assert sorted(t for q in d.piles for t in q) == sorted(t for q in s.piles for t in q)


@pytest.mark.parametrize("n", range(2, 7))
def test_uniform_random_games_end(n: int) -> None:
    for seed in range(20):
        s = GAME.new(n, seed=seed, stall_rounds=50)
        assert GAME.max_actions is not None
        bound = GAME.max_actions(n, s.options)
        rng = Rng(seed)
        steps = 0
        while not s.is_over:
            p = s.to_move()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
            steps += 1
            assert steps <= bound  # fail, not hang, if a game never ends
        assert s.end_reason and s.to_move() == ()
