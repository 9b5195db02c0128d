"""Property tests over collect-biased games: every seat sees the same public table and no
unseen pile tile, and resampling keeps the piles' tiles. Run for every player count under the
default options and under groups of alternatives. (Conservation of the 72 tiles and the
other invariants after every action, clones, replay, redeterminize, the max_actions bound
and portable state: the shared harness, tests/games/test_harness.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cove.core import Rng
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


def new(n: int, i: int, seed: int, **extra: Any) -> TideState:
    s = GAME.new(n, seed=seed, **{**OPTION_SETS[i], **extra})
    assert isinstance(s, TideState)
    return s


@pytest.mark.parametrize(("n", "i"), CASES)
@SETTINGS
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 150))
def test_every_seat_sees_the_public_table_and_no_unseen_pile_tile(
    n: int, i: int, seed: int, cut: int
) -> None:
    # (clone independence, replay and redeterminize are checked by the shared harness,
    # tests/games/test_harness.py; this checks what only The Tide promises: R1.5, R8.3)
    s = new(n, i, seed)
    rng = Rng(seed + 1)
    while not s.is_over and s.decisions < cut:
        biased_step(s, rng, 0.8)
    skip = ("you", "decision")
    public = {k: v for k, v in s.view(None).items() if k not in skip}
    for p in range(n):
        assert {k: v for k, v in s.view(p).items() if k not in skip} == public
        assert all(e.to is None for e in s.events(p))
    # pile contents below the top stay hidden unless pile_visibility = all
    if OPTION_SETS[i].get("pile_visibility") != "all":
        assert all(set(pile) == {"height", "top"} for pile in public["piles"])
    # redeterminize keeps the tile multiset of the piles
    for p in range(n):
        d = s.redeterminize(p, Rng(seed + p))
        assert isinstance(d, TideState)
        assert conserved(d)
        assert sorted(t for q in d.piles for t in q) == sorted(t for q in s.piles for t in q)
